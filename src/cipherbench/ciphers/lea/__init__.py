"""LEA (ISO/IEC 29192-2): 128-bit blocks, 128/192/256-bit keys, 24/28/32 rounds of
add-rotate-XOR."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...components.adders import ADDER_KINDS
from ..registry import CipherInfo, CryptoppClass, OracleRef, Param

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import LeaHardware
    from .model import LEA


def _model() -> LEA:
    from .model import LEA

    return LEA()


def _hardware(options: CoreOptions) -> LeaHardware:
    from .hw import LeaHardware

    return LeaHardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """The specification's three examples (typed in), then the files of the shared kat/lea
    folder if there are any."""
    from ...verify.kat_formats import cases_for_key_sizes, find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root
    from .vectors import known_answers

    cases = typed_cases((("LEA specification", *answer) for answer in known_answers()), key_sizes)
    if cases:
        yield "lea-spec", cases
    root = kat_root()
    for path in find_kat_files(root / "lea") if root else []:
        found = cases_for_key_sizes(read_kat_file(path, block_bytes=16).cases, key_sizes)
        if found:
            yield path.name, found


CIPHER = CipherInfo(
    name="lea",
    title="LEA (ISO/IEC 29192-2)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={
        "adder": Param(ADDER_KINDS, "kogge-stone",
                       "carry network of LEA's three round adders (subtractors in decryption) "
                       "and its key-schedule adders"),
    },
    vector_sets=_vector_sets,
    # Pipelines with stored round keys only: keys travelling with the blocks give a round the
    # key of the state it holds, one state off for decryption (hw.py, docs/ciphers).
    restricts={"pipelined:keys": ("stored", "loaded")},
    architectures=("iterative", "unrolled", "pipelined"),
    oracle=OracleRef("cryptopp", "LEA"),
    cryptopp=(CryptoppClass("LEA", "lea.h", "LEA"),),
)
