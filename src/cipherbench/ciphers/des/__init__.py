"""DES (FIPS 46-3): 64-bit blocks, 64-bit keys including 8 parity bits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, CryptoppClass, OracleRef

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import DesHardware
    from .model import DES


def _model() -> DES:
    from .model import DES

    return DES()


def _hardware(options: CoreOptions) -> DesHardware:
    from .hw import DesHardware

    return DesHardware(options)


def single_des_cases(cases: list[VectorCase]) -> list[VectorCase]:
    """NIST TDES cases whose three keys are equal, rewritten with the 8-byte DES key (others dropped)."""
    from ...verify.vectors import VectorCase

    single = []
    for case in cases:
        k1, k2, k3 = case.key[0:8], case.key[8:16], case.key[16:24]
        if len(case.key) == 24 and k1 == k2 == k3:
            single.append(VectorCase(k1, case.data, case.expected, case.decrypt, case.source))
    return single


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """Typed FIPS 81 examples first, then the official files that are present.

    Those are the NIST TDES KAT files and TECBMMT1 read as single DES (cryptography_vectors or the shared
    kat folder), then the NESSIE and Crypto++ files of the shared kat/des folder.
    """
    from ...verify.kat_formats import cases_for_key_sizes, find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root, read_rsp
    from .vectors import SINGLE_KEY_FILES, known_answers, tdes_files

    if 64 not in key_sizes:
        return
    yield "fips-81", typed_cases((("FIPS 81", *answer) for answer in known_answers()), key_sizes)
    for path in tdes_files(SINGLE_KEY_FILES):
        yield path.stem, single_des_cases(read_rsp(path))
    root = kat_root()
    for path in find_kat_files(root / "des") if root else []:
        yield path.name, cases_for_key_sizes(read_kat_file(path, block_bytes=8).cases, key_sizes)


def _components():
    from .components import catalog_entries

    return catalog_entries()


CIPHER = CipherInfo(
    name="des",
    title="DES (FIPS 46-3)",
    block_bits=64,
    key_sizes=(64,),
    model=_model,
    hardware=_hardware,
    params={},
    vector_sets=_vector_sets,
    # keys=stored|loaded: the round-key memory holds both walks of the C/D schedule
    # (stored_decryption = "walk", arch/keymem.py), so decryption needs no mirrored entry.
    # narrow: the 64-bit loop with a single key register (keys=rewind: nothing to rewind, the
    # C/D schedule ends every block where it began).
    restricts={"keys": ("fly", "rewind", "stored", "loaded"), "width": ("64",)},
    oracle=OracleRef("pycryptodome", "DES"),
    openssl="des-ecb",
    cryptopp=(CryptoppClass("DES", "des.h", "DES"),),
    components=_components,
)
