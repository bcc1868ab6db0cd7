"""Known answers typed from the RC6 paper and NESSIE, so that the RC6 model is checked on any machine.

Sources: "The RC6 Block Cipher" (Rivest, Robshaw, Sidney, Yin, v1.1, 1998), appendix "Test vectors"
for RC6-32/20/b with b = 16, 24 and 32 (byte strings, words little-endian inside); NESSIE's
``Rc6-*-128.verified.test-vectors`` (set 4 vector 0, with its iterated values), read from
``$CIPHERBENCH_KAT/rc6`` where provided.
"""

from __future__ import annotations

from collections.abc import Iterator

# (key, plaintext, ciphertext) from the paper's appendix, in its order.
PAPER_VECTORS: tuple[tuple[str, str, str], ...] = (
    ("00000000000000000000000000000000", "00000000000000000000000000000000",
     "8fc3a53656b1f778c129df4e9848a41e"),
    ("0123456789abcdef0112233445566778", "02132435465768798a9bacbdcedfe0f1",
     "524e192f4715c6231f51f6367ea43f18"),
    ("000000000000000000000000000000000000000000000000", "00000000000000000000000000000000",
     "6cd61bcb190b30384e8a3f168690ae82"),
    ("0123456789abcdef0112233445566778899aabbccddeeff0", "02132435465768798a9bacbdcedfe0f1",
     "688329d019e505041e52e92af95291d4"),
    ("0000000000000000000000000000000000000000000000000000000000000000", "00000000000000000000000000000000",
     "8f5fbd0510d15fa893fa3fda6e857ec2"),
    ("0123456789abcdef0112233445566778899aabbccddeeff01032547698badcfe", "02132435465768798a9bacbdcedfe0f1",
     "c8241816f0d7e48920ad16a1674e5d48"),
)  # fmt: skip

# NESSIE set 4 vector 0: (key, plaintext, ciphertext, iterated 100 times, iterated 1000 times).
NESSIE_SET4: tuple[tuple[str, str, str, str, str], ...] = (
    ("000102030405060708090A0B0C0D0E0F", "00112233445566778899AABBCCDDEEFF",
     "09C26143B47B1A22EC2D9CD8B8A4E573",
     "4605BBD22E5C62422D7CFB02F8792FA9", "8EACFF5A27FFFFA2D64435F9B1CC2624"),
    ("000102030405060708090A0B0C0D0E0F1011121314151617", "00112233445566778899AABBCCDDEEFF",
     "37E13FB5351BD78D3E7912FDC5F80FCD",
     "1A8836320EBD923CEB2067096EDFFADF", "744D2287B9240BDB22F544FF260F5612"),
    ("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", "00112233445566778899AABBCCDDEEFF",
     "E5C82D388ED59B96EE87E3F48A6E879E",
     "6F69FF66A0364DC96F2842F8499C779F", "8A989C4DF59CEF1C965DC6987C4D212E"),
)  # fmt: skip


def known_answers() -> Iterator[tuple[str, bytes, bytes, bytes]]:
    """(name, key, plaintext, ciphertext): the paper's six vectors, then NESSIE set 4 vector 0 per size."""
    for index, (key, plain, cipher) in enumerate(PAPER_VECTORS, start=1):
        name = f"RC6 paper vector {index} ({len(key) * 4}-bit key)"
        yield name, bytes.fromhex(key), bytes.fromhex(plain), bytes.fromhex(cipher)
    for key, plain, cipher, _, _ in NESSIE_SET4:
        yield (
            f"NESSIE {len(key) * 4} set 4 vector 0",
            bytes.fromhex(key),
            bytes.fromhex(plain),
            bytes.fromhex(cipher),
        )
