"""The message level's formats: the LWC hardware API's words (lwc.py), cryptotvgen's pdi/sdi/do.txt
(tvfiles.py) and the NIST LWC KAT files (kat.py)."""

from __future__ import annotations

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.message import lwc
from cipherbench.message.kat import AeadRecord, HashRecord, parse_kat, read_kat, write_kat
from cipherbench.message.lwc import (Data, Header, Instruction, Opcode, Params, Segment, Status,
                                     StatusWord, decrypt_operation, encrypt_operation,
                                     hash_operation, output_of, parse_do, parse_input, to_words)
from cipherbench.message.tvfiles import RULE, read_tv_files, tv_texts, write_tv_files

H = bytes.fromhex

# --- the API's constants -----------------------------------------------------------------------------


def test_opcodes_and_segment_types_are_those_of_nist_lwapi_pkg():
    # NIST_LWAPI_pkg.vhd (GMU LWC development package v1.2.0), package body: INST_* and HDR_*
    assert {op.name: f"{op.value:04b}" for op in Opcode} == {
        "ENC": "0010", "DEC": "0011", "LDKEY": "0100", "ACTKEY": "0111", "HASH": "1000"}
    assert {s.name: f"{s.value:04b}" for s in Status} == {"SUCCESS": "1110", "FAILURE": "1111"}
    assert {s.name: f"{s.value:04b}" for s in Segment} == {
        "AD": "0001", "NPUB_AD": "0010", "AD_NPUB": "0011", "PT": "0100", "CT": "0101",
        "CT_TAG": "0110", "HASH_MSG": "0111", "TAG": "1000", "HASH_VALUE": "1001", "LENGTH": "1010",
        "KEY": "1100", "NPUB": "1101", "NSEC": "1110", "ENSEC": "1111"}


def test_header_fields_sit_at_their_bits():
    header = Header(Segment.NPUB, 12, eoi=True, eot=True, last=False)
    assert header.encode() == 0xD600000C  # type 1101, Partial 0, EOI 1, EOT 1, Last 0, length 12
    assert Header.decode(0x83000010) == Header(Segment.TAG, 16, eot=True, last=True)
    assert Header(Segment.PT, 0, partial=True).encode() == 0x48000000


@pytest.mark.parametrize("value, why", [(0x0600000C, "reserved"), (0xB600000C, "reserved"),
                                        (0xD601000C, "23..16")])
def test_a_malformed_header_is_refused(value, why):
    with pytest.raises(CipherbenchError, match=why):
        Header.decode(value)


@pytest.mark.parametrize("w, words", [
    (8, [0xD6, 0x00, 0x00, 0x0C]), (16, [0xD600, 0x000C]), (32, [0xD600000C]),
    (128, [0xD600000C << 96])])
def test_a_header_is_32_bits_at_every_width(w, words):
    assert to_words([Header(Segment.NPUB, 12, eoi=True, eot=True)], w) == words


@pytest.mark.parametrize("w", lwc.WIDTHS)
def test_instructions_status_and_data_are_msb_first_and_zero_padded(w):
    assert to_words([Instruction(Opcode.ACTKEY)], w) == [0x7 << (w - 4)]
    assert to_words([StatusWord(Status.FAILURE)], w) == [0xF << (w - 4)]
    data = bytes(range(1, 6))  # 5 bytes
    words = to_words([Data(data)], w)
    assert b"".join(x.to_bytes(w // 8, "big") for x in words) == data + bytes(-5 % (w // 8))


def test_an_unknown_width_is_refused():
    with pytest.raises(CipherbenchError, match="8, 16, 32 or 128"):
        Params(w=64)


# --- operations to streams and back ----------------------------------------------------------------

KEY = H("000102030405060708090A0B0C0D0E0F")
NPUB = H("000102030405060708090A0B")


def test_empty_ad_and_pt_put_eoi_on_the_nonce_and_are_still_sent():
    op = encrypt_operation(NPUB, b"", b"", b"", bytes(16), key=KEY)
    headers = [f for f in op.pdi if isinstance(f, Header)]
    assert [(h.segment, h.length, h.eoi, h.eot, h.last) for h in headers] == [
        (Segment.NPUB, 12, True, True, False), (Segment.AD, 0, False, True, False),
        (Segment.PT, 0, False, True, True)]
    assert op.pdi[0] == Instruction(Opcode.ACTKEY) and op.sdi[0] == Instruction(Opcode.LDKEY)


def test_segments_split_at_the_maximum_and_only_the_last_carries_flags():
    params = Params(w=32, block_bytes=16, max_blocks_per_segment=1)
    pt = bytes(range(40))
    op = encrypt_operation(NPUB, b"", pt, pt, bytes(16), params=params)
    pt_headers = [f for f in op.pdi if isinstance(f, Header) and f.segment == Segment.PT]
    assert [(h.length, h.eoi, h.eot, h.last) for h in pt_headers] == [
        (16, False, False, False), (16, False, False, False), (8, True, True, True)]
    ct_headers = [f for f in op.do if isinstance(f, Header) and f.segment == Segment.CT]
    assert [(h.length, h.eot, h.last) for h in ct_headers] == [(16, False, False), (16, False, False),
                                                               (8, True, False)]
    # without a maximum, one segment up to the largest multiple of the block within 16 bits
    assert Params(block_bytes=16).max_segment_bytes == 65520


@pytest.mark.parametrize("w", lwc.WIDTHS)
def test_streams_parse_back_to_their_operations(w):
    params = Params(w=w, block_bytes=16, max_blocks_per_segment=2)
    ad, pt, ct, tag = bytes(range(33)), bytes(range(50, 87)), bytes(range(100, 137)), bytes(16)
    enc = encrypt_operation(NPUB, ad, pt, ct, tag, key=KEY, params=params)
    dec = decrypt_operation(NPUB, ad, ct, tag, pt, params=params)
    hsh = hash_operation(pt, bytes(32), params=params)
    pdi = parse_input(to_words(enc.pdi + dec.pdi + hsh.pdi, w), w)
    assert pdi == [[enc.pdi[0]], list(enc.pdi[1:]), list(dec.pdi), list(hsh.pdi)]
    assert parse_input(to_words(enc.sdi, w), w, "sdi") == [list(enc.sdi)]
    dos = parse_do(to_words(enc.do + dec.do + hsh.do, w), w)
    assert [output_of(d) for d in dos] == [(ct + tag, Status.SUCCESS), (pt, Status.SUCCESS),
                                          (bytes(32), Status.SUCCESS)]
    assert lwc.message_of(enc.pdi, enc.sdi) == {"opcode": Opcode.ENC, "npub": NPUB, "ad": ad,
                                                "pt": pt, "key": KEY}


def test_a_failed_decryption_ends_with_failure_after_the_released_plaintext():
    op = decrypt_operation(NPUB, b"", b"\x01\x02", bytes(16), b"\x03\x04", success=False)
    assert output_of(parse_do(to_words(op.do, 32), 32)[0]) == (b"\x03\x04", Status.FAILURE)
    unknown = decrypt_operation(NPUB, b"", b"\x01\x02", bytes(16), None, success=False)
    assert to_words(unknown.do, 32) == [0x43000002, None, 0xF0000000]


@pytest.mark.parametrize("words, why", [
    ([0x20000000, 0x0600000C], "reserved"),                       # header of type 0000
    ([0x20000001], "below its 4-bit code"),                       # instruction with low bits set
    ([0x50000000], "not an instruction"),                         # opcode 0101
    ([0x40000000], "does not belong on pdi"),                     # LDKEY on pdi
    ([0x20000000, 0xD600000C, 0x00010203], "ends at word 3"),     # nonce cut short
    ([0x20000000, 0x47000001, 0xAA000001], "padding"),            # padding not zero
])
def test_a_malformed_pdi_stream_is_refused(words, why):
    with pytest.raises(CipherbenchError, match=why):
        parse_input(words, 32)


def test_a_do_stream_with_a_bad_status_or_eoi_is_refused():
    with pytest.raises(CipherbenchError, match="not a status"):
        parse_do([0x43000000, 0x20000000], 32)
    with pytest.raises(CipherbenchError, match="EOI=1"):
        parse_do([0x47000000, 0xE0000000], 32)


# --- cryptotvgen's files -----------------------------------------------------------------------------

# hardware/dummy_lwc/KAT/8/{pdi,sdi,do}.txt of the GMU LWC development package (v1.2.0), written by
# cryptotvgen with --io 8 8 --max_io_per_line 8: the first three operations (MsgID 1 to 3), copied as
# they stand after the parameter block.
DUMMY_W8_PDI = """\
#### Authenticated Encryption
#### MsgID=1, KeyID=1, AD Size=0, PT Size=0
# Instruction: Opcode=Activate Key
INS = 70
# Instruction: Opcode=Authenticated Encryption
INS = 20
# Info :                     Npub, EOI=1 EOT=1, Last=0, Length=12 bytes
HDR = D600000C
DAT = 66272968225E0479
DAT = F3B45C6A
# Info :          Associated Data, EOI=0 EOT=1, Last=0, Length=0 bytes
HDR = 12000000
# Info :                Plaintext, EOI=0 EOT=1, Last=1, Length=0 bytes
HDR = 43000000

#### Authenticated Decryption
#### MsgID=2, KeyID=1, AD Size=0, CT Size=0
# Instruction: Opcode=Authenticated Decryption
INS = 30
# Info :                     Npub, EOI=1 EOT=1, Last=0, Length=12 bytes
HDR = D600000C
DAT = 66272968225E0479
DAT = F3B45C6A
# Info :          Associated Data, EOI=0 EOT=1, Last=0, Length=0 bytes
HDR = 12000000
# Info :               Ciphertext, EOI=0 EOT=1, Last=0, Length=0 bytes
HDR = 52000000
# Info :                      Tag, EOI=0 EOT=1, Last=1, Length=16 bytes
HDR = 83000010
DAT = 6D7C09A04D1FA5EE
DAT = C4EB1C9C22DCE752

#### Hash
#### MsgID=3, KeyID=0, HM Size=0, Digest Size=32
# Instruction: Opcode=Hash
INS = 80
# Info :                     Hash, EOI=1 EOT=1, Last=1, Length=0 bytes
HDR = 77000000

"""
DUMMY_W8_SDI = """\
#### MsgID=  1, KeyID=  1
# Instruction: Opcode=Load Key
INS = 40
# Info :                      Key, EOI=1 EOT=1, Last=1, Length=16 bytes
HDR = C7000010
DAT = 0B5B20C86F41A197
DAT = 375F40F622DCE752

"""
DUMMY_W8_DO = """\
#### Authenticated Encryption
#### MsgID=1, KeyID=1, AD Size=0, PT Size=0
# Instruction: Opcode=Authenticated Encryption
# TB :20101 (Encoding used by testbench)
# Info :               Ciphertext, EOT=1, Last=0, Length=0 bytes
HDR = 52000000
# Info :                      Tag, EOT=1, Last=1, Length=16 bytes
HDR = 83000010
DAT = 6D7C09A04D1FA5EE
DAT = C4EB1C9C22DCE752
# Status: Success
STT = E0

#### Authenticated Decryption
#### MsgID=2, KeyID=1, AD Size=0, CT Size=0
# Instruction: Opcode=Authenticated Decryption
# TB :30102 (Encoding used by testbench)
# Info :                Plaintext, EOT=1, Last=1, Length=0 bytes
HDR = 43000000
# Status: Success
STT = E0

#### Hash
#### MsgID=3, KeyID=0, HM Size=0, Digest Size=32
# Instruction: Opcode=Hash
# TB :80003 (Encoding used by testbench)
# Info :                 Hash_Tag, EOT=1, Last=1, Length=32 bytes
HDR = 93000020
DAT = 0000000000000000
DAT = 0000000000000000
DAT = 0000000000000000
DAT = 0000000000000000
# Status: Success
STT = E0

"""


def _dummy_operations(params: Params) -> list[lwc.Operation]:
    npub, tag = H("66272968225E0479F3B45C6A"), H("6D7C09A04D1FA5EEC4EB1C9C22DCE752")
    return [encrypt_operation(npub, b"", b"", b"", tag, key=H("0B5B20C86F41A197375F40F622DCE752"),
                              params=params, msg_id=1, key_id=1),
            decrypt_operation(npub, b"", b"", tag, b"", params=params, msg_id=2, key_id=1),
            hash_operation(b"", bytes(32), params=params, msg_id=3)]


def _body(text: str) -> str:
    return text.split(RULE + "\n\n", 1)[1].removesuffix("###EOF\n")


def test_the_files_match_cryptotvgens_for_the_dummy_lwc_example():
    texts = tv_texts(_dummy_operations(Params(w=8)), Params(w=8), words_per_line=8)
    assert _body(texts["pdi.txt"]) == DUMMY_W8_PDI
    assert _body(texts["sdi.txt"]) == DUMMY_W8_SDI
    assert _body(texts["do.txt"]) == DUMMY_W8_DO


def test_the_example_comparison_catches_a_wrong_flag():
    import dataclasses

    ops = _dummy_operations(Params(w=8))
    spoiled = [Header(Segment.NPUB, 12, eoi=False, eot=True) if f == Header(
        Segment.NPUB, 12, eoi=True, eot=True) else f for f in ops[0].pdi]
    ops[0] = dataclasses.replace(ops[0], pdi=tuple(spoiled))
    assert "HDR = D200000C" in _body(tv_texts(ops, Params(w=8), words_per_line=8)["pdi.txt"])
    assert _body(tv_texts(ops, Params(w=8), words_per_line=8)["pdi.txt"]) != DUMMY_W8_PDI


def test_cryptotvgens_files_read_into_operations(tmp_path):
    for name, body in (("pdi.txt", DUMMY_W8_PDI), ("sdi.txt", DUMMY_W8_SDI), ("do.txt", DUMMY_W8_DO)):
        (tmp_path / name).write_text(f"{RULE}\n# {name}\n{RULE}\n\n{body}###EOF\n")
    read = read_tv_files(tmp_path)
    assert (read.w, read.sw) == (8, 8)
    assert read.operations == tuple(_dummy_operations(Params(w=8)))


@pytest.mark.parametrize("w", lwc.WIDTHS)
def test_files_written_read_back_at_every_width(tmp_path, w):
    params = Params(w=w, block_bytes=16, max_blocks_per_segment=2)
    ad, pt = bytes(range(37)), bytes(range(7, 61))
    ops = [encrypt_operation(NPUB, ad, pt, pt[::-1], bytes(16), key=KEY, params=params, msg_id=1,
                             key_id=1),
           decrypt_operation(NPUB, ad, pt[::-1], bytes(16), None, success=False, params=params,
                             msg_id=2, key_id=1),
           hash_operation(pt, bytes(32), params=params, msg_id=3),
           decrypt_operation(NPUB, b"", b"\x55", bytes(12), b"\xAA", key=KEY[::-1], params=params,
                             msg_id=4, key_id=2)]
    write_tv_files(tmp_path, ops, params, words_per_line=3)
    read = read_tv_files(tmp_path)
    assert read.w == w and read.operations == tuple(ops)
    assert "DAT = " + "X" * (w // 4) in (tmp_path / "do.txt").read_text()


@pytest.mark.parametrize("file, bad, good, why", [
    ("pdi.txt", "HDR = 12000000", "HDR = 02000000", r"pdi.txt:12: .*reserved"),
    ("pdi.txt", "DAT = 66272968225E0479", "DAT = 66272968225E047", r"pdi.txt:9: .*8-bit hex words"),
    ("pdi.txt", "INS = 30", "NS = 30", r"pdi.txt:19: expected a comment or INS"),
    ("do.txt", "STT = E0\n\n#### Hash", "STT = 20\n\n#### Hash", r"do.txt:21: .*not a status"),
    ("do.txt", "# TB :30102", "# TB :80102", r"do.txt:17: .*opcode 1000"),
])
def test_a_malformed_file_is_refused_naming_its_line(tmp_path, file, bad, good, why):
    # the dummy example's files, each with one line spoiled ('good' is the spoiled text)
    bodies = {"pdi.txt": DUMMY_W8_PDI, "sdi.txt": DUMMY_W8_SDI, "do.txt": DUMMY_W8_DO}
    assert bad in bodies[file]
    bodies[file] = bodies[file].replace(bad, good, 1)
    for name, body in bodies.items():
        (tmp_path / name).write_text(body + "###EOF\n")
    with pytest.raises(CipherbenchError, match=why):
        read_tv_files(tmp_path)


# --- NIST LWC KAT files ------------------------------------------------------------------------------

def test_kat_files_written_and_read_back(tmp_path):
    aead = [AeadRecord(1, KEY, NPUB, b"", b"", H("00112233445566778899AABBCCDDEEFF")),
            AeadRecord(2, KEY, NPUB, b"\x00", b"\x01\x02", H("0A0B") + bytes(16))]
    assert read_kat(write_kat(tmp_path / "aead.txt", aead)) == aead
    text = (tmp_path / "aead.txt").read_text()
    assert text.startswith("Count = 1\nKey = 000102030405060708090A0B0C0D0E0F\n"
                           "Nonce = 000102030405060708090A0B\nPT = \nAD = \nCT = 0011")
    results = [aead[0], AeadRecord(2, KEY, NPUB, b"\x00", None, aead[1].ct)]
    assert read_kat(write_kat(tmp_path / "dec.txt", results, decryption=True)) == results
    assert "\nFAIL\n" in (tmp_path / "dec.txt").read_text()
    hashes = [HashRecord(1, b"", bytes(32)), HashRecord(2, b"\x00", bytes(range(32)))]
    assert read_kat(write_kat(tmp_path / "hash.txt", hashes)) == hashes
    assert aead[1].split_ct(16) == (H("0A0B"), bytes(16))


GOOD_KAT = ("Count = 1\nKey = 00\nNonce = 01\nPT = \nAD = \nCT = AB\n\n"
            "Count = 2\nKey = 00\nNonce = 01\nPT = 02\nAD = \nCT = ABCD\n")


@pytest.mark.parametrize("bad, good, why", [
    ("Nonce = 01\nPT = \n", "PT = \n", "kat.txt:1: record Count = 1 has no Nonce"),
    ("CT = ABCD", "CT = ABC", "kat.txt:13: CT = 'ABC': odd number of hex digits"),
    ("Count = 2", "Count = 1", r"kat.txt:8: duplicate Count = 1 \(first at line 1\)"),
    ("PT = 02", "PT = 0G", "kat.txt:11: PT = '0G': not hex"),
    ("PT = 02\n", "PT = 02\nMD = 00\n", "kat.txt:8: hash record among aead records"),
])
def test_a_malformed_kat_file_is_refused(bad, good, why):
    assert parse_kat(GOOD_KAT, "kat.txt")[1].pt == b"\x02"
    assert bad in GOOD_KAT
    with pytest.raises(CipherbenchError, match=why):
        parse_kat(GOOD_KAT.replace(bad, good, 1), "kat.txt")
