"""Bit-exact Serpent reference model (Anderson, Biham, Knudsen; AES finalist): 128/192/256-bit keys.

Byte order: the one of NESSIE, Crypto++, Botan, libgcrypt and pyserpent. Block byte ``4*i + j`` is byte
``j`` (least significant first) of the 32-bit word ``X_i``; the key is read the same way into the
prekey words ``w_-8 .. w_-1``. The AES-submission files (``ecb_vk.txt``, ``ecb_tbl.txt``, ...) print
KEY, PT and CT as 128/192/256-bit *numbers* whose least significant bit is bit 0 of ``X_0``: their hex
string is the byte-reverse of ours (:func:`from_submission_hex` / :func:`to_submission_hex`).

The cipher runs in the bitsliced description of the specification (section 3 of the Serpent paper):
the four words ``X_0..X_3`` hold bit ``j`` of nibble ``j`` in bit ``j`` of each word, so one S-box
layer is 32 parallel 4-bit S-box applications done with word-wide AND/XOR. Each S-box is turned into
straight-line code from the algebraic normal form of its table when the module loads, so the only
typed-in facts are the eight S-box tables. The submission's intermediate values (``ecb_iv.txt``) are in
the "standard" representation, the bitsliced one after the initial permutation IP; the conversions are
:func:`bitslice_to_standard` and :func:`standard_to_bitslice`.

Short keys are padded as the specification says: a single 1 bit just above the key's most significant
bit, then zeros up to 256 bits.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import lru_cache

from ...components.rotators import rotl, rotr
from ..base import checked_bytes

BLOCK_BYTES = 16
KEY_SIZES = (128, 192, 256)
ROUNDS = 32
PHI = 0x9E3779B9  # fractional part of the golden ratio, as in the key-schedule recurrence
_MASK = 0xFFFFFFFF

# The eight S-boxes of the specification (S0..S7), input nibble -> output nibble.
SBOXES: tuple[tuple[int, ...], ...] = (
    (3, 8, 15, 1, 10, 6, 5, 11, 14, 13, 4, 2, 7, 0, 9, 12),
    (15, 12, 2, 7, 9, 0, 5, 10, 1, 11, 14, 8, 6, 13, 3, 4),
    (8, 6, 7, 9, 3, 12, 10, 15, 13, 1, 14, 4, 0, 11, 5, 2),
    (0, 15, 11, 8, 12, 9, 6, 3, 13, 1, 2, 4, 10, 7, 5, 14),
    (1, 15, 8, 3, 12, 0, 11, 6, 2, 5, 4, 10, 9, 14, 7, 13),
    (15, 5, 2, 11, 4, 10, 9, 12, 0, 3, 14, 8, 13, 6, 7, 1),
    (7, 2, 12, 5, 8, 4, 6, 11, 14, 9, 1, 15, 13, 3, 10, 0),
    (1, 13, 15, 0, 14, 8, 2, 11, 7, 4, 12, 10, 9, 3, 5, 6),
)  # fmt: skip


def inverse_table(table: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(table)
    for x, y in enumerate(table):
        inverse[y] = x
    return tuple(inverse)


INVERSE_SBOXES: tuple[tuple[int, ...], ...] = tuple(inverse_table(box) for box in SBOXES)

Words = tuple[int, int, int, int]
_SliceFunction = Callable[[int, int, int, int], Words]


# --- bitsliced S-boxes from the algebraic normal form ------------------------------------------------


def algebraic_normal_form(table: tuple[int, ...], bit: int) -> list[int]:
    """Monomials (as 4-bit masks of input bits) whose XOR is output ``bit`` of the 4-bit S-box."""
    coefficients = [(y >> bit) & 1 for y in table]
    # The binary Moebius transform turns the truth table into ANF coefficients.
    step = 1
    while step < 16:
        for x in range(16):
            if x & step:
                coefficients[x] ^= coefficients[x ^ step]
        step <<= 1
    return [monomial for monomial in range(16) if coefficients[monomial]]


def _monomial_code(monomial: int) -> str:
    # A product of inputs built from the product without its highest input: each AND is computed once.
    if monomial & (monomial - 1) == 0:
        return ""
    high = monomial.bit_length() - 1
    rest = monomial & ~(1 << high)
    return f"    m{monomial} = {_monomial_name(rest)} & x{high}\n"


def _monomial_name(monomial: int) -> str:
    if monomial & (monomial - 1) == 0:
        return f"x{monomial.bit_length() - 1}"
    return f"m{monomial}"


def _needed_monomials(anfs: list[list[int]]) -> list[int]:
    needed: set[int] = set()
    for monomials in anfs:
        for monomial in monomials:
            while monomial & (monomial - 1):  # and every prefix product it is built from
                needed.add(monomial)
                monomial &= ~(1 << (monomial.bit_length() - 1))
    return sorted(needed)


def bitslice_function(table: tuple[int, ...]) -> _SliceFunction:
    """32 parallel applications of a 4-bit S-box on words (bit j of x0..x3 = nibble j, x0 lowest)."""
    anfs = [algebraic_normal_form(table, bit) for bit in range(4)]
    lines = ["def apply(x0, x1, x2, x3):\n"]
    lines += [_monomial_code(m) for m in _needed_monomials(anfs)]
    for bit, monomials in enumerate(anfs):
        terms = [_monomial_name(m) for m in monomials if m]
        if 0 in monomials:  # the constant term 1 complements every lane
            terms.append(str(_MASK))
        lines.append(f"    y{bit} = {' ^ '.join(terms) if terms else '0'}\n")
    lines.append("    return y0, y1, y2, y3\n")
    namespace: dict[str, _SliceFunction] = {}
    # Generated from the table rather than typed, so the tables stay the single source of truth.
    exec("".join(lines), namespace)  # noqa: S102 - code built above from integer tables only
    return namespace["apply"]


_SB: tuple[_SliceFunction, ...] = tuple(bitslice_function(box) for box in SBOXES)
_SB_INV: tuple[_SliceFunction, ...] = tuple(bitslice_function(box) for box in INVERSE_SBOXES)


def apply_sbox(index: int, words: Words) -> Words:
    """S-box ``index`` (0..7) applied in bitslice mode to four words."""
    return _SB[index](*words)


# --- linear transformation ---------------------------------------------------------------------------


def linear_transform(x0: int, x1: int, x2: int, x3: int) -> Words:
    """The linear transformation LT of the bitsliced description."""
    x0 = rotl(x0, 13)
    x2 = rotl(x2, 3)
    x1 ^= x0 ^ x2
    x3 ^= x2 ^ ((x0 << 3) & _MASK)
    x1 = rotl(x1, 1)
    x3 = rotl(x3, 7)
    x0 ^= x1 ^ x3
    x2 ^= x3 ^ ((x1 << 7) & _MASK)
    x0 = rotl(x0, 5)
    x2 = rotl(x2, 22)
    return x0, x1, x2, x3


def inverse_linear_transform(x0: int, x1: int, x2: int, x3: int) -> Words:
    """LT^-1: the steps of LT undone in reverse order."""
    x2 = rotr(x2, 22)
    x0 = rotr(x0, 5)
    x2 ^= x3 ^ ((x1 << 7) & _MASK)
    x0 ^= x1 ^ x3
    x3 = rotr(x3, 7)
    x1 = rotr(x1, 1)
    x3 ^= x2 ^ ((x0 << 3) & _MASK)
    x1 ^= x0 ^ x2
    x2 = rotr(x2, 3)
    x0 = rotr(x0, 13)
    return x0, x1, x2, x3


# --- checks and byte order ---------------------------------------------------------------------------


def _checked_key(key: bytes) -> bytes:
    return checked_bytes(key, "Serpent", "key", (16, 24, 32))


def _checked_block(block: bytes) -> bytes:
    return checked_bytes(block, "Serpent", "block", (BLOCK_BYTES,))


def from_submission_hex(text: str) -> bytes:
    """Bytes in this model's order from a number printed in the AES-submission files (byte-reverse)."""
    return bytes.fromhex(text)[::-1]


def to_submission_hex(data: bytes) -> str:
    """The AES-submission files' printing (a big number) of key, block or state bytes."""
    return bytes(data)[::-1].hex()


def bitslice_to_standard(words: Words) -> int:
    """IP of the bitsliced state: bit 4*j + i of the 128-bit result is bit j of word X_i."""
    result = 0
    for j in range(32):
        for i in range(4):
            result |= ((words[i] >> j) & 1) << (4 * j + i)
    return result


def standard_to_bitslice(value: int) -> Words:
    """FP: the inverse of :func:`bitslice_to_standard`."""
    words = [0, 0, 0, 0]
    for j in range(32):
        for i in range(4):
            words[i] |= ((value >> (4 * j + i)) & 1) << j
    return words[0], words[1], words[2], words[3]


def words_of(data: bytes) -> Words:
    """Four little-endian words X_0..X_3 of a 16-byte block or state."""
    x0, x1, x2, x3 = struct.unpack("<4I", data)
    return x0, x1, x2, x3


def bytes_of(words: Words) -> bytes:
    return struct.pack("<4I", *words)


# --- key schedule ------------------------------------------------------------------------------------


def padded_key(key: bytes) -> bytes:
    """The 256-bit key: a 1 bit above the key's most significant bit, then zeros (spec section 3)."""
    key = _checked_key(key)
    if len(key) == 32:
        return key
    return key + b"\x01" + bytes(31 - len(key))


def prekeys(key: bytes) -> list[int]:
    """The 132 prekey words w_0 .. w_131 of the affine recurrence with PHI."""
    w = list(struct.unpack("<8I", padded_key(key)))  # w_-8 .. w_-1
    for i in range(132):
        w.append(rotl(w[i] ^ w[i + 3] ^ w[i + 5] ^ w[i + 7] ^ PHI ^ i, 11))
    return w[8:]


@lru_cache(maxsize=256)
def _schedule(key: bytes) -> tuple[Words, ...]:
    """The 33 bitsliced round keys K_0..K_32; cached because a key usually serves many blocks."""
    w = prekeys(key)
    # K_i goes through S-box (3 - i) mod 8: S3, S2, S1, S0, S7, ... as in the specification.
    return tuple(_SB[(3 - i) % 8](*w[4 * i : 4 * i + 4]) for i in range(ROUNDS + 1))


def round_keys(key: bytes) -> list[Words]:
    """K_0..K_32 in the bitsliced form, each as four words (X_0 first)."""
    return list(_schedule(_checked_key(key)))


def expand_key(key: bytes) -> list[int]:
    """The 132 subkey words: K_i is words 4*i .. 4*i+3 (bitsliced form, X_0 first)."""
    return [word for round_key in round_keys(key) for word in round_key]


# --- the rounds --------------------------------------------------------------------------------------


def _encrypt_words(keys: tuple[Words, ...], x: Words, trace: list[bytes] | None) -> Words:
    x0, x1, x2, x3 = x
    for r in range(ROUNDS):
        k0, k1, k2, k3 = keys[r]
        x0, x1, x2, x3 = _SB[r & 7](x0 ^ k0, x1 ^ k1, x2 ^ k2, x3 ^ k3)
        if r < ROUNDS - 1:
            x0, x1, x2, x3 = linear_transform(x0, x1, x2, x3)
        else:  # the last round replaces LT with the 33rd key
            k0, k1, k2, k3 = keys[ROUNDS]
            x0, x1, x2, x3 = x0 ^ k0, x1 ^ k1, x2 ^ k2, x3 ^ k3
        if trace is not None:
            trace.append(bytes_of((x0, x1, x2, x3)))
    return x0, x1, x2, x3


def _decrypt_words(keys: tuple[Words, ...], x: Words, trace: list[bytes] | None) -> Words:
    x0, x1, x2, x3 = x
    k0, k1, k2, k3 = keys[ROUNDS]
    x0, x1, x2, x3 = x0 ^ k0, x1 ^ k1, x2 ^ k2, x3 ^ k3
    for r in range(ROUNDS - 1, -1, -1):
        if r < ROUNDS - 1:
            x0, x1, x2, x3 = inverse_linear_transform(x0, x1, x2, x3)
        x0, x1, x2, x3 = _SB_INV[r & 7](x0, x1, x2, x3)
        k0, k1, k2, k3 = keys[r]
        x0, x1, x2, x3 = x0 ^ k0, x1 ^ k1, x2 ^ k2, x3 ^ k3
        if trace is not None:
            trace.append(bytes_of((x0, x1, x2, x3)))
    return x0, x1, x2, x3


def encrypt_block(key: bytes, block: bytes) -> bytes:
    keys = _schedule(_checked_key(key))
    return bytes_of(_encrypt_words(keys, words_of(_checked_block(block)), None))


def decrypt_block(key: bytes, block: bytes) -> bytes:
    keys = _schedule(_checked_key(key))
    return bytes_of(_decrypt_words(keys, words_of(_checked_block(block)), None))


def encrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """32 states in this model's byte order: after round 0, 1, ..., 31 (the last is the ciphertext).

    The state after round r is the submission's ``R[r]`` (ecb_iv.txt) in bitsliced form:
    ``R[r] == bitslice_to_standard(words_of(state))``.
    """
    keys = _schedule(_checked_key(key))
    states: list[bytes] = []
    _encrypt_words(keys, words_of(_checked_block(block)), states)
    return states


def decrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """32 states of decryption: the input of round 31, 30, ..., 0 (the last is the plaintext).

    The state after undoing round r is the submission's ``Rinv[r]`` for r >= 1, i.e. the encryption
    state after round r - 1, and the plaintext for r = 0.
    """
    keys = _schedule(_checked_key(key))
    states: list[bytes] = []
    _decrypt_words(keys, words_of(_checked_block(block)), states)
    return states


class Serpent:
    """The Serpent reference as a ``CipherModel``."""

    name: str = "serpent"
    block_bits: int = 128
    key_sizes: tuple[int, ...] = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
