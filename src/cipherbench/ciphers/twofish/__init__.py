"""Twofish (Schneier et al.; AES finalist): 128-bit blocks, 128-, 192- and 256-bit keys."""

from ..registry import CipherInfo, CipherStructure, CryptoppClass, OracleRef, Param


def _model():
    from .model import Twofish

    return Twofish()


def _hardware(options):
    from .hw import TwofishHardware

    return TwofishHardware(options)


def _vector_sets(key_sizes):
    """The Twofish paper's known answers (typed in), then every vector file in kat/twofish."""
    from ...verify.kat_formats import kat_folder_sets, typed_cases
    from .vectors import known_answers

    yield "twofish-spec", typed_cases(known_answers(), key_sizes)
    yield from kat_folder_sets("twofish", key_sizes)


def _narrow_hardware(options):
    """The hardware description with narrow datapaths (narrow.py)."""
    from .narrow import HARDWARE

    return HARDWARE(options)


def _components():
    from .components import catalog_entries

    return catalog_entries()


def _proofs():
    from .components import proof_pairs

    return proof_pairs()


def _structure():
    from . import model

    key = bytes(range(16))
    # K0..K39 and the S-box key words S0, S1 that g uses (a parameter table counts both sets).
    keys = [*model.expand_key(key), *model.sbox_key_words(key)]
    return CipherStructure(rounds=str(model.ROUNDS), subkeys=len(keys),
                           subkey_bits=max(k.bit_length() for k in keys),
                           sboxes=tuple(tuple(t) for q in model.Q_TABLES for t in q))


CIPHER = CipherInfo(
    name="twofish",
    title="Twofish (AES finalist)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={
        "whiten": Param(("cycles", "fold"), "cycles",
                        "cycles: whitening in clocks of their own, one subkey pair per clock from "
                        "a single generator (20 clocks; the NSA's iterative Twofish); fold: "
                        "whitening inside rounds 1 and 16 (16 clocks; K0..K7 computed at key load "
                        "into the key state)"),
        "subkeys": Param(("fly", "ahead"), "fly",
                         "fly: a round's subkey pair made in the clock that uses it (NSA); "
                         "ahead: made one clock early into the key state, so no h function "
                         "sits in front of the round (one more pair generator at key load)"),
        "keying": Param(("zero", "partial", "full"), "zero",
                        "key-dependent S-boxes (Twofish paper 7.2): zero = q chains keyed on the "
                        "fly in every g function (NSA 5.5); partial = s_0..s_3 precomputed once "
                        "per key into four 256 x 8 memories (256 fill clocks, no key agility); "
                        "full = their MDS columns, four 256 x 32 memories, g = 4 lookups + XOR"),
        "q": Param(("nibble", "table"), "nibble",
                   "q0/q1: nibble = the four 4-bit tables with XORs and rotations (Twofish "
                   "paper 4.3.5); table = one 256-entry lookup per q"),
    },
    # Round keys come from the step index in the direction being walked (a Feistel decryption
    # round needs the pair of the next key state), so a round-key memory filled forward does not
    # fit (docs/ciphers/twofish.md). Narrow (ciphers/twofish/narrow.py): the key words never
    # change, so there is nothing to store (rewind: one key register, which never moves). Its
    # widths (64, 32, 8) are checked when built, as AES's: restricting them here would make 64
    # the default and rename the default core.
    restricts={"keys": ("fly", "rewind")},
    architectures=("iterative", "unrolled", "pipelined", "narrow"),
    vector_sets=_vector_sets,
    oracle=OracleRef("cryptopp", "Twofish"),
    gcm_oracles=(OracleRef("botan", "Twofish"),),
    cryptopp=(CryptoppClass("Twofish", "twofish.h", "Twofish"),),
    arch_hardware={"narrow": _narrow_hardware},
    components=_components,
    proofs=_proofs,
    structure=_structure,
)
