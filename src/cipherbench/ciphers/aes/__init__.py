"""AES / Rijndael with 128-bit blocks (FIPS-197)."""

from ...components.aes_sbox import SBOX_KINDS
from ..registry import CipherInfo, Param


def _model():
    from .model import AES

    return AES()


def _hardware(options):
    from .hw import AesHardware

    return AesHardware(options)


CIPHER = CipherInfo(
    name="aes",
    title="AES (Rijndael, FIPS-197)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    params={
        "sbox": Param(SBOX_KINDS, "table",
                      "S-box implementation: table = lookup per direction; gf-inv = shared "
                      "GF(2^8) inverse table with affine maps"),
    },
)
