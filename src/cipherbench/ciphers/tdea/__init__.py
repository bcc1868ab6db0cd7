"""TDEA / Triple DES (NIST SP 800-67): EDE with 2 keys (128 bits) or 3 keys (192 bits), parity included."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, CryptoppClass, OracleRef

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import TdeaHardware
    from .model import TDEA


def _model() -> TDEA:
    from .model import TDEA

    return TDEA()


def _hardware(options: CoreOptions) -> TdeaHardware:
    from .hw import TdeaHardware

    return TdeaHardware(options)


def two_key_cases(cases: list[VectorCase]) -> list[VectorCase]:
    """Cases with K3 = K1, rewritten with the 16-byte 2-key form K1 || K2 (others dropped)."""
    from ...verify.vectors import VectorCase

    return [
        VectorCase(c.key[:16], c.data, c.expected, c.decrypt, c.source)
        for c in cases
        if len(c.key) == 24 and c.key[0:8] == c.key[16:24]
    ]


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """Typed SP 800-67 example first, then the official files that are present.

    NIST TDES KAT and MMT files, 192 bits: every file with its K1 || K2 || K3 keys; 128 bits: the files
    whose records have K3 = K1 (KAT files, MMT1, MMT2), keyed K1 || K2. Then the NESSIE files of the
    shared kat/tdea folder (2-key and 3-key).
    """
    from ...verify.kat_formats import cases_for_key_sizes, find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root, read_rsp
    from ..des.vectors import SINGLE_KEY_FILES, THREE_KEY_FILES, TWO_KEY_FILES, tdes_files
    from .vectors import NOT_TDEA_FILES, known_answers

    yield "sp800-67", typed_cases((("SP 800-67", *answer) for answer in known_answers()), key_sizes)
    if 192 in key_sizes:
        for path in tdes_files(SINGLE_KEY_FILES + TWO_KEY_FILES + THREE_KEY_FILES):
            yield f"{path.stem}-3key", read_rsp(path)
    if 128 in key_sizes:
        for path in tdes_files(SINGLE_KEY_FILES + TWO_KEY_FILES):
            yield f"{path.stem}-2key", two_key_cases(read_rsp(path))
    root = kat_root()
    for path in find_kat_files(root / "tdea") if root else []:
        if path.name not in NOT_TDEA_FILES:
            cases = cases_for_key_sizes(read_kat_file(path, block_bytes=8).cases, key_sizes)
            if cases:
                yield path.name, cases


def _three_keys(key: bytes) -> bytes:
    """A 2-key TDEA key K1 K2 as the 3-key K1 K2 K1 (cryptography deprecates 16-byte keys)."""
    return key + key[:8] if len(key) == 16 else key


CIPHER = CipherInfo(
    name="tdea",
    title="TDEA / Triple DES (NIST SP 800-67)",
    block_bits=64,
    key_sizes=(128, 192),
    model=_model,
    hardware=_hardware,
    params={},
    vector_sets=_vector_sets,
    # keys=stored|loaded: as DES, both walks of the schedule in the round-key memory ("walk").
    # narrow: the 64-bit loop with a single key register (as DES).
    restricts={"keys": ("fly", "rewind", "stored", "loaded"), "width": ("64",)},
    oracle=OracleRef("cryptography-decrepit", "TripleDES", key=_three_keys),
    aliases=("Triple DES", "3DES"),
    software_key_bits=192,
    openssl="des-ede3-ecb",
    # Three-key first: the software baseline times it (192-bit keys, OpenSSL's des-ede3 too).
    cryptopp=(CryptoppClass("DES_EDE3", "des.h", "DES-EDE3"),
              CryptoppClass("DES_EDE2", "des.h", "DES-EDE2")),
)
