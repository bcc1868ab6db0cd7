"""Vector-file readers: NIST CAVP .rsp, the simulate input format, and where the official files are."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cipherbench.ciphers.aes import vectors as aes_vectors
from cipherbench.ciphers.aes.vectors import AESAVS_FAMILIES, aesavs_files
from cipherbench.errors import CipherbenchError
from cipherbench.verify.vectors import (
    VectorCase,
    cryptography_vectors_dir,
    kat_root,
    read_rsp,
    read_simple_vectors,
)

KEY = "000102030405060708090a0b0c0d0e0f"
PT = "00112233445566778899aabbccddeeff"
CT = "69c4e0d86a7b0430d8cdb78070b4c55a"

# A small AESAVS-shaped file: header comments, both sections, a two-block MMT message.
SAMPLE_RSP = f"""# CAVS 11.1
# Config info for aes_values
# AESVS MMT test data for ECB

[ENCRYPT]

COUNT = 0
KEY = {KEY}
PLAINTEXT = {PT}
CIPHERTEXT = {CT}

COUNT = 1
KEY = {KEY}
PLAINTEXT = {PT}{CT}
CIPHERTEXT = {CT}{PT}

[DECRYPT]

COUNT = 0
KEY = {KEY}
CIPHERTEXT = {CT}
PLAINTEXT = {PT}
"""


def write(folder: Path, name: str, text: str, newline: str = "\n") -> Path:
    path = folder / name
    path.write_bytes(text.replace("\n", newline).encode())
    return path


def h(text: str) -> bytes:
    return bytes.fromhex(text)


# --- read_rsp: well-formed files ----------------------------------------------------------------------


def test_read_rsp_sections_records_and_blocks(tmp_path: Path) -> None:
    path = write(tmp_path, "ECBMMT128.rsp", SAMPLE_RSP)
    assert read_rsp(path) == [
        VectorCase(h(KEY), h(PT), h(CT), False, "ECBMMT128.rsp:7 [ENCRYPT] COUNT=0"),
        VectorCase(h(KEY), h(PT), h(CT), False, "ECBMMT128.rsp:12 [ENCRYPT] COUNT=1 block 1/2"),
        VectorCase(h(KEY), h(CT), h(PT), False, "ECBMMT128.rsp:12 [ENCRYPT] COUNT=1 block 2/2"),
        VectorCase(h(KEY), h(CT), h(PT), True, "ECBMMT128.rsp:19 [DECRYPT] COUNT=0"),
    ]


def test_read_rsp_crlf_gives_the_same_cases(tmp_path: Path) -> None:
    lf = read_rsp(write(tmp_path, "lf.rsp", SAMPLE_RSP))
    crlf = read_rsp(write(tmp_path, "crlf.rsp", SAMPLE_RSP, newline="\r\n"))
    assert without_sources(crlf) == without_sources(lf)
    assert [c.source.split(":")[1] for c in crlf] == [c.source.split(":")[1] for c in lf]


def test_read_rsp_comments_blank_lines_and_case(tmp_path: Path) -> None:
    text = f"""
# leading comment

[encrypt]
   # an indented comment
COUNT = 7
key = {KEY.upper()}   # trailing comment
plaintext={PT}

ciphertext  =  {CT}
"""
    (case,) = read_rsp(write(tmp_path, "x.rsp", text))
    assert (case.key, case.data, case.expected, case.decrypt) == (h(KEY), h(PT), h(CT), False)
    assert case.source == "x.rsp:6 [ENCRYPT] COUNT=7"


def test_read_rsp_block_size_argument_splits_smaller_blocks(tmp_path: Path) -> None:
    cases = read_rsp(write(tmp_path, "x.rsp", SAMPLE_RSP), block_bytes=8)
    assert len(cases) == 2 + 4 + 2
    assert cases[0].data == h(PT)[:8] and cases[1].data == h(PT)[8:]
    assert cases[0].source.endswith("block 1/2")


def test_read_rsp_tdes_keys(tmp_path: Path) -> None:
    text = """[ENCRYPT]
COUNT = 0
KEYs = 8001010101010101
PLAINTEXT = 0000000000000000
CIPHERTEXT = 95a8d72813daa94d

COUNT = 1
KEY1 = a2b5bc67da13dc92
KEY2 = cd9d344aa238544a
KEY3 = 0e1fa79ef76810cd
PLAINTEXT = 329d86bdf1bc5af46b1540781b01ce19
CIPHERTEXT = d946c2756d78633f4d0dc182d6e481ac
"""
    single, first, second = read_rsp(write(tmp_path, "TECB.rsp", text))
    assert single.key == h("8001010101010101") * 3
    assert (single.data, single.expected) == (h("0000000000000000"), h("95a8d72813daa94d"))
    # TDES-style keys mean 8-byte blocks: the 16-byte message is two ECB blocks.
    assert first.key == second.key == h("a2b5bc67da13dc92cd9d344aa238544a0e1fa79ef76810cd")
    assert (first.data, first.expected) == (h("329d86bdf1bc5af4"), h("d946c2756d78633f"))
    assert (second.data, second.expected) == (h("6b1540781b01ce19"), h("4d0dc182d6e481ac"))


def test_read_rsp_accepts_str_paths(tmp_path: Path) -> None:
    path = write(tmp_path, "x.rsp", SAMPLE_RSP)
    assert read_rsp(str(path)) == read_rsp(path)


# --- read_rsp: malformed files ------------------------------------------------------------------------

RECORD = f"COUNT = 0\nKEY = {KEY}\nPLAINTEXT = {PT}\nCIPHERTEXT = {CT}\n"

# (file text, line the message must point at or None for the whole file, words the message must contain)
MALFORMED_RSP = {
    "empty file": ("", None, "no test vectors"),
    "only comments": ("# CAVS 11.1\n\n# nothing else\n", None, "no test vectors"),
    "section without records": ("[ENCRYPT]\n\n[DECRYPT]\n", None, "no test vectors"),
    "non-hex key": (f"[ENCRYPT]\nCOUNT = 0\nKEY = 00zz{KEY[4:]}\n", 3, "KEY is not hex"),
    "odd-length plaintext": (f"[ENCRYPT]\nCOUNT = 0\nKEY = {KEY}\nPLAINTEXT = {PT[:-1]}\n", 4, "odd number"),
    "empty value": ("[ENCRYPT]\nCOUNT = 0\nKEY =\n", 3, "KEY is empty"),
    "missing plaintext": (f"[ENCRYPT]\nCOUNT = 0\nKEY = {KEY}\nCIPHERTEXT = {CT}\n\n", 2, "no PLAINTEXT"),
    "missing ciphertext at a new section": (
        f"[ENCRYPT]\nCOUNT = 0\nKEY = {KEY}\nPLAINTEXT = {PT}\n[DECRYPT]\n" + RECORD, 2, "no CIPHERTEXT"
    ),
    "missing key": (f"[ENCRYPT]\nCOUNT = 4\nPLAINTEXT = {PT}\nCIPHERTEXT = {CT}\n", 2, "no KEY"),
    "wrong section": ("[PLAINTEXT LENGTH = 128]\n" + RECORD, 1, "unexpected section"),
    "unterminated section": ("[ENCRYPT\n" + RECORD, 1, "unexpected section"),
    "record before any section": (RECORD, 1, "COUNT before any section"),
    "field before COUNT": (f"[ENCRYPT]\nKEY = {KEY}\n", 2, "KEY outside a record"),
    "CBC field": (f"[ENCRYPT]\nCOUNT = 0\nKEY = {KEY}\nIV = {PT}\n", 4, "unexpected field IV"),
    "duplicate field": (f"[ENCRYPT]\nCOUNT = 0\nKEY = {KEY}\nKEY = {KEY}\n", 4, "second KEY"),
    "line without equals": (f"[ENCRYPT]\nCOUNT = 0\nKEY {KEY}\n", 3, "NAME = value"),
    "non-numeric COUNT": ("[ENCRYPT]\nCOUNT = x1\n", 2, "decimal record number"),
    "different text lengths": (
        f"[ENCRYPT]\nCOUNT = 0\nKEY = {KEY}\nPLAINTEXT = {PT}\nCIPHERTEXT = {CT[:-2]}\n", 2, "lengths differ"
    ),
    "partial last block": (
        f"[ENCRYPT]\nCOUNT = 0\nKEY = {KEY}\nPLAINTEXT = {PT}{PT[:16]}\nCIPHERTEXT = {CT}{CT[:16]}\n",
        2,
        "not a whole number of 16-byte blocks",
    ),
    "KEY1 without KEY3": (
        f"[ENCRYPT]\nCOUNT = 0\nKEY1 = {KEY[:16]}\nKEY2 = {KEY[:16]}\nPLAINTEXT = {PT}\nCIPHERTEXT = {CT}\n",
        2,
        "no KEY3",
    ),
    "KEY and KEY1": (
        f"[ENCRYPT]\nCOUNT = 0\nKEY = {KEY}\nKEY1 = {KEY[:16]}\nPLAINTEXT = {PT}\nCIPHERTEXT = {CT}\n",
        2,
        "conflicting key fields",
    ),
}


@pytest.mark.parametrize("name", list(MALFORMED_RSP))
@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_read_rsp_malformed(tmp_path: Path, name: str, newline: str) -> None:
    text, line, words = MALFORMED_RSP[name]
    path = write(tmp_path, "bad.rsp", text, newline)
    with pytest.raises(CipherbenchError) as error:
        read_rsp(path)
    message = str(error.value)
    where = f"{path}:{line}:" if line is not None else f"{path}:"
    assert message.startswith(where), message
    assert words in message and "expected" in message, message
    assert "\n" not in message and "\r" not in message


def test_read_rsp_refuses_monte_carlo_by_name(tmp_path: Path) -> None:
    path = write(tmp_path, "ECBMCT128.rsp", SAMPLE_RSP)
    with pytest.raises(CipherbenchError, match="Monte Carlo") as error:
        read_rsp(path)
    assert str(error.value).startswith(f"{path}:")


def test_read_rsp_refuses_monte_carlo_by_header(tmp_path: Path) -> None:
    path = write(tmp_path, "renamed.rsp", "# CAVS 11.1\n# AESVS MCT test data for ECB\n" + SAMPLE_RSP)
    with pytest.raises(CipherbenchError, match="Monte Carlo") as error:
        read_rsp(path)
    assert str(error.value).startswith(f"{path}:2:")


def test_read_rsp_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="cannot read") as error:
        read_rsp(tmp_path / "absent.rsp")
    assert "absent.rsp" in str(error.value)


def test_read_rsp_directory_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="cannot read"):
        read_rsp(tmp_path)
    binary = tmp_path / "binary.rsp"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00")
    with pytest.raises(CipherbenchError, match="not a text file"):
        read_rsp(binary)


def test_read_rsp_rejects_nonsense_block_size(tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="block_bytes"):
        read_rsp(write(tmp_path, "x.rsp", SAMPLE_RSP), block_bytes=0)


def test_read_rsp_mutations_raise_only_cipherbench_errors(tmp_path: Path) -> None:
    # Damaged files (characters dropped, inserted or swapped) either parse or fail with our error type.
    rng = random.Random(42)
    alphabet = "0123456789abcdefXYZ=[]# \n\r\t\x00é"
    failures = 0
    for attempt in range(300):
        chars = list(SAMPLE_RSP)
        for _ in range(rng.randint(1, 4)):
            position = rng.randrange(len(chars))
            action = rng.choice(("drop", "insert", "replace"))
            if action == "drop":
                del chars[position]
            elif action == "insert":
                chars.insert(position, rng.choice(alphabet))
            else:
                chars[position] = rng.choice(alphabet)
        path = write(tmp_path, f"m{attempt}.rsp", "".join(chars))
        try:
            cases = read_rsp(path)
        except CipherbenchError as error:
            failures += 1
            assert "\n" not in str(error)
        else:
            assert all(isinstance(case, VectorCase) for case in cases)
    assert failures > 100  # most damage is noticed


# --- read_rsp on the official TDES files (the KEYs / KEY1..KEY3 layouts) -----------------------------


def tdes_files() -> list[Path]:
    package = cryptography_vectors_dir("ciphers", "3DES", "ECB")
    if package is not None:
        return sorted(package.glob("TECB*.rsp"))
    root = kat_root()
    return sorted(root.glob("*/TECB*.rsp")) if root else []


def test_tdes_files_against_pycryptodome() -> None:
    des = pytest.importorskip("Crypto.Cipher.DES", reason="pycryptodome is not installed")
    des3 = pytest.importorskip("Crypto.Cipher.DES3", reason="pycryptodome is not installed")
    files = tdes_files()
    if not files:
        pytest.skip("no TDES .rsp files: neither cryptography_vectors nor the shared kat folder is present")
    checked = 0
    for path in files:
        for case in read_rsp(path):
            k1, k2, k3 = case.key[:8], case.key[8:16], case.key[16:]
            # pycryptodome refuses TDES keys that degenerate to single DES, so use DES for K1=K2=K3.
            if k1 == k2 == k3:
                cipher = des.new(k1, des.MODE_ECB)
            else:
                cipher = des3.new(case.key, des3.MODE_ECB)
            result = cipher.decrypt(case.data) if case.decrypt else cipher.encrypt(case.data)
            assert len(case.key) == 24 and len(case.data) == 8, case.source
            assert result == case.expected, case.source
            checked += 1
    assert checked >= 500


# --- read_simple_vectors ------------------------------------------------------------------------------

SIMPLE = f"""# key data
{KEY} {PT}

   {KEY}{KEY[:16]}\t{CT}   # AES-192 key
"""


def test_simple_vectors_from_text() -> None:
    assert read_simple_vectors(SIMPLE) == [(h(KEY), h(PT)), (h(KEY + KEY[:16]), h(CT))]


def test_simple_vectors_from_path_str_and_crlf(tmp_path: Path) -> None:
    path = write(tmp_path, "in.txt", SIMPLE, newline="\r\n")
    expected = [(h(KEY), h(PT)), (h(KEY + KEY[:16]), h(CT))]
    assert read_simple_vectors(path) == expected
    assert read_simple_vectors(str(path)) == expected


def test_simple_vectors_single_line_text() -> None:
    assert read_simple_vectors(f"{KEY} {PT}") == [(h(KEY), h(PT))]


MALFORMED_SIMPLE = {
    "one field": (f"{KEY} {PT}\n{KEY}\n", 2, "1 fields"),
    "three fields": (f"{KEY} {PT} {CT}\n", 1, "3 fields"),
    "non-hex key": (f"# c\n\n0x{KEY} {PT}\n", 3, "key is not hex"),
    "odd data": (f"{KEY} {PT}0\n", 1, "data has an odd number"),
    "empty": ("", None, "no vectors"),
    "only comments": ("# nothing\n\n  # here\n", None, "no vectors"),
}


@pytest.mark.parametrize("name", list(MALFORMED_SIMPLE))
def test_simple_vectors_malformed_file(tmp_path: Path, name: str) -> None:
    text, line, words = MALFORMED_SIMPLE[name]
    path = write(tmp_path, "in.txt", text)
    with pytest.raises(CipherbenchError) as error:
        read_simple_vectors(path)
    message = str(error.value)
    assert message.startswith(f"{path}:{line}:" if line else f"{path}:"), message
    assert words in message and "expected" in message and "\n" not in message, message


def test_simple_vectors_malformed_text_names_the_line() -> None:
    with pytest.raises(CipherbenchError, match=r"^<text>:2: key is not hex"):
        read_simple_vectors(f"{KEY} {PT}\nzz {PT}\n")


def test_simple_vectors_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="cannot read"):
        read_simple_vectors(str(tmp_path / "vecs.txt"))
    with pytest.raises(CipherbenchError, match="cannot read"):
        read_simple_vectors(tmp_path / "vecs.txt")


# --- where the official files are --------------------------------------------------------------------


def test_kat_root_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIPHERBENCH_KAT", str(tmp_path))
    assert kat_root() == tmp_path


def test_kat_root_environment_pointing_nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIPHERBENCH_KAT", str(tmp_path / "absent"))
    with pytest.raises(CipherbenchError, match="CIPHERBENCH_KAT"):
        kat_root()


def test_kat_root_is_only_what_is_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    """No folder outside the project is looked for: unset, there are no official files."""
    monkeypatch.delenv("CIPHERBENCH_KAT", raising=False)
    assert kat_root() is None


def test_cryptography_vectors_dir() -> None:
    folder = cryptography_vectors_dir("ciphers", "AES", "ECB")
    if folder is None:
        pytest.importorskip("cryptography_vectors", reason="cryptography_vectors is not installed")
    assert folder is not None and (folder / "ECBGFSbox128.rsp").is_file()
    assert cryptography_vectors_dir("no", "such", "folder") is None


@pytest.mark.parametrize("key_bits", [128, 192, 256])
def test_aesavs_files_lists_every_family(key_bits: int) -> None:
    files = aesavs_files(key_bits)
    if not files:
        pytest.skip("neither cryptography_vectors nor the shared kat/aes folder is present")
    assert [f.name for f in files] == [f"ECB{family}{key_bits}.rsp" for family in AESAVS_FAMILIES]


def test_aesavs_files_falls_back_to_the_shared_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(aes_vectors, "cryptography_vectors_dir", lambda *parts: None)
    monkeypatch.setenv("CIPHERBENCH_KAT", str(tmp_path))
    assert aesavs_files(128) == []
    (tmp_path / "aes").mkdir()
    write(tmp_path / "aes", "ECBVarKey128.rsp", SAMPLE_RSP)
    write(tmp_path / "aes", "ECBGFSbox128.rsp", SAMPLE_RSP)
    assert aesavs_files(128) == [tmp_path / "aes" / "ECBGFSbox128.rsp", tmp_path / "aes" / "ECBVarKey128.rsp"]
    assert aesavs_files(256) == []


def test_aesavs_files_rejects_other_key_sizes() -> None:
    with pytest.raises(CipherbenchError, match="128, 192 and 256"):
        aesavs_files(64)


def without_sources(cases: list[VectorCase]) -> list[tuple[bytes, bytes, bytes, bool]]:
    return [(c.key, c.data, c.expected, c.decrypt) for c in cases]


def test_shared_copies_match_the_package() -> None:
    package = cryptography_vectors_dir("ciphers", "AES", "ECB")
    root = kat_root()
    shared_folder = root / "aes" if root is not None else None
    if package is None or shared_folder is None or not shared_folder.is_dir():
        pytest.skip("needs both cryptography_vectors and the shared kat folder")
        return
    for key_bits in (128, 192, 256):
        for path in aesavs_files(key_bits):
            shared = shared_folder / path.name
            assert without_sources(read_rsp(shared)) == without_sources(read_rsp(path)), path.name


def test_format_errors_stay_one_line_whatever_the_file_held() -> None:
    """Hypothesis found a NESSIE file mutated to hold a lone carriage return inside a field name:
    the error quoted it raw, a two-line message. Control characters are shown escaped."""
    from cipherbench.verify import kat_formats, vectors

    for module in (kat_formats, vectors):
        message = str(module._fail("f.txt:19", "unexpected field Set 1, vector#  1:\r  ...", "key"))
        assert message == "f.txt:19: unexpected field Set 1, vector#  1:\\r  ...; expected key"
        assert message.isprintable()
