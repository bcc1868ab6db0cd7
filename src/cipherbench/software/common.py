"""What every software source shares: the figure it reports, the key sizes timed, the units."""

from __future__ import annotations

from dataclasses import dataclass


class SourceUnavailable(Exception):
    """A whole source (a tool, a compiler, a library) is missing here; the message says which."""


def bench_key_bits(cipher: str) -> int:
    """The one key size timed for ``cipher``, the same for every source so that rows compare
    (CipherInfo.bench_key_bits: 128 bits where the cipher has it, the size the seeds' software
    tables use, unless the cipher's folder names another); 0 for an unknown cipher."""
    from ..ciphers.registry import ciphers

    info = ciphers().get(cipher)
    return info.bench_key_bits if info is not None else 0


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
    return Figure(cipher, source, "-", bench_key_bits(cipher), None, note=why)
