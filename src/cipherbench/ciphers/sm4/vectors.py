"""Known answers typed from GB/T 32907-2016 Appendix A (SM4), the same examples as ISO/IEC
18033-3:2010/Amd 1:2021 and the draft-ribose-cfrg-sm4 text.

Example 1: one encryption of the plaintext 0123456789abcdeffedcba9876543210 under the same value
as key, with the first and last round keys the appendix prints. Example 2: the same plaintext
encrypted 1,000,000 times under that key (each output the next input), an iterated answer; the
model takes about three minutes for it, so only ``--runslow`` runs it on the model (the fast
tests iterate the independent implementation instead).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Sm4Example:
    name: str
    key: bytes
    plaintext: bytes
    ciphertext: bytes
    iterations: int                      # encryptions chained (1: a single-block answer)
    round_keys: dict[int, int]           # rk_i as printed (only the ones the appendix shows)


_VALUE = bytes.fromhex("0123456789abcdeffedcba9876543210")

GBT32907_A1 = Sm4Example(
    name="GB/T 32907 A.1", key=_VALUE, plaintext=_VALUE,
    ciphertext=bytes.fromhex("681edf34d206965e86b3e94f536e4246"), iterations=1,
    round_keys={0: 0xF12186F9, 1: 0x41662B61, 31: 0x9124A012},
)
GBT32907_A2 = Sm4Example(
    name="GB/T 32907 A.2", key=_VALUE, plaintext=_VALUE,
    ciphertext=bytes.fromhex("595298c7c6fd271f0402f804c33d3f66"), iterations=1_000_000,
    round_keys={},
)
EXAMPLES: tuple[Sm4Example, ...] = (GBT32907_A1, GBT32907_A2)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) of the single-block examples."""
    for example in EXAMPLES:
        if example.iterations == 1:
            yield example.key, example.plaintext, example.ciphertext
