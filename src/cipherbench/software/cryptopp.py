"""Crypto++ as a software source: ``cryptopp_bench.cpp``, built once into the cache, timed per cipher."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..ciphers.registry import ciphers as registry
from . import cppbuild
from .common import Figure, SourceUnavailable, bench_key_bits, mbps_of, not_available

# A template: the Crypto++ classes the ciphers declare (CipherInfo.cryptopp) are filled in.
SOURCE = Path(__file__).with_name("cryptopp_bench.cpp")


def binary_path() -> Path:
    """Named by a digest of the generated source, so an edit or a new class rebuilds it."""
    return cppbuild.binary_path(cppbuild.generated_source(SOURCE, "software", "cryptopp_bench"),
                                "software", "cryptopp_bench")


def build() -> Path:
    """The benchmark binary, compiled now unless a build of the same source is cached. For the
    baseline a failed build is one more missing source: noted, and the others still run."""
    try:
        return cppbuild.build_generated(SOURCE, "software", "cryptopp_bench")
    except cppbuild.BuildFailed as exc:
        last = str(exc).strip().splitlines()[-1:] or ["?"]
        raise SourceUnavailable(f"building the Crypto++ benchmark failed: {last[0][:160]}") from exc


def version(binary: Path) -> str:
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    return out.stdout.strip()


def parse_output(text: str) -> tuple[int, float]:
    """(bytes, seconds) from the benchmark's one line ``BYTES SECONDS CHECKSUM``."""
    fields = text.split()
    if len(fields) != 3:
        raise ValueError(f"unexpected cryptopp_bench output {text.strip()[:80]!r}")
    return int(fields[0]), float(fields[1])


def measure(cipher: str, seconds: float, binary: Path) -> Figure:
    """ECB encryption of a 16384-byte buffer, repeated for ``seconds`` of wall-clock time, by the
    cipher's first Crypto++ class."""
    info = registry().get(cipher)
    if info is None or not info.cryptopp:
        return not_available(cipher, "cryptopp", "not in Crypto++")
    chosen = info.cryptopp[0]
    key_bits = bench_key_bits(cipher)
    out = subprocess.run([str(binary), chosen.name, str(key_bits // 8), repr(seconds)],
                         capture_output=True, text=True, timeout=seconds * 4 + 60)
    try:
        done, elapsed = parse_output(out.stdout)
    except ValueError:
        return not_available(cipher, "cryptopp", f"cryptopp_bench failed: {out.stderr.strip()[:120]}")
    return Figure(cipher, "cryptopp", f"{chosen.title}/ECB", key_bits, mbps_of(done, elapsed),
                  bytes_done=done, seconds=elapsed)


def measure_all(ciphers: list[str], seconds: float) -> tuple[list[Figure], str]:
    """Every requested cipher, and the Crypto++ library version."""
    binary = build()
    return [measure(c, seconds, binary) for c in ciphers], version(binary)
