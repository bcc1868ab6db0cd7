"""AES / Rijndael with 128-bit blocks (FIPS-197)."""

from ...components.aes_sbox import SBOX_KINDS

# A synchronous-read memory (block RAM on FPGAs); only under architectures whose round registers
# the S-box output (hw.py: BRAM).
SBOX_CHOICES = SBOX_KINDS + ("bram",)
from ..registry import CipherInfo, CipherStructure, CryptoppClass, OracleRef, Param


def _model():
    from .model import AES

    return AES()


def _hardware(options):
    from .hw import AesHardware

    return AesHardware(options)


def _vector_sets(key_sizes):
    """FIPS-197 examples (typed in), then every AESAVS KAT and MMT file found for each key size."""
    from ...verify.vectors import VectorCase, read_rsp
    from .vectors import aesavs_files, known_answers

    typed = []
    for key, plain, cipher in known_answers():
        if len(key) * 8 in key_sizes:
            typed.append(VectorCase(key, plain, cipher, False, "FIPS-197"))
            typed.append(VectorCase(key, cipher, plain, True, "FIPS-197"))
    yield "fips-197", typed
    for bits in key_sizes:
        for path in aesavs_files(bits):
            yield path.stem, read_rsp(path)


def _monte_carlo(chain, key_sizes, directions, outer=None, reference=None):
    """The AESAVS ECB Monte Carlo test (mct.py)."""
    from .mct import aesavs_test

    return aesavs_test(chain, key_sizes, directions, outer, reference)


def _narrow_hardware(options):
    """The hardware description with narrow datapaths (narrow.py)."""
    from .narrow import HARDWARE

    return HARDWARE(options)


def _masked_hardware(options):
    """The hardware description with masked datapaths (masked/)."""
    from .masked import HARDWARE

    return HARDWARE(options)


def _components():
    from .components import catalog_entries

    return catalog_entries()


def _proofs():
    from .components import proof_pairs

    return proof_pairs()


def _structure():
    from . import model

    keys = model.expand_key(bytes(range(16)))
    return CipherStructure(rounds=str(model.rounds(128)), subkeys=len(keys),
                           subkey_bits=8 * len(keys[0]), sboxes=(tuple(model.SBOX),))


CIPHER = CipherInfo(
    name="aes",
    title="AES (Rijndael, FIPS-197)",
    block_bits=128,
    key_sizes=(128, 192, 256),
    model=_model,
    hardware=_hardware,
    vector_sets=_vector_sets,
    params={
        "sbox": Param(SBOX_CHOICES, "table",
                      "S-box implementation: table = lookup per direction; gf-inv = shared "
                      "GF(2^8) inverse table with affine maps; composite = Canright-style "
                      "GF(((2^2)^2)^2) logic, inverter shared by both directions; bram = data "
                      "S-boxes as synchronous-read memories (FPGA block RAM) whose read register "
                      "is the cut after SubBytes: pipelined with inner >= 1 only"),
    },
    oracle=OracleRef("cryptography", "AES"),
    gcm_oracles=(OracleRef("cryptography", "AES"), OracleRef("pycryptodome", "AES"),
                 OracleRef("botan", "AES-{bits}")),
    gcm_known_answers=("gcmEncryptExtIV{bits}.rsp", "gcmDecrypt{bits}.rsp"),
    monte_carlo=_monte_carlo,
    aliases=("Rijndael",),
    openssl="aes-128-ecb",
    cryptopp=(CryptoppClass("AES", "aes.h", "AES"),),
    arch_hardware={"narrow": _narrow_hardware, "masked": _masked_hardware},
    # The masked cores (masked/) encrypt, 128-bit keys; widths as masked/__init__.py builds them.
    restricts={"masked:ops": ("encrypt",), "masked:width": ("8", "64", "128"), "masked:sbox": ("composite",)},
    components=_components,
    proofs=_proofs,
    structure=_structure,
)
