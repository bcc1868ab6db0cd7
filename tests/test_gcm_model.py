"""The message-level GCM model (message/gcm.py) against the NIST CAVP GCM files, two independent AES-GCM
implementations, GCM oracles over the other 128-bit ciphers, and its refusals."""

from __future__ import annotations

import random

import pytest

from cipherbench.ciphers.registry import ciphers
from cipherbench.errors import CipherbenchError
from cipherbench.message.aead import do_results, kat_operations, model_results
from cipherbench.message.cavp import cavp_gcm_file, parse_cavp_gcm, read_cavp_gcm
from cipherbench.message.gcm import TAG_BITS, GcmModel, gcm_model
from cipherbench.message.gcm_oracles import declared, gcm_encrypt, gcm_oracles
from cipherbench.message.kat import AeadRecord, read_kat, write_kat
from cipherbench.message.lwc import (Params, Status, decrypt_operation, encrypt_operation,
                                     output_of, parse_do, to_words)
from cipherbench.message.tvfiles import read_tv_files, write_tv_files
from cipherbench.verify.oracles import OracleUnavailable

AES = gcm_model("aes")
BLOCK_128 = sorted(name for name, info in ciphers().items() if info.model().block_bits == 128)
BLOCK_64 = sorted(name for name, info in ciphers().items() if info.model().block_bits == 64)


def _check(model: GcmModel, vector) -> bool:
    if vector.encrypt:
        return model.encrypt(vector.key, vector.iv, vector.ad, vector.pt,
                             8 * len(vector.tag)) == (vector.ct, vector.tag)
    return model.decrypt(vector.key, vector.iv, vector.ad, vector.ct, vector.tag) == vector.pt


# --- NIST CAVP -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["gcmEncryptExtIV128.rsp", "gcmDecrypt128.rsp"])
def test_every_record_of_the_128_bit_cavp_files(name):
    # all records: 96-bit IVs and the 8- and 1024-bit ones through GHASH, every tag length, FAILs
    vectors = read_cavp_gcm(cavp_gcm_file(name))
    assert len(vectors) == 7875
    assert {v.param("IVlen") for v in vectors} == {8, 96, 1024}
    assert {v.param("Taglen") for v in vectors} == set(TAG_BITS)
    if "Decrypt" in name:
        assert sum(v.failed for v in vectors) == 4011
    wrong = [v.source for v in vectors if not _check(AES, v)]
    assert wrong == []


@pytest.mark.parametrize("name", ["gcmEncryptExtIV192.rsp", "gcmDecrypt192.rsp",
                                  "gcmEncryptExtIV256.rsp", "gcmDecrypt256.rsp"])
def test_a_sample_of_the_192_and_256_bit_cavp_files(name):
    vectors = read_cavp_gcm(cavp_gcm_file(name))[::7]
    assert any(v.failed for v in vectors) == ("Decrypt" in name)
    assert [v.source for v in vectors if not _check(AES, v)] == []


def test_a_flipped_tag_bit_fails_and_the_record_then_disagrees():
    vector = next(v for v in read_cavp_gcm(cavp_gcm_file("gcmDecrypt128.rsp"))
                  if not v.failed and v.pt and v.param("IVlen") == 96)
    assert AES.decrypt(vector.key, vector.iv, vector.ad, vector.ct, vector.tag) == vector.pt
    flipped = bytes([vector.tag[0] ^ 0x01]) + vector.tag[1:]
    assert AES.decrypt(vector.key, vector.iv, vector.ad, vector.ct, flipped) is None
    flipped_ct = bytes([vector.ct[-1] ^ 0x80]) + vector.ct[:-1]
    assert AES.decrypt(vector.key, vector.iv, vector.ad, flipped_ct, vector.tag) is None
    assert AES.decrypt(vector.key, vector.iv, vector.ad + b"\x00", vector.ct, vector.tag) is None


CAVP_TEXT = """# CAVS 14.0
[Keylen = 128]
[IVlen = 96]

Count = 0
Key = cf063a34d4a9a76c2c86787d3f96db71
IV = 113b9785971864c83b01c787
CT = 
AAD = 
Tag = 72ac8493e3a5228b5d130a69d2510e42
PT = 

Count = 1
Key = a49a5e26a2f8cb63d05546c2a62f5343
IV = 907763b19b9b4ab6bd4f0281
CT = 
AAD = 
Tag = a2be08210d8c470a8df6e8fbd79ec5cf
FAIL
"""  # the first two records of gcmDecrypt128.rsp


@pytest.mark.parametrize("bad, good, encrypt, why", [
    ("FAIL", "FAIL", True, "x.rsp:13: FAIL in an encryption file"),
    ("Tag = a2be", "Tag = a2b", False, "x.rsp:18: Tag = 'a2b.*' is not an even number of hex"),
    ("Tag = 72ac8493e3a5228b5d130a69d2510e42\n", "", False, "x.rsp:5: record Count = 0 has no Tag"),
    ("Count = 1", "Count = 0", False, "x.rsp:13: duplicate Count = 0"),
    ("FAIL", "PT = 00\nFAIL", False, "x.rsp:20: FAIL with PT"),
])
def test_a_malformed_cavp_file_is_refused(bad, good, encrypt, why):
    records = parse_cavp_gcm(CAVP_TEXT, "x.rsp", encrypt=False)
    assert [r.failed for r in records] == [False, True] and all(_check(AES, r) for r in records)
    with pytest.raises(CipherbenchError, match=why):
        parse_cavp_gcm(CAVP_TEXT.replace(bad, good, 1), "x.rsp", encrypt=encrypt)


# --- independent implementations ---------------------------------------------------------------------

def _random_rows(rng: random.Random, key_bits, count: int, tag_bytes=(16,), iv_bytes=(12,)):
    rows = []
    for _ in range(count):
        key = rng.randbytes(rng.choice(key_bits) // 8)
        rows.append((key, rng.randbytes(rng.choice(iv_bytes)), rng.randbytes(rng.randrange(301)),
                     rng.randbytes(rng.randrange(301)), rng.choice(tag_bytes)))
    return rows


def test_random_messages_against_cryptography_and_pycryptodome():
    from Crypto.Cipher import AES as PycryptodomeAES
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    rng = random.Random(20261128)
    rows = _random_rows(rng, (128, 192, 256), 60)
    assert any(len(ad) % 16 and len(pt) % 16 for _, _, ad, pt, _ in rows)
    for key, iv, ad, pt, _ in rows:
        ct, tag = AES.encrypt(key, iv, ad, pt)
        assert ct + tag == AESGCM(key).encrypt(iv, pt, ad)
        cipher = PycryptodomeAES.new(key, PycryptodomeAES.MODE_GCM, nonce=iv)
        cipher.update(ad)
        assert (ct, tag) == cipher.encrypt_and_digest(pt)
        assert AES.decrypt(key, iv, ad, ct, tag) == pt == AESGCM(key).decrypt(iv, ct + tag, ad)


def test_other_ivs_and_short_tags_against_pycryptodome():
    rng = random.Random(7)
    rows = _random_rows(rng, (128, 256), 20, tag_bytes=(16, 15, 14, 13, 12, 8, 4),
                        iv_bytes=(1, 8, 13, 16, 60))
    expected = gcm_encrypt("pycryptodome", "aes", rows)
    assert [AES.encrypt(k, iv, ad, pt, 8 * t) for k, iv, ad, pt, t in rows] == expected


@pytest.mark.parametrize("cipher", BLOCK_128)
def test_gcm_over_every_128_bit_cipher_of_the_registry(cipher):
    model = gcm_model(cipher)
    rng = random.Random(cipher)
    rows = _random_rows(rng, model.cipher.key_sizes, 6, tag_bytes=(16, 12))
    for key, iv, ad, pt, tag_bytes in rows:  # the model's own consistency
        ct, tag = model.encrypt(key, iv, ad, pt, 8 * tag_bytes)
        assert model.decrypt(key, iv, ad, ct, tag) == pt
        assert model.decrypt(key, iv, ad, ct, bytes([tag[0] ^ 0x80]) + tag[1:]) is None
    try:
        oracles = gcm_oracles(cipher)
    except CipherbenchError as err:
        assert "only the model's own consistency" in str(err)
        assert declared(cipher) == ()
        return
    for oracle in oracles:
        try:
            expected = gcm_encrypt(oracle, cipher, rows)
        except OracleUnavailable as err:
            pytest.skip(str(err))
        assert [model.encrypt(k, iv, ad, pt, 8 * t) for k, iv, ad, pt, t in rows] == expected, oracle


def test_the_oracles_cover_sm4_camellia_and_aria():
    assert gcm_oracles("sm4") == ("cryptography", "botan")
    assert gcm_oracles("camellia") == ("botan",) and gcm_oracles("aria") == ("botan",)


# --- refusals ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cipher", BLOCK_64)
def test_a_64_bit_cipher_is_refused(cipher):
    with pytest.raises(CipherbenchError) as err:
        gcm_model(cipher)
    assert str(err.value) == f"GCM needs a 128-bit block cipher; {cipher} has 64-bit blocks"


@pytest.mark.parametrize("call, why", [
    (lambda: AES.encrypt(bytes(16), bytes(12), b"", b"", tag_bits=80),
     "128, 120, 112, 104, 96, 64 or 32"),
    (lambda: AES.decrypt(bytes(16), bytes(12), b"", b"", bytes(5)), "got 40"),
    (lambda: AES.encrypt(bytes(16), b"", b"", b""), "IV must be 1 byte or more"),
    (lambda: gcm_model("aes", tag_bits=48), "got 48"),
    (lambda: gcm_model("nosuch"), "unknown cipher 'nosuch' for GCM"),
    (lambda: AES.encrypt(bytes(10), bytes(12), b"", b""), "key must be 16, 24 or 32 bytes"),
])
def test_bad_arguments_are_refused_in_one_line(call, why):
    with pytest.raises(CipherbenchError, match=why) as err:
        call()
    assert "\n" not in str(err.value)


# --- the message level: KAT files and LWC streams of GCM ----------------------------------------

def test_gcm_kat_written_read_and_decrypted(tmp_path):
    rng = random.Random(3)
    records = []
    for count, (key, iv, ad, pt, _) in enumerate(_random_rows(rng, (128,), 5), 1):
        ct, tag = AES.encrypt(key, iv, ad, pt)
        records.append(AeadRecord(count, key, iv, ad, pt, ct + tag))
    back = read_kat(write_kat(tmp_path / "LWC_AEAD_KAT_128_96.txt", records))
    assert back == records
    results = []
    for record in back:
        ct, tag = record.split_ct(16)
        if record.count == 2:
            tag = bytes([tag[0] ^ 1]) + tag[1:]
        pt = AES.decrypt(record.key, record.nonce, record.ad, ct, tag)
        results.append(AeadRecord(record.count, record.key, record.nonce, record.ad, pt, ct + tag))
    decrypted = read_kat(write_kat(tmp_path / "out.txt", results, decryption=True))
    assert [r.failed for r in decrypted] == [False, True, False, False, False]
    assert [r.pt for r in decrypted if not r.failed] == [r.pt for r in records if r.count != 2]


@pytest.mark.parametrize("w", [32, 128])
def test_gcm_through_the_lwc_streams(w):
    params = Params(w=w, block_bytes=16)
    key, iv, ad, pt = bytes(range(16)), bytes(range(12)), b"header", b"a message of 29 bytes, say..."
    ct, tag = AES.encrypt(key, iv, ad, pt)
    enc = encrypt_operation(iv, ad, pt, ct, tag, key=key, params=params)
    assert output_of(parse_do(to_words(enc.do, w), w)[0]) == (ct + tag, Status.SUCCESS)
    bad_tag = bytes([tag[0] ^ 1]) + tag[1:]
    assert AES.decrypt(key, iv, ad, ct, bad_tag) is None
    dec = decrypt_operation(iv, ad, ct, bad_tag, AES.decrypt_unverified(key, iv, ct), success=False,
                            params=params)
    assert output_of(parse_do(to_words(dec.do, w), w)[0]) == (pt, Status.FAILURE)


@pytest.mark.parametrize("op", ["encrypt", "decrypt"])
def test_a_kat_file_through_the_testbench_files_and_back(tmp_path, op):
    # KAT records -> pdi/sdi/do.txt (expected do from the model) -> the do stream read as an
    # engine's output -> KAT results equal to the model's; record 2 carries a wrong tag
    rng = random.Random(op)
    key = bytes(16)
    records = []
    for count, (_, iv, ad, pt, _) in enumerate(_random_rows(rng, (128,), 4), 1):
        key = key if count == 2 else rng.randbytes(16)
        ct, tag = AES.encrypt(key, iv, ad, pt)
        tag = bytes([tag[0] ^ 1]) + tag[1:] if count == 2 else tag
        records.append(AeadRecord(count, key, iv, ad, pt, ct + tag))
    params = Params(w=32, block_bytes=16, max_blocks_per_segment=4)
    operations = kat_operations(records, AES, op, params)
    assert [bool(o.sdi) for o in operations] == [True, False, True, True]
    write_tv_files(tmp_path, operations, params)
    read = read_tv_files(tmp_path)
    assert read.operations == tuple(operations)
    results = do_results(records, [o.do for o in read.operations], op, 128)
    assert results == model_results(records, AES, op)
    if op == "decrypt":
        assert [r.failed for r in results] == [False, True, False, False]
        assert output_of(operations[1].do) == (records[1].pt, Status.FAILURE)  # released plaintext
