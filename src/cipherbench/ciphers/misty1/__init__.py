"""MISTY1 (RFC 2994): 64-bit blocks, 128-bit keys, 8 rounds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, OracleRef, Param

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import Misty1Hardware
    from .model import MISTY1


def _model() -> MISTY1:
    from .model import MISTY1

    return MISTY1()


def _hardware(options: CoreOptions) -> Misty1Hardware:
    from .hw import Misty1Hardware

    return Misty1Hardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """RFC 2994 Appendix A (typed in), then the files of the shared kat/misty1 folder (Botan's misty.vec)."""
    from ...verify.kat_formats import find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root
    from .vectors import known_answers

    if 128 not in key_sizes:
        return
    yield "rfc2994", typed_cases((("RFC 2994", *answer) for answer in known_answers()), key_sizes)
    root = kat_root()
    for path in find_kat_files(root / "misty1") if root else []:
        yield path.name, read_kat_file(path, block_bytes=8).cases


def _narrow_hardware(options):
    """The hardware description with narrow datapaths (narrow.py)."""
    from .narrow import HARDWARE

    return HARDWARE(options)


CIPHER = CipherInfo(
    name="misty1",
    title="MISTY1 (RFC 2994)",
    block_bits=64,
    key_sizes=(128,),
    model=_model,
    hardware=_hardware,
    params={
        "sbox": Param(("logic", "table"), "logic",
                      "S7/S9 implementation: logic = their algebraic normal form (S9 quadratic, "
                      "S7 cubic: ANDs and XOR trees, derived from the tables); table = lookup "
                      "tables, as the seed's cores"),
    },
    vector_sets=_vector_sets,
    # keys=stored keeps both walks of the schedule (hw.py: stored_decryption = "walk").
    # The compact core (narrow.py) is 16 bits wide (one FI function per clock); its key rings
    # return to rest after every block, so "rewind" costs nothing there.
    restricts={"keys": ("fly", "rewind", "stored", "loaded"),
               # decryption keys cannot travel with the blocks in a pipeline (docs/ciphers)
               "pipelined:keys": ("stored", "loaded"), "narrow:keys": ("rewind",), "width": ("16",)},
    # Pipelines with stored round keys only: keys travelling with the blocks would start
    # decryption from forward key states, one state off for this Feistel schedule (docs/ciphers).
    architectures=("iterative", "unrolled", "narrow", "pipelined"),
    oracle=OracleRef("botan", "MISTY1"),
    aliases=("MSTY1",),
    arch_hardware={"narrow": _narrow_hardware},
)
