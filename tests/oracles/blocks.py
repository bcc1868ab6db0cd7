"""The verification oracles (cipherbench.verify.oracles) for tests: skip when one is missing."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cipherbench.verify import oracles
from cipherbench.verify.oracles import Answer, OracleUnavailable, Row

__all__ = ["Row", "botan_batch", "oracle_or_skip"]


def botan_batch(rows: Sequence[tuple[str, bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """(encryption, decryption) by Botan of each (cipher name, key, block); skips if Botan is missing."""
    try:
        return oracles.botan_batch(rows)
    except OracleUnavailable as why:
        pytest.skip(str(why))


def oracle_or_skip(cipher: str) -> tuple[str, Answer]:
    """(name, answer function) of ``cipher``'s oracle; skips if its package is missing."""
    try:
        oracle = oracles.oracle_for(cipher)
    except OracleUnavailable as why:
        pytest.skip(str(why))
    return oracle.name, oracle.answer
