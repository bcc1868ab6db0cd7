"""GCM (NIST SP 800-38D) over any 128-bit block cipher reference model of the registry.

``GcmModel(cipher_model, tag_bits=128)`` wraps a :class:`~cipherbench.ciphers.base.CipherModel`
(``encrypt(key, block)``, ``block_bits``): ``encrypt(key, iv, ad, pt, tag_bits=128) -> (ct, tag)`` and
``decrypt(key, iv, ad, ct, tag) -> pt`` or ``None`` when the tag does not verify. The steps are the
standard's (section 7.1), nothing cipher-specific:

* H = E_K(0^128), the hash subkey;
* J0 = IV || 0^31 || 1 for a 96-bit IV, else GHASH_H(IV || 0^(s+64) || [len(IV)]_64) (any IV of 1 byte
  or more is taken; IVs are whole bytes here);
* C = GCTR_K(inc32(J0), P), counting in the low 32 bits of the counter block;
* S = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64), T = MSB_t(GCTR_K(J0, S)).

Tag lengths: 128, 120, 112, 104 and 96 bits, and 64 and 32 (SP 800-38D Appendix C; the standard
attaches limits on message lengths and invocations to those two, which are the user's to keep).
Refused in one line: a cipher whose blocks are not 128 bits, an empty IV, other tag lengths, AD or
plaintext over the standard's limits (2^64 - 1 and 2^39 - 256 bits). GF(2^128) and GHASH come from
:mod:`cipherbench.components.gf128`.

``keystream``-level helpers are exposed for the message-level testbench: ``decrypt_unverified``
gives the plaintext an engine releases before its tag verdict (the LWC PostProcessor does).
"""

from __future__ import annotations

from cipherbench.ciphers.base import CipherModel
from cipherbench.components.gf128 import ghash
from cipherbench.errors import CipherbenchError

BLOCK = 16
TAG_BITS: tuple[int, ...] = (128, 120, 112, 104, 96, 64, 32)
MAX_PT_BITS = (1 << 39) - 256
MAX_AD_BITS = (1 << 64) - 1
IV_96_BYTES = 12


def _inc32(block: bytes) -> bytes:
    counter = (int.from_bytes(block[12:], "big") + 1) & 0xFFFFFFFF
    return block[:12] + counter.to_bytes(4, "big")


def _pad(data: bytes) -> bytes:
    return data + bytes(-len(data) % BLOCK)


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


class GcmModel:
    """GCM over ``cipher`` (a 128-bit block cipher model)."""

    def __init__(self, cipher: CipherModel, tag_bits: int = 128):
        if cipher.block_bits != 128:
            raise CipherbenchError(f"GCM needs a 128-bit block cipher; {cipher.name} has "
                                   f"{cipher.block_bits}-bit blocks")
        self.cipher = cipher
        self.name = f"{cipher.name}-gcm"
        self._check(b"", b"", tag_bits)
        self.tag_bits = tag_bits  # the default of encrypt, and the tag a KAT's CT ends with
        self.key_sizes = cipher.key_sizes

    # --- the standard's functions -----------------------------------------------------------

    def hash_subkey(self, key: bytes) -> bytes:
        """H = E_K(0^128)."""
        return self.cipher.encrypt(key, bytes(BLOCK))

    def j0(self, h: bytes, iv: bytes) -> bytes:
        """The pre-counter block J0 (SP 800-38D 7.1 step 2)."""
        if not isinstance(iv, (bytes, bytearray)):
            raise CipherbenchError(f"{self.name} IV must be bytes, got {type(iv).__name__}")
        if len(iv) == 0:
            raise CipherbenchError(f"{self.name} IV must be 1 byte or more (96 bits recommended), "
                                   "got 0")
        iv = bytes(iv)
        if len(iv) == IV_96_BYTES:
            return iv + b"\x00\x00\x00\x01"
        return ghash(h, _pad(iv) + bytes(8) + (8 * len(iv)).to_bytes(8, "big"))

    def gctr(self, key: bytes, icb: bytes, data: bytes) -> bytes:
        """GCTR_K(ICB, X) (SP 800-38D 6.5)."""
        out = bytearray()
        counter = icb
        for i in range(0, len(data), BLOCK):
            chunk = data[i:i + BLOCK]
            out += _xor(chunk, self.cipher.encrypt(key, counter)[:len(chunk)])
            counter = _inc32(counter)
        return bytes(out)

    def ghash_input(self, ad: bytes, ct: bytes) -> bytes:
        """A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64."""
        return _pad(ad) + _pad(ct) + (8 * len(ad)).to_bytes(8, "big") + (8 * len(ct)).to_bytes(8, "big")

    def _check(self, ad: bytes, data: bytes, tag_bits: int) -> None:
        if tag_bits not in TAG_BITS:
            raise CipherbenchError(f"{self.name} tag must be 128, 120, 112, 104, 96, 64 or 32 bits "
                                   f"(SP 800-38D), got {tag_bits}")
        if 8 * len(data) > MAX_PT_BITS:
            raise CipherbenchError(f"{self.name} message of {len(data)} bytes is over SP 800-38D's "
                                   f"2^39 - 256 bits")
        if 8 * len(ad) > MAX_AD_BITS:
            raise CipherbenchError(f"{self.name} AD of {len(ad)} bytes is over 2^64 - 1 bits")

    def _tag(self, key: bytes, h: bytes, j0: bytes, ad: bytes, ct: bytes, tag_bits: int) -> bytes:
        s = ghash(h, self.ghash_input(ad, ct))
        return self.gctr(key, j0, s)[:tag_bits // 8]

    # --- the mode -----------------------------------------------------------------------------

    def encrypt(self, key: bytes, iv: bytes, ad: bytes, pt: bytes,
                tag_bits: int | None = None) -> tuple[bytes, bytes]:
        """(ciphertext, tag) of ``pt`` with associated data ``ad`` (``tag_bits``: the model's)."""
        ad, pt = bytes(ad), bytes(pt)
        tag_bits = self.tag_bits if tag_bits is None else tag_bits
        self._check(ad, pt, tag_bits)
        h = self.hash_subkey(key)
        j0 = self.j0(h, iv)
        ct = self.gctr(key, _inc32(j0), pt)
        return ct, self._tag(key, h, j0, ad, ct, tag_bits)

    def decrypt(self, key: bytes, iv: bytes, ad: bytes, ct: bytes, tag: bytes) -> bytes | None:
        """The plaintext, or None if ``tag`` (of any length the mode allows) does not verify."""
        ad, ct, tag = bytes(ad), bytes(ct), bytes(tag)
        self._check(ad, ct, 8 * len(tag))
        h = self.hash_subkey(key)
        j0 = self.j0(h, iv)
        expected = self._tag(key, h, j0, ad, ct, 8 * len(tag))
        if expected != tag:
            return None
        return self.gctr(key, _inc32(j0), ct)

    def decrypt_unverified(self, key: bytes, iv: bytes, ct: bytes) -> bytes:
        """GCTR_K(inc32(J0), C): the plaintext before (and whatever) the tag verdict."""
        h = self.hash_subkey(key)
        return self.gctr(key, _inc32(self.j0(h, iv)), bytes(ct))


def gcm_model(cipher_name: str, tag_bits: int = 128) -> GcmModel:
    """GCM over the registry's cipher ``cipher_name`` (one-line error for an unknown name)."""
    from cipherbench.ciphers.registry import ciphers

    known = ciphers()
    if cipher_name not in known:
        raise CipherbenchError(f"unknown cipher {cipher_name!r} for GCM; known: "
                               f"{', '.join(sorted(known))}")
    return GcmModel(known[cipher_name].model(), tag_bits)


class GcmAead:
    """GCM with one key size, a 96-bit nonce and a 128-bit tag as the message family's
    ``AeadModel`` (families/message.py): what a GCM engine behind the LWC API implements."""

    npub_bytes = 12
    tag_bytes = 16
    tag_bits = 128
    block_bytes = BLOCK

    def __init__(self, cipher_name: str, key_bits: int):
        self.gcm = gcm_model(cipher_name)
        if key_bits not in self.gcm.key_sizes:
            raise CipherbenchError(f"{cipher_name} has no {key_bits}-bit key; valid: "
                                   f"{', '.join(map(str, self.gcm.key_sizes))}")
        self.name = f"{cipher_name}-{key_bits}-gcm"
        self.key_bytes = key_bits // 8

    def encrypt(self, key: bytes, npub: bytes, ad: bytes, pt: bytes) -> tuple[bytes, bytes]:
        return self.gcm.encrypt(key, npub, ad, pt)

    def decrypt(self, key: bytes, npub: bytes, ad: bytes, ct: bytes,
                tag: bytes) -> bytes | None:
        return self.gcm.decrypt(key, npub, ad, ct, tag)

    def decrypt_unverified(self, key: bytes, npub: bytes, ct: bytes) -> bytes:
        """The plaintext an engine releases before its verdict on the tag."""
        return self.gcm.decrypt_unverified(key, npub, ct)
