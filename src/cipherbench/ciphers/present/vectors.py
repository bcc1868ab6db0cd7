"""PRESENT known answers, typed in from their publications.

- PRESENT-80: the four test vectors of the CHES 2007 paper's Appendix I (Bogdanov, Knudsen,
  Leander, Paar, Poschmann, Robshaw, Seurin, Vikkelsoe, "PRESENT: An Ultra-Lightweight Block
  Cipher"), all-zero and all-one keys and plaintexts.
- PRESENT-128: the all-zero vector of A. Poschmann's PhD thesis ("Lightweight Cryptography:
  Cryptographic Engineering for a Pervasive World", Ruhr-University Bochum, 2009), one of the
  designers. It is the only PRESENT-128 vector we could attribute to the designers; the other
  PRESENT-128 values that circulate (all-one key and plaintext, 0123456789abcdef...) come from
  third-party code and are not typed in here (docs/ciphers/present.md).

Key and block hex as printed in the sources: the first hexadecimal digit is the most significant
(k79 .. k76, b63 .. b60), which is byte 0 on the project's ports.
"""

from __future__ import annotations

from collections.abc import Iterator

# (source, key, plaintext, ciphertext)
KNOWN_ANSWERS: tuple[tuple[str, str, str, str], ...] = (
    ("CHES 2007 Appendix I", "00000000000000000000", "0000000000000000", "5579c1387b228445"),
    ("CHES 2007 Appendix I", "ffffffffffffffffffff", "0000000000000000", "e72c46c0f5945049"),
    ("CHES 2007 Appendix I", "00000000000000000000", "ffffffffffffffff", "a112ffc72f68417b"),
    ("CHES 2007 Appendix I", "ffffffffffffffffffff", "ffffffffffffffff", "3333dcd3213210d2"),
    ("Poschmann 2009 (PRESENT-128)", "00000000000000000000000000000000", "0000000000000000",
     "96db702a2e6900af"),
)


def known_answers() -> Iterator[tuple[str, bytes, bytes, bytes]]:
    """(name, key, plaintext, ciphertext) of every typed-in vector."""
    for source, key, plain, cipher in KNOWN_ANSWERS:
        yield source, bytes.fromhex(key), bytes.fromhex(plain), bytes.fromhex(cipher)
