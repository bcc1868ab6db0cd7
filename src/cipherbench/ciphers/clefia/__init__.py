"""CLEFIA (RFC 6114, ISO/IEC 29192-2): 128-bit blocks, 128/192/256-bit keys, 18/22/26 rounds of a
4-branch generalized Feistel network.

No independent implementation is maintained in the places the project draws oracles from (Debian,
PyPI, Crypto++ 8.7, Botan 2, cryptography, pycryptodome, OpenSSL; docs/ciphers/clefia.md lists what
was searched), so it declares no oracle: the RFC's vectors are the reference, and verification and
the trust table say that no second implementation checked it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, Param

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import ClefiaHardware
    from .model import CLEFIA


def _model() -> CLEFIA:
    from .model import CLEFIA

    return CLEFIA()


def _hardware(options: CoreOptions) -> ClefiaHardware:
    from .hw import ClefiaHardware

    return ClefiaHardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """RFC 6114's three examples (typed in), then the files of the shared kat/clefia folder if
    there are any."""
    from ...verify.kat_formats import cases_for_key_sizes, find_kat_files, read_kat_file, typed_cases
    from ...verify.vectors import kat_root
    from .vectors import known_answers

    cases = typed_cases((("RFC 6114", *answer) for answer in known_answers()), key_sizes)
    if cases:
        yield "rfc6114", cases
    root = kat_root()
    for path in find_kat_files(root / "clefia") if root else []:
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
    name="clefia",
    title="CLEFIA (RFC 6114, ISO/IEC 29192-2)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={
        "s0": Param(("table", "nibbles"), "table",
                    "S0 implementation: table = a 256-entry lookup; nibbles = as RFC 6114 "
                    "builds it, four 4-bit S-boxes SS0..SS3 around a GF(2^4) mix (S1 stays a "
                    "table)"),
    },
    vector_sets=_vector_sets,
    # The key state carries a two-pair window of round keys, so both walks give every round its
    # key from the state the generators expect (hw.py): keys fly, travel with the blocks in
    # pipelines and mirror in a round-key memory. No narrow datapath.
    architectures=("iterative", "unrolled", "pipelined"),
    oracle=None,
    components=_components,
    proofs=_proofs,
)
