"""Readers for known-answer vector files, and where to find the official ones on this machine.

Two formats:

* NIST CAVP ``.rsp`` ECB files (AESAVS GFSbox/KeySbox/VarKey/VarTxt/MMT, TDES KAT/MMT): ``[ENCRYPT]`` and
  ``[DECRYPT]`` sections of ``COUNT``/``KEY``/``PLAINTEXT``/``CIPHERTEXT`` records. TDES files give the key
  as ``KEYs`` (one key used three times) or ``KEY1``/``KEY2``/``KEY3``; both become the 24-byte key
  ``K1 || K2 || K3``. Multi-block messages (MMT) become one case per ECB block, because ECB blocks are
  independent and a hardware core takes one block at a time.
* The ``cipherbench simulate`` input: one ``KEYHEX DATAHEX`` pair per line.

Every malformed input raises ``CipherbenchError`` with one line ``FILE:LINE: what is wrong; expected ...``.
"""

from __future__ import annotations

import importlib.util
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from cipherbench.errors import CipherbenchError

KAT_ENV_VAR = "CIPHERBENCH_KAT"

_HEX_DIGITS = re.compile(r"[0-9A-Fa-f]+")
_MONTE_CARLO_HINT = re.compile(r"\bMCT\b|monte\s*carlo", re.IGNORECASE)
_SECTIONS = {"ENCRYPT": False, "DECRYPT": True}
_SINGLE_KEY_FIELDS = ("KEY", "KEYS")
_TDES_KEY_FIELDS = ("KEY1", "KEY2", "KEY3")
_TEXT_FIELDS = ("PLAINTEXT", "CIPHERTEXT")
_RECORD_FIELDS = _SINGLE_KEY_FIELDS + _TDES_KEY_FIELDS + _TEXT_FIELDS
_RECORD_FORMAT = "COUNT = n, then KEY (or KEYs, or KEY1/KEY2/KEY3), PLAINTEXT and CIPHERTEXT"
_AES_BLOCK_BYTES = 16
_TDES_BLOCK_BYTES = 8


@dataclass(frozen=True)
class VectorCase:
    """One block to check: ``expected`` is ``data`` encrypted (decrypted if ``decrypt``) under ``key``."""

    key: bytes
    data: bytes
    expected: bytes
    decrypt: bool
    source: str  # where it came from, e.g. "ECBMMT128.rsp:17 [ENCRYPT] COUNT=1 block 2/2"


# --- shared helpers -------------------------------------------------------------------------------------


def _fail(where: str, problem: str, expected: str) -> CipherbenchError:
    text = f"{where}: {problem}; expected {expected}"
    # One line whatever the file held: a stray carriage return or control character in a
    # quoted field is shown escaped (\\r), not printed.
    return CipherbenchError("".join(c if c.isprintable() else repr(c)[1:-1] for c in text))


def _read_text(path: Path) -> str:
    """The file's text; unreadable or non-text files become a CipherbenchError naming the file."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        name = str(path) if str(path).isprintable() else repr(str(path))  # keep the message one line
        raise CipherbenchError(f"{name}: cannot read the vector file ({exc.strerror or exc})") from exc
    except ValueError as exc:  # e.g. a NUL character in the name
        raise CipherbenchError(f"{str(path)!r}: not a usable file name ({exc})") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problem = f"not a text file (undecodable byte at offset {exc.start})"
        raise _fail(str(path), problem, "ASCII hex text") from exc


def _numbered_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, content without comment or surrounding space); CRLF and LF both work."""
    lines = []
    for number, line in enumerate(text.split("\n"), start=1):
        content = line.split("#", 1)[0].strip()
        lines.append((number, content))
    return lines


def _parse_hex(value: str, where: str, what: str) -> bytes:
    if not value:
        raise _fail(where, f"{what} is empty", "an even number of hex digits")
    if not _HEX_DIGITS.fullmatch(value):
        raise _fail(where, f"{what} is not hex ({_shorten(value)!r})", "only the digits 0-9 and a-f")
    if len(value) % 2:
        raise _fail(where, f"{what} has an odd number of hex digits ({len(value)})", "whole bytes")
    return bytes.fromhex(value)


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- NIST CAVP .rsp -------------------------------------------------------------------------------------


@dataclass
class _Record:
    """The fields of one COUNT record as they are read, before they become cases."""

    count: int
    line: int
    decrypt: bool
    section: str
    fields: dict[str, tuple[int, bytes]] = field(default_factory=dict)  # name -> (line, value)


def _reject_monte_carlo(path: Path, text: str) -> None:
    # MCT expected values are the end of 1000-iteration chains (see the AESAVS document), not one block's
    # result, so reading them as KAT records would report false mismatches.
    why = "Monte Carlo (MCT) files chain 1000 iterations per record and are not single-block vectors"
    if "MCT" in path.name.upper():
        raise _fail(str(path), why, "a KAT or MMT file (GFSbox, KeySbox, VarKey, VarTxt, MMT)")
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith("#") and _MONTE_CARLO_HINT.search(stripped):
            raise _fail(f"{path}:{number}", why, "a KAT or MMT file (GFSbox, KeySbox, VarKey, VarTxt, MMT)")
        if stripped and not stripped.startswith("#"):
            return  # only the header comments describe the file


def _split_assignment(content: str, where: str) -> tuple[str, str]:
    name, equals, value = content.partition("=")
    if not equals or not name.strip():
        raise _fail(where, f"cannot read {_shorten(content)!r}", f"'NAME = value' ({_RECORD_FORMAT})")
    return name.strip().upper(), value.strip()


def _record_key(record: _Record, where: str) -> tuple[bytes, bool]:
    """The record's key and whether it is a TDES-style key (KEYs or KEY1..KEY3)."""
    names = set(record.fields)
    tdes_names = names & set(_TDES_KEY_FIELDS)
    single_names = names & set(_SINGLE_KEY_FIELDS)
    if (single_names and tdes_names) or len(single_names) > 1:
        key_names = sorted(single_names | tdes_names)
        raise _fail(where, f"record has conflicting key fields {key_names}", _RECORD_FORMAT)
    if "KEY" in names:
        return record.fields["KEY"][1], False
    if "KEYS" in names:
        # CAVP TDES KAT files: KEYs is K1 = K2 = K3.
        return record.fields["KEYS"][1] * 3, True
    if tdes_names:
        missing = [n for n in _TDES_KEY_FIELDS if n not in tdes_names]
        if missing:
            raise _fail(where, f"record has no {missing[0]}", "KEY1, KEY2 and KEY3 together")
        return b"".join(record.fields[n][1] for n in _TDES_KEY_FIELDS), True
    raise _fail(where, "record has no KEY", _RECORD_FORMAT)


def _split_blocks(data: bytes, expected: bytes, block_bytes: int, where: str) -> list[tuple[bytes, bytes]]:
    """Pairs of single ECB blocks; texts of one block or less stay whole (the model checks their size)."""
    if len(data) != len(expected):
        problem = f"PLAINTEXT and CIPHERTEXT lengths differ ({len(data)} and {len(expected)} bytes)"
        raise _fail(where, problem, "equal lengths")
    if len(data) <= block_bytes:
        return [(data, expected)]
    if len(data) % block_bytes:
        problem = f"message of {len(data)} bytes is not a whole number of {block_bytes}-byte blocks"
        raise _fail(where, problem, "whole blocks")
    starts = range(0, len(data), block_bytes)
    return [(data[i : i + block_bytes], expected[i : i + block_bytes]) for i in starts]


def _record_cases(record: _Record, path: Path, block_bytes: int | None) -> list[VectorCase]:
    where = f"{path}:{record.line}"
    key, tdes_key = _record_key(record, where)
    for name in _TEXT_FIELDS:
        if name not in record.fields:
            raise _fail(where, f"record COUNT = {record.count} has no {name}", _RECORD_FORMAT)
    plaintext = record.fields["PLAINTEXT"][1]
    ciphertext = record.fields["CIPHERTEXT"][1]
    data, expected = (ciphertext, plaintext) if record.decrypt else (plaintext, ciphertext)
    size = block_bytes or (_TDES_BLOCK_BYTES if tdes_key else _AES_BLOCK_BYTES)
    blocks = _split_blocks(data, expected, size, where)
    label = f"{path.name}:{record.line} [{record.section}] COUNT={record.count}"
    cases = []
    for index, (block_in, block_out) in enumerate(blocks, start=1):
        source = label if len(blocks) == 1 else f"{label} block {index}/{len(blocks)}"
        cases.append(VectorCase(key, block_in, block_out, record.decrypt, source))
    return cases


class _RspParser:
    """Walks the lines of one .rsp file, collecting records into cases."""

    def __init__(self, path: Path, block_bytes: int | None) -> None:
        self.path = path
        self.block_bytes = block_bytes
        self.section: str | None = None
        self.record: _Record | None = None
        self.cases: list[VectorCase] = []

    def feed(self, number: int, content: str) -> None:
        where = f"{self.path}:{number}"
        if content.startswith("["):
            self._start_section(content, where)
            return
        name, value = _split_assignment(content, where)
        if name == "COUNT":
            self._start_record(value, number, where)
        else:
            self._add_field(name, value, number, where)

    def finish(self) -> list[VectorCase]:
        self._close_record()
        if not self.cases:
            expected = f"[ENCRYPT]/[DECRYPT] sections of {_RECORD_FORMAT}"
            raise _fail(str(self.path), "no test vectors found", expected)
        return self.cases

    def _start_section(self, content: str, where: str) -> None:
        name = content.strip("[] ").upper()
        if not content.endswith("]") or name not in _SECTIONS:
            expected = "[ENCRYPT] or [DECRYPT] (an ECB KAT/MMT .rsp file)"
            raise _fail(where, f"unexpected section {_shorten(content)}", expected)
        self._close_record()
        self.section = name

    def _start_record(self, value: str, number: int, where: str) -> None:
        if self.section is None:
            raise _fail(where, "COUNT before any section", "[ENCRYPT] or [DECRYPT] first")
        if not (value.isascii() and value.isdigit()) or len(value) > 9:
            raise _fail(where, f"COUNT is {_shorten(value)!r}", "a decimal record number (at most 9 digits)")
        self._close_record()
        self.record = _Record(int(value), number, _SECTIONS[self.section], self.section)

    def _add_field(self, name: str, value: str, number: int, where: str) -> None:
        if name not in _RECORD_FIELDS:
            raise _fail(where, f"unexpected field {name}", f"{_RECORD_FORMAT} (ECB only: no IV)")
        if self.record is None:
            raise _fail(where, f"{name} outside a record", "'COUNT = n' to open each record")
        if name in self.record.fields:
            raise _fail(where, f"second {name} in record COUNT = {self.record.count}", "one value per field")
        self.record.fields[name] = (number, _parse_hex(value, where, name))

    def _close_record(self) -> None:
        if self.record is not None:
            self.cases.extend(_record_cases(self.record, self.path, self.block_bytes))
            self.record = None


def read_rsp(path: str | os.PathLike[str], block_bytes: int | None = None) -> list[VectorCase]:
    """Every block of a NIST CAVP ECB KAT or MMT ``.rsp`` file, in file order.

    ``block_bytes`` splits multi-block messages; by default 8 for TDES-style keys (KEYs, KEY1..KEY3) and
    16 otherwise. Monte Carlo (MCT) files are refused.
    """
    path = Path(path)
    if block_bytes is not None and block_bytes <= 0:
        raise CipherbenchError(f"block_bytes must be a positive number of bytes, got {block_bytes}")
    text = _read_text(path)
    _reject_monte_carlo(path, text)
    parser = _RspParser(path, block_bytes)
    for number, content in _numbered_lines(text):
        if content:
            parser.feed(number, content)
    return parser.finish()


# --- cipherbench simulate input -------------------------------------------------------------------------


def _simple_source(path_or_text: str | os.PathLike[str]) -> tuple[str, str]:
    """(name for messages, text): a path is read; a string with a newline or a space is the text itself."""
    if isinstance(path_or_text, os.PathLike):
        path = Path(path_or_text)
        return str(path), _read_text(path)
    if "\n" not in path_or_text and Path(path_or_text).is_file():
        return path_or_text, _read_text(Path(path_or_text))
    if "\n" in path_or_text or " " in path_or_text.strip() or "\t" in path_or_text.strip():
        return "<text>", path_or_text
    # One word that is not an existing file: most likely a mistyped path, so say so.
    path = Path(path_or_text)
    return str(path), _read_text(path)


def read_simple_vectors(path_or_text: str | os.PathLike[str]) -> list[tuple[bytes, bytes]]:
    """``(key, data)`` pairs from ``KEYHEX DATAHEX`` lines; blank lines and ``#`` comments are skipped."""
    name, text = _simple_source(path_or_text)
    pairs = []
    for number, content in _numbered_lines(text):
        if not content:
            continue
        where = f"{name}:{number}"
        words = content.split()
        if len(words) != 2:
            problem = f"{len(words)} fields in {_shorten(content)!r}"
            raise _fail(where, problem, "'KEYHEX DATAHEX' (two hex fields)")
        pairs.append((_parse_hex(words[0], where, "key"), _parse_hex(words[1], where, "data")))
    if not pairs:
        raise _fail(name, "no vectors", "one 'KEYHEX DATAHEX' pair per line")
    return pairs


# --- where the official files are -----------------------------------------------------------------------


def kat_root() -> Path | None:
    """The folder of official known-answer files: $CIPHERBENCH_KAT, else None (the typed-in sets
    remain). scripts/test.sh and CI set it."""
    configured = os.environ.get(KAT_ENV_VAR, "").strip()
    if not configured:
        return None
    folder = Path(configured).expanduser()
    if not folder.is_dir():
        # An explicit setting that points nowhere would otherwise silently skip every KAT test.
        raise CipherbenchError(
            f"{KAT_ENV_VAR}={configured} is not a folder; point it at the kat folder or unset it"
        )
    return folder


def cryptography_vectors_dir(*parts: str) -> Path | None:
    """A folder inside the installed PyPI ``cryptography_vectors`` package, or None if absent."""
    try:
        spec = importlib.util.find_spec("cryptography_vectors")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)), *parts)
    return folder if folder.is_dir() else None
