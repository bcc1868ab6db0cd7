"""SEED (RFC 4269): 128-bit blocks, 128-bit keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, CryptoppClass, OracleRef

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import SeedHardware
    from .model import SEED


def _model() -> SEED:
    from .model import SEED

    return SEED()


def _hardware(options: CoreOptions) -> SeedHardware:
    from .hw import SeedHardware

    return SeedHardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """Typed RFC 4269 Appendix B first, then the official files that are present.

    pyca's rfc-4269.txt (the same four triples), then the NESSIE and Crypto++ files of kat/seed.
    """
    from ...verify.kat_formats import find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root, read_rsp
    from .vectors import known_answers, rfc4269_rsp

    if 128 not in key_sizes:
        return
    yield "rfc4269", typed_cases((("RFC 4269", *answer) for answer in known_answers()), key_sizes)
    path = rfc4269_rsp()
    if path is not None:
        yield path.stem, read_rsp(path, block_bytes=16)
    root = kat_root()
    for path in find_kat_files(root / "seed") if root else []:
        yield path.name, read_kat_file(path, block_bytes=16).cases


def _narrow_hardware(options):
    """The hardware description with narrow datapaths (narrow.py)."""
    from .narrow import HARDWARE

    return HARDWARE(options)


CIPHER = CipherInfo(
    name="seed",
    title="SEED (RFC 4269)",
    block_bits=128,
    key_sizes=(128,),
    model=_model,
    hardware=_hardware,
    params={},
    vector_sets=_vector_sets,
    # keys=stored keeps both walks of the schedule (hw.py: stored_decryption = "walk").
    # The compact core (narrow.py) is 32 bits wide (one G function per clock); its key register
    # returns to the loaded key after every block, so "rewind" costs nothing there.
    restricts={"keys": ("fly", "rewind", "stored", "loaded"),
               # decryption keys cannot travel with the blocks in a pipeline (docs/ciphers)
               "pipelined:keys": ("stored", "loaded"), "narrow:keys": ("rewind",), "width": ("32",)},
    # Pipelines with stored round keys only: keys travelling with the blocks would start
    # decryption from forward key states, one state off for this Feistel schedule (docs/ciphers).
    architectures=("iterative", "unrolled", "narrow", "pipelined"),
    oracle=OracleRef("cryptography-decrepit", "SEED"),
    gcm_oracles=(OracleRef("botan", "SEED"),),
    openssl="seed-ecb",
    cryptopp=(CryptoppClass("SEED", "seed.h", "SEED"),),
    arch_hardware={"narrow": _narrow_hardware},
)
