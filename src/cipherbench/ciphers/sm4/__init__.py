"""SM4 (GB/T 32907-2016, ISO/IEC 18033-3/Amd 1): 128-bit blocks, 128-bit keys, 32 rounds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, CryptoppClass, OracleRef

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import Sm4Hardware
    from .model import SM4


def _model() -> SM4:
    from .model import SM4

    return SM4()


def _hardware(options: CoreOptions) -> Sm4Hardware:
    from .hw import Sm4Hardware

    return Sm4Hardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """GB/T 32907 Appendix A's single-block example (typed in), then the files of the shared
    kat/sm4 folder if there are any."""
    from ...verify.kat_formats import find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root
    from .vectors import known_answers

    if 128 not in key_sizes:
        return
    yield "gbt32907", typed_cases((("GB/T 32907", *answer) for answer in known_answers()),
                                  key_sizes)
    root = kat_root()
    for path in find_kat_files(root / "sm4") if root else []:
        yield path.name, read_kat_file(path, block_bytes=16).cases


def _components():
    from .components import catalog_entries

    return catalog_entries()


def _proofs():
    from .components import proof_pairs

    return proof_pairs()


def _masked_hardware(options):
    """The hardware description with the masked word-serial datapath (masked_core.py)."""
    from .masked_core import HARDWARE

    return HARDWARE(options)


CIPHER = CipherInfo(
    name="sm4",
    title="SM4 (GB/T 32907, ISO/IEC 18033-3/Amd 1)",
    block_bits=128,
    key_sizes=(128,),
    model=_model,
    hardware=_hardware,
    params={},
    vector_sets=_vector_sets,
    # The key state holds five schedule words, so both walks give every round its key from the
    # state the generators expect (hw.py): keys fly, travel with the blocks and mirror in memory.
    architectures=("iterative", "unrolled", "pipelined", "masked"),
    # Masked (masked_core.py): four masked S-boxes shared by T and T', encryption only.
    restricts={"masked:width": ("32",), "masked:ops": ("encrypt",)},
    arch_hardware={"masked": _masked_hardware},
    oracle=OracleRef("cryptography", "SM4"),
    gcm_oracles=(OracleRef("cryptography", "SM4"), OracleRef("botan", "SM4")),
    aliases=("SMS4",),
    openssl="sm4-ecb",
    cryptopp=(CryptoppClass("SM4", "sm4.h", "SM4"),),
    components=_components,
    proofs=_proofs,
)
