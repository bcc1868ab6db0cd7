"""The message interface family (families/message.py): cycles per message for the LWC
benchmarking's cases, measured through the message-level testbench on GMU's dummy_lwc engine
(message/toy.py, a test fixture), and the figures derived from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.families import InterfaceFamily
from cipherbench.families import message as family_module
from cipherbench.families.message import MESSAGE, cases
from cipherbench.families.registry import FAMILIES, family
from cipherbench.message.lwc_io import LwcDesign, write_lwc_design
from cipherbench.message.ports import LwcShape
from cipherbench.message.toy import DummyEngine, dummy_decrypt, dummy_encrypt


class DummyModel:
    """dummy_lwc as an AeadModel."""

    name = "dummy_lwc"
    key_bytes, npub_bytes, tag_bytes, block_bytes = 16, 12, 16, 16

    def encrypt(self, key: bytes, npub: bytes, ad: bytes, pt: bytes) -> tuple[bytes, bytes]:
        return dummy_encrypt(key, npub, ad, pt)

    def decrypt(self, key: bytes, npub: bytes, ad: bytes, ct: bytes,
                tag: bytes) -> bytes | None:
        pt, ok = dummy_decrypt(key, npub, ad, ct, tag)
        return pt if ok else None


def _design(folder: Path, w: int, fault: bool = False) -> Path:
    shape = LwcShape(w)
    write_lwc_design(LwcDesign(shape, DummyEngine(shape, fault=fault)), folder)
    return folder


@pytest.fixture(scope="module")
def measured_w32(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, int | None]]:
    folder = _design(tmp_path_factory.mktemp("dummy_w32"), 32)
    return MESSAGE.measure_cycles(folder, None, DummyModel())


def test_the_family_is_registered_and_answers_the_protocol() -> None:
    assert family("message") is MESSAGE and set(FAMILIES) == {"block", "message"}
    assert isinstance(MESSAGE, InterfaceFamily)
    ports = MESSAGE.signature(LwcShape(32)).create()
    assert {p["name"] for p in LwcShape(32).ports()} >= {"pdi_data", "sdi_data", "do_data",
                                                        "do_last"}
    assert ports is not None


def test_the_cases_are_the_lwc_benchmarking_ones() -> None:
    names = [case.name for case in cases(16)]
    # 16, 64, 1536 bytes, 4 and 5 blocks of 16 (64 is both a short size and 4 blocks) and
    # 1536 bytes and a block (the steady state)
    assert len(names) == 2 * 3 * 5 and len(set(names)) == len(names)
    assert {"enc_ad_16", "dec_both_1536", "enc_msg_80"} <= set(names)
    assert [c.name for c in cases(8)][:5] == ["enc_ad_16", "enc_ad_64", "enc_ad_1536",
                                               "enc_ad_32", "enc_ad_40"]
    assert [c.long for c in cases(16)][:5] == [False, True, True, True, True]
    assert {"enc_msg_1552", "dec_both_1552"} <= set(names)


def test_cycles_per_message_of_the_dummy_engine(measured_w32) -> None:
    (bits, counts), = measured_w32.items()
    assert bits == "128" and set(counts) == {case.name for case in cases(16)} | {"key_setup"}
    # a new key adds 7 clocks between two status words of the dummy engine (ACTKEY and the
    # key's four words on sdi, before the next ENC is taken)
    assert counts["key_setup"] == 7
    # The dummy engine takes a word a clock: a fifth 16-byte block of message adds four words
    # at w = 32, of both AD and message eight.
    for op in ("enc", "dec"):
        assert counts[f"{op}_msg_80"] - counts[f"{op}_msg_64"] == 4
        assert counts[f"{op}_ad_80"] - counts[f"{op}_ad_64"] == 4
        assert counts[f"{op}_both_80"] - counts[f"{op}_both_64"] == 8
    assert counts["enc_msg_1536"] - counts["enc_msg_64"] == (1536 - 64) // 4


def test_the_derived_figures(measured_w32) -> None:
    metrics = MESSAGE.metrics({"block_bytes": 16}, measured_w32, 100.0,
                              {"gate_equivalents": 1000.0})["128"]
    counts = measured_w32["128"]
    assert metrics["throughput_mbps_enc_msg_long"] == pytest.approx(128 * 100.0 / 4)
    assert metrics["throughput_mbps_enc_both_long"] == pytest.approx(256 * 100.0 / 8)
    assert metrics["kbps_per_ge_enc_msg_long"] == pytest.approx(3200.0)
    # a word a clock in the steady state too: a block past 1,536 bytes adds four words
    assert metrics["throughput_mbps_enc_msg_stream"] == pytest.approx(128 * 100.0 / 4)
    assert metrics["throughput_mbps_dec_both_stream"] == pytest.approx(256 * 100.0 / 8)
    assert metrics["throughput_mbps_dec_ad_16"] == pytest.approx(128 * 100.0 / counts["dec_ad_16"])
    assert metrics["time_ns_enc_both_1536"] == pytest.approx(counts["enc_both_1536"] * 10.0)
    no_clock = MESSAGE.metrics({"block_bytes": 16}, measured_w32, None, {})["128"]
    assert no_clock["throughput_mbps_enc_msg_long"] is None
    entries = MESSAGE.manifest_entries(measured_w32)
    assert MESSAGE.measured(entries) == measured_w32
    with pytest.raises(CipherbenchError, match="has no measured cycles per message"):
        MESSAGE.measured({"design": "x"})


def test_a_broken_engine_fails_with_its_first_message(tmp_path: Path) -> None:
    folder = _design(tmp_path / "broken", 32, fault=True)
    with pytest.raises(CipherbenchError, match=r"message 9 \(msg id 8, ENC\) failed at do word 1 .*expected \[52000010 90.* got \[52000010 10"):
        MESSAGE.measure_cycles(folder, None, DummyModel())


def test_cycles_that_depend_on_the_data_are_refused(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # The constant-time check, shown able to fail: the second run's counts differ in one case.
    runs = iter([{"enc_ad_16": 20, "enc_ad_64": 30}, {"enc_ad_16": 20, "enc_ad_64": 31}])
    monkeypatch.setattr(family_module, "_counts", lambda *args, **kwargs: next(runs))
    monkeypatch.setattr(family_module, "MessageSimulator", _FakeSimulator)
    with pytest.raises(CipherbenchError, match="not constant time"):
        MESSAGE.measure_cycles(tmp_path, None, DummyModel())


class _FakeSimulator:
    def __init__(self, *args: object) -> None:
        self.shape = LwcShape(32)
