"""Monte Carlo tests: AESAVS ECB MCT (AES) and the AES-candidate ECB MCT files (Serpent, MARS), on the
reference models, an independent AES (PyPI cryptography) and, with --runslow, generated cores."""

from __future__ import annotations

import pytest

from cipherbench.ciphers.aes import mct as aesavs
from cipherbench.ciphers.registry import ciphers
from cipherbench.verify import mct
from cipherbench.verify.vectors import kat_root

SIZES = (128, 192, 256)
DIRECTIONS = (False, True)
SHORT_OUTER = 3  # AESAVS iterations in the default suite


def _name(decrypt: bool) -> str:
    return "decrypt" if decrypt else "encrypt"


# The ciphers whose Monte Carlo test is the AES-candidate files (Serpent, MARS).
SUBMISSION_CIPHERS = sorted(name for name, info in ciphers().items()
                            if isinstance(info.monte_carlo, mct.SubmissionMct))


def _files(cipher: str):
    test = ciphers()[cipher].monte_carlo
    assert isinstance(test, mct.SubmissionMct)
    files = test.files()
    if not files:
        pytest.skip(f"{cipher} Monte Carlo files not found: set CIPHERBENCH_KAT to the shared kat "
                    "folder (ecb_e_m.txt, ecb_d_m.txt)")
    return files


# ---------------------------------------------------------------- the procedure itself


def test_next_key_takes_the_last_key_length_of_the_two_last_outputs() -> None:
    a, b = bytes(range(16)), bytes(range(16, 32))
    assert mct.next_key(bytes(16), a, b) == b
    assert mct.next_key(bytes(24), a, b) == a[8:] + b
    assert mct.next_key(bytes(32), a, b) == a + b
    assert mct.next_key(b"\xff" * 16, a, b) == bytes(x ^ 0xFF for x in b)


def test_run_mct_chains_inputs_and_keys() -> None:
    calls = []

    def chain(key: bytes, data: bytes, decrypt: bool, count: int) -> tuple[bytes, bytes]:
        calls.append((key, data, count))
        return bytes([data[0] + 1]) * 16, bytes([data[0] + 2]) * 16

    got = list(mct.run_mct(chain, bytes(16), bytes(16), False, 3, 7))
    assert [c.index for c in got] == [0, 1, 2]
    assert got[1].data == got[0].result and got[1].key == mct.next_key(got[0].key, b"", got[0].result)
    assert all(count == 7 for _, _, count in calls)


# ---------------------------------------------------------------- AES: AESAVS 6.4


def test_aesavs_first_step_matches_published_ecbmct128() -> None:
    """COUNT=0 CIPHERTEXT and COUNT=1 KEY of ECBMCT128.rsp [ENCRYPT], on the reference model."""
    got = aesavs.aesavs_mct(mct.model_chain(ciphers()["aes"].model()), 128, False, outer=2)
    assert got[0].result == aesavs.AESAVS_ECB_MCT128_ENCRYPT_COUNT0_RESULT
    assert got[1].key == aesavs.AESAVS_ECB_MCT128_ENCRYPT_COUNT1_KEY


@pytest.mark.parametrize("seed", aesavs.AESAVS_ECB_MCT,
                         ids=lambda s: f"{s.key_bits}-{_name(s.decrypt)}")
def test_aesavs_published_final_values_with_cryptography(seed: aesavs.AesavsSeed) -> None:
    """The full 100 x 1000 procedure with OpenSSL's AES reaches the published COUNT=99 value:
    the procedure (key update, chaining) is the standard's."""
    got = aesavs.aesavs_mct(aesavs.cryptography_chain(), seed.key_bits, seed.decrypt)
    assert len(got) == 100
    assert got[-1].result == seed.final


@pytest.mark.parametrize("decrypt", DIRECTIONS, ids=_name)
@pytest.mark.parametrize("bits", SIZES)
def test_aesavs_model_equals_cryptography_short(bits: int, decrypt: bool) -> None:
    outcome = mct.compare_checkpoints(
        "short", aesavs.aesavs_mct(mct.model_chain(ciphers()["aes"].model()), bits, decrypt, SHORT_OUTER),
        aesavs.aesavs_mct(aesavs.cryptography_chain(), bits, decrypt, SHORT_OUTER))
    assert outcome.ok and outcome.passed == SHORT_OUTER, outcome.first_failures


@pytest.mark.slow
@pytest.mark.parametrize("decrypt", DIRECTIONS, ids=_name)
@pytest.mark.parametrize("bits", SIZES)
def test_aesavs_model_full(bits: int, decrypt: bool) -> None:
    """All 100 iterations on the model: every checkpoint equals cryptography's, the last one the
    published COUNT=99 value."""
    outcomes = mct.cipher_mct("aes", mct.model_chain(ciphers()["aes"].model()), [bits], [decrypt],
                              reference=aesavs.cryptography_chain())
    assert len(outcomes) == 1 and outcomes[0].ok, outcomes[0].first_failures
    assert outcomes[0].passed == 101  # 100 checkpoints + the published final value


def test_a_wrong_chain_is_caught() -> None:
    """One wrong block in one inner loop (as a core with a rare fault) fails the comparison."""
    good = aesavs.cryptography_chain()

    def faulty(key: bytes, data: bytes, decrypt: bool, count: int) -> tuple[bytes, bytes]:
        before, last = good(key, data, decrypt, count)
        if data == aesavs.AESAVS_ECB_MCT128_ENCRYPT_COUNT0_RESULT:  # iteration 1 only
            last = bytes([last[0] ^ 1]) + last[1:]
        return before, last

    outcome = mct.compare_checkpoints("faulty", aesavs.aesavs_mct(faulty, 128, False, 3),
                                      aesavs.aesavs_mct(good, 128, False, 3))
    assert not outcome.ok and outcome.passed == 1 and "iteration 1: result" in outcome.first_failures[0]


# ---------------------------------------------------------------- Serpent, MARS: ecb_e_m / ecb_d_m


@pytest.mark.parametrize("bits", SIZES)
@pytest.mark.parametrize("cipher", SUBMISSION_CIPHERS)
def test_submission_mct_first_iteration(cipher: str, bits: int) -> None:
    """I=0 (10,000 operations) in both files, and the KEY and input of I=1 derived from it."""
    chain = mct.model_chain(ciphers()[cipher].model())
    files = _files(cipher)
    assert {decrypt for _, decrypt, _ in files} == {False, True}
    for path, decrypt, sections in files:
        outcome = mct.check_submission_mct(chain, sections[bits], decrypt, path.name, outer=1)
        assert outcome.ok and outcome.passed == 2, outcome.first_failures


def test_submission_files_are_whole() -> None:
    for cipher in SUBMISSION_CIPHERS:
        for path, _, sections in _files(cipher):
            assert sorted(sections) == list(SIZES), path
            assert all(len(records) == mct.SUBMISSION_OUTER for records in sections.values()), path


def test_submission_wrong_model_is_caught() -> None:
    """Serpent's records read without the byte reversal must not pass (the check is real)."""
    _files("serpent")
    root = kat_root()
    assert root is not None
    path = root / "serpent" / "ecb_e_m.txt"
    records = mct.submission_sections(path, reverse_submission_hex=False)[128]
    chain = mct.model_chain(ciphers()["serpent"].model())
    outcome = mct.check_submission_mct(chain, records, False, "unreversed", outer=1, inner=2)
    assert not outcome.ok


@pytest.mark.slow
@pytest.mark.parametrize("bits", SIZES)
@pytest.mark.parametrize("cipher", SUBMISSION_CIPHERS)
def test_submission_mct_model_full(cipher: str, bits: int) -> None:
    """All 400 records of both files (Serpent about 10 minutes, MARS about 5, per key size)."""
    _files(cipher)
    outcomes = mct.cipher_mct(cipher, mct.model_chain(ciphers()[cipher].model()), [bits],
                              DIRECTIONS)
    assert len(outcomes) == 2
    for outcome in outcomes:
        assert outcome.ok and outcome.passed == mct.SUBMISSION_OUTER, outcome.first_failures


# ---------------------------------------------------------------- generated cores (Verilator)

# (design, outer iterations): AES runs the whole AESAVS test; Serpent and MARS the first 40 of the
# 400 records per file (10,000 chained blocks each; benchmarks/mct_hw.py --outer 400 runs all).
HW_DESIGNS = (("aes-128/iterative", None), ("aes/iterative", None),
              ("serpent-128/iterative", 40), ("mars-128/iterative", 40))


@pytest.mark.slow
@pytest.mark.parametrize("design,outer", HW_DESIGNS, ids=[d for d, _ in HW_DESIGNS])
def test_mct_on_hardware(design: str, outer: int | None) -> None:
    from cipherbench.cache import ensure_design
    from cipherbench.spec import parse

    spec = parse(design)
    if spec.cipher != "aes":
        _files(spec.cipher)
    outcomes = mct.design_mct(spec, ensure_design(spec), outer=outer)
    assert len(outcomes) == 2 * len(spec.key_sizes)
    for outcome in outcomes:
        assert outcome.ok, (outcome.name, outcome.first_failures)
