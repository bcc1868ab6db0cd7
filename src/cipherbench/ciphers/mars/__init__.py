"""MARS (IBM; AES finalist), tweaked key schedule: 128-bit blocks, 128-, 192- and 256-bit keys."""

from ..registry import CipherInfo, CipherStructure, CryptoppClass, OracleRef
from ...verify.mct import SubmissionMct


def _model():
    from .model import MARS

    return MARS()


def _hardware(options):
    from .hw import MarsHardware

    return MarsHardware(options)


def _vector_sets(key_sizes):
    """IBM's known answers for the tweaked key schedule (typed in), then every vector file in kat/mars."""
    from ...verify.kat_formats import kat_folder_sets, typed_cases
    from .vectors import known_answers

    yield "mars-spec", typed_cases(known_answers(), key_sizes)
    yield from kat_folder_sets("mars", key_sizes)


def _structure():
    from . import model

    keys = model.expand_key(bytes(range(16)))
    return CipherStructure(
        rounds=f"{model.MIXING_ROUNDS}+{model.CORE_ROUNDS}+{model.MIXING_ROUNDS}",
        subkeys=len(keys), subkey_bits=max(k.bit_length() for k in keys),
        sboxes=(tuple(model.S[:256]), tuple(model.S[256:])))


CIPHER = CipherInfo(
    name="mars",
    title="MARS (AES finalist, tweaked key schedule)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={},
    vector_sets=_vector_sets,
    # Four iterations of 75 word operations produce the keys ten at a time, then the multiplication
    # keys are fixed: no per-round backward step, so round keys go to the round-key memory.
    restricts={"keys": ("stored", "loaded")},
    # Pipelines read the round-key memory too (pipelined:keys=stored); the narrow and unrolled
    # architectures step the key state per round, which a schedule with a run-up cannot do.
    architectures=("iterative", "pipelined"),
    oracle=OracleRef("cryptopp", "MARS"),
    monte_carlo=SubmissionMct("mars"),
    cryptopp=(CryptoppClass("MARS", "mars.h", "MARS"),),
    structure=_structure,
)
