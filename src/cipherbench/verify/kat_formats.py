"""Readers for the known-answer files of the AES candidates, NESSIE, Crypto++ and Botan.

The API is small: every reader takes a path and returns a :class:`KatFile`; malformed input raises
``CipherbenchError`` with one line ``FILE:LINE: what is wrong; expected ...``.

* ``read_kat_file(path, reverse_submission_hex=False, block_bytes=16)`` picks the reader from the
  file's content; ``find_kat_files(folder)`` lists the files of a folder that one of the readers
  understands (others, such as RFC texts, PDFs or HTML, are left out).
* ``read_submission(path, reverse_submission_hex=False, block_bytes=16)``: the AES-candidate format of
  the submission packages (``ecb_vk.txt``, ``ecb_vt.txt``, ``ecb_tbl.txt``, ``ecb_iv.txt``/``ecb_ivt.txt``).
  ``KEYSIZE=n`` opens a section; records are paragraphs (blank-line separated) with ``I=``, ``KEY=``,
  ``PT=`` and ``CT=``; a paragraph with only some of them (the ``PT=`` of a variable-key file, the
  ``KEY=`` of a variable-text file) sets defaults for the rest of the section. The direction follows the
  order: ``PT`` before ``CT`` is an encryption, ``CT`` first a decryption (``ecb_iv.txt``). Intermediate
  values (``R[..]``, ``SK[..]``, ``IVn=``, ``Expanded Key = [...]``, ...) and text lines without ``=``
  are skipped. ``reverse_submission_hex`` reverses the bytes of every value: Serpent's files print
  numbers, not byte strings.
* ``read_submission_mct(path, reverse_submission_hex=False)``: the Monte Carlo files (``*_m.txt``,
  ECB and CBC, encryption and decryption) as :class:`MonteCarloRecord` in ``KatFile.monte_carlo``;
  running the Monte Carlo procedure is not this module's business.
* ``read_nessie(path)``: NESSIE ``*.test-vectors`` files (``Set n, vector# m:`` blocks with ``key=``,
  ``plain=``, ``cipher=``, ``decrypted=``/``encrypted=`` and ``Iterated N times=``; long values continue
  on the next lines). Each vector gives one case per direction; the iterated values become
  :class:`IteratedCase` in ``KatFile.iterated`` (``iterate`` computes them with a model).
* ``read_cryptopp_dat(path)``: Crypto++ ``TestData/*.dat``, ``KEY PLAINTEXT CIPHERTEXT`` hex triples
  (whitespace separated; files whose values are spaced bytes hold one value per line).
* ``read_cryptopp_txt(path, block_bytes=16)``: Crypto++ ``TestVectors/*.txt`` (``Key:``, ``Plaintext:``,
  ``Ciphertext:``, ``Test:``; values persist until changed). ``Test: Encrypt`` gives both directions;
  ``EncryptionMCT``/``DecryptionMCT`` become Monte Carlo records (Crypto++'s own procedure).
* ``read_botan_vec(path, block_bytes=16)``: Botan ``*.vec`` (``[Name]``, ``Key =``, ``In =``, ``Out =``);
  multi-block ``In``/``Out`` values are split into ECB blocks.

For a cipher's ``vector_sets``: ``typed_cases(answers, key_sizes)`` turns typed-in
``(name, key, plaintext, ciphertext)`` tuples into cases of both directions, and
``kat_folder_sets(folder, key_sizes, reverse_submission_hex=False)`` yields ``(file stem, cases)`` for
every readable file of ``kat_root()/folder`` (nothing when the shared folder is absent).

Byte-string files (all but Serpent's submission files) keep their hex as bytes in order.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cipherbench.ciphers.base import CipherModel
from cipherbench.errors import CipherbenchError

from .vectors import VectorCase

_HEX = re.compile(r"[0-9A-Fa-f]+")
_FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_^\[\] -]*")
_KEYSIZE_LINE = re.compile(r"^(?:[A-Za-z]+:\s*)?KEYSIZE\s*=\s*(\S*)\s*$")
# Intermediate values of ecb_iv.txt (Serpent), ecb_ivt.txt (MARS) and ecb_ival.txt (Twofish): skipped.
_INTERMEDIATE = re.compile(r"^(?:R|Rinv|SK|SK\^|IV\d+|LONG_KEY)(?:\[\s*-?\d+\s*\])?\s*[:=]")
_NESSIE_VECTOR = re.compile(r"^Set\s+([0-9]+),\s*vector#\s*([0-9]+):$")
_NESSIE_ITERATED = re.compile(r"^Iterated\s+([0-9]+)\s+times$")
_SUBMISSION_FIELDS = ("KEY", "IV", "PT", "CT")


@dataclass(frozen=True)
class IteratedCase:
    """``expected`` is ``data`` run through the cipher ``iterations`` times under ``key`` (NESSIE)."""

    key: bytes
    data: bytes
    expected: bytes
    iterations: int
    decrypt: bool
    source: str


@dataclass(frozen=True)
class MonteCarloRecord:
    """One record of a Monte Carlo test: ``expected`` comes from ``data`` by the file's MCT procedure.

    ``procedure`` is ``"aes-candidate"`` (the submission packages' ``*_m.txt``: the I-th outer
    iteration, 10,000 inner ones) or ``"cryptopp"`` (a ``Test: EncryptionMCT``/``DecryptionMCT``).
    """

    procedure: str
    mode: str  # "ecb" or "cbc"
    decrypt: bool
    index: int | None
    key: bytes
    iv: bytes | None
    data: bytes
    expected: bytes
    source: str


@dataclass
class KatFile:
    """What one file holds: single-block cases, iterated cases and Monte Carlo records."""

    path: Path
    format: str  # "submission", "submission-mct", "nessie", "cryptopp-dat", "cryptopp-txt", "botan-vec"
    cases: list[VectorCase] = field(default_factory=list)
    iterated: list[IteratedCase] = field(default_factory=list)
    monte_carlo: list[MonteCarloRecord] = field(default_factory=list)


def iterate(cipher: CipherModel, case: IteratedCase) -> bytes:
    """Run ``case`` through ``cipher``: the value to compare with ``case.expected``."""
    run = cipher.decrypt if case.decrypt else cipher.encrypt
    data = case.data
    for _ in range(case.iterations):
        data = run(case.key, data)
    return data


# --- shared helpers -------------------------------------------------------------------------------------


def _fail(where: str, problem: str, expected: str) -> CipherbenchError:
    text = f"{where}: {problem}; expected {expected}"
    # One line whatever the file held: a stray carriage return or control character in a
    # quoted field is shown escaped (\\r), not printed.
    return CipherbenchError("".join(c if c.isprintable() else repr(c)[1:-1] for c in text))


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _read_text(path: Path) -> str:
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
        raise _fail(
            str(path), f"not a text file (undecodable byte at offset {exc.start})", "hex text"
        ) from exc


def _lines(text: str) -> list[tuple[int, str]]:
    """(1-based number, line without surrounding space); CRLF and LF both work."""
    return [(number, line.strip()) for number, line in enumerate(text.split("\n"), start=1)]


def _hex(value: str, where: str, what: str) -> bytes:
    value = "".join(value.split())
    if not value:
        raise _fail(where, f"{what} is empty", "an even number of hex digits")
    if not _HEX.fullmatch(value):
        raise _fail(where, f"{what} is not hex ({_shorten(value)!r})", "only the digits 0-9 and a-f")
    if len(value) % 2:
        raise _fail(where, f"{what} has an odd number of hex digits ({len(value)})", "whole bytes")
    return bytes.fromhex(value)


def _blocks(data: bytes, expected: bytes, block_bytes: int, where: str) -> list[tuple[bytes, bytes]]:
    """Single ECB blocks of a message; a text of one block or less stays whole (the model checks it)."""
    if len(data) != len(expected):
        raise _fail(
            where, f"input and output lengths differ ({len(data)} and {len(expected)} bytes)", "equal"
        )
    if len(data) <= block_bytes:
        return [(data, expected)]
    if len(data) % block_bytes:
        problem = f"message of {len(data)} bytes is not a whole number of {block_bytes}-byte blocks"
        raise _fail(where, problem, "whole blocks")
    return [
        (data[i : i + block_bytes], expected[i : i + block_bytes]) for i in range(0, len(data), block_bytes)
    ]


def _both_directions(
    key: bytes, plain: bytes, cipher: bytes, where: str, source: str, block_bytes: int
) -> list[VectorCase]:
    """Cases of both directions for every block; ``where`` (FILE:LINE) names the record in errors."""
    pairs = _blocks(plain, cipher, block_bytes, where)
    cases = []
    for index, (p, c) in enumerate(pairs, start=1):
        label = source if len(pairs) == 1 else f"{source} block {index}/{len(pairs)}"
        cases.append(VectorCase(key, p, c, False, label))
        cases.append(VectorCase(key, c, p, True, label))
    return cases


def _is_decimal(value: str) -> bool:
    """ASCII digits only, and few enough for int() (which refuses 4,300 digits and reads '²' wrong)."""
    return value.isascii() and value.isdigit() and len(value) <= 9


def _check_block_bytes(block_bytes: int) -> None:
    if block_bytes <= 0:
        raise CipherbenchError(f"block_bytes must be a positive number of bytes, got {block_bytes}")


# --- AES-candidate submission files ---------------------------------------------------------------------


def _strip_c_comments(text: str) -> str:
    """Blank out /* ... */ blocks, keeping their newlines so that line numbers stay right."""
    return re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.DOTALL)


@dataclass
class _Paragraph:
    line: int = 0
    index: str | None = None
    values: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)


class _SubmissionParser:
    """Walks the lines of one submission file; ``finish`` returns its records."""

    def __init__(self, path: Path, reverse: bool, block_bytes: int, monte_carlo: bool) -> None:
        self.path = path
        self.reverse = reverse
        self.block_bytes = block_bytes
        self.monte_carlo = monte_carlo
        self.key_bits: int | None = None
        self.defaults: dict[str, tuple[int, bytes]] = {}
        self.paragraph = _Paragraph()
        self.in_bracket = False
        self.kat = KatFile(path, "submission-mct" if monte_carlo else "submission")
        self.mode = "cbc" if path.name.lower().startswith("cbc") else "ecb"

    def feed(self, number: int, line: str) -> None:
        where = f"{self.path}:{number}"
        if self.in_bracket:  # MARS "Expanded Key = [ ... ]" blocks span lines
            self.in_bracket = "]" not in line
            return
        if not line or line.startswith("="):
            self._close()
            return
        size = _KEYSIZE_LINE.match(line)
        if size:
            self._start_section(size.group(1), where)
        elif line.startswith(";") or "=" not in line or _INTERMEDIATE.match(line):
            return  # free text, Twofish's ";" key-schedule listing, or an intermediate value
        elif line.replace(" ", "").lower().startswith("expandedkey=["):
            self.in_bracket = "]" not in line
        else:
            self._assignment(line, number, where)

    def finish(self) -> KatFile:
        self._close()
        if not (self.kat.monte_carlo if self.monte_carlo else self.kat.cases):
            expected = "KEYSIZE= sections of I=/KEY=/PT=/CT= records (AES-candidate submission format)"
            raise _fail(str(self.path), "no test vectors found", expected)
        return self.kat

    def _start_section(self, value: str, where: str) -> None:
        if not _is_decimal(value) or int(value) % 32 or not int(value):
            raise _fail(where, f"KEYSIZE is {_shorten(value)!r}", "a key size in bits such as 128")
        self._close()
        self.key_bits = int(value)
        self.defaults = {}

    def _assignment(self, line: str, number: int, where: str) -> None:
        # Split at the first "=" and check the name (a regex over both sides is quadratic in long lines).
        name, _, value = (part.strip() for part in line.partition("="))
        if not _FIELD_NAME.fullmatch(name):
            raise _fail(where, f"unreadable line {_shorten(line)!r}", "NAME=VALUE")
        name = name.upper()
        if self.key_bits is None:
            raise _fail(where, f"{name}= before any KEYSIZE= line", "KEYSIZE=n to open each section")
        if name == "I":
            self._close()
            index = value.split()[0] if value.split() else ""
            if not _is_decimal(index):
                raise _fail(where, f"I is {_shorten(value)!r}", "a decimal record number")
            self.paragraph = _Paragraph(number, value)
            return
        if name not in _SUBMISSION_FIELDS:
            expected = "KEYSIZE, I, KEY, IV, PT or CT (or a known intermediate value)"
            raise _fail(where, f"unexpected field {_shorten(name)}", expected)
        paragraph = self.paragraph
        if name in paragraph.values:
            raise _fail(where, f"second {name} in one record", "one value per field and record")
        data = _hex(value, where, name)
        paragraph.values[name] = (number, data[::-1] if self.reverse else data)
        paragraph.order.append(name)
        paragraph.line = paragraph.line or number

    def _close(self) -> None:
        paragraph, self.paragraph = self.paragraph, _Paragraph()
        texts = {"PT", "CT"} & paragraph.values.keys()
        # A record has both texts, or one after an I= line (the other one is a section-wide value).
        if texts == {"PT", "CT"} or (texts and paragraph.index is not None):
            self._record(paragraph)
        else:  # section-wide values: the fixed PT of ecb_vk, the fixed KEY of ecb_vt, ...
            self.defaults.update(paragraph.values)

    def _record(self, paragraph: _Paragraph) -> None:
        where = f"{self.path}:{paragraph.line}"
        values = {**self.defaults, **paragraph.values}
        for name in ("KEY", "PT", "CT"):
            if name not in values:
                raise _fail(where, f"record has no {name}", "KEY, PT and CT in the record or before it")
        key = values["KEY"][1]
        if self.key_bits is not None and len(key) * 8 != self.key_bits:
            problem = f"KEY has {len(key) * 8} bits in a KEYSIZE={self.key_bits} section"
            raise _fail(f"{self.path}:{values['KEY'][0]}", problem, f"{self.key_bits // 4} hex digits")
        # The value given first in the record is the input: PT then CT encrypts, CT then PT decrypts.
        own = [name for name in paragraph.order if name in ("PT", "CT")]
        decrypt = bool(own) and own[0] == "CT" and "PT" in paragraph.values
        data, expected = (values["CT"][1], values["PT"][1]) if decrypt else (values["PT"][1], values["CT"][1])
        label = f"{self.path.name}:{paragraph.line} KEYSIZE={self.key_bits}"
        if paragraph.index is not None:
            label += f" I={paragraph.index}"
        if self.monte_carlo:
            iv = values["IV"][1] if "IV" in values else None
            if self.mode == "cbc" and iv is None:
                raise _fail(where, "CBC Monte Carlo record has no IV", "IV= in each record")
            index = int(paragraph.index.split()[0]) if paragraph.index else None
            record = MonteCarloRecord(
                "aes-candidate", self.mode, decrypt, index, key, iv, data, expected, label
            )
            self.kat.monte_carlo.append(record)
            return
        blocks = _blocks(data, expected, self.block_bytes, where)
        for number, (block_in, block_out) in enumerate(blocks, start=1):
            source = label if len(blocks) == 1 else f"{label} block {number}/{len(blocks)}"
            self.kat.cases.append(VectorCase(key, block_in, block_out, decrypt, source))


def _is_monte_carlo(path: Path, text: str) -> bool:
    return path.name.lower().endswith("_m.txt") or "monte carlo" in text[:2000].lower()


def read_submission(
    path: str | os.PathLike[str], reverse_submission_hex: bool = False, block_bytes: int = 16
) -> KatFile:
    """The single-block records of an AES-candidate KAT file (see the module docstring)."""
    path = Path(path)
    _check_block_bytes(block_bytes)
    text = _read_text(path)
    if _is_monte_carlo(path, text):
        why = "a Monte Carlo file chains 10,000 encryptions per record"
        raise _fail(
            str(path), why, "ecb_vk/ecb_vt/ecb_tbl/ecb_iv files here, read_submission_mct for *_m.txt"
        )
    return _parse_submission(path, text, reverse_submission_hex, block_bytes, monte_carlo=False)


def read_submission_mct(path: str | os.PathLike[str], reverse_submission_hex: bool = False) -> KatFile:
    """The records of an AES-candidate Monte Carlo file (``ecb_e_m``, ``ecb_d_m``, ``cbc_e_m``, ...)."""
    path = Path(path)
    text = _read_text(path)
    if not _is_monte_carlo(path, text):
        raise _fail(str(path), "not a Monte Carlo file", "a *_m.txt file ('Monte Carlo Test' in its header)")
    return _parse_submission(path, text, reverse_submission_hex, 16, monte_carlo=True)


def _parse_submission(path: Path, text: str, reverse: bool, block_bytes: int, monte_carlo: bool) -> KatFile:
    parser = _SubmissionParser(path, reverse, block_bytes, monte_carlo)
    for number, line in _lines(_strip_c_comments(text)):
        parser.feed(number, line)
    return parser.finish()


# --- NESSIE ---------------------------------------------------------------------------------------------


@dataclass
class _NessieVector:
    line: int
    label: str
    fields: list[tuple[str, int, str]] = field(default_factory=list)  # (name, line, hex so far)


def _nessie_vectors(path: Path, text: str) -> list[_NessieVector]:
    vectors: list[_NessieVector] = []
    current: _NessieVector | None = None
    for number, line in _lines(text):
        where = f"{path}:{number}"
        header = _NESSIE_VECTOR.match(line)
        if line.startswith(("Test vectors", "End of")) or (line and set(line) == {"="}):
            current = None  # a set heading or the end: the vector before it is complete
        elif header:
            if not _is_decimal(header.group(2)):
                raise _fail(where, f"vector number {_shorten(header.group(2))}", "at most 9 digits")
            current = _NessieVector(
                number, f"{path.name}:{number} set {header.group(1)} vector {int(header.group(2))}"
            )
            vectors.append(current)
        elif current is not None and "=" in line:
            name, value = (part.strip() for part in line.split("=", 1))
            current.fields.append((name, number, value))
        elif current is not None and line and _HEX.fullmatch(line) and current.fields:
            name, start, value = current.fields[-1]  # a long value wrapped onto the next line
            current.fields[-1] = (name, start, value + line)
        elif line and current is not None:
            raise _fail(where, f"unexpected line {_shorten(line)!r} in a vector", "name=HEX lines")
    return vectors


def _nessie_cases(path: Path, vector: _NessieVector, kat: KatFile) -> None:
    values: dict[str, bytes] = {}
    iterations: list[tuple[int, bytes]] = []
    for name, number, value in vector.fields:
        where = f"{path}:{number}"
        data = _hex(value, where, name)
        repeated = _NESSIE_ITERATED.match(name)
        if repeated:
            if not _is_decimal(repeated.group(1)):
                raise _fail(where, f"iteration count {_shorten(repeated.group(1))}", "at most 9 digits")
            iterations.append((int(repeated.group(1)), data))
        elif name in ("key", "plain", "cipher", "decrypted", "encrypted"):
            values[name] = data
        else:
            raise _fail(
                where,
                f"unexpected field {_shorten(name)}",
                "key, plain, cipher, decrypted, encrypted, Iterated N times",
            )
    where = f"{path}:{vector.line}"
    for name in ("key", "plain", "cipher"):
        if name not in values:
            raise _fail(where, f"vector has no {name}=", "key=, plain= and cipher=")
    key, plain, cipher = values["key"], values["plain"], values["cipher"]
    if len(plain) != len(cipher):
        raise _fail(where, f"plain and cipher lengths differ ({len(plain)} and {len(cipher)} "
                    "bytes)", "one block each")
    kat.cases.append(VectorCase(key, plain, cipher, False, vector.label))
    kat.cases.append(VectorCase(key, cipher, plain, True, vector.label))
    # Sets 1-4 list the round trip as decrypted=, sets 5-8 as encrypted=: both must give the input back.
    for name, expected in (("decrypted", plain), ("encrypted", cipher)):
        if name in values and values[name] != expected:
            raise _fail(where, f"{name}= differs from the vector's own values", "a consistent NESSIE file")
    for count, expected in iterations:
        kat.iterated.append(
            IteratedCase(key, plain, expected, count, False, f"{vector.label} iterated {count}")
        )


def read_nessie(path: str | os.PathLike[str]) -> KatFile:
    """Every vector of a NESSIE block-cipher test-vector file (both directions) and its iterated values."""
    path = Path(path)
    text = _read_text(path)
    kat = KatFile(path, "nessie")
    for vector in _nessie_vectors(path, text):
        _nessie_cases(path, vector, kat)
    if not kat.cases:
        raise _fail(str(path), "no test vectors found", "'Set n, vector# m:' blocks (NESSIE format)")
    return kat


# --- Crypto++ TestData (*.dat) --------------------------------------------------------------------------


def _dat_values(text: str) -> list[tuple[int, str]]:
    """(line, hex) for every value: whitespace-separated words, or whole lines of spaced bytes."""
    words = [(number, word) for number, line in _lines(text) for word in line.split()]
    if words and all(len(word) == 2 for _, word in words):  # e.g. cast128v.dat: "01 23 45 ..." per line
        return [(number, line) for number, line in _lines(text) if line]
    return words


def read_cryptopp_dat(path: str | os.PathLike[str]) -> KatFile:
    """Crypto++ TestData triples ``KEY PLAINTEXT CIPHERTEXT``, each checked in both directions."""
    path = Path(path)
    values = _dat_values(_read_text(path))
    if not values:
        raise _fail(str(path), "no test vectors found", "KEY PLAINTEXT CIPHERTEXT hex triples")
    if len(values) % 3:
        number = values[-(len(values) % 3)][0]
        raise _fail(
            f"{path}:{number}",
            f"{len(values) % 3} value(s) left over after the last triple",
            "KEY PLAINTEXT CIPHERTEXT",
        )
    kat = KatFile(path, "cryptopp-dat")
    for start in range(0, len(values), 3):
        (key_line, key_hex), (_, plain_hex), (_, cipher_hex) = values[start : start + 3]
        where = f"{path}:{key_line}"
        key, plain, cipher = (
            _hex(h, where, what)
            for h, what in ((key_hex, "key"), (plain_hex, "plaintext"), (cipher_hex, "ciphertext"))
        )
        if len(plain) != len(cipher):
            raise _fail(
                where,
                f"plaintext and ciphertext lengths differ ({len(plain)} and {len(cipher)} bytes)",
                "one block each",
            )
        label = f"{path.name}:{key_line}"
        kat.cases.append(VectorCase(key, plain, cipher, False, label))
        kat.cases.append(VectorCase(key, cipher, plain, True, label))
    return kat


# --- Crypto++ TestVectors (*.txt) -----------------------------------------------------------------------

_CRYPTOPP_SKIPPED = ("AlgorithmType", "Name", "Source", "Comment", "Mode")


def read_cryptopp_txt(path: str | os.PathLike[str], block_bytes: int = 16) -> KatFile:
    """Crypto++ TestVectors ``Key:``/``Plaintext:``/``Ciphertext:``/``Test:`` records (values persist)."""
    path = Path(path)
    _check_block_bytes(block_bytes)
    kat = KatFile(path, "cryptopp-txt")
    values: dict[str, str] = {}
    for number, line in _lines(_read_text(path)):
        where = f"{path}:{number}"
        if not line or line.startswith("#"):
            continue
        name, colon, value = line.partition(":")
        if not colon:
            raise _fail(where, f"unreadable line {_shorten(line)!r}", "Name: value")
        name, value = name.strip(), value.strip()
        if name in _CRYPTOPP_SKIPPED:
            continue
        if name in ("Key", "Plaintext", "Ciphertext"):
            values[name] = value
        elif name == "Test":
            _cryptopp_test(path, number, value, values, block_bytes, kat)
        else:
            raise _fail(
                where, f"unexpected field {_shorten(name)}", "Key, Plaintext, Ciphertext, Test, Comment"
            )
    if not kat.cases and not kat.monte_carlo:
        raise _fail(str(path), "no test vectors found", "Key:/Plaintext:/Ciphertext:/Test: records")
    return kat


def _cryptopp_test(
    path: Path, number: int, test: str, values: dict[str, str], block_bytes: int, kat: KatFile
) -> None:
    where = f"{path}:{number}"
    for name in ("Key", "Plaintext", "Ciphertext"):
        if name not in values:
            raise _fail(
                where, f"Test: {test} without a {name}: value before it", "Key, Plaintext and Ciphertext"
            )
    key, plain, cipher = (_hex(values[n], where, n) for n in ("Key", "Plaintext", "Ciphertext"))
    label = f"{path.name}:{number}"
    if test == "Encrypt":
        kat.cases.extend(_both_directions(key, plain, cipher, where, label, block_bytes))
    elif test in ("EncryptionMCT", "DecryptionMCT"):
        decrypt = test == "DecryptionMCT"
        data, expected = (cipher, plain) if decrypt else (plain, cipher)
        kat.monte_carlo.append(
            MonteCarloRecord("cryptopp", "ecb", decrypt, None, key, None, data, expected, label)
        )
    else:
        raise _fail(where, f"unsupported test {_shorten(test)!r}", "Encrypt, EncryptionMCT or DecryptionMCT")


# --- Botan (*.vec) --------------------------------------------------------------------------------------


def read_botan_vec(path: str | os.PathLike[str], block_bytes: int = 16) -> KatFile:
    """Botan block-cipher vectors ``Key = / In = / Out =`` (multi-block values split into blocks)."""
    path = Path(path)
    _check_block_bytes(block_bytes)
    kat = KatFile(path, "botan-vec")
    record: dict[str, tuple[int, str]] = {}

    def close() -> None:
        if not record:
            return
        start = min(line for line, _ in record.values())
        where = f"{path}:{start}"
        for name in ("Key", "In", "Out"):
            if name not in record:
                raise _fail(where, f"record has no {name} =", "Key, In and Out in each record")
        key, data, out = (_hex(record[n][1], f"{path}:{record[n][0]}", n) for n in ("Key", "In", "Out"))
        kat.cases.extend(_both_directions(key, data, out, where, f"{path.name}:{start}", block_bytes))
        record.clear()

    for number, line in _lines(_read_text(path)):
        where = f"{path}:{number}"
        if not line or line.startswith("#") or (line.startswith("[") and line.endswith("]")):
            close()
            continue
        name, equals, value = line.partition("=")
        name = name.strip()
        if not equals or name not in ("Key", "In", "Out"):
            raise _fail(where, f"unexpected line {_shorten(line)!r}", "Key = HEX, In = HEX, Out = HEX")
        if name in record:
            close()  # a new record without a blank line before it
        record[name] = (number, value.strip())
    close()
    if not kat.cases:
        raise _fail(str(path), "no test vectors found", "Key = / In = / Out = records (Botan .vec)")
    return kat


# --- format detection -----------------------------------------------------------------------------------


def _sniff(path: Path) -> str | None:
    """The format of a file from its name and first few kilobytes, or None if no reader fits."""
    try:
        with path.open("rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    name = path.name.lower()
    if "*Project NESSIE" in head:
        return "nessie"
    if "KEYSIZE=" in head:
        return "submission-mct" if _is_monte_carlo(path, head) else "submission"
    if "AlgorithmType:" in head or re.search(r"^Test:\s*\w+", head, re.MULTILINE):
        return "cryptopp-txt"
    if name.endswith(".vec"):
        return "botan-vec"
    if name.endswith(".dat"):
        return "cryptopp-dat"
    return None


def find_kat_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The files in ``folder`` (not its subfolders) that a reader here understands, sorted by name."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and _sniff(p) is not None)


def read_kat_file(
    path: str | os.PathLike[str], reverse_submission_hex: bool = False, block_bytes: int = 16
) -> KatFile:
    """Read a file in whichever of the formats above it is in."""
    path = Path(path)
    kind = _sniff(path)
    readers: dict[str, Callable[[], KatFile]] = {
        "submission": lambda: read_submission(path, reverse_submission_hex, block_bytes),
        "submission-mct": lambda: read_submission_mct(path, reverse_submission_hex),
        "nessie": lambda: read_nessie(path),
        "cryptopp-dat": lambda: read_cryptopp_dat(path),
        "cryptopp-txt": lambda: read_cryptopp_txt(path, block_bytes),
        "botan-vec": lambda: read_botan_vec(path, block_bytes),
    }
    if kind is None:
        if not path.is_file():
            raise CipherbenchError(f"{path}: no such vector file")
        expected = "an AES-candidate, NESSIE, Crypto++ (.dat or TestVectors .txt) or Botan .vec file"
        raise _fail(str(path), "unrecognized vector file format", expected)
    return readers[kind]()


# --- helpers for a cipher's vector_sets --------------------------------------------------------------


def cases_for_key_sizes(cases: Iterable[VectorCase], key_sizes: tuple[int, ...]) -> list[VectorCase]:
    """The cases whose key length (in bits) is one of ``key_sizes``."""
    return [case for case in cases if len(case.key) * 8 in key_sizes]


def typed_cases(
    answers: Iterable[tuple[str, bytes, bytes, bytes]], key_sizes: tuple[int, ...]
) -> list[VectorCase]:
    """Both directions of typed-in ``(name, key, plaintext, ciphertext)`` answers for the key sizes."""
    cases = []
    for name, key, plain, cipher in answers:
        if len(key) * 8 in key_sizes:
            cases.append(VectorCase(key, plain, cipher, False, name))
            cases.append(VectorCase(key, cipher, plain, True, name))
    return cases


def kat_folder_sets(
    folder: str, key_sizes: tuple[int, ...], reverse_submission_hex: bool = False, block_bytes: int = 16
) -> Iterator[tuple[str, list[VectorCase]]]:
    """``(file stem, cases)`` for every readable file of ``kat_root()/folder`` with cases of the key sizes.

    Nothing when the shared folder is absent; Monte Carlo files have no single-block cases and are left out.
    """
    from .vectors import kat_root

    root = kat_root()
    if root is None:
        return
    for path in find_kat_files(root / folder):
        kat = read_kat_file(path, reverse_submission_hex, block_bytes)
        cases = cases_for_key_sizes(kat.cases, key_sizes)
        if cases:
            yield path.stem, cases
