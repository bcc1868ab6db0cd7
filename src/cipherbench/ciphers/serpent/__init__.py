"""Serpent (Anderson, Biham, Knudsen; AES finalist): 128-bit blocks, 128-, 192- and 256-bit keys."""

from ..registry import CipherInfo, CipherStructure, CryptoppClass, OracleRef
from ...verify.mct import SubmissionMct


def _model():
    from .model import Serpent

    return Serpent()


def _hardware(options):
    from .hw import SerpentHardware

    return SerpentHardware(options)


def _vector_sets(key_sizes):
    """Submission-package and NESSIE examples (typed in), then every vector file in kat/serpent.

    The AES-submission files there print numbers; they are read byte-reversed into the model's order.
    """
    from ...verify.kat_formats import kat_folder_sets, typed_cases
    from .vectors import known_answers

    yield "serpent-spec", typed_cases(known_answers(), key_sizes)
    yield from kat_folder_sets("serpent", key_sizes, reverse_submission_hex=True)


def _narrow_hardware(options):
    """The hardware description with narrow datapaths (narrow.py)."""
    from .narrow import HARDWARE

    return HARDWARE(options)


def _structure():
    from . import model

    keys = model.round_keys(bytes(range(16)))
    # round keys of four 32-bit words
    return CipherStructure(rounds=str(model.ROUNDS), subkeys=len(keys),
                           subkey_bits=32 * len(keys[0]),
                           sboxes=tuple(tuple(s) for s in model.SBOXES))


CIPHER = CipherInfo(
    name="serpent",
    title="Serpent (AES finalist)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={},
    # Verified on each (docs/ciphers/serpent.md); narrow: ciphers/serpent/narrow.py (Fischer's
    # fair and minimum configurations).
    architectures=("iterative", "unrolled", "pipelined", "narrow"),
    vector_sets=_vector_sets,
    oracle=OracleRef("cryptopp", "Serpent"),
    gcm_oracles=(OracleRef("botan", "Serpent"),),
    monte_carlo=SubmissionMct("serpent", reverse=True),
    cryptopp=(CryptoppClass("Serpent", "serpent.h", "Serpent"),),
    arch_hardware={"narrow": _narrow_hardware},
    structure=_structure,
)
