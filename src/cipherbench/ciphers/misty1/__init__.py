"""MISTY1 (RFC 2994): 64-bit blocks, 128-bit keys, 8 rounds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo

if TYPE_CHECKING:
    from ...verify.vectors import VectorCase
    from .model import MISTY1


def _model() -> MISTY1:
    from .model import MISTY1

    return MISTY1()


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


CIPHER = CipherInfo(
    name="misty1",
    title="MISTY1 (RFC 2994)",
    block_bits=64,
    key_sizes=(128,),
    model=_model,
    hardware=None,
    params={},
    vector_sets=_vector_sets,
)
