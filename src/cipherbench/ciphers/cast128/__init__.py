"""CAST-128 / CAST5 (RFC 2144): 64-bit blocks, 40- to 128-bit keys; 12 rounds up to 80 bits, else 16."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...components.adders import ADDER_KINDS
from ..registry import CipherInfo, CryptoppClass, OracleRef, Param

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import CastHardware
    from .model import CAST128

KEY_SIZES = tuple(range(40, 129, 8))


def _model() -> CAST128:
    from .model import CAST128

    return CAST128()


def _hardware(options: CoreOptions) -> CastHardware:
    from .hw import CastHardware

    return CastHardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """Typed RFC 2144 B.1 first, then the official files that are present.

    pyca's cast5-ecb.txt (the same three triples), then the NESSIE and Crypto++ files of kat/cast128.
    """
    from ...verify.kat_formats import cases_for_key_sizes, find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root, read_rsp
    from .vectors import cast5_ecb_file, known_answers

    yield "rfc2144", typed_cases((("RFC 2144", *answer) for answer in known_answers()), key_sizes)
    path = cast5_ecb_file()
    if path is not None:
        yield path.stem, cases_for_key_sizes(read_rsp(path, block_bytes=8), key_sizes)
    root = kat_root()
    for path in find_kat_files(root / "cast128") if root else []:
        cases = cases_for_key_sizes(read_kat_file(path, block_bytes=8).cases, key_sizes)
        if cases:
            yield path.name, cases


CIPHER = CipherInfo(
    name="cast128",
    title="CAST-128 / CAST5 (RFC 2144)",
    block_bits=64,
    key_sizes=KEY_SIZES,
    model=_model,
    hardware=_hardware,
    params={
        "adder": Param(ADDER_KINDS, "kogge-stone",
                       "carry network of the four ASX (add-sub-xor) units of the round function"),
    },
    vector_sets=_vector_sets,
    # The loop core is the narrow architecture at the full 64-bit width: round keys computed once
    # per key by a setup program and kept (hw.py explains why the iterative generator cannot).
    # The iterative and pipelined generators take the round keys from outside (keys=loaded).
    restricts={"keys": ("stored", "loaded"), "iterative:keys": ("loaded",),
               "pipelined:keys": ("loaded",), "width": ("64",)},
    architectures=("narrow", "iterative", "pipelined"),
    oracle=OracleRef("pycryptodome", "CAST"),
    aliases=("CAST-128", "CAST5"),
    openssl="cast5-ecb",
    cryptopp=(CryptoppClass("CAST128", "cast.h", "CAST-128"),),
)
