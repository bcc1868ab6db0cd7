"""Bit-exact TDEA (Triple DES, NIST SP 800-67) reference model: EDE with two or three keys.

Encryption is C = E_K3(D_K2(E_K1(P))) and decryption P = D_K1(E_K2(D_K3(C))) (SP 800-67 section 3).
Key layouts, in bytes: 24 bytes = K1 || K2 || K3 (keying option 1, "3-key", 192 bits with parity);
16 bytes = K1 || K2 with K3 = K1 (keying option 2, "2-key", 128 bits with parity). Bytes in, bytes out
in the standard's byte order (the DES bit numbering of FIPS 46-3, bit 1 = MSB of byte 0). Each DES layer is
the project's DES model, run on integers so that the state does not round-trip through bytes.
"""

from __future__ import annotations

from ..base import checked_bytes
from ..des import model as des

BLOCK_BYTES = 8
KEY_SIZES = (128, 192)


def _checked_key(key: bytes) -> bytes:
    return checked_bytes(key, "TDEA", "key", (16, 24), "2-key K1||K2 or 3-key K1||K2||K3")


def _checked_block(block: bytes) -> int:
    return int.from_bytes(checked_bytes(block, "TDEA", "block", (BLOCK_BYTES,)), "big")


def split_key(key: bytes) -> tuple[bytes, bytes, bytes]:
    """(K1, K2, K3) of a 16- or 24-byte TDEA key; a 16-byte key has K3 = K1."""
    key = _checked_key(key)
    k1, k2 = key[0:8], key[8:16]
    k3 = key[16:24] if len(key) == 24 else k1
    return k1, k2, k3


def expand_key(key: bytes) -> list[list[bytes]]:
    """The DES round keys K1..K16 (6 bytes each) of K1, K2 and K3, in that order."""
    return [des.expand_key(k) for k in split_key(key)]


# (key index, decrypt?) of the three DES operations, in the order they are applied.
_ENCRYPT_STEPS = ((0, False), (1, True), (2, False))
_DECRYPT_STEPS = ((2, True), (1, False), (0, True))


def _run(key: bytes, block: bytes, steps: tuple[tuple[int, bool], ...],
         trace: list[int] | None = None) -> int:
    schedules = [des.schedule(k) for k in split_key(key)]
    state = _checked_block(block)
    for index, decrypt in steps:
        state = des.crypt_int(schedules[index], state, decrypt)
        if trace is not None:
            trace.append(state)
    return state


def encrypt_block(key: bytes, block: bytes) -> bytes:
    return _run(key, block, _ENCRYPT_STEPS).to_bytes(8, "big")


def decrypt_block(key: bytes, block: bytes) -> bytes:
    return _run(key, block, _DECRYPT_STEPS).to_bytes(8, "big")


def trace_labels(decrypt: bool = False) -> list[str]:
    """Names of the encrypt_trace (or decrypt_trace) entries."""
    if decrypt:
        return ["D_K3", "E_K2", "D_K1 (output)"]
    return ["E_K1", "D_K2", "E_K3 (output)"]


def encrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """The block after E_K1, after D_K2 and after E_K3 (the ciphertext)."""
    states: list[int] = []
    _run(key, block, _ENCRYPT_STEPS, states)
    return [s.to_bytes(8, "big") for s in states]


def decrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """The block after D_K3, after E_K2 and after D_K1 (the plaintext)."""
    states: list[int] = []
    _run(key, block, _DECRYPT_STEPS, states)
    return [s.to_bytes(8, "big") for s in states]


def encrypt_trace_rounds(key: bytes, block: bytes) -> list[bytes]:
    """All 54 DES states of an encryption: for each of the three DES operations its 18-state DES trace."""
    k1, k2, k3 = split_key(key)
    first = des.encrypt_trace(k1, block)
    second = des.decrypt_trace(k2, first[-1])
    third = des.encrypt_trace(k3, second[-1])
    return first + second + third


class TDEA:
    """The TDEA reference as a ``CipherModel`` (128 = 2-key, 192 = 3-key)."""

    name: str = "tdea"
    block_bits: int = 64
    key_sizes: tuple[int, ...] = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
