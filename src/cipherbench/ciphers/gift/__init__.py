"""GIFT-128 (Banik et al., CHES 2017; the block cipher of GIFT-COFB): 128-bit blocks and keys.

No independent implementation is maintained in the places the project draws oracles from (Debian,
PyPI, Crypto++, Botan, cryptography, pycryptodome; docs/ciphers/gift.md lists what was searched),
so it declares no oracle: the designers' test vectors are the reference, and verification and the
trust table say that no second implementation checked it.
"""

from ..registry import CipherInfo


def _model():
    from .model import Gift128

    return Gift128()


def _hardware(options):
    from .hw import GiftHardware

    return GiftHardware(options)


def _vector_sets(key_sizes):
    """The designers' three GIFT-128 test vectors, both directions."""
    from ...verify.kat_formats import typed_cases
    from .vectors import known_answers

    yield "gift-designers", typed_cases(known_answers(), key_sizes)


def _components():
    from .components import catalog_entries

    return catalog_entries()


def _proofs():
    from .components import proof_pairs

    return proof_pairs()


def _narrow_hardware(options):
    """The hardware description with serialized datapaths (narrow.py)."""
    from .narrow import HARDWARE

    return HARDWARE(options)


def _masked_hardware(options):
    """The hardware description with the masked round-based datapath (masked_round.py)."""
    from .masked_round import HARDWARE

    return HARDWARE(options)


CIPHER = CipherInfo(
    name="gift",
    title="GIFT-128 (GIFT-COFB's block cipher)",
    block_bits=128,
    key_sizes=(128,),
    model=_model,
    hardware=_hardware,
    params={},
    # Narrow (narrow.py): the serialized S-box layer, W/4 lanes (4 bits: one S-box). The key state
    # of every round is wiring of the key, so the one register holds the key between blocks:
    # nothing to store (keys=rewind only).
    # Masked (masked_round.py): the round-based core, encryption only.
    restricts={"narrow:width": ("32", "16", "8", "4"), "narrow:keys": ("rewind",),
               "masked:width": ("128",), "masked:ops": ("encrypt",)},
    architectures=("iterative", "unrolled", "pipelined", "narrow", "masked"),
    vector_sets=_vector_sets,
    oracle=None,
    aliases=("GIFT-128", "GIFT128"),
    components=_components,
    proofs=_proofs,
    arch_hardware={"narrow": _narrow_hardware, "masked": _masked_hardware},
)
