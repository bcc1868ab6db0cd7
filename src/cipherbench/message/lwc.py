"""The NIST LWC hardware API's encodings, as the GMU development package v1.2 defines them.

Every message-level engine (AEAD now, hash later) speaks this protocol; the testbench and the harness
drive and check it through the functions here. The facts come from the development package v1.2.0
(GitHub ``GMUCERG/LWC``): the constants of ``hardware/LWC_rtl/NIST_LWAPI_pkg.vhd``, the words that
``software/cryptotvgen/cryptotvgen/generator.py`` writes (``build_instr``, ``build_sgmt``,
``build_status``, ``TestVector.gen_tv``) and what ``hardware/LWC_tb/LWC_TB.vhd`` reads and compares.

Ports and widths
----------------
Three streams with valid/ready handshakes: ``pdi`` (public data in), ``sdi`` (secret data in: keys),
``do`` (data out, with ``do_last`` high on the status word). The API's widths are ``w = 8, 16, 32``
(``W``; the secret port ``SW`` equals ``W`` in v1.2). ``WIDE = 128`` is cipherbench's widening for
engines that take a block a clock: the same instructions, headers, segments and status, each field
placed in the most significant bits of one 128-bit word and the rest zero, data in 16-byte words. It
is exactly what cryptotvgen's own rule (pad every field with zeros to a multiple of the width) gives
for ``--io 128 128``; the v1.2 VHDL itself supports only 8, 16 and 32.

Every word is big-endian: the first byte of the message is the most significant byte of the word.

Instruction word (pdi, sdi): one word, ``opcode`` in bits ``[w-1:w-4]``, the rest zero.
    ======== ====== ==================================================
    opcode   value  meaning
    ======== ====== ==================================================
    ENC      0b0010 authenticated encryption (pdi)
    DEC      0b0011 authenticated decryption (pdi)
    LDKEY    0b0100 load a key (sdi; followed by one KEY segment)
    ACTKEY   0b0111 activate the key loaded last (pdi; precedes ENC/DEC)
    HASH     0b1000 hash (pdi)
    ======== ====== ==================================================

Status word (do, last word of every operation, ``do_last = 1``): one word, ``status`` in bits
``[w-1:w-4]``: SUCCESS ``0b1110``, FAILURE ``0b1111`` (a failed tag verification); the rest zero.

Segment header (pdi, sdi, do): 32 bits, sent as ``32/w`` words (most significant first) for
``w < 32``, as one word for ``w = 32``, in bits ``[w-1:w-32]`` of one word for ``w = 128``:
    ======= ======= ========================================================================
    bits    field   meaning
    ======= ======= ========================================================================
    31..28  type    the segment type (below)
    27      Partial the segment's last block is partial (cryptotvgen's ``--add_partial``; 0 here)
    26      EOI     end of input: the last non-empty input segment of the message (0 in do)
    25      EOT     end of type: the last segment of this type
    24      Last    the last segment of the operation (input: of pdi's message; do: before STT)
    23..16  -       reserved, zero
    15..0   length  the segment's length in bytes (0 to 65535)
    ======= ======= ========================================================================

Segment types (``HDR_*`` of NIST_LWAPI_pkg):
    AD 0b0001, NPUB_AD 0b0010, AD_NPUB 0b0011, PT 0b0100, CT 0b0101, CT_TAG 0b0110,
    HASH_MSG 0b0111, TAG 0b1000, HASH_VALUE 0b1001 (the digest), LENGTH 0b1010, KEY 0b1100,
    NPUB 0b1101, NSEC 0b1110 and ENSEC 0b1111 (not used in NIST LWC); 0b0000 and 0b1011 are
    reserved (cryptotvgen's ``adlen`` uses 0b1011, marked "TODO: update API documentation").

Data words follow their header: ``ceil(length / (w/8))`` words, the last one padded with zero bytes
(cryptotvgen pads with ``00``; the v1.2 PostProcessor clears invalid output bytes).

Messages (cryptotvgen's default ``--msg_format npub ad data tag``, the only one offered here)
-------------------------------------------------------------------------------------------
* load key (sdi): ``LDKEY``, ``KEY`` header (EOI=1 EOT=1 Last=1), key words.
* encryption (pdi): [``ACTKEY`` when a new key is used], ``ENC``, ``NPUB``, ``AD``, ``PT``;
  expected do: ``CT`` segments, ``TAG`` (Last=1), status.
* decryption (pdi): [``ACTKEY``], ``DEC``, ``NPUB``, ``AD``, ``CT``, ``TAG`` (Last=1);
  expected do: ``PT`` segments (the last with Last=1), status.
* hash (pdi): ``HASH``, ``HASH_MSG`` (EOI=1 EOT=1 Last=1, even when empty);
  expected do: ``HASH_VALUE`` (Last=1), status.

Empty AD, PT and CT segments are still sent (a header of length 0 and no data words). AD, PT, CT and
HASH_MSG (and NPUB) longer than the maximum segment length are split into several segments of the same
type: the maximum is ``block_bytes * max_blocks_per_segment`` (cryptotvgen's ``--block_size`` and
``--max_block_per_sgmt``) or, when no maximum is set, the largest multiple of ``block_bytes`` that fits
the 16-bit length field. Only the last segment of a type carries EOT (and EOI/Last where they apply);
the ones before it have all flags zero. TAG and HASH_VALUE are never split. EOI marks the last
non-empty one of NPUB, AD and PT/CT (TAG does not count); HASH_MSG always carries EOI. Output headers
carry EOI = 0. The do stream splits CT/PT exactly as the input was split.

After a failed tag verification, the v1.2 PostProcessor has already passed the plaintext on (it
releases PT segments as the core produces them) and ends with FAILURE; cryptotvgen writes only
successful operations. :func:`decrypt_operation` therefore expects the released plaintext when it is
given, and don't-care data (``Data(None, n)``, written ``X`` in do.txt, which LWC_TB's ``words_match``
skips) when it is not.

Not offered (refused in one line): other ``--msg_format`` orders, ``--ciph_exp`` (ciphertext
expansion), ``--add_partial``, Nsec, and SCA shares (``PDI_SHARES``/``SDI_SHARES`` > 1).

The "# TB :" line of do.txt (LWC_TB reads it for its log): 20 bits, ``opcode`` in 19..16, key id in
15..8, message id in 7..0 (cipherbench writes ids modulo 256).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Iterable, Sequence, Union

from cipherbench.errors import CipherbenchError

API_WIDTHS: tuple[int, ...] = (8, 16, 32)  # W of the v1.2 package
WIDE = 128  # cipherbench's widening for block-a-clock engines
WIDTHS: tuple[int, ...] = API_WIDTHS + (WIDE,)
HEADER_BITS = 32
LENGTH_BITS = 16
MAX_SEGMENT_BYTES = (1 << LENGTH_BITS) - 1
TB_BITS = 20  # the "# TB :" word of do.txt


class Opcode(IntEnum):
    """Instruction opcodes (``INST_*`` of NIST_LWAPI_pkg.vhd), bits [w-1:w-4] of an instruction."""

    ENC = 0b0010
    DEC = 0b0011
    LDKEY = 0b0100
    ACTKEY = 0b0111
    HASH = 0b1000


class Status(IntEnum):
    """Status opcodes (``INST_SUCCESS`` / ``INST_FAILURE``), bits [w-1:w-4] of the status word."""

    SUCCESS = 0b1110
    FAILURE = 0b1111


class Segment(IntEnum):
    """Segment types (``HDR_*`` of NIST_LWAPI_pkg.vhd), bits 31..28 of a header."""

    AD = 0b0001
    NPUB_AD = 0b0010
    AD_NPUB = 0b0011
    PT = 0b0100
    CT = 0b0101
    CT_TAG = 0b0110
    HASH_MSG = 0b0111
    TAG = 0b1000
    HASH_VALUE = 0b1001
    LENGTH = 0b1010
    KEY = 0b1100
    NPUB = 0b1101
    NSEC = 0b1110
    ENSEC = 0b1111


# cryptotvgen's names in its "# Info :" comments (txt_segment); read back by nothing, kept for humans.
SEGMENT_TITLES: dict[Segment, str] = {
    Segment.AD: "Associated Data", Segment.NPUB: "Npub", Segment.NPUB_AD: "Npub || Associated Data",
    Segment.AD_NPUB: "Associated Data || Npub", Segment.PT: "Plaintext", Segment.CT: "Ciphertext",
    Segment.CT_TAG: "Ciphertext || Tag", Segment.HASH_MSG: "Hash", Segment.TAG: "Tag",
    Segment.LENGTH: "Length", Segment.KEY: "Key", Segment.NSEC: "Nsec (plain)",
    Segment.ENSEC: "Nsec (cipher)", Segment.HASH_VALUE: "Hash_Tag",
}
OPCODE_TITLES: dict[Opcode, str] = {
    Opcode.HASH: "Hash", Opcode.ENC: "Authenticated Encryption",
    Opcode.DEC: "Authenticated Decryption", Opcode.LDKEY: "Load Key", Opcode.ACTKEY: "Activate Key",
}


def check_width(w: int) -> int:
    """``w`` if it is one of :data:`WIDTHS`; else a one-line error."""
    if w not in WIDTHS:
        raise CipherbenchError(f"LWC API width must be 8, 16, 32 or 128 bits (128: cipherbench's "
                               f"block-a-clock widening), got {w}")
    return w


# --- the fields of a stream --------------------------------------------------------------------------

@dataclass(frozen=True)
class Instruction:
    """An instruction word (pdi, sdi)."""

    opcode: Opcode


@dataclass(frozen=True)
class Header:
    """A segment header: bits 31..28 type, 27 Partial, 26 EOI, 25 EOT, 24 Last, 15..0 length."""

    segment: Segment
    length: int
    eoi: bool = False
    eot: bool = False
    last: bool = False
    partial: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.length <= MAX_SEGMENT_BYTES:
            raise CipherbenchError(f"LWC segment length must be 0 to {MAX_SEGMENT_BYTES} bytes "
                                   f"(16-bit field), got {self.length}")

    def encode(self) -> int:
        """The 32-bit header."""
        return ((int(self.segment) << 28) | (int(self.partial) << 27) | (int(self.eoi) << 26)
                | (int(self.eot) << 25) | (int(self.last) << 24) | self.length)

    @classmethod
    def decode(cls, value: int) -> "Header":
        """The header of a 32-bit value; a one-line error for a reserved type or reserved bits set."""
        code = (value >> 28) & 0xF
        if code not in Segment._value2member_map_:
            raise CipherbenchError(f"LWC header {value:08X}: segment type {code:04b} is reserved")
        if (value >> 16) & 0xFF:
            raise CipherbenchError(f"LWC header {value:08X}: reserved bits 23..16 are not zero")
        return cls(Segment(code), value & 0xFFFF, eoi=bool(value >> 26 & 1), eot=bool(value >> 25 & 1),
                   last=bool(value >> 24 & 1), partial=bool(value >> 27 & 1))

    def flags(self) -> str:
        """``EOI=1 EOT=1, Last=0`` as cryptotvgen's comments print them."""
        return f"EOI={int(self.eoi)} EOT={int(self.eot)}, Last={int(self.last)}"


@dataclass(frozen=True)
class Data:
    """A segment's data: ``data`` (unpadded) or ``None`` for don't-care data of ``length`` bytes."""

    data: bytes | None
    length: int = -1

    def __post_init__(self) -> None:
        if self.data is not None:
            object.__setattr__(self, "data", bytes(self.data))
            object.__setattr__(self, "length", len(self.data))
        elif self.length < 0:
            raise CipherbenchError("don't-care LWC data needs its length")


@dataclass(frozen=True)
class StatusWord:
    """The status word closing every operation on do."""

    status: Status


Field = Union[Instruction, Header, Data, StatusWord]


# --- fields to words and back ------------------------------------------------------------------------

def _top(value: int, bits: int, w: int) -> int:
    return value << (w - bits)


def field_words(item: Field, w: int) -> list[int | None]:
    """The w-bit words of one field (``None``: a don't-care word)."""
    check_width(w)
    if isinstance(item, (Instruction, StatusWord)):
        code = item.opcode if isinstance(item, Instruction) else item.status
        return [_top(int(code), 4, w)]
    if isinstance(item, Header):
        value = item.encode()
        if w >= HEADER_BITS:
            return [_top(value, HEADER_BITS, w)]
        n = HEADER_BITS // w
        return [(value >> (w * (n - 1 - i))) & ((1 << w) - 1) for i in range(n)]
    wb = w // 8
    count = -(-item.length // wb)
    if item.data is None:
        return [None] * count
    padded = item.data + bytes(count * wb - item.length)
    return [int.from_bytes(padded[i * wb:(i + 1) * wb], "big") for i in range(count)]


def to_words(fields: Iterable[Field], w: int) -> list[int | None]:
    """A stream's words, in order, for a port of width ``w``."""
    return [word for item in fields for word in field_words(item, w)]


class StreamError(CipherbenchError):
    """A malformed word stream; ``word`` is the index of the offending word (tvfiles turns it into
    a file and line)."""

    def __init__(self, message: str, word: int):
        super().__init__(message)
        self.word = word


class _Reader:
    def __init__(self, words: Sequence[int | None], w: int, port: str):
        self.words, self.w, self.port, self.at = list(words), check_width(w), port, 0

    def done(self) -> bool:
        return self.at >= len(self.words)

    def take(self, what: str) -> int | None:
        if self.done():
            raise StreamError(f"LWC {self.port} stream ends at word {self.at} where {what} "
                              "was expected", self.at)
        word = self.words[self.at]
        if word is not None and not 0 <= word < 1 << self.w:
            raise StreamError(f"LWC {self.port} word {self.at} does not fit {self.w} bits", self.at)
        self.at += 1
        return word

    def known(self, what: str) -> int:
        at = self.at
        word = self.take(what)
        if word is None:
            raise StreamError(f"LWC {self.port} word {at}: {what} cannot be don't-care", at)
        return word

    def opcode_word(self, what: str) -> tuple[int, int]:
        at = self.at
        word = self.known(what)
        if word & ((1 << (self.w - 4)) - 1):
            raise StreamError(f"LWC {self.port} word {at}: {what} {word:0{self.w // 4}X} has bits "
                              "set below its 4-bit code", at)
        return word >> (self.w - 4), at

    def header(self) -> Header:
        at = self.at
        if self.w >= HEADER_BITS:
            word = self.known("a segment header")
            if word & ((1 << (self.w - HEADER_BITS)) - 1):
                raise StreamError(f"LWC {self.port} word {at}: header has bits set below its 32 "
                                  "bits", at)
            value = word >> (self.w - HEADER_BITS)
        else:
            value = 0
            for _ in range(HEADER_BITS // self.w):
                value = (value << self.w) | self.known("a segment header")
        try:
            return Header.decode(value)
        except CipherbenchError as err:
            raise StreamError(f"{self.port} word {at}: {err}", at) from None

    def data(self, length: int) -> Data:
        wb = self.w // 8
        at = self.at
        words = [self.take(f"data ({length} bytes)") for _ in range(-(-length // wb))]
        if words and all(word is None for word in words):
            return Data(None, length)
        if any(word is None for word in words):
            raise StreamError(f"LWC {self.port} words {at}..: data partly don't-care", at)
        raw = b"".join(word.to_bytes(wb, "big") for word in words)  # type: ignore[union-attr]
        if any(raw[length:]):
            raise StreamError(f"LWC {self.port} word {self.at - 1}: padding after the {length} "
                              "data bytes is not zero", self.at - 1)
        return Data(raw[:length])


def parse_input(words: Sequence[int | None], w: int, port: str = "pdi") -> list[list[Field]]:
    """A pdi or sdi stream, one list of fields per operation (``ACTKEY`` is an operation of its own;
    ENC, DEC, HASH and LDKEY run until the header with Last=1 and its data)."""
    reader = _Reader(words, w, port)
    operations: list[list[Field]] = []
    while not reader.done():
        code, at = reader.opcode_word("an instruction")
        if code not in Opcode._value2member_map_:
            raise StreamError(f"LWC {port} word {at}: opcode {code:04b} is not an instruction", at)
        opcode = Opcode(code)
        if (port == "sdi") != (opcode == Opcode.LDKEY):
            raise StreamError(f"LWC {port} word {at}: {opcode.name} does not belong on {port}", at)
        operation: list[Field] = [Instruction(opcode)]
        if opcode != Opcode.ACTKEY:
            while True:
                header = reader.header()
                operation += [header, reader.data(header.length)]
                if header.last:
                    break
        operations.append(operation)
    return operations


def parse_do(words: Sequence[int | None], w: int) -> list[list[Field]]:
    """A do stream, one list of fields per operation: segments up to the one with Last=1, its data,
    then the status word."""
    reader = _Reader(words, w, "do")
    operations: list[list[Field]] = []
    while not reader.done():
        operation: list[Field] = []
        while True:
            header = reader.header()
            if header.eoi:
                raise StreamError(f"LWC do word {reader.at - 1}: output header with EOI=1",
                                  reader.at - 1)
            operation += [header, reader.data(header.length)]
            if header.last:
                break
        code, at = reader.opcode_word("the status word")
        if code not in Status._value2member_map_:
            raise StreamError(f"LWC do word {at}: {code:04b} is not a status (SUCCESS 1110, "
                              "FAILURE 1111)", at)
        operations.append(operation + [StatusWord(Status(code))])
    return operations


def output_of(operation: Sequence[Field]) -> tuple[bytes, Status]:
    """(output, status) of one do operation: the data of its segments in order (CT || tag for
    encryption, PT for decryption, the digest for hash); don't-care data is refused."""
    out = b""
    status: Status | None = None
    for item in operation:
        if isinstance(item, Data):
            if item.data is None:
                raise CipherbenchError("LWC do operation has don't-care data; it has no output value")
            out += item.data
        elif isinstance(item, StatusWord):
            status = item.status
    if status is None:
        raise CipherbenchError("LWC do operation has no status word")
    return out, status


# --- message-level operations to streams ---------------------------------------------------------------

@dataclass(frozen=True)
class Params:
    """How an algorithm's messages are cut into words: the port widths, the data block size (bytes)
    and the maximum number of blocks per segment (cryptotvgen ``--io``, ``--block_size``,
    ``--max_block_per_sgmt``)."""

    w: int = 32
    sw: int | None = None  # the sdi width; None: w
    block_bytes: int = 16
    max_blocks_per_segment: int | None = None

    def __post_init__(self) -> None:
        check_width(self.w)
        check_width(self.key_width)
        if self.block_bytes < 1 or self.block_bytes > MAX_SEGMENT_BYTES:
            raise CipherbenchError(f"LWC block size must be 1 to {MAX_SEGMENT_BYTES} bytes, got "
                                   f"{self.block_bytes}")
        if self.max_blocks_per_segment is not None and not (
                1 <= self.max_blocks_per_segment * self.block_bytes <= MAX_SEGMENT_BYTES):
            raise CipherbenchError(f"LWC max_blocks_per_segment must give 1 to {MAX_SEGMENT_BYTES} "
                                   f"bytes per segment, got {self.max_blocks_per_segment} blocks of "
                                   f"{self.block_bytes}")

    @property
    def key_width(self) -> int:
        return self.w if self.sw is None else self.sw

    @property
    def max_segment_bytes(self) -> int:
        if self.max_blocks_per_segment is not None:
            return self.block_bytes * self.max_blocks_per_segment
        return MAX_SEGMENT_BYTES // self.block_bytes * self.block_bytes


@dataclass(frozen=True)
class Operation:
    """One operation at the message level and its three streams (as fields).

    ``sdi`` is empty unless the operation loads a new key; ``opcode`` is ENC, DEC or HASH.
    ``msg_id``/``key_id`` are cryptotvgen's numbering (key id 0 for hash)."""

    opcode: Opcode
    pdi: tuple[Field, ...]
    sdi: tuple[Field, ...]
    do: tuple[Field, ...]
    msg_id: int = 1
    key_id: int = 0
    # cryptotvgen's "#### <operation>" and "#### MsgID=.., KeyID=.., AD Size=.., PT Size=.." lines
    comment: str = field(default="", compare=False)

    @property
    def new_key(self) -> bool:
        return bool(self.sdi)

    def tb_word(self) -> int:
        """The 20-bit "# TB :" word of do.txt: opcode 19..16, key id 15..8, msg id 7..0."""
        return (int(self.opcode) << 16) | ((self.key_id % 256) << 8) | (self.msg_id % 256)


def _split(data: bytes, limit: int) -> list[bytes]:
    return [data[i:i + limit] for i in range(0, len(data), limit)] or [b""]


def _segments(segment: Segment, data: bytes, limit: int | None, *, eoi: bool, last: bool,
              output: bool = False) -> list[Field]:
    pieces = [data] if limit is None else _split(data, limit)
    fields: list[Field] = []
    for i, piece in enumerate(pieces):
        final = i == len(pieces) - 1
        fields += [Header(segment, len(piece), eoi=final and eoi and not output, eot=final,
                          last=final and last), Data(piece)]
    return fields


def key_fields(key: bytes) -> tuple[Field, ...]:
    """The sdi fields loading ``key``: LDKEY, KEY header (EOI=1 EOT=1 Last=1), the key."""
    if not key:
        raise CipherbenchError("LWC key segment needs a key of at least one byte")
    return (Instruction(Opcode.LDKEY), Header(Segment.KEY, len(key), eoi=True, eot=True, last=True),
            Data(key))


def _aead_input(opcode: Opcode, key: bytes | None, npub: bytes, ad: bytes, data: bytes,
                tag: bytes | None, params: Params) -> list[Field]:
    limit = params.max_segment_bytes
    data_type = Segment.CT if opcode == Opcode.DEC else Segment.PT
    # EOI on the last non-empty of NPUB, AD, PT/CT (cryptotvgen's is_last_vld_segment)
    parts = [(Segment.NPUB, npub), (Segment.AD, ad), (data_type, data)]
    last_full = max((i for i, (_, value) in enumerate(parts) if value), default=-1)
    fields: list[Field] = [Instruction(Opcode.ACTKEY)] if key is not None else []
    fields.append(Instruction(opcode))
    for i, (segment, value) in enumerate(parts):
        fields += _segments(segment, value, limit, eoi=i == last_full,
                            last=tag is None and segment == data_type)
    if tag is not None:
        fields += [Header(Segment.TAG, len(tag), eot=True, last=True), Data(tag)]
    return fields


def _comment(opcode: Opcode, msg_id: int, key_id: int, **sizes: int) -> str:
    listing = ", ".join(f"{name}={value}" for name, value in sizes.items())
    return f"{OPCODE_TITLES[opcode]}\nMsgID={msg_id}, KeyID={key_id}, {listing}"


def encrypt_operation(npub: bytes, ad: bytes, pt: bytes, ct: bytes, tag: bytes, *,
                      key: bytes | None = None, params: Params = Params(), msg_id: int = 1,
                      key_id: int = 1) -> Operation:
    """Authenticated encryption: pdi (ACTKEY if ``key`` is given, ENC, NPUB, AD, PT), sdi (the key
    load if ``key`` is given), expected do (CT as PT was split, TAG with Last=1, SUCCESS)."""
    if len(ct) != len(pt):
        raise CipherbenchError(f"LWC encryption: ciphertext has {len(ct)} bytes, plaintext {len(pt)}")
    pdi = _aead_input(Opcode.ENC, key, npub, ad, pt, None, params)
    do = _segments(Segment.CT, ct, params.max_segment_bytes, eoi=False, last=False, output=True)
    do += [Header(Segment.TAG, len(tag), eot=True, last=True), Data(tag), StatusWord(Status.SUCCESS)]
    return Operation(Opcode.ENC, tuple(pdi), key_fields(key) if key is not None else (), tuple(do),
                     msg_id, key_id, _comment(Opcode.ENC, msg_id, key_id, **{
                         "AD Size": len(ad), "PT Size": len(pt)}))


def decrypt_operation(npub: bytes, ad: bytes, ct: bytes, tag: bytes, pt: bytes | None, *,
                      success: bool = True, key: bytes | None = None, params: Params = Params(),
                      msg_id: int = 1, key_id: int = 1) -> Operation:
    """Authenticated decryption: pdi (ACTKEY, DEC, NPUB, AD, CT, TAG with Last=1), expected do (PT as
    CT was split, the last with Last=1, then SUCCESS or FAILURE). For a failure, ``pt`` is the
    plaintext the engine releases before the verdict, or None for don't-care data."""
    if success and pt is None:
        raise CipherbenchError("LWC decryption: a successful decryption needs its plaintext")
    if pt is not None and len(pt) != len(ct):
        raise CipherbenchError(f"LWC decryption: plaintext has {len(pt)} bytes, ciphertext {len(ct)}")
    pdi = _aead_input(Opcode.DEC, key, npub, ad, ct, tag, params)
    released = pt if pt is not None else bytes(len(ct))
    do = _segments(Segment.PT, released, params.max_segment_bytes, eoi=False, last=True, output=True)
    if pt is None:
        do = [Data(None, item.length) if isinstance(item, Data) else item for item in do]
    do.append(StatusWord(Status.SUCCESS if success else Status.FAILURE))
    return Operation(Opcode.DEC, tuple(pdi), key_fields(key) if key is not None else (), tuple(do),
                     msg_id, key_id, _comment(Opcode.DEC, msg_id, key_id, **{
                         "AD Size": len(ad), "CT Size": len(ct)}))


def hash_operation(msg: bytes, digest: bytes, *, params: Params = Params(),
                   msg_id: int = 1) -> Operation:
    """Hash: pdi (HASH, HASH_MSG segments, the last with EOI=1 EOT=1 Last=1), expected do
    (HASH_VALUE with Last=1, SUCCESS)."""
    pdi = [Instruction(Opcode.HASH)]
    pdi += _segments(Segment.HASH_MSG, msg, params.max_segment_bytes, eoi=True, last=True)
    do = [Header(Segment.HASH_VALUE, len(digest), eot=True, last=True), Data(digest),
          StatusWord(Status.SUCCESS)]
    return Operation(Opcode.HASH, tuple(pdi), (), tuple(do), msg_id, 0,
                     _comment(Opcode.HASH, msg_id, 0, **{"HM Size": len(msg),
                                                          "Digest Size": len(digest)}))


@dataclass
class Streams:
    """The three word streams of a sequence of operations, for a given width."""

    pdi: list[int | None] = field(default_factory=list)
    sdi: list[int | None] = field(default_factory=list)
    do: list[int | None] = field(default_factory=list)


def streams(operations: Iterable[Operation], params: Params) -> Streams:
    """The pdi, sdi and expected do words of ``operations`` in order."""
    out = Streams()
    for op in operations:
        out.pdi += to_words(op.pdi, params.w)
        out.sdi += to_words(op.sdi, params.key_width)
        out.do += to_words(op.do, params.w)
    return out


def message_of(pdi: Sequence[Field], sdi: Sequence[Field] = ()) -> dict[str, bytes | Opcode]:
    """The message-level values of one operation's input fields: ``opcode`` and ``npub``, ``ad``,
    ``pt``/``ct``, ``tag``, ``msg`` (hash), ``key`` (when sdi loads one); segments of a type split
    over several headers are joined."""
    names = {Segment.NPUB: "npub", Segment.AD: "ad", Segment.PT: "pt", Segment.CT: "ct",
             Segment.TAG: "tag", Segment.HASH_MSG: "msg", Segment.KEY: "key"}
    values: dict[str, bytes | Opcode] = {}
    header: Header | None = None
    for item in list(sdi) + list(pdi):
        if isinstance(item, Instruction) and item.opcode not in (Opcode.ACTKEY, Opcode.LDKEY):
            values["opcode"] = item.opcode
        elif isinstance(item, Header):
            if item.segment not in names:
                raise CipherbenchError(f"LWC segment {item.segment.name} is not offered (only the "
                                       "npub ad data tag message format)")
            header = item
            values.setdefault(names[item.segment], b"")
        elif isinstance(item, Data) and header is not None:
            if item.data is None:
                raise CipherbenchError("LWC input data cannot be don't-care")
            values[names[header.segment]] += item.data  # type: ignore[operator]
    return values
