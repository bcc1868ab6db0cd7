"""Camellia (RFC 3713): 128-bit blocks, 128-, 192- and 256-bit keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..registry import CipherInfo, CryptoppClass, OracleRef, Param

if TYPE_CHECKING:
    from ...arch.base import CoreOptions
    from ...verify.vectors import VectorCase
    from .hw import CamelliaHardware
    from .model import Camellia


def _model() -> Camellia:
    from .model import Camellia

    return Camellia()


def _hardware(options: CoreOptions) -> CamelliaHardware:
    from .hw import CamelliaHardware

    return CamelliaHardware(options)


def _vector_sets(key_sizes: tuple[int, ...]) -> Iterator[tuple[str, list[VectorCase]]]:
    """Typed RFC 3713 Appendix A first, then the official files that are present.

    NTT's t_camellia vectors for each key size (cryptography_vectors or the shared kat folder), then the
    NESSIE and Crypto++ files of the shared kat/camellia folder.
    """
    from ...verify.kat_formats import (
        cases_for_key_sizes,
        find_kat_files,
        read_kat_file,
        typed_cases,
    )
    from ...verify.vectors import kat_root
    from .vectors import known_answers, ntt_file, read_ntt

    yield "rfc3713", typed_cases((("RFC 3713", *answer) for answer in known_answers()), key_sizes)
    for bits in key_sizes:
        path = ntt_file(bits)
        if path is not None:
            yield path.stem, read_ntt(path)
    root = kat_root()
    for path in find_kat_files(root / "camellia") if root else []:
        cases = cases_for_key_sizes(read_kat_file(path, block_bytes=16).cases, key_sizes)
        if cases:
            yield path.name, cases


CIPHER = CipherInfo(
    name="camellia",
    title="Camellia (RFC 3713)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={
        "sbox": Param(("table", "composite"), "table",
                      "S-box implementation: table = s1 lookup per lane (s2..s4 by rotations); "
                      "composite = affine maps around the GF(((2^2)^2)^2) tower inverter of the "
                      "composite AES S-box (s1 is affine-equivalent to inversion)"),
    },
    vector_sets=_vector_sets,
    # keys=stored keeps both walks of the schedule (hw.py: stored_decryption = "walk").
    restricts={"keys": ("fly", "rewind", "stored", "loaded"),
               # decryption keys cannot travel with the blocks in a pipeline (docs/ciphers)
               "pipelined:keys": ("stored", "loaded")},
    # Pipelines with stored round keys only: keys travelling with the blocks would start
    # decryption from forward key states, one state off for this Feistel schedule (docs/ciphers).
    architectures=("iterative", "unrolled", "pipelined"),
    oracle=OracleRef("cryptography-decrepit", "Camellia"),
    gcm_oracles=(OracleRef("botan", "Camellia-{bits}"),),
    openssl="camellia-128-ecb",
    cryptopp=(CryptoppClass("Camellia", "camellia.h", "Camellia"),),
)
