"""Twofish (Schneier et al.; AES finalist): 128-bit blocks, 128-, 192- and 256-bit keys."""

from ..registry import CipherInfo


def _model():
    from .model import Twofish

    return Twofish()


def _vector_sets(key_sizes):
    """The Twofish paper's known answers (typed in), then every vector file in kat/twofish."""
    from ...verify.kat_formats import kat_folder_sets, typed_cases
    from .vectors import known_answers

    yield "twofish-spec", typed_cases(known_answers(), key_sizes)
    yield from kat_folder_sets("twofish", key_sizes)


CIPHER = CipherInfo(
    name="twofish",
    title="Twofish (AES finalist)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=None,
    params={},
    vector_sets=_vector_sets,
)
