"""RC6-32/20/b (Rivest, Robshaw, Sidney, Yin; AES finalist): 128-bit blocks, 128-, 192- and 256-bit keys."""

from ..registry import CipherInfo, CipherStructure, CryptoppClass, OracleRef


def _model():
    from .model import RC6

    return RC6()


def _hardware(options):
    from .hw import Rc6Hardware

    return Rc6Hardware(options)


def _vector_sets(key_sizes):
    """The RC6 paper's test vectors (typed in), then every vector file in kat/rc6 (NESSIE, Crypto++)."""
    from ...verify.kat_formats import kat_folder_sets, typed_cases
    from .vectors import known_answers

    yield "rc6-paper", typed_cases(known_answers(), key_sizes)
    yield from kat_folder_sets("rc6", key_sizes)


def _components():
    from .components import catalog_entries

    return catalog_entries()


def _proofs():
    from .components import proof_pairs

    return proof_pairs()


def _structure():
    from . import model

    keys = model.expand_key(bytes(range(16)))
    return CipherStructure(rounds=str(model.ROUNDS), subkeys=len(keys),
                           subkey_bits=max(k.bit_length() for k in keys), sboxes=())


CIPHER = CipherInfo(
    name="rc6",
    title="RC6-32/20 (AES finalist)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={},
    vector_sets=_vector_sets,
    # 3 max(c, 44) mixing iterations before the first round key: the schedule cannot be walked
    # backward per round, so round keys are computed once per key into the round-key memory.
    restricts={"keys": ("stored", "loaded")},
    # Pipelines read the round-key memory too (pipelined:keys=stored); the narrow and unrolled
    # architectures step the key state per round, which a schedule with a run-up cannot do.
    architectures=("iterative", "pipelined"),
    oracle=OracleRef("cryptopp", "RC6"),
    aliases=("RC6™",),
    cryptopp=(CryptoppClass("RC6", "rc6.h", "RC6"),),
    components=_components,
    proofs=_proofs,
    structure=_structure,
)
