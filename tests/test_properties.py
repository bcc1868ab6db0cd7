"""Property-based tests of the input parsers (issue 8, item 6).

Every parser either returns well-formed data or raises a one-line ``CipherbenchError``; no other
exception (ValueError, IndexError, KeyError, UnicodeDecodeError, RecursionError, ...) may escape.
Valid files generated from random keys and blocks, with LF or CRLF line endings, read back exactly.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cipherbench.errors import CipherbenchError
from cipherbench.flows.liberty import Liberty, load_liberty, parse_liberty
from cipherbench.spec import DesignSpec, all_designs, parse
from cipherbench.study import Study, load_study
from cipherbench.verify.kat_formats import (
    KatFile,
    read_botan_vec,
    read_cryptopp_dat,
    read_cryptopp_txt,
    read_kat_file,
    read_nessie,
    read_submission,
    read_submission_mct,
)
from cipherbench.verify.vectors import VectorCase, read_rsp, read_simple_vectors

T = TypeVar("T")
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Case = tuple[bytes, bytes, bytes, bool]  # key, data, expected, decrypt


# --- helpers --------------------------------------------------------------------------------------------


def only_clear_errors(run: Callable[[], T]) -> T | None:
    """``run()``'s result, or None after a CipherbenchError whose message is one non-empty line."""
    try:
        return run()
    except CipherbenchError as exc:
        message = str(exc)
        assert message.strip() and "\n" not in message and "\r" not in message, repr(message)
        return None


def write_temp(folder: str, name: str, data: bytes) -> Path:
    path = Path(folder) / name
    path.write_bytes(data)
    return path


def encode(lines: list[str], newline: str) -> bytes:
    return (newline.join(lines) + newline).encode()


def plain(cases: list[VectorCase]) -> list[Case]:
    return [(c.key, c.data, c.expected, c.decrypt) for c in cases]


def assert_well_formed(cases: list[VectorCase]) -> None:
    for case in cases:
        assert isinstance(case.key, bytes) and case.key
        assert isinstance(case.data, bytes) and case.data
        assert len(case.data) == len(case.expected)
        assert isinstance(case.source, str)


def both(key: bytes, p: bytes, c: bytes) -> list[Case]:
    return [(key, p, c, False), (key, c, p, True)]


def blocks(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


newlines = st.sampled_from(["\n", "\r\n"])
aes_keys = st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
aes_blocks = st.binary(min_size=16, max_size=16)
hexcase = st.sampled_from([str.upper, str.lower])


# --- 1. design specs -------------------------------------------------------------------------------------


@functools.cache
def design_names() -> list[str]:
    """What `cipherbench list` prints: str() of every design."""
    return [str(d) for d in all_designs()]


def a_design(index: int) -> str:
    """A listed design chosen by any integer: the list's length changes as ciphers and
    architectures are added, so the index wraps instead of being bounded by today's count."""
    names = design_names()
    return names[index % len(names)]


@FAST
@given(st.text(max_size=80))
def test_parse_any_text_gives_a_spec_or_a_clear_error(text: str) -> None:
    result = only_clear_errors(lambda: parse(text))
    assert result is None or isinstance(result, DesignSpec)


spec_alphabet = st.sampled_from(list("aes-128/iterative:ops=both,sbox=gf-inv keys=stored0123456789\n\t ,=:/-_"))


@FAST
@given(st.text(spec_alphabet, max_size=60) | st.builds(lambda d, s: d + s, st.integers(0, 10**6).map(a_design), st.text(max_size=10)))
def test_parse_near_misses_give_a_spec_or_a_clear_error(text: str) -> None:
    result = only_clear_errors(lambda: parse(text))
    assert result is None or isinstance(result, DesignSpec)


@FAST
@given(st.integers(min_value=0), st.integers(1, 5000))
def test_parse_huge_key_size_is_a_clear_error(seed: int, digits: int) -> None:
    only_clear_errors(lambda: parse(f"aes-{str(seed) * digits}/iterative"))


@FAST
@given(st.data())
def test_printed_designs_round_trip(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(design_names()))
    spec = parse(name)
    assert str(spec) == name
    assert parse(str(spec)) == spec
    assert parse(spec.canonical()) == spec
    assert parse(spec.canonical()).canonical() == spec.canonical()


@FAST
@given(st.data())
def test_parse_is_case_insensitive(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(design_names()))
    flips = data.draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    mixed = "".join(ch.upper() if flip else ch for ch, flip in zip(name, flips))
    assert parse(mixed) == parse(name)
    assert parse(f"  {mixed}\n") == parse(name)


# --- 2. vector files: generators of valid files ----------------------------------------------------------

rsp_records = st.lists(st.tuples(aes_keys, st.integers(1, 3).flatmap(
    lambda n: st.tuples(st.binary(min_size=16 * n, max_size=16 * n), st.binary(min_size=16 * n, max_size=16 * n)))),
    min_size=1, max_size=4)


@st.composite
def rsp_files(draw: st.DrawFn) -> tuple[list[str], list[Case]]:
    """An AESAVS-style .rsp file (header comments, [ENCRYPT]/[DECRYPT] sections) and its cases."""
    fmt = draw(hexcase)
    lines = ["# CAVS 11.1", "# Config info for aes_values", "# AESVS GFSbox test data for ECB", ""]
    cases: list[Case] = []
    for section in draw(st.lists(st.sampled_from(["ENCRYPT", "DECRYPT"]), min_size=1, max_size=3)):
        lines += [f"[{section}]", ""]
        for count, (key, (p, c)) in enumerate(draw(rsp_records)):
            decrypt = section == "DECRYPT"
            texts = [("CIPHERTEXT", c), ("PLAINTEXT", p)] if decrypt else [("PLAINTEXT", p), ("CIPHERTEXT", c)]
            lines += [f"COUNT = {count}", f"KEY = {fmt(key.hex())}"]
            lines += [f"{name} = {fmt(value.hex())}" for name, value in texts]
            lines.append("")
            data, expected = (c, p) if decrypt else (p, c)
            cases += [(key, d, e, decrypt) for d, e in zip(blocks(data, 16), blocks(expected, 16))]
    return lines, cases


@st.composite
def tdes_rsp_files(draw: st.DrawFn) -> tuple[list[str], list[Case]]:
    """A CAVP TDES .rsp file with KEYs or KEY1/KEY2/KEY3 and 8-byte blocks."""
    lines = ["# CAVS 11.1", "# TDES Multi block Message Test for ECB", "[ENCRYPT]", ""]
    cases: list[Case] = []
    for count in range(draw(st.integers(1, 3))):
        keys = draw(st.lists(st.binary(min_size=8, max_size=8), min_size=1, max_size=3))
        n = draw(st.integers(1, 3))
        p, c = draw(st.binary(min_size=8 * n, max_size=8 * n)), draw(st.binary(min_size=8 * n, max_size=8 * n))
        if len(keys) == 3:
            lines += [f"COUNT = {count}"] + [f"KEY{i} = {k.hex()}" for i, k in enumerate(keys, 1)]
            key = b"".join(keys)
        else:
            lines += [f"COUNT = {count}", f"KEYs = {keys[0].hex()}"]
            key = keys[0] * 3
        lines += [f"PLAINTEXT = {p.hex()}", f"CIPHERTEXT = {c.hex()}", ""]
        cases += [(key, d, e, False) for d, e in zip(blocks(p, 8), blocks(c, 8))]
    return lines, cases


def wrap(value: str, width: int) -> list[str]:
    return [value[i : i + width] for i in range(0, len(value), width)]


@st.composite
def nessie_files(draw: st.DrawFn) -> tuple[list[str], list[Case]]:
    """A NESSIE *.test-vectors file (long values wrapped onto following lines) and its cases."""
    width = draw(st.sampled_from([32, 48, 64, 200]))
    lines = ["*" * 80, "*Project NESSIE - New European Schemes for Signature, Integrity, and Encryption*",
             "*" * 80, "", "Primitive Name: Rijndael", "========================", "Key size: 256 bits",
             "Block size: 128 bits", "", "Test vectors -- set 1", "=====================", ""]
    cases: list[Case] = []
    for number in range(draw(st.integers(1, 4))):
        key, p, c = draw(aes_keys), draw(aes_blocks), draw(aes_blocks)
        lines.append(f"Set 1, vector#{number:3d}:")
        for name, value in (("key", key), ("plain", p), ("cipher", c), ("decrypted", p)):
            first, *rest = wrap(value.hex().upper(), width)
            lines.append(f"{name:>30}={first}")
            lines += [" " * 31 + part for part in rest]
        lines.append("")
        cases += both(key, p, c)
    lines += ["", "", "End of test vectors"]
    return lines, cases


@st.composite
def submission_files(draw: st.DrawFn) -> tuple[list[str], list[Case]]:
    """An AES-candidate ecb_tbl/ecb_vk-style file: KEYSIZE sections, I= records, section-wide PT=."""
    lines = ["/* Description: Electronic Codebook (ECB) Mode", "   Tables Known Answer Test */", "",
             "Algorithm Name: RIJNDAEL", "Principal Submitter: Joan Daemen", ""]
    cases: list[Case] = []
    for key_bytes in draw(st.lists(st.sampled_from([16, 24, 32]), min_size=1, max_size=3)):
        lines += ["==========", "", f"KEYSIZE={key_bytes * 8}", ""]
        fixed_pt = draw(st.none() | aes_blocks)
        if fixed_pt is not None:
            lines += [f"PT={fixed_pt.hex().upper()}", ""]
        for index in range(1, draw(st.integers(1, 4)) + 1):
            key = draw(st.binary(min_size=key_bytes, max_size=key_bytes))
            c = draw(aes_blocks)
            lines += [f"I={index}", f"KEY={key.hex().upper()}"]
            if fixed_pt is not None:
                lines.append(f"CT={c.hex().upper()}")
                cases.append((key, fixed_pt, c, False))
            elif draw(st.booleans()):
                p = draw(aes_blocks)
                lines += [f"PT={p.hex().upper()}", f"CT={c.hex().upper()}"]
                cases.append((key, p, c, False))
            else:
                p = draw(aes_blocks)
                lines += [f"CT={c.hex().upper()}", f"PT={p.hex().upper()}"]
                cases.append((key, c, p, True))
            lines.append("")
    lines.append("==========")
    return lines, cases


@st.composite
def cryptopp_dat_files(draw: st.DrawFn) -> tuple[list[str], list[Case]]:
    records = draw(st.lists(st.tuples(aes_keys, aes_blocks, aes_blocks), min_size=1, max_size=5))
    lines = [f"{k.hex().upper()} {p.hex().upper()} {c.hex().upper()}" for k, p, c in records]
    return lines, [case for k, p, c in records for case in both(k, p, c)]


@st.composite
def cryptopp_txt_files(draw: st.DrawFn) -> tuple[list[str], list[Case]]:
    lines = ["AlgorithmType: SymmetricCipher", "Name: AES/ECB", "Source: FIPS 197"]
    cases: list[Case] = []
    for k, p, c in draw(st.lists(st.tuples(aes_keys, aes_blocks, aes_blocks), min_size=1, max_size=4)):
        lines += ["Comment: one block", f"Key: {k.hex()}", f"Plaintext: {p.hex()}",
                  f"Ciphertext: {c.hex()}", "Test: Encrypt"]
        cases += both(k, p, c)
    return lines, cases


@st.composite
def botan_files(draw: st.DrawFn) -> tuple[list[str], list[Case]]:
    lines = ["# Botan block cipher vectors", "", "[AES-128]"]
    cases: list[Case] = []
    for k, n in draw(st.lists(st.tuples(aes_keys, st.integers(1, 3)), min_size=1, max_size=4)):
        p, c = draw(st.binary(min_size=16 * n, max_size=16 * n)), draw(st.binary(min_size=16 * n, max_size=16 * n))
        lines += [f"Key = {k.hex().upper()}", f"In = {p.hex().upper()}", f"Out = {c.hex().upper()}", ""]
        for bp, bc in zip(blocks(p, 16), blocks(c, 16)):
            cases += both(k, bp, bc)
    return lines, cases


@st.composite
def simple_files(draw: st.DrawFn) -> tuple[list[str], list[tuple[bytes, bytes]]]:
    pairs = draw(st.lists(st.tuples(aes_keys, aes_blocks), min_size=1, max_size=5))
    lines = ["# KEYHEX DATAHEX"] + [f"{k.hex()} {d.hex()}" for k, d in pairs]
    return lines, pairs


def read_cases(reader: Callable[[Path], Any], path: Path) -> list[Case]:
    result = reader(path)
    return plain(result.cases if isinstance(result, KatFile) else result)


# (name, strategy, reader, file name) for every reader of single-block cases
FORMATS: list[tuple[str, Any, Callable[[Path], Any], str]] = [
    ("rsp", rsp_files(), read_rsp, "ECBGFSbox128.rsp"),
    ("tdes-rsp", tdes_rsp_files(), read_rsp, "TECBMMT3.rsp"),
    ("nessie", nessie_files(), read_nessie, "rijndael-256-128.test-vectors"),
    ("nessie-sniffed", nessie_files(), read_kat_file, "rijndael.test-vectors"),
    ("submission", submission_files(), read_submission, "ecb_tbl.txt"),
    ("submission-sniffed", submission_files(), read_kat_file, "ecb_vk.txt"),
    ("cryptopp-dat", cryptopp_dat_files(), read_cryptopp_dat, "rijndael.dat"),
    ("cryptopp-txt", cryptopp_txt_files(), read_cryptopp_txt, "aes.txt"),
    ("botan", botan_files(), read_botan_vec, "aes.vec"),
]
ALL_READERS: list[tuple[Callable[[Path], Any], str]] = [(r, n) for _, _, r, n in FORMATS] + [
    (read_submission_mct, "ecb_e_m.txt"), (read_simple_vectors, "in.txt")]


@FAST
@given(st.data(), st.sampled_from(FORMATS), newlines)
def test_valid_files_read_back_exactly(data: st.DataObject, fmt: tuple[Any, ...], newline: str) -> None:
    _, strategy, reader, name = fmt
    lines, cases = data.draw(strategy)
    with tempfile.TemporaryDirectory() as folder:
        assert read_cases(reader, write_temp(folder, name, encode(lines, newline))) == cases


@FAST
@given(simple_files(), newlines)
def test_simple_vectors_read_back_exactly(file: tuple[list[str], Any], newline: str) -> None:
    lines, pairs = file
    with tempfile.TemporaryDirectory() as folder:
        assert read_simple_vectors(write_temp(folder, "in.txt", encode(lines, newline))) == pairs
    assert read_simple_vectors(newline.join(lines)) == pairs


# --- 2. vector files: mutations --------------------------------------------------------------------------

JUNK_LINES = ["KEY = 0g", "KEY = 0", "PLAINTEXT = 00112233", "[ENCRYPT", "[CBC]", "COUNT = x",
              "COUNT = \u00b2", "I=\u00b9", "KEYSIZE=\u00b2\u00b2\u00b2", "KEYSIZE=" + "1" * 5000,
              "COUNT = " + "9" * 5000, "Set 1, vector#" + "9" * 5000 + ":", "Iterated " + "9" * 5000 + " times=00",
              "  Iterated 100 times=0011", "IV=00", "CT=", "Test: Decrypt", "Key: zz", "In = 00", "Out = 0011",
              "=", "==", "[", "]", "#", "/*", "Expanded Key = [", "A" + " " * 3000 + "B=00", "\x00\x01\x02",
              "\ufeff", "\u00e9", "KEY\u00a0= 00", "Set 1, vector#  0:", "key=\u0660\u0661", "1" * 100_000]


@st.composite
def mutated(draw: st.DrawFn, lines: list[str], newline: str) -> bytes:
    """A valid file broken in one or more typical ways."""
    text = encode(lines, newline)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["truncate", "flip", "delete", "insert-line", "drop-line", "junk", "empty",
                                     "long-line", "dup-line"]))
        if kind == "empty":
            return b""
        position = draw(st.integers(0, len(text)))
        if kind == "truncate":
            text = text[:position]
        elif kind == "flip":
            text = text[:position] + draw(st.sampled_from([b"g", b"Z", b" ", b"=", b"\r", b"\n", b"#", b"\xff",
                                                           b"\x00", b"[", b"0"])) + text[position + 1:]
        elif kind == "delete":
            text = text[:position] + text[position + 1:]
        elif kind == "junk":
            text = text[:position] + draw(st.binary(min_size=1, max_size=20)) + text[position:]
        elif kind == "long-line":
            text = text[:position] + b"0" * 200_000 + text[position:]
        else:
            parts = text.split(b"\n")
            at = draw(st.integers(0, max(len(parts) - 1, 0)))
            if kind == "insert-line":
                parts.insert(at, draw(st.sampled_from(JUNK_LINES)).encode())
            elif kind == "drop-line" and parts:
                del parts[at]
            elif parts:
                parts.insert(at, parts[at])
            text = b"\n".join(parts)
    return text


@SLOW
@given(st.data(), st.sampled_from(FORMATS), newlines)
def test_mutated_files_give_cases_or_a_clear_error(data: st.DataObject, fmt: tuple[Any, ...], newline: str) -> None:
    _, strategy, reader, name = fmt
    lines, _ = data.draw(strategy)
    broken = data.draw(mutated(lines, newline))
    with tempfile.TemporaryDirectory() as folder:
        path = write_temp(folder, name, broken)
        for read, _ in [(reader, name), *ALL_READERS]:
            result = only_clear_errors(lambda: read(path))
            if isinstance(result, KatFile):
                assert_well_formed(result.cases)
            elif isinstance(result, list) and result and isinstance(result[0], VectorCase):
                assert_well_formed(result)


@FAST
@given(st.data(), st.sampled_from(FORMATS), newlines, st.sampled_from(JUNK_LINES))
def test_hostile_line_gives_cases_or_a_clear_error(
    data: st.DataObject, fmt: tuple[Any, ...], newline: str, junk: str
) -> None:
    _, strategy, reader, name = fmt
    lines, _ = data.draw(strategy)
    lines.insert(data.draw(st.integers(0, len(lines))), junk)
    with tempfile.TemporaryDirectory() as folder:
        result = only_clear_errors(lambda: reader(write_temp(folder, name, encode(lines, newline))))
    if result is not None:
        assert_well_formed(result.cases if isinstance(result, KatFile) else result)


@FAST
@given(st.binary(max_size=300), st.sampled_from(ALL_READERS))
def test_binary_junk_gives_a_clear_error(junk: bytes, reader: tuple[Callable[[Path], Any], str]) -> None:
    read, name = reader
    with tempfile.TemporaryDirectory() as folder:
        only_clear_errors(lambda: read(write_temp(folder, name, junk)))


@FAST
@given(st.text(max_size=60))
def test_simple_vectors_any_text_or_name(text: str) -> None:
    result = only_clear_errors(lambda: read_simple_vectors(text))
    assert result is None or all(k and d for k, d in result)


def test_missing_files_and_folders_give_a_clear_error() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for read, name in ALL_READERS:
            only_clear_errors(lambda: read(Path(folder) / name))
            only_clear_errors(lambda: read(Path(folder)))


# --- 3. study files ----------------------------------------------------------------------------------------

toml_keys = st.sampled_from(["name", "designs", "targets", "asic_goals", "liberty", "skip_unavailable",
                             "fpga_fmax_search", "fpga_seeds",
                             "asic_speed_grades"])
toml_scalars = (st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12) | st.integers(-10**6, 10**6)
                | st.booleans() | st.floats(allow_nan=False, allow_infinity=False)
                | st.integers(0, 10**6).map(a_design)
                | st.sampled_from(["generic", "asic", "fpga-ecp5", "fpga-ice40", "area", "speed", "nope"]))
toml_values = st.recursive(toml_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.from_regex(r"[a-z]{1,5}", fullmatch=True), inner, max_size=2),
                           max_leaves=6)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"


def check_study(text: str | bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "study.toml"
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        result = only_clear_errors(lambda: load_study(path))
        assert result is None or isinstance(result, Study)


valid_designs = st.lists(st.integers(0, 10**6).map(a_design), min_size=1, max_size=2)


@FAST
@given(st.fixed_dictionaries({"designs": valid_designs}),
       st.dictionaries(toml_keys | st.from_regex(r"[a-z_]{1,8}", fullmatch=True), toml_values, max_size=6))
def test_study_from_random_tables(base: dict[str, Any], changes: dict[str, Any]) -> None:
    table = {**base, **changes}
    check_study("\n".join(f"{key} = {toml_value(value)}" for key, value in table.items()) + "\n")


@FAST
@given(st.text(st.sampled_from(list('name=designs[]"aes-128/iterative,targets{}generic\n #\'0.5truex\\')), max_size=80)
       | st.binary(max_size=80))
def test_study_from_random_text(text: str | bytes) -> None:
    check_study(text)


def test_study_missing_or_folder_gives_a_clear_error() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for path in (Path(folder) / "none.toml", Path(folder)):
            only_clear_errors(lambda: load_study(path))


# --- 4. Liberty --------------------------------------------------------------------------------------------

LIBERTY = """library (demo) {
  /* units */
  time_unit : "1ns" ;
  capacitive_load_unit (1, ff) ;
  cell (NAND2_X1) {
    area : 0.798 ;
    pin (A1) { direction : input ; capacitance : 1.6 ; }
    pin (A2) { direction : input ; capacitance : 1.7 ; }
    pin (ZN) { direction : output ; function : "!(A1 & A2)" ; }
  }
  cell (BUF_X1) {
    area : 0.798 ;
    pin (A) { direction : input ; capacitance : 0.9 ; }
    pin (Z) { direction : output ; function : "A" ; }
  }
  cell (DFF_X1) {
    area : 4.5 ;
    ff (IQ, IQN) { next_state : "D" ; clocked_on : "CK" ; }
    pin (D) { direction : input ; }
    pin (CK) { direction : input ; }
    pin (Q) { direction : output ; function : "IQ" ; }
  }
}
"""


def check_liberty(text: str) -> None:
    result = only_clear_errors(lambda: parse_liberty(text, source=Path("x.lib"), path=Path("x.lib"), sha256="0"))
    assert result is None or isinstance(result, Liberty)


def test_liberty_sample_reads() -> None:
    lib = parse_liberty(LIBERTY, source=Path("x.lib"), path=Path("x.lib"), sha256="0")
    assert lib.nand2.name == "NAND2_X1" and lib.buffer is not None and lib.sequential_cells == {"DFF_X1"}


@FAST
@given(st.data())
def test_liberty_garbled_gives_a_library_or_a_clear_error(data: st.DataObject) -> None:
    text = data.draw(mutated(LIBERTY.splitlines(), data.draw(newlines))).decode("latin-1")
    check_liberty(text)


@FAST
@given(st.text(st.sampled_from(list("!()&|^'*+ AB01A1A2\\\"")), max_size=40), st.integers(0, 3000))
def test_liberty_odd_functions(function: str, depth: int) -> None:
    check_liberty(LIBERTY.replace("!(A1 & A2)", function))
    check_liberty(LIBERTY.replace("!(A1 & A2)", "(" * depth + "A1" + ")" * depth))
    check_liberty(LIBERTY.replace("!(A1 & A2)", "!" * depth + "A1"))


@SLOW
@given(st.binary(max_size=200) | st.builds(lambda t: t.encode(), st.text(max_size=200)))
def test_load_liberty_files(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        saved = os.environ.get("CIPHERBENCH_CACHE")
        os.environ["CIPHERBENCH_CACHE"] = folder  # decompressed copies stay in the temporary folder
        try:
            for name in ("x.lib", "x.lib.gz"):
                path = write_temp(folder, name, raw)
                only_clear_errors(lambda: load_liberty(path))
        finally:
            if saved is None:
                del os.environ["CIPHERBENCH_CACHE"]
            else:
                os.environ["CIPHERBENCH_CACHE"] = saved


def test_nessie_cipher_longer_than_its_block_is_a_clear_error(tmp_path: Path) -> None:
    # Found by test_mutated_files_give_cases_or_a_clear_error in CI (2026-11-26): a cipher= line
    # grown by wrapped hex lines was read as a 100,016-byte "block".
    import pytest

    from cipherbench.verify.kat_formats import read_nessie

    path = tmp_path / "v.txt"
    zeros = "00" * 16
    path.write_text("Set 1, vector#  0:\n" f"  key={zeros}\n  plain={zeros}\n  cipher={zeros}\n"
                    f"{zeros}\n  decrypted={zeros}\n\nEnd of test vectors\n")
    with pytest.raises(CipherbenchError, match="plain and cipher lengths differ"):
        read_nessie(path)
