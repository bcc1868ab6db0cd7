"""ARIA (RFC 5794, KS X 1213-1): 128-bit blocks, 128/192/256-bit keys, 12/14/16 rounds of an
involutional substitution-permutation network."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, CryptoppClass, OracleRef

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import AriaHardware
    from .model import ARIA


def _model() -> ARIA:
    from .model import ARIA

    return ARIA()


def _hardware(options: CoreOptions) -> AriaHardware:
    from .hw import AriaHardware

    return AriaHardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """RFC 5794 Appendix A's three examples (typed in), then the files of the shared kat/aria
    folder if there are any."""
    from ...verify.kat_formats import (
        cases_for_key_sizes,
        find_kat_files,
        read_kat_file,
        typed_cases,
    )
    from ...verify.vectors import kat_root
    from .vectors import known_answers

    cases = typed_cases((("RFC 5794", *answer) for answer in known_answers()), key_sizes)
    if cases:
        yield "rfc5794", cases
    root = kat_root()
    for path in find_kat_files(root / "aria") if root else []:
        found = cases_for_key_sizes(read_kat_file(path, block_bytes=16).cases, key_sizes)
        if found:
            yield path.name, found



def _components():
    from .components import catalog_entries

    return catalog_entries()


def _proofs():
    from .components import proof_pairs

    return proof_pairs()


CIPHER = CipherInfo(
    name="aria",
    title="ARIA (RFC 5794, KS X 1213-1)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={},
    vector_sets=_vector_sets,
    # The key state holds W0..W3 in a turning window and its index, so both walks give every
    # round its key from the state the generators expect (hw.py): keys fly, travel with the
    # blocks and mirror in memory.
    architectures=("iterative", "unrolled", "pipelined"),
    oracle=OracleRef("cryptopp", "ARIA"),
    gcm_oracles=(OracleRef("botan", "ARIA-{bits}"),),
    openssl="aria-128-ecb",
    cryptopp=(CryptoppClass("ARIA", "aria.h", "ARIA"),),
    components=_components,
    proofs=_proofs,
)
