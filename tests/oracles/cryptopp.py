"""Crypto++ as a test oracle (the harness lives in cipherbench.verify.oracles, which verification
also uses).

Usage in a test::

    from oracles.cryptopp import cryptopp_or_skip
    oracle = cryptopp_or_skip()                       # pytest.skip with the reason if unavailable
    outputs = oracle.run("serpent", "enc", [(key, block), ...])

Building needs g++ and Debian's ``libcrypto++-dev``; without them the tests skip and say which is
missing.
"""

from __future__ import annotations

import pytest

from cipherbench.verify.oracles import CryptoppOracle, OracleUnavailable, cryptopp_oracle


def cryptopp_or_skip() -> CryptoppOracle:
    """The oracle, or ``pytest.skip`` with the reason it is unavailable."""
    try:
        return cryptopp_oracle()
    except OracleUnavailable as why:
        pytest.skip(str(why))
