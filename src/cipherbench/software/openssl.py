"""OpenSSL as a software source: `openssl speed -evp` on one 16384-byte buffer size, one core."""

from __future__ import annotations

import re
import shutil
import subprocess

from ..ciphers.registry import ciphers as registry
from .common import Figure, SourceUnavailable, bench_key_bits, not_available

BLOCK_SIZE = 16384
_LEGACY = ["-provider", "legacy", "-provider", "default"]
_ENTRY = re.compile(r"^\s*(?:\{\s*)?(.*?)(?:\s*\})?\s*@\s*(\S+)\s*$")
_RESULT = re.compile(r"^(\S[^\n]*?)\s+([\d.]+)k\s*$", re.MULTILINE)


def openssl_binary() -> str:
    found = shutil.which("openssl")
    if not found:
        raise SourceUnavailable("openssl is not installed (Debian: apt-get install openssl)")
    return found


def version(binary: str) -> str:
    out = subprocess.run([binary, "version"], capture_output=True, text=True, timeout=30)
    return out.stdout.strip() or out.stderr.strip()


def parse_provided(listing: str) -> dict[str, str]:
    """Upper-case cipher name -> provider, from the "Provided:" part of `openssl list`.

    Lines look like ``{ 1.2.410.200004.1.3, SEED-ECB } @ legacy`` or ``CAST5-ECB @ legacy``;
    every comma-separated alias (OIDs included, harmlessly) maps to the provider.
    """
    _, found, provided = listing.partition("Provided:")
    names: dict[str, str] = {}
    for line in provided.splitlines() if found else []:
        match = _ENTRY.match(line)
        if match:
            for alias in match.group(1).split(","):
                names.setdefault(alias.strip().upper(), match.group(2))
    return names


def supported(binary: str) -> tuple[dict[str, str], bool]:
    """What this openssl can run, and whether the legacy provider loaded.

    Asked with the legacy provider first; an OpenSSL without it (or a 1.1 without providers,
    whose listing has no "Provided:" part) falls back to the plain listing.
    """
    for extra, legacy in ((_LEGACY, True), ([], False)):
        out = subprocess.run([binary, "list", *extra, "-cipher-algorithms"], capture_output=True,
                             text=True, timeout=60)
        if out.returncode == 0:
            return parse_provided(out.stdout), legacy
    raise SourceUnavailable(f"`openssl list -cipher-algorithms` failed: {out.stderr.strip()[:200]}")


def parse_speed(output: str, evp_name: str) -> float:
    """Mbps from `openssl speed` output: its table is in 1000s of bytes per second."""
    for name, kbytes in _RESULT.findall(output):
        if name.strip().upper() == evp_name.upper():
            return float(kbytes) * 1000 * 8 / 1e6
    raise ValueError(f"no {evp_name} row in the openssl speed output")


def speed_command(binary: str, evp_name: str, seconds: int, legacy: bool) -> list[str]:
    return [binary, "speed", *(_LEGACY if legacy else []), "-elapsed", "-seconds", str(seconds),
            "-bytes", str(BLOCK_SIZE), "-evp", evp_name]


def measure(cipher: str, seconds: float, binary: str, provided: dict[str, str],
            legacy_loaded: bool) -> Figure:
    """One cipher through `openssl speed` (whole seconds only: -seconds takes an integer)."""
    # The EVP name the cipher's folder declares (CipherInfo.openssl), ECB so that no chaining
    # cost is counted (hardware cores are compared in non-feedback modes too).
    info = registry().get(cipher)
    evp = info.openssl if info is not None else None
    if evp is None:
        return not_available(cipher, "openssl", "not in OpenSSL")
    provider = provided.get(evp.upper())
    if provider is None:
        return not_available(cipher, "openssl", f"{evp} not offered by this openssl")
    legacy = provider == "legacy"
    if legacy and not legacy_loaded:
        return not_available(cipher, "openssl", f"{evp} needs the legacy provider")
    whole = max(1, round(seconds))
    out = subprocess.run(speed_command(binary, evp, whole, legacy), capture_output=True,
                         text=True, timeout=whole * 4 + 60)
    try:
        mbps = parse_speed(out.stdout, evp)
    except ValueError:
        return not_available(cipher, "openssl", f"openssl speed failed: {out.stderr.strip()[:120]}")
    note = "legacy provider" if legacy else ""
    return Figure(cipher, "openssl", evp.upper(), bench_key_bits(cipher), mbps,
                  seconds=float(whole), note=note)


def measure_all(ciphers: list[str], seconds: float) -> tuple[list[Figure], str]:
    """Every requested cipher, and the OpenSSL version line."""
    binary = openssl_binary()
    provided, legacy_loaded = supported(binary)
    figures = [measure(c, seconds, binary, provided, legacy_loaded) for c in ciphers]
    return figures, version(binary)
