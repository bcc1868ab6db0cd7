"""What every software source shares: the figure it reports, the key sizes timed, the units."""

from __future__ import annotations

from dataclasses import dataclass


class SourceUnavailable(Exception):
    """A whole source (a tool, a compiler, a library) is missing here; the message says which."""


# One key size per cipher, the same for every source so that rows compare: 128 bits where the
# cipher has it (the size the seeds' software tables use), 64 for DES (56 effective) and three-key
# TDEA (192) because that is what OpenSSL's des-ede3 and Crypto++'s DES_EDE3 run.
BENCH_KEY_BITS: dict[str, int] = {
    "aes": 128, "camellia": 128, "cast128": 128, "des": 64, "mars": 128, "misty1": 128,
    "rc6": 128, "seed": 128, "serpent": 128, "tdea": 192, "twofish": 128,
}


@dataclass(frozen=True)
class Figure:
    """One cipher timed by one source; ``mbps`` is None when the source lacks the cipher."""

    cipher: str
    source: str          # "openssl", "cryptopp" or "model"
    algorithm: str       # the source's own name for what it ran, e.g. "AES-128-ECB"
    key_bits: int
    mbps: float | None   # 10^6 bits per second, one core, ECB encryption
    bytes_done: int = 0
    seconds: float = 0.0
    note: str = ""

    @property
    def available(self) -> bool:
        return self.mbps is not None


def mbps_of(bytes_done: int, seconds: float) -> float:
    """Megabits (10^6) per second."""
    return bytes_done * 8 / seconds / 1e6


def cycles_per_byte(mbps: float, mhz: float) -> float:
    """Cycles per byte, derived as seconds x nominal clock / bytes = MHz x 8 / Mbps.

    Not read from a cycle counter: a frequency that changes under load (turbo, a hypervisor's
    scheduling) makes this an estimate, which is why the nominal MHz is recorded beside it.
    """
    return mhz * 8 / mbps


def not_available(cipher: str, source: str, why: str) -> Figure:
    return Figure(cipher, source, "-", BENCH_KEY_BITS.get(cipher, 0), None, note=why)
