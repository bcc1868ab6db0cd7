"""PRESENT reference model (Bogdanov et al., "PRESENT: An Ultra-Lightweight Block Cipher",
CHES 2007; ISO/IEC 29192-2): 64-bit block, 80- or 128-bit key, 31 rounds.

Typed from the CHES 2007 paper, section 3:

- The state is b63 .. b0; block byte 0 holds b63 .. b56 (the paper's hexadecimal order). Round i
  (1..31): addRoundKey(K_i), sBoxLayer (the 4-bit S-box on each nibble b_{4j+3} .. b_{4j}), pLayer
  (bit i moves to position P(i) = 16 i mod 63, P(63) = 63); then addRoundKey(K_32).
- Key schedule, 80-bit key: the register k79 .. k0 (key byte 0 holds k79 .. k72); K_i is its
  leftmost 64 bits k79 .. k16. After K_i is taken: rotate left by 61, S-box on k79 .. k76, XOR the
  round counter i into k19 .. k15.
- 128-bit key (paper Appendix II): K_i = k127 .. k64; rotate left by 61, S-box on k127 .. k124 and
  on k123 .. k120, XOR the round counter i into k66 .. k62.

Decryption: the rounds undone in reverse (addRoundKey(K_32), then for i = 31..1: pLayer^-1,
sBoxLayer^-1, addRoundKey(K_i)).
"""

from __future__ import annotations

from functools import lru_cache

from ..base import checked_bytes

ROUNDS = 31
BLOCK_BYTES = 8
KEY_BITS = (80, 128)

# The S-box of the paper's Table 1: S[x] for x = 0 .. F.
SBOX = (0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2)
INVERSE_SBOX = tuple(SBOX.index(y) for y in range(16))
# pLayer (paper Table 2): bit i of the state moves to bit P(i).
PERMUTATION = tuple(63 if i == 63 else (16 * i) % 63 for i in range(64))
INVERSE_PERMUTATION = tuple(PERMUTATION.index(j) for j in range(64))

MASK64 = (1 << 64) - 1


def sbox_layer(state: int, box: tuple[int, ...] = SBOX) -> int:
    """The S-box on each of the 16 nibbles of a 64-bit state."""
    out = 0
    for j in range(16):
        out |= box[(state >> (4 * j)) & 0xF] << (4 * j)
    return out


def p_layer(state: int, table: tuple[int, ...] = PERMUTATION) -> int:
    """Bit i of ``state`` to bit table[i]."""
    out = 0
    for i in range(64):
        out |= ((state >> i) & 1) << table[i]
    return out


def key_update(register: int, counter: int, key_bits: int) -> int:
    """The key register after round ``counter`` (1..31): rotate, S-box, counter."""
    mask = (1 << key_bits) - 1
    register = ((register << 61) | (register >> (key_bits - 61))) & mask
    top = key_bits - 4
    register = (register & ~(0xF << top)) | (SBOX[(register >> top) & 0xF] << top)
    if key_bits == 128:
        register = (register & ~(0xF << 120)) | (SBOX[(register >> 120) & 0xF] << 120)
        return register ^ (counter << 62)
    return register ^ (counter << 15)


def key_downdate(register: int, counter: int, key_bits: int) -> int:
    """key_update undone: the register before round ``counter``'s update."""
    mask = (1 << key_bits) - 1
    if key_bits == 128:
        register ^= counter << 62
        register = (register & ~(0xF << 120)) | (INVERSE_SBOX[(register >> 120) & 0xF] << 120)
    else:
        register ^= counter << 15
    top = key_bits - 4
    register = (register & ~(0xF << top)) | (INVERSE_SBOX[(register >> top) & 0xF] << top)
    return ((register >> 61) | (register << (key_bits - 61))) & mask


def _checked(value: object, what: str, lengths: tuple[int, ...]) -> bytes:
    return checked_bytes(value, "PRESENT", what, lengths)


@lru_cache(maxsize=256)
def _round_keys(key: bytes) -> tuple[int, ...]:
    bits = 8 * len(key)
    register = int.from_bytes(key, "big")
    keys = []
    for counter in range(1, ROUNDS + 2):
        keys.append(register >> (bits - 64))
        if counter <= ROUNDS:
            register = key_update(register, counter, bits)
    return tuple(keys)


def round_keys(key: bytes) -> tuple[int, ...]:
    """K_1 .. K_32 as 64-bit integers."""
    return _round_keys(_checked(key, "key", (10, 16)))


def encrypt_trace(key: bytes, block: bytes) -> list[int]:
    """The state after each of the 31 rounds (before the next addRoundKey), then the ciphertext."""
    keys = round_keys(key)
    state = int.from_bytes(_checked(block, "block", (BLOCK_BYTES,)), "big")
    states = []
    for i in range(ROUNDS):
        state = p_layer(sbox_layer(state ^ keys[i]))
        states.append(state)
    states.append(state ^ keys[ROUNDS])
    return states


def encrypt_block(key: bytes, block: bytes) -> bytes:
    return encrypt_trace(key, block)[-1].to_bytes(BLOCK_BYTES, "big")


def decrypt_block(key: bytes, block: bytes) -> bytes:
    keys = round_keys(key)
    state = int.from_bytes(_checked(block, "block", (BLOCK_BYTES,)), "big") ^ keys[ROUNDS]
    for i in reversed(range(ROUNDS)):
        state = sbox_layer(p_layer(state, INVERSE_PERMUTATION), INVERSE_SBOX) ^ keys[i]
    return state.to_bytes(BLOCK_BYTES, "big")


class Present:
    """The PRESENT reference as a ``CipherModel``."""

    name: str = "present"
    block_bits: int = 64
    key_sizes: tuple[int, ...] = KEY_BITS

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
