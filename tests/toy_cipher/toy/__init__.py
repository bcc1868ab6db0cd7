"""Toy: a 2-round Feistel network on 16-bit blocks with a 16-bit key, for tests only.

It is the cipher tests/test_external_cipher.py registers from outside the project (a copy of this
folder in a temporary directory named by $CIPHERBENCH_CIPHERS), to show that a cipher's folder is
all the project needs. Its model is its only reference: no other implementation exists, so it
declares no oracle, and verification says so.
"""

from cipherbench.ciphers.registry import CipherInfo


def _model():
    from .model import Toy

    return Toy()


def _hardware(options):
    from .hw import ToyHardware

    return ToyHardware(options)


def _vector_sets(key_sizes):
    """Known answers typed in from the model (the model is the reference)."""
    from cipherbench.verify.vectors import VectorCase

    from .model import KNOWN_ANSWERS

    cases = []
    for key, plain, cipher in KNOWN_ANSWERS:
        cases.append(VectorCase(bytes.fromhex(key), bytes.fromhex(plain), bytes.fromhex(cipher),
                                False, "toy model"))
        cases.append(VectorCase(bytes.fromhex(key), bytes.fromhex(cipher), bytes.fromhex(plain),
                                True, "toy model"))
    yield "toy-model", cases


CIPHER = CipherInfo(
    name="toy",
    title="Toy Feistel (2 rounds, 16-bit block and key; tests only)",
    block_bits=16,
    key_sizes=(16,),
    model=_model,
    hardware=_hardware,
    vector_sets=_vector_sets,
    restricts={"keys": ("fly",)},
    architectures=("iterative",),
)
