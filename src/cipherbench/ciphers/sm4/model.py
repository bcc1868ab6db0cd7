"""Bit-exact SM4 reference model (GB/T 32907-2016, ISO/IEC 18033-3:2010/Amd 1:2021): 128-bit
blocks and keys, 32 rounds of an unbalanced (4-branch) Feistel network.

Byte order: bytes in, bytes out as the standard writes them: the block is the four big-endian
words X0 || X1 || X2 || X3 (X0 = bytes 0..3), the key MK0 || MK1 || MK2 || MK3 likewise; the
ciphertext is the reverse transform R(X32, X33, X34, X35) = X35 || X34 || X33 || X32.

Round i (0..31): X_{i+4} = X_i ^ T(X_{i+1} ^ X_{i+2} ^ X_{i+3} ^ rk_i), T = L o tau (four S-boxes,
then L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24). Key schedule: K0..K3 = MK ^ FK,
rk_i = K_{i+4} = K_i ^ T'(K_{i+1} ^ K_{i+2} ^ K_{i+3} ^ CK_i), T' = L' o tau with
L'(B) = B ^ B<<<13 ^ B<<<23. Decryption is the same with the round keys in reverse order.
"""

from __future__ import annotations

from functools import lru_cache

from ..base import checked_bytes

BLOCK_BYTES = 16
KEY_BYTES = 16
KEY_SIZES = (128,)
ROUNDS = 32
MASK32 = 0xFFFFFFFF

# GB/T 32907-2016 section 6.2 (the S-box table, row = high nibble, column = low nibble).
SBOX: tuple[int, ...] = (
    0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7, 0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05,
    0x2b, 0x67, 0x9a, 0x76, 0x2a, 0xbe, 0x04, 0xc3, 0xaa, 0x44, 0x13, 0x26, 0x49, 0x86, 0x06, 0x99,
    0x9c, 0x42, 0x50, 0xf4, 0x91, 0xef, 0x98, 0x7a, 0x33, 0x54, 0x0b, 0x43, 0xed, 0xcf, 0xac, 0x62,
    0xe4, 0xb3, 0x1c, 0xa9, 0xc9, 0x08, 0xe8, 0x95, 0x80, 0xdf, 0x94, 0xfa, 0x75, 0x8f, 0x3f, 0xa6,
    0x47, 0x07, 0xa7, 0xfc, 0xf3, 0x73, 0x17, 0xba, 0x83, 0x59, 0x3c, 0x19, 0xe6, 0x85, 0x4f, 0xa8,
    0x68, 0x6b, 0x81, 0xb2, 0x71, 0x64, 0xda, 0x8b, 0xf8, 0xeb, 0x0f, 0x4b, 0x70, 0x56, 0x9d, 0x35,
    0x1e, 0x24, 0x0e, 0x5e, 0x63, 0x58, 0xd1, 0xa2, 0x25, 0x22, 0x7c, 0x3b, 0x01, 0x21, 0x78, 0x87,
    0xd4, 0x00, 0x46, 0x57, 0x9f, 0xd3, 0x27, 0x52, 0x4c, 0x36, 0x02, 0xe7, 0xa0, 0xc4, 0xc8, 0x9e,
    0xea, 0xbf, 0x8a, 0xd2, 0x40, 0xc7, 0x38, 0xb5, 0xa3, 0xf7, 0xf2, 0xce, 0xf9, 0x61, 0x15, 0xa1,
    0xe0, 0xae, 0x5d, 0xa4, 0x9b, 0x34, 0x1a, 0x55, 0xad, 0x93, 0x32, 0x30, 0xf5, 0x8c, 0xb1, 0xe3,
    0x1d, 0xf6, 0xe2, 0x2e, 0x82, 0x66, 0xca, 0x60, 0xc0, 0x29, 0x23, 0xab, 0x0d, 0x53, 0x4e, 0x6f,
    0xd5, 0xdb, 0x37, 0x45, 0xde, 0xfd, 0x8e, 0x2f, 0x03, 0xff, 0x6a, 0x72, 0x6d, 0x6c, 0x5b, 0x51,
    0x8d, 0x1b, 0xaf, 0x92, 0xbb, 0xdd, 0xbc, 0x7f, 0x11, 0xd9, 0x5c, 0x41, 0x1f, 0x10, 0x5a, 0xd8,
    0x0a, 0xc1, 0x31, 0x88, 0xa5, 0xcd, 0x7b, 0xbd, 0x2d, 0x74, 0xd0, 0x12, 0xb8, 0xe5, 0xb4, 0xb0,
    0x89, 0x69, 0x97, 0x4a, 0x0c, 0x96, 0x77, 0x7e, 0x65, 0xb9, 0xf1, 0x09, 0xc5, 0x6e, 0xc6, 0x84,
    0x18, 0xf0, 0x7d, 0xec, 0x3a, 0xdc, 0x4d, 0x20, 0x79, 0xee, 0x5f, 0x3e, 0xd7, 0xcb, 0x39, 0x48,
)  # fmt: skip

# GB/T 32907-2016 section 7.3: the system parameter FK.
FK: tuple[int, ...] = (0xA3B1BAC6, 0x56AA3350, 0x677D9197, 0xB27022DC)


def ck(i: int) -> int:
    """The fixed parameter CK_i: byte j is (4i + j) * 7 mod 256 (section 7.3). Defined for any
    i >= 0; the cipher uses CK_0..CK_31 (the hardware's key state also steps to CK_32)."""
    return int.from_bytes(bytes(((4 * i + j) * 7) & 0xFF for j in range(4)), "big")


CK: tuple[int, ...] = tuple(ck(i) for i in range(ROUNDS))


def rotl(x: int, n: int) -> int:
    return ((x << n) | (x >> (32 - n))) & MASK32


def tau(x: int) -> int:
    """The S-box on each byte of a word."""
    return int.from_bytes(bytes(SBOX[b] for b in x.to_bytes(4, "big")), "big")


def linear(b: int) -> int:
    """L, the data path's linear transform."""
    return b ^ rotl(b, 2) ^ rotl(b, 10) ^ rotl(b, 18) ^ rotl(b, 24)


def linear_key(b: int) -> int:
    """L', the key schedule's linear transform."""
    return b ^ rotl(b, 13) ^ rotl(b, 23)


def t_data(x: int) -> int:
    return linear(tau(x))


def t_key(x: int) -> int:
    return linear_key(tau(x))


def _checked(value: bytes, what: str, size: int) -> bytes:
    return checked_bytes(value, "SM4", what, (size,))


def key_words(key: bytes, count: int = ROUNDS + 4) -> list[int]:
    """K_0 .. K_{count-1}: K0..K3 = MK ^ FK, then K_{i+4} = K_i ^ T'(K_{i+1}^K_{i+2}^K_{i+3}^CK_i)
    (the round keys are rk_i = K_{i+4})."""
    k = [int.from_bytes(key[4 * i:4 * i + 4], "big") ^ FK[i] for i in range(4)]
    for i in range(count - 4):
        k.append(k[i] ^ t_key(k[i + 1] ^ k[i + 2] ^ k[i + 3] ^ ck(i)))
    return k


@lru_cache(maxsize=256)
def _round_keys(key: bytes) -> tuple[int, ...]:
    return tuple(key_words(key)[4:])


def expand_key(key: bytes) -> list[int]:
    """rk_0 .. rk_31."""
    return list(_round_keys(_checked(key, "key", KEY_BYTES)))


def _run(keys: tuple[int, ...] | list[int], block: bytes, trace: list[bytes] | None) -> bytes:
    x = [int.from_bytes(block[4 * i:4 * i + 4], "big") for i in range(4)]
    for rk in keys:
        x = x[1:] + [x[0] ^ t_data(x[1] ^ x[2] ^ x[3] ^ rk)]
        if trace is not None:
            trace.append(b"".join(w.to_bytes(4, "big") for w in x))
    return b"".join(w.to_bytes(4, "big") for w in reversed(x))


def encrypt_block(key: bytes, block: bytes) -> bytes:
    keys = _round_keys(_checked(key, "key", KEY_BYTES))
    return _run(keys, _checked(block, "block", BLOCK_BYTES), None)


def decrypt_block(key: bytes, block: bytes) -> bytes:
    keys = _round_keys(_checked(key, "key", KEY_BYTES))
    return _run(keys[::-1], _checked(block, "block", BLOCK_BYTES), None)


def encrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """X_{i+1} || X_{i+2} || X_{i+3} || X_{i+4} after each round i (before the reverse transform)."""
    trace: list[bytes] = []
    _run(_round_keys(_checked(key, "key", KEY_BYTES)), _checked(block, "block", BLOCK_BYTES), trace)
    return trace


class SM4:
    name = "sm4"
    block_bits = 128
    key_sizes = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
