"""PRESENT (Bogdanov et al., CHES 2007; ISO/IEC 29192-2): 64-bit blocks, 80- and 128-bit keys.

No independent implementation is maintained in the places the project draws oracles from (Debian,
PyPI, Crypto++, Botan, cryptography, pycryptodome; docs/ciphers/present.md lists what was
searched), so it declares no oracle: the specification's vectors are the reference, and
verification and the trust table say that no second implementation checked it.
"""

from ..registry import CipherInfo


def _model():
    from .model import Present

    return Present()


def _hardware(options):
    from .hw import PresentHardware

    return PresentHardware(options)


def _vector_sets(key_sizes):
    """The typed-in vectors of the CHES 2007 paper and Poschmann's thesis, both directions."""
    from ...verify.kat_formats import typed_cases
    from .vectors import known_answers

    yield "present-spec", typed_cases(known_answers(), key_sizes)


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
    """The hardware description with the masked round-based datapath (masked.py)."""
    from .masked import HARDWARE

    return HARDWARE(options)


CIPHER = CipherInfo(
    name="present",
    title="PRESENT (ISO/IEC 29192-2)",
    block_bits=64,
    key_sizes=(80, 128),
    model=_model,
    hardware=_hardware,
    params={},
    # Narrow (narrow.py): the serialized S-box layer, W/4 lanes (4 bits: one S-box); the key
    # register alone (rewind) or with the key and the decryption start state kept (stored).
    # Masked (masked.py): the round-based core, encryption only.
    restricts={"narrow:width": ("32", "16", "8", "4"), "masked:width": ("64",),
               "masked:ops": ("encrypt",)},
    architectures=("iterative", "unrolled", "pipelined", "narrow", "masked"),
    vector_sets=_vector_sets,
    oracle=None,
    aliases=("PRESENT-80", "PRESENT-128"),
    components=_components,
    proofs=_proofs,
    arch_hardware={"narrow": _narrow_hardware, "masked": _masked_hardware},
)
