"""cryptotvgen's test-vector files: pdi.txt, sdi.txt and do.txt (GMU LWC development package v1.2).

The format, as ``cryptotvgen/generator.py`` writes it and ``LWC_TB.vhd`` reads it:

* Lines starting with ``#`` are comments (a header block of parameters, ``#### <operation>`` and
  ``#### MsgID=..`` lines, ``# Instruction:``, ``# Info :`` and ``# Status:`` lines), except
  ``# TB :XXXXX`` in do.txt (20 bits: opcode, key id, message id; LWC_TB logs them) and ``###EOF``,
  which ends the file. Blank lines separate operations.
* ``INS = <hex>`` (an instruction), ``HDR = <hex>`` (a 32-bit segment header), ``DAT = <hex>``
  (data words), ``STT = <hex>`` (a status word). The testbench reads the six characters of the line
  head, then as many ``w``-bit hex words as the rest of the line holds: a header is one 8-digit line
  also for w = 8 and 16 (4 or 2 words), data lines hold ``--max_io_per_line`` words each, the last
  word padded with ``00``. In do.txt a word may be written ``X`` (don't care: LWC_TB's
  ``words_match`` skips X and - digits); cryptotvgen itself never writes one.

``write_tv_files(folder, operations, params)`` writes the three files; ``read_tv_files(folder)``
reads them back into :class:`~cipherbench.message.lwc.Operation` values (the width is taken from
the first instruction or status line unless given). A malformed file gives a one-line
``CipherbenchError`` ``FILE:LINE: what is wrong``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from cipherbench.errors import CipherbenchError

from .lwc import (HEADER_BITS, OPCODE_TITLES, SEGMENT_TITLES, WIDE, Data, Field, Header,
                  Instruction, Opcode, Operation, Params, Status, StatusWord, StreamError,
                  check_width, field_words, parse_do, parse_input)

PDI_FILE, SDI_FILE, DO_FILE = "pdi.txt", "sdi.txt", "do.txt"
HEADS = ("INS = ", "HDR = ", "DAT = ", "STT = ")
TB_HEAD = "# TB :"
EOF_HEAD = "###EOF"
RULE = "#" * 79
_HEX = re.compile(r"[0-9A-Fa-fXx]+")


# --- writing ----------------------------------------------------------------------------------------

def _hex(words: Sequence[int | None], w: int) -> str:
    return "".join("X" * (w // 4) if word is None else f"{word:0{w // 4}X}" for word in words)


def _field_lines(item: Field, w: int, output: bool, words_per_line: int | None,
                 state: dict) -> list[str]:
    if isinstance(item, Instruction):
        return [f"# Instruction: Opcode={OPCODE_TITLES[item.opcode]}",
                f"INS = {_hex(field_words(item, w), w)}"]
    if isinstance(item, StatusWord):
        return [f"# Status: {item.status.name.capitalize()}",
                f"STT = {_hex(field_words(item, w), w)}"]
    if isinstance(item, Header):
        state["header"] = item
        flags = (f"EOT={int(item.eot)}, Last={int(item.last)}" if output else item.flags())
        value = item.encode() << (w - HEADER_BITS) if w > HEADER_BITS else item.encode()
        digits = max(w, HEADER_BITS) // 4
        return [f"# Info : {SEGMENT_TITLES[item.segment]:>24}, {flags}, Length={item.length} bytes",
                f"HDR = {value:0{digits}X}"]
    words = field_words(item, w)
    per_line = words_per_line or max(len(words), 1)
    return [f"DAT = {_hex(words[i:i + per_line], w)}" for i in range(0, len(words), per_line)]


def _preamble(name: str, parameters: dict[str, object]) -> str:
    lines = [RULE, f"# {name}",
             "# Written by cipherbench in cryptotvgen's format (GMU LWC development package v1.2)",
             RULE, "# Parameter:", "#"]
    lines += [f"# {key:22} - {value}" for key, value in parameters.items()]
    return "\n".join(lines + [RULE, "", ""])


def tv_texts(operations: Iterable[Operation], params: Params, *, words_per_line: int | None = None,
             parameters: dict[str, object] | None = None) -> dict[str, str]:
    """The texts of pdi.txt, sdi.txt and do.txt for ``operations`` (``words_per_line``: cryptotvgen's
    ``--max_io_per_line``; ``parameters``: extra lines for the header block)."""
    shown: dict[str, object] = {"io (W,SW)": [params.w, params.key_width],
                                "block_size": params.block_bytes * 8,
                                "max_block_per_sgmt": params.max_blocks_per_segment,
                                "max_io_per_line": words_per_line or 9999,
                                "msg_format": ["npub", "ad", "data", "tag"]}
    shown.update(parameters or {})
    texts = {name: _preamble(name, shown) for name in (PDI_FILE, SDI_FILE, DO_FILE)}
    for op in operations:
        title = "".join(f"#### {line}\n" for line in op.comment.splitlines())
        state: dict = {}
        pdi = [line for item in op.pdi
               for line in _field_lines(item, params.w, False, words_per_line, state)]
        texts[PDI_FILE] += title + "\n".join(pdi) + "\n\n"
        do = [f"# Instruction: Opcode={OPCODE_TITLES[op.opcode]}",
              f"{TB_HEAD}{op.tb_word():05X} (Encoding used by testbench)"]
        do += [line for item in op.do
               for line in _field_lines(item, params.w, True, words_per_line, state)]
        texts[DO_FILE] += title + "\n".join(do) + "\n\n"
        if op.sdi:
            sdi = [f"#### MsgID={op.msg_id: 3}, KeyID={op.key_id: 3}"]
            sdi += [line for item in op.sdi
                    for line in _field_lines(item, params.key_width, False, words_per_line, state)]
            texts[SDI_FILE] += "\n".join(sdi) + "\n\n"
    return {name: text + EOF_HEAD + "\n" for name, text in texts.items()}


def write_tv_files(folder: str | Path, operations: Iterable[Operation], params: Params, *,
                   words_per_line: int | None = None,
                   parameters: dict[str, object] | None = None) -> list[Path]:
    """Write pdi.txt, sdi.txt and do.txt into ``folder`` (made if missing); the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in tv_texts(operations, params, words_per_line=words_per_line,
                               parameters=parameters).items():
        path = folder / name
        path.write_text(text, newline="")
        paths.append(path)
    return paths


# --- reading ----------------------------------------------------------------------------------------

@dataclass
class _Lines:
    path: Path
    words: list[int | None]
    line_of_word: list[int]
    tb: list[tuple[int, int]]  # (line, 20-bit word) of every "# TB :" line
    end_line: int

    def where(self, word: int) -> str:
        line = self.line_of_word[word] if word < len(self.line_of_word) else self.end_line
        return f"{self.path}:{line}"


def _width_of(path: Path, lines: list[str], heads: tuple[str, ...]) -> int:
    for number, line in enumerate(lines, 1):
        if line[:6] in heads:
            digits = line[6:].strip()
            w = 4 * len(digits)
            if w not in (8, 16, 32, WIDE):
                raise CipherbenchError(f"{path}:{number}: {line[:3]} word of {len(digits)} hex "
                                       "digits; expected 2, 4, 8 or 32 (w = 8, 16, 32 or 128)")
            return w
    raise CipherbenchError(f"{path}: no {' or '.join(h[:3] for h in heads)} line to take the word "
                           "width from; give the width")


def _read_lines(path: Path, w: int | None, width_heads: tuple[str, ...], do: bool,
                default: int = 32) -> tuple[_Lines, int]:
    try:
        lines = path.read_text().splitlines()
    except OSError as err:
        raise CipherbenchError(f"{path}: cannot read ({err.strerror}); expected cryptotvgen's "
                               f"{path.name}") from None
    if w is None:
        w = _width_of(path, lines, width_heads) if any(l[:6] in HEADS for l in lines) else default
    check_width(w)
    digits = w // 4
    out = _Lines(path, [], [], [], len(lines) + 1)
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if line.startswith(EOF_HEAD):
            out.end_line = number
            break
        if do and line.startswith(TB_HEAD):
            text = line[len(TB_HEAD):].split()
            if not text or not re.fullmatch(r"[0-9A-Fa-f]{5}", text[0]):
                raise CipherbenchError(f"{path}:{number}: '# TB :' needs 5 hex digits (opcode, key "
                                       f"id, message id), got {line[len(TB_HEAD):].strip()!r}")
            out.tb.append((number, int(text[0], 16)))
            continue
        if not line or line.startswith("#"):
            continue
        if line[:6] not in HEADS:
            raise CipherbenchError(f"{path}:{number}: expected a comment or INS/HDR/DAT/STT = <hex>, "
                                   f"got {line[:40]!r}")
        value = line[6:].strip()
        if not _HEX.fullmatch(value) or len(value) % digits:
            raise CipherbenchError(f"{path}:{number}: {line[:3]} value {value[:40]!r} is not "
                                   f"{w}-bit hex words ({digits} digits each)")
        if not do and "x" in value.lower():
            raise CipherbenchError(f"{path}:{number}: don't-care X digits belong only in do.txt")
        for i in range(0, len(value), digits):
            chunk = value[i:i + digits]
            if chunk.lower() == "x" * digits:
                word: int | None = None
            elif "x" in chunk.lower():
                raise CipherbenchError(f"{path}:{number}: word {chunk} is partly don't-care; a word "
                                       "is all X or none")
            else:
                word = int(chunk, 16)
            out.words.append(word)
            out.line_of_word.append(number)
    return out, w


@dataclass(frozen=True)
class TvSet:
    """The operations of a pdi/sdi/do triple, with the widths they were written at."""

    w: int
    sw: int
    operations: tuple[Operation, ...]


def _parsed(lines: _Lines, parse, *args):
    try:
        return parse(lines.words, *args)
    except StreamError as err:
        raise CipherbenchError(f"{lines.where(err.word)}: {err}") from None


def read_tv_files(folder: str | Path, w: int | None = None, sw: int | None = None) -> TvSet:
    """Read pdi.txt, sdi.txt and do.txt of ``folder`` back into operations (ACTKEY joined to the
    operation it precedes, with the next key of sdi.txt)."""
    folder = Path(folder)
    pdi_lines, w = _read_lines(folder / PDI_FILE, w, ("INS = ",), False)
    sdi_path = folder / SDI_FILE
    if sdi_path.exists():
        sdi_lines, sw = _read_lines(sdi_path, sw, ("INS = ",), False, default=w)
    else:
        sdi_lines, sw = _Lines(sdi_path, [], [], [], 1), sw or w
    do_lines, _ = _read_lines(folder / DO_FILE, w, ("STT = ",), True)
    pdi_ops = _parsed(pdi_lines, parse_input, w, "pdi")
    keys = list(_parsed(sdi_lines, parse_input, sw, "sdi"))
    dos = list(_parsed(do_lines, parse_do, w))

    operations: list[Operation] = []
    pending: list[Field] = []
    key_id = 0
    for fields in pdi_ops:
        opcode = fields[0].opcode  # type: ignore[union-attr]
        if opcode == Opcode.ACTKEY:
            if pending:
                raise CipherbenchError(f"{pdi_lines.path}: two ACTKEY in a row (operation "
                                       f"{len(operations) + 1})")
            pending = list(fields)
            continue
        sdi: tuple[Field, ...] = ()
        if pending:
            if not keys:
                raise CipherbenchError(f"{sdi_lines.path}: ACTKEY of operation {len(operations) + 1} "
                                       "has no key left to activate")
            sdi = tuple(keys.pop(0))
            key_id += 1
        if not dos:
            raise CipherbenchError(f"{do_lines.path}: no expected output for operation "
                                   f"{len(operations) + 1} of {pdi_lines.path.name}")
        index = len(operations)
        msg_id, op_key = index + 1, (0 if opcode == Opcode.HASH else key_id)
        if index < len(do_lines.tb):
            line, tb = do_lines.tb[index]
            if tb >> 16 != int(opcode):
                raise CipherbenchError(f"{do_lines.path}:{line}: '# TB :' opcode {tb >> 16:04b} but "
                                       f"{pdi_lines.path.name} has {opcode.name} for operation "
                                       f"{index + 1}")
            msg_id, op_key = tb & 0xFF, (tb >> 8) & 0xFF
        operations.append(Operation(opcode, tuple(pending + list(fields)), sdi, tuple(dos.pop(0)),
                                    msg_id, op_key))
        pending = []
    if pending:
        raise CipherbenchError(f"{pdi_lines.path}: ends with ACTKEY and no operation")
    if dos:
        raise CipherbenchError(f"{do_lines.path}: {len(dos)} more outputs than {pdi_lines.path.name} "
                               "has operations")
    if keys:
        raise CipherbenchError(f"{sdi_lines.path}: {len(keys)} keys loaded that no ACTKEY activates")
    return TvSet(w, sw, tuple(operations))
