"""Known answers typed from RFC 2144 Appendix B (CAST-128), and where pyca's copy of them is.

Typed here: B.1, one plaintext under a 128-bit, an 80-bit and a 40-bit key (the short keys are given as
they are: 10 and 5 bytes, run with 12 rounds), and B.2, the "full maintenance test" (a million iterations
of four encryptions with keys taken from the evolving data; slow in pure Python). The RFC's text, where
provided, is ``$CIPHERBENCH_KAT/cast128/rfc2144.txt``; PyPI ``cryptography_vectors`` holds B.1 as
``ciphers/CAST5/cast5-ecb.txt`` in NIST .rsp layout.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cipherbench.verify.vectors import cryptography_vectors_dir, kat_root


@dataclass(frozen=True)
class Example:
    name: str
    key: bytes
    plaintext: bytes
    ciphertext: bytes


_PLAINTEXT = bytes.fromhex("0123456789abcdef")

RFC2144_B1: tuple[Example, ...] = (
    Example("RFC 2144 B.1 (128-bit key)", bytes.fromhex("0123456712345678234567893456789a"), _PLAINTEXT,
            bytes.fromhex("238b4fe5847e44b2")),
    Example("RFC 2144 B.1 (80-bit key)", bytes.fromhex("01234567123456782345"), _PLAINTEXT,
            bytes.fromhex("eb6a711a2c02271b")),
    Example("RFC 2144 B.1 (40-bit key)", bytes.fromhex("0123456712"), _PLAINTEXT,
            bytes.fromhex("7ac816d16e9b302e")),
)  # fmt: skip


@dataclass(frozen=True)
class MaintenanceTest:
    """RFC 2144 B.2: a and b start equal; each iteration encrypts aL, aR under b, then bL, bR under a."""

    initial_a: bytes
    initial_b: bytes
    iterations: int
    final_a: bytes
    final_b: bytes


RFC2144_B2 = MaintenanceTest(
    initial_a=bytes.fromhex("0123456712345678234567893456789a"),
    initial_b=bytes.fromhex("0123456712345678234567893456789a"),
    iterations=1_000_000,
    final_a=bytes.fromhex("eea9d0a249fd3ba6b3436fb89d6dca92"),
    final_b=bytes.fromhex("b2c95eb00c31ad7180ac05b8e83d696e"),
)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) of B.1: 128-, 80- then 40-bit key."""
    for example in RFC2144_B1:
        yield example.key, example.plaintext, example.ciphertext


def cast5_ecb_file() -> Path | None:
    """pyca's cast5-ecb.txt (cryptography_vectors, else the shared kat folder), or None."""
    root = kat_root()
    for folder in (cryptography_vectors_dir("ciphers", "CAST5"), root / "cast128" if root else None):
        if folder is not None and (folder / "cast5-ecb.txt").is_file():
            return folder / "cast5-ecb.txt"
    return None
