"""Crypto++ as a software source: ``cryptopp_bench.cpp``, built once into the cache, timed per cipher."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..cache import cache_root
from .common import BENCH_KEY_BITS, Figure, SourceUnavailable, mbps_of, not_available

SOURCE = Path(__file__).with_name("cryptopp_bench.cpp")
# The ciphers cryptopp_bench.cpp knows (Crypto++ has no MISTY1).
CIPHERS: dict[str, str] = {
    "aes": "AES", "camellia": "Camellia", "cast128": "CAST-128", "des": "DES", "mars": "MARS",
    "rc6": "RC6", "seed": "SEED", "serpent": "Serpent", "tdea": "DES-EDE3", "twofish": "Twofish",
}
_HEADER_DIRS = (Path("/usr/include/crypto++"), Path("/usr/include/cryptopp"))
_BUILD_TIMEOUT = 300


def _compiler() -> str:
    compiler = os.environ.get("CXX") or "g++"
    found = shutil.which(compiler)
    if not found:
        raise SourceUnavailable(f"{compiler} is not installed (Debian: apt-get install g++)")
    return found


def _check_headers() -> None:
    if not any((folder / "cryptlib.h").is_file() for folder in _HEADER_DIRS):
        raise SourceUnavailable("Crypto++ headers are missing (Debian: apt-get install libcrypto++-dev)")


def binary_path() -> Path:
    """Named by a digest of the source, so an edit rebuilds it."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    return cache_root() / "software" / f"cryptopp_bench-{digest}"


def _compile_command(compiler: str, output: Path) -> list[str]:
    # nice: the machine is shared, and a build must not slow a colleague's measurement.
    prefix = ["nice", "-n", "10"] if shutil.which("nice") else []
    return [*prefix, compiler, "-O2", "-std=c++17", str(SOURCE), "-o", str(output), "-lcryptopp"]


def build() -> Path:
    """The benchmark binary, compiled now unless a build of the same source is cached."""
    target = binary_path()
    if target.is_file() and os.access(target, os.X_OK):
        return target
    compiler = _compiler()
    _check_headers()
    target.parent.mkdir(parents=True, exist_ok=True)
    # Compile to a temporary name, then rename: a concurrent run never sees a half-written binary.
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        output = Path(scratch) / target.name
        result = subprocess.run(_compile_command(compiler, output), capture_output=True, text=True,
                                timeout=_BUILD_TIMEOUT, check=False)
        if result.returncode != 0:
            if "cannot find -lcryptopp" in result.stderr:
                raise SourceUnavailable("the Crypto++ library is missing "
                                        "(Debian: apt-get install libcrypto++-dev)")
            last = result.stderr.strip().splitlines()[-1:] or ["?"]
            raise SourceUnavailable(f"building the Crypto++ benchmark failed: {last[0][:160]}")
        os.replace(output, target)
    return target


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
    """ECB encryption of a 16384-byte buffer, repeated for ``seconds`` of wall-clock time."""
    if cipher not in CIPHERS:
        return not_available(cipher, "cryptopp", "not in Crypto++")
    key_bits = BENCH_KEY_BITS[cipher]
    out = subprocess.run([str(binary), cipher, str(key_bits // 8), repr(seconds)],
                         capture_output=True, text=True, timeout=seconds * 4 + 60)
    try:
        done, elapsed = parse_output(out.stdout)
    except ValueError:
        return not_available(cipher, "cryptopp", f"cryptopp_bench failed: {out.stderr.strip()[:120]}")
    return Figure(cipher, "cryptopp", f"{CIPHERS[cipher]}/ECB", key_bits, mbps_of(done, elapsed),
                  bytes_done=done, seconds=elapsed)


def measure_all(ciphers: list[str], seconds: float) -> tuple[list[Figure], str]:
    """Every requested cipher, and the Crypto++ library version."""
    binary = build()
    return [measure(c, seconds, binary) for c in ciphers], version(binary)
