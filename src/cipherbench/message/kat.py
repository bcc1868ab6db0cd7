"""The NIST LWC KAT text format (``LWC_AEAD_KAT_<key>_<nonce>.txt``, ``LWC_HASH_KAT_<md>.txt``).

Records are paragraphs of ``Name = hex`` lines (a value may be empty: ``PT = ``), blank-line separated:

* AEAD: ``Count``, ``Key``, ``Nonce``, ``PT``, ``AD``, ``CT`` (CT is the ciphertext followed by the
  tag).
* hash: ``Count``, ``Msg``, ``MD``.
* decryption results (what ``cipherbench simulate --op decrypt`` writes): ``Count``, ``Key``,
  ``Nonce``, ``AD``, ``CT``, then ``PT = ..`` or a bare ``FAIL`` line (the CAVP GCM files' layout).

Fields are named, so their order does not matter when reading; ``Count`` values are decimal and unique
in a file. Lines starting with ``#`` are comments. A malformed file gives a one-line CipherbenchError
``FILE:LINE: what is wrong`` (missing or repeated field, unknown field, odd or non-hex value, duplicate
Count, AEAD and hash records mixed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence, Union

from cipherbench.errors import CipherbenchError

AEAD_FIELDS = ("Key", "Nonce", "PT", "AD", "CT")
HASH_FIELDS = ("Msg", "MD")
_LINE = re.compile(r"^([A-Za-z]+)\s*=\s*(.*?)\s*$")


@dataclass(frozen=True)
class AeadRecord:
    """An AEAD record. ``pt`` None: the decryption failed (FAIL). ``ct`` is ciphertext || tag."""

    count: int
    key: bytes
    nonce: bytes
    ad: bytes
    pt: bytes | None
    ct: bytes

    @property
    def failed(self) -> bool:
        return self.pt is None

    def split_ct(self, tag_bytes: int) -> tuple[bytes, bytes]:
        """(ciphertext, tag) of ``ct``."""
        if len(self.ct) < tag_bytes:
            raise CipherbenchError(f"KAT record Count = {self.count}: CT has {len(self.ct)} bytes, "
                                   f"fewer than the {tag_bytes}-byte tag")
        return self.ct[:len(self.ct) - tag_bytes], self.ct[len(self.ct) - tag_bytes:]


@dataclass(frozen=True)
class HashRecord:
    count: int
    msg: bytes
    md: bytes


Record = Union[AeadRecord, HashRecord]


def _hex(value: bytes) -> str:
    return value.hex().upper()


def format_record(record: Record, *, decryption: bool = False) -> str:
    """One record's lines (no trailing blank line). ``decryption``: the decryption-result layout
    (PT or FAIL last)."""
    if isinstance(record, HashRecord):
        lines = [f"Count = {record.count}", f"Msg = {_hex(record.msg)}", f"MD = {_hex(record.md)}"]
    elif decryption or record.pt is None:
        lines = [f"Count = {record.count}", f"Key = {_hex(record.key)}",
                 f"Nonce = {_hex(record.nonce)}", f"AD = {_hex(record.ad)}", f"CT = {_hex(record.ct)}",
                 "FAIL" if record.pt is None else f"PT = {_hex(record.pt)}"]
    else:
        lines = [f"Count = {record.count}", f"Key = {_hex(record.key)}",
                 f"Nonce = {_hex(record.nonce)}", f"PT = {_hex(record.pt)}", f"AD = {_hex(record.ad)}",
                 f"CT = {_hex(record.ct)}"]
    return "\n".join(lines)


def format_kat(records: Iterable[Record], *, decryption: bool = False) -> str:
    """A whole file: records separated by blank lines (NIST's files end with one)."""
    return "".join(format_record(r, decryption=decryption) + "\n\n" for r in records)


def write_kat(path: str | Path, records: Iterable[Record], *, decryption: bool = False) -> Path:
    path = Path(path)
    path.write_text(format_kat(records, decryption=decryption), newline="")
    return path


def parse_kat(text: str, source: str = "<text>") -> list[Record]:
    """The records of a KAT text (``source`` names it in errors)."""
    records: list[Record] = []
    first_lines: dict[int, int] = {}
    kind: str | None = None  # of the first record: a file holds one kind
    for paragraph in _paragraphs(text):
        record, kind = _record(paragraph, source, kind)
        first_line = paragraph[0][0]
        if record.count in first_lines:
            raise CipherbenchError(f"{source}:{first_line}: duplicate Count = {record.count} "
                                   f"(first at line {first_lines[record.count]})")
        first_lines[record.count] = first_line
        records.append(record)
    return records


def _paragraphs(text: str) -> list[list[tuple[int, str]]]:
    """The text's records: runs of non-blank, non-comment lines, each with its line number."""
    paragraphs: list[list[tuple[int, str]]] = [[]]
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if line:
            paragraphs[-1].append((number, line))
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


def _field(number: int, line: str, first_line: int, source: str) -> tuple[str, bytes | int | None]:
    """One line of a record: ("PT", None) for FAIL, ("Count", n), or a field and its bytes."""
    if line == "FAIL":
        return "PT", None
    match = _LINE.match(line)
    if not match:
        raise CipherbenchError(f"{source}:{number}: expected 'Name = hex' or FAIL, got "
                               f"{line[:40]!r}")
    name, text_value = match.groups()
    if name == "Count":
        if number != first_line:
            raise CipherbenchError(f"{source}:{number}: Count must open its record "
                                   "(missing blank line before it?)")
        if not text_value.isdigit():
            raise CipherbenchError(f"{source}:{number}: Count {text_value!r} is not a "
                                   "decimal number")
        return name, int(text_value)
    if name not in AEAD_FIELDS + HASH_FIELDS:
        raise CipherbenchError(f"{source}:{number}: unknown field {name!r}; expected "
                               f"{', '.join(AEAD_FIELDS)} or {', '.join(HASH_FIELDS)}")
    if len(text_value) % 2 or not re.fullmatch(r"[0-9A-Fa-f]*", text_value):
        problem = "odd number of hex digits" if len(text_value) % 2 else "not hex"
        raise CipherbenchError(f"{source}:{number}: {name} = {text_value[:40]!r}: {problem}")
    return name, bytes.fromhex(text_value)


def _record(paragraph: list[tuple[int, str]], source: str,
            file_kind: str | None) -> tuple[Record, str]:
    """One record and its kind, every field checked: it opens with Count, is of the file's kind
    (``file_kind``, None for the first record) and has that kind's fields, once each."""
    first_line = paragraph[0][0]
    fields: dict[str, bytes | None] = {}
    lines: dict[str, int] = {}
    count = -1
    for number, line in paragraph:
        name, value = _field(number, line, first_line, source)
        if name == "Count":
            count = int(value)  # type: ignore[arg-type]
            continue
        if name in fields:
            raise CipherbenchError(f"{source}:{number}: {name if value is not None else 'FAIL'} "
                                   "repeated in one record (or PT and FAIL together)")
        fields[name], lines[name] = value, number  # type: ignore[assignment]
    if count < 0:
        raise CipherbenchError(f"{source}:{first_line}: record does not start with 'Count = n'")
    kind = "hash" if set(fields) & set(HASH_FIELDS) else "aead"
    if file_kind is not None and kind != file_kind:
        raise CipherbenchError(f"{source}:{first_line}: {kind} record among {file_kind} records")
    wanted = HASH_FIELDS if kind == "hash" else AEAD_FIELDS
    missing = [name for name in wanted if name not in fields]
    if missing:
        raise CipherbenchError(f"{source}:{first_line}: record Count = {count} has no "
                               f"{', '.join(missing)}")
    extra = [name for name in fields if name not in wanted]
    if extra:
        raise CipherbenchError(f"{source}:{lines[extra[0]]}: {extra[0]} does not belong in a "
                               f"{kind} record")
    if kind == "hash":
        return HashRecord(count, fields["Msg"], fields["MD"]), kind  # type: ignore[arg-type]
    value: dict = fields
    return AeadRecord(count, value["Key"], value["Nonce"], value["AD"], value["PT"],
                      value["CT"]), kind


def read_kat(path: str | Path) -> list[Record]:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as err:
        raise CipherbenchError(f"{path}: cannot read ({err.strerror}); expected a NIST LWC KAT "
                               "file") from None
    return parse_kat(text, str(path))


def aead_records(records: Sequence[Record], source: str = "KAT file") -> list[AeadRecord]:
    """``records`` if they are AEAD records; a one-line error for a hash file."""
    if records and not isinstance(records[0], AeadRecord):
        raise CipherbenchError(f"{source} holds hash records (Msg, MD); an AEAD design needs Key, "
                               "Nonce, PT, AD, CT")
    return list(records)  # type: ignore[arg-type]
