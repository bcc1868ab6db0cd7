"""HIGHT (ISO/IEC 18033-3, Hong et al. CHES 2006): 64-bit blocks, 128-bit keys, 32 rounds of
8-bit add-rotate-XOR."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, CryptoppClass, OracleRef

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import HightHardware
    from .model import HIGHT


def _model() -> HIGHT:
    from .model import HIGHT

    return HIGHT()


def _hardware(options: CoreOptions) -> HightHardware:
    from .hw import HightHardware

    return HightHardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """The specification's four examples (typed in), then the files of the shared kat/hight
    folder if there are any."""
    from ...verify.kat_formats import find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root
    from .vectors import known_answers

    if 128 not in key_sizes:
        return
    yield "hight-spec", typed_cases((("HIGHT specification", *answer)
                                     for answer in known_answers()), key_sizes)
    root = kat_root()
    for path in find_kat_files(root / "hight") if root else []:
        yield path.name, read_kat_file(path, block_bytes=8).cases


def _narrow_hardware(options: CoreOptions) -> HightHardware:
    """The hardware description with the byte-serial datapath (narrow.py)."""
    from .narrow import HARDWARE

    return HARDWARE(options)


CIPHER = CipherInfo(
    name="hight",
    title="HIGHT (ISO/IEC 18033-3)",
    block_bits=64,
    key_sizes=(128,),
    model=_model,
    hardware=_hardware,
    params={},
    vector_sets=_vector_sets,
    # Pipelines with stored round keys only: keys travelling with the blocks give a round the
    # key of the state it holds, one state off for decryption (hw.py, docs/ciphers).
    # Narrow (narrow.py): byte-serial, one F and one adder per clock; the key register holds the
    # key between blocks (nothing to store).
    restricts={"pipelined:keys": ("stored", "loaded"), "narrow:width": ("8",),
               "narrow:keys": ("rewind",)},
    architectures=("iterative", "unrolled", "pipelined", "narrow"),
    oracle=OracleRef("cryptopp", "HIGHT"),
    cryptopp=(CryptoppClass("HIGHT", "hight.h", "HIGHT"),),
    arch_hardware={"narrow": _narrow_hardware},
)
