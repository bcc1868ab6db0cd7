"""Known answers typed from RFC 4269 Appendix B (SEED), with the round keys and per-round states.

Each example lists, per round i = 1..16, the round key (Ki0, Ki1) and the round's input (L0 L1 R0 R1).
Row 1's input is the plaintext; row i+1's input is the state after round i (``encrypt_trace`` entry i-1).
Row 16's R0 R1 equal the ciphertext's right half because SEED's last round does not swap.
The RFC's text, where provided, is ``$CIPHERBENCH_KAT/seed/rfc4269.txt``; PyPI ``cryptography_vectors`` has the
four key/plaintext/ciphertext triples as ``ciphers/SEED/rfc-4269.txt`` (NIST .rsp layout).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cipherbench.verify.vectors import cryptography_vectors_dir, kat_root


def _hex(text: str) -> bytes:
    return bytes.fromhex(text)


def _hexes(*texts: str) -> tuple[bytes, ...]:
    return tuple(bytes.fromhex(t) for t in texts)


@dataclass(frozen=True)
class SeedExample:
    """One Appendix B example: 16 round keys Ki0 || Ki1 and 16 round inputs L0 || L1 || R0 || R1."""

    name: str
    key: bytes
    plaintext: bytes
    ciphertext: bytes
    round_keys: tuple[bytes, ...]
    round_inputs: tuple[bytes, ...]


RFC4269_B1 = SeedExample(
    name="RFC 4269 B.1",
    key=_hex("00000000000000000000000000000000"),
    plaintext=_hex("000102030405060708090a0b0c0d0e0f"),
    ciphertext=_hex("5ebac6e0054e166819aff1cc6d346cdb"),
    round_keys=_hexes(
        "7c8f8c7ec737a22c",
        "ff276cdba7ca684a",
        "2f9d01a170049e41",
        "ae59b3c44245e90c",
        "a1d6400fdbc1394e",
        "859635080c5f1fcb",
        "b684bda761a4aeae",
        "d17e0741fee90aa1",
        "76cc05d5e97a7394",
        "50ac6f921b2666e5",
        "65b7904a8ec3a7b3",
        "2f7e2e22a2b121b9",
        "4d0bfde44e888d9b",
        "631c8ddc4378a6c4",
        "216af65f7878c031",
        "7189115098b255b0",
    ),
    round_inputs=_hexes(
        "000102030405060708090a0b0c0d0e0f",
        "08090a0b0c0d0e0f8081bc57c4ea8a1f",
        "8081bc57c4ea8a1f117a8b07d7358c24",
        "117a8b07d7358c24d1738c947326cab0",
        "d1738c947326cab0577ece6d1f8433ec",
        "577ece6d1f8433ec910f62abdda096c1",
        "910f62abdda096c1ea4d39b4b17b1938",
        "ea4d39b4b17b1938b04e251f97d7442c",
        "b04e251f97d7442cb86d31bfa5988c06",
        "b86d31bfa5988c069008eabf38df7430",
        "9008eabf38df743033e47de054eff76c",
        "33e47de054eff76c6be9c434bf3f378a",
        "6be9c434bf3f378ab8dc384203a02d33",
        "b8dc384203a02d336679fcf79791dfcb",
        "6679fcf79791dfcb1a415792a02b8c54",
        "1a415792a02b8c5419aff1cc6d346cdb",
    ),
)

RFC4269_B2 = SeedExample(
    name="RFC 4269 B.2",
    key=_hex("000102030405060708090a0b0c0d0e0f"),
    plaintext=_hex("00000000000000000000000000000000"),
    ciphertext=_hex("c11f22f20140505084483597e4370f43"),
    round_keys=_hexes(
        "c119f5845ae033a0",
        "62947390a600ad14",
        "f6f6544e596c4b49",
        "c1a3de02ce483c49",
        "5e742e6d7e25163d",
        "8299d2b4790a46ce",
        "ea67d83655f354f2",
        "c47329fbf50db634",
        "2bd3023551679ce6",
        "fa8d6b76a9f37e02",
        "8b99cc600f6092d4",
        "bdaefcfa489c2242",
        "f6357c14cfccb126",
        "a0aa6d85f8c10774",
        "47f4fec5353ae1ba",
        "feccea48a4ef9f9b",
    ),
    round_inputs=_hexes(
        "00000000000000000000000000000000",
        "00000000000000009d8db62c911f0c19",
        "9d8db62c911f0c1921229a974ab4b7b8",
        "21229a974ab4b7b85a27b404899d7315",
        "5a27b404899d7315b8489e76ba0ef3ea",
        "b8489e76ba0ef3ea04a3df2931a27fb4",
        "04a3df2931a27fb4ec9c17bf81aa2aa0",
        "ec9c17bf81aa2aa04fa74e8dcdb21bb8",
        "4fa74e8dcdb21bb8d93492fe4f71a4da",
        "d93492fe4f71a4dab14053d9a911379b",
        "b14053d9a911379b5a7024d63905668b",
        "5a7024d63905668b605c8c3a73dfbb75",
        "605c8c3a73dfbb7540282f3931cb8987",
        "40282f3931cb8987e9f834a83b9586d4",
        "e9f834a83b9586d44b60324b761c9958",
        "4b60324b761c995884483597e4370f43",
    ),
)

RFC4269_B3 = SeedExample(
    name="RFC 4269 B.3",
    key=_hex("4706480851e61be85d74bfb3fd956185"),
    plaintext=_hex("83a2f8a288641fb9a4e9a5cc2f131c7d"),
    ciphertext=_hex("ee54d13ebcae706d226bc3142cd40d4a"),
    round_keys=_hexes(
        "56be4a0fe9f62877",
        "68bcb66c078911dd",
        "5b82740bfd24d09b",
        "8d608015a120e0be",
        "810a75ae1bf223e5",
        "f9c0d2d00f676c02",
        "8f9b5c848a7c8ddd",
        "d4ab489618e93447",
        "cf090f515a4c8202",
        "4ec3196f61b1a0dc",
        "244e07c1d0d10b12",
        "69917c6c7ff94fb3",
        "9a7eb482723b5738",
        "b97522c539cc6349",
        "ffc2afd51412e731",
        "a9af7241a3e67359",
    ),
    round_inputs=_hexes(
        "83a2f8a288641fb9a4e9a5cc2f131c7d",
        "a4e9a5cc2f131c7d7ce5f01247f8c1e6",
        "7ce5f01247f8c1e6aac99520609f4cb7",
        "aac99520609f4cb73e126d1f44fa99f0",
        "3e126d1f44fa99f0117163659ba775ac",
        "117163659ba775ac32c9838fba5757cb",
        "32c9838fba5757cb77e00c64cf9f6b32",
        "77e00c64cf9f6b323f09b1f7de7d6d58",
        "3f09b1f7de7d6d58300e5caad0bf2345",
        "300e5caad0bf23459574fdd74df050d1",
        "9574fdd74df050d1a15eda6f624265fd",
        "a15eda6f624265fd9f39b682d841c76f",
        "9f39b682d841c76feebbad8bc1f488ef",
        "eebbad8bc1f488ef45cf5d4ebeea4aa2",
        "45cf5d4ebeea4aa243b7fe1bbcf87781",
        "43b7fe1bbcf87781226bc3142cd40d4a",
    ),
)

RFC4269_B4 = SeedExample(
    name="RFC 4269 B.4",
    key=_hex("28dbc3bc49ffd87dcfa509b11d422be7"),
    plaintext=_hex("b41e6be2eba84a148e2eed84593c5ec7"),
    ciphertext=_hex("9b9b7bfcd1813cb95d0b3618f40f5122"),
    round_keys=_hexes(
        "b2b11b632ee9e2d1",
        "1196726071a62f24",
        "2e017a5a35dad7a7",
        "1b2ab5ffa3ada69f",
        "519c9903da90aaee",
        "29fd95adb94c3f13",
        "6f629d198ace692f",
        "30a26e732f22338e",
        "9721073a98ee8dae",
        "c597a8a927dcdc97",
        "f5163a005ffd0003",
        "5cbe65daa73403e4",
        "7d5cf0701d3b8092",
        "388c702b1baa4945",
        "87d1ab5afa13fb5c",
        "c97d7eed90724a6e",
    ),
    round_inputs=_hexes(
        "b41e6be2eba84a148e2eed84593c5ec7",
        "8e2eed84593c5ec71b31f2f73dde00ba",
        "1b31f2f73dde00ba35cc49c02afb59ea",
        "35cc49c02afb59ead7ab53aaae82f1c7",
        "d7ab53aaae82f1c724139958b840e56f",
        "24139958b840e56f24ab5291544c9dba",
        "24ab5291544c9dbae815299475d0b424",
        "e815299475d0b424a2cd1153f32bb23a",
        "a2cd1153f32bb23ac386008be3257731",
        "c386008be325773198396bfd814f8972",
        "98396bfd814f8972e74d2d0d11d889d1",
        "e74d2d0d11d889d129d8c7b3d1b71c0c",
        "29d8c7b3d1b71c0cc4e692c2d2f57f18",
        "c4e692c2d2f57f182fafb3005f0c4bff",
        "2fafb3005f0c4bff60e5f17c5626bb68",
        "60e5f17c5626bb685d0b3618f40f5122",
    ),
)

EXAMPLES: tuple[SeedExample, ...] = (RFC4269_B1, RFC4269_B2, RFC4269_B3, RFC4269_B4)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) of B.1 to B.4."""
    for example in EXAMPLES:
        yield example.key, example.plaintext, example.ciphertext


def rfc4269_rsp() -> Path | None:
    """pyca's .rsp rendering of the Appendix B triples (cryptography_vectors, else the shared kat folder)."""
    root = kat_root()
    for folder in (cryptography_vectors_dir("ciphers", "SEED"), root / "seed" if root else None):
        if folder is not None and (folder / "rfc-4269.txt").is_file():
            return folder / "rfc-4269.txt"
    return None
