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


CIPHER = CipherInfo(
    name="gift",
    title="GIFT-128 (GIFT-COFB's block cipher)",
    block_bits=128,
    key_sizes=(128,),
    model=_model,
    hardware=_hardware,
    params={},
    architectures=("iterative", "unrolled", "pipelined"),
    vector_sets=_vector_sets,
    oracle=None,
    aliases=("GIFT-128", "GIFT128"),
    components=_components,
    proofs=_proofs,
)
