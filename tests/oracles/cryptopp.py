"""Crypto++ as a test oracle: builds ``cryptopp_oracle.cpp`` once (cached) and runs it on many blocks.

Usage in a test::

    from oracles.cryptopp import cryptopp_or_skip
    oracle = cryptopp_or_skip()                       # pytest.skip with the reason if unavailable
    outputs = oracle.run("serpent", "enc", [(key, block), ...])

``CIPHERS`` lists the names the harness knows (serpent, twofish, rc6, mars, aes, des, des-ede2,
des-ede3, camellia, seed, cast128). The binary goes to ``$CIPHERBENCH_CACHE/oracles`` (default
``~/.cache/cipherbench/oracles``), named by a digest of the source, so an edit rebuilds it. Building
needs g++ and Debian's ``libcrypto++-dev``; without them the tests skip and say which is missing.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from cipherbench.software import cppbuild
from cipherbench.software.common import SourceUnavailable

SOURCE = Path(__file__).with_name("cryptopp_oracle.cpp")
CIPHERS = (
    "aes",
    "camellia",
    "cast128",
    "des",
    "des-ede2",
    "des-ede3",
    "mars",
    "rc6",
    "seed",
    "serpent",
    "twofish",
)
_RUN_TIMEOUT = 600


class OracleUnavailable(Exception):
    """Crypto++ cannot be used here; the message says why and what to install."""


class CryptoppOracle:
    """The built harness: one process per (cipher, direction) call, one line per block."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary

    def run(self, cipher: str, direction: str, pairs: Sequence[tuple[bytes, bytes]]) -> list[bytes]:
        """Each block of ``pairs`` encrypted (``"enc"``) or decrypted (``"dec"``) under its key."""
        if cipher not in CIPHERS or direction not in ("enc", "dec"):
            raise ValueError(f"unknown cipher {cipher!r} or direction {direction!r}")
        if not pairs:
            return []
        text = "".join(f"{key.hex()} {block.hex()}\n" for key, block in pairs)
        result = subprocess.run(
            [str(self.binary), cipher, direction],
            input=text,
            capture_output=True,
            text=True,
            timeout=_RUN_TIMEOUT,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"Crypto++ oracle failed: {result.stderr.strip()}")
        lines = result.stdout.split()
        if len(lines) != len(pairs):
            raise RuntimeError(f"Crypto++ oracle answered {len(lines)} lines for {len(pairs)} blocks")
        return [bytes.fromhex(line) for line in lines]

    def encrypt(self, cipher: str, pairs: Sequence[tuple[bytes, bytes]]) -> list[bytes]:
        return self.run(cipher, "enc", pairs)

    def decrypt(self, cipher: str, pairs: Sequence[tuple[bytes, bytes]]) -> list[bytes]:
        return self.run(cipher, "dec", pairs)


def build() -> Path:
    """The harness binary, compiled now unless a build of the same source is cached (the project's
    Crypto++ build routine; a missing tool makes the oracle unavailable, a compile error fails)."""
    try:
        return cppbuild.build(SOURCE, "oracles", "cryptopp_oracle")
    except SourceUnavailable as why:
        raise OracleUnavailable(str(why)) from why


@lru_cache(maxsize=1)
def _oracle() -> CryptoppOracle | str:
    try:
        return CryptoppOracle(build())
    except OracleUnavailable as why:
        return str(why)


def cryptopp_or_skip() -> CryptoppOracle:
    """The oracle, or ``pytest.skip`` with the reason it is unavailable."""
    import pytest

    oracle = _oracle()
    if isinstance(oracle, str):
        pytest.skip(f"Crypto++ oracle unavailable: {oracle}")
    return oracle
