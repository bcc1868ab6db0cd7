"""The measured software baseline beside the hardware in the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cipherbench import metrics
from cipherbench.errors import CipherbenchError
from cipherbench.report import write_report
from cipherbench.report.software import load_baseline, software_table
from cipherbench.store import Result, cache_key

BASELINE = {
    "host": {"cpu_model": "Test CPU", "logical_cpus": 2, "nominal_mhz": 2000.0},
    "seconds": 1.0, "cycles_per_byte": "derived", "key_bits": {},
    "figures": [
        {"cipher": "aes", "source": "openssl", "algorithm": "AES-128-ECB", "key_bits": 128,
         "mbps": 80_000.0, "cycles_per_byte": 0.2},
        {"cipher": "aes", "source": "cryptopp", "algorithm": "AES", "key_bits": 128,
         "mbps": 60_000.0, "cycles_per_byte": 0.267},
        {"cipher": "aes", "source": "model", "algorithm": "model", "key_bits": 128,
         "mbps": 5.0, "cycles_per_byte": 3200.0},
        {"cipher": "misty1", "source": "openssl", "algorithm": "-", "key_bits": 128,
         "mbps": None, "cycles_per_byte": None},
    ],
    "notes": {},
}


def _hardware() -> Result:
    counts = {"128": {"latency": 10, "initiation_interval": 1, "cycles_per_chained_block": 10}}
    measurements = {"gate_equivalents": 300_000.0, "fmax_mhz": 1000.0}
    record = {"block_bits": 128, "cycles": counts, "measurements": measurements}
    target = "asic:nangate45_typ:speed"
    return Result(cache_key=cache_key("aes-128/pipelined", target, {}, "d" * 64),
                  design="aes-128/pipelined", target=target, settings={"goal": "speed"},
                  measurements=measurements, cycles=counts, metrics=metrics.derive(record))


def test_table_sets_measured_published_and_hardware_side_by_side() -> None:
    rows = {r["cipher"]: r for r in software_table(BASELINE, [_hardware()]).records()}
    aes = rows["aes"]
    assert [aes["OpenSSL Mbps"], aes["Crypto++ Mbps"], aes["model Mbps"]] == [
        "80,000", "60,000", "5.00"]
    assert aes["best software cycles/B"] == "0.2"
    assert aes["Sugawara Table 2 (Pentium 4 2.1 GHz) Mbps"] == "488.08"
    # Papaefstathiou IXP rows exist for AES
    assert aes["Papaefstathiou IXP best encryption Mbps"] not in ("-", "")
    # 128 bits x 1000 MHz per clock = 128,000 Mbps; / 80,000 = 1.6
    hardware, ratio = "our best hardware Mbps (design @ target)", "hardware / best compiled software"
    assert aes[hardware].startswith("128,000 (aes-128/pipelined @") and aes[ratio] == "1.60"
    assert rows["misty1"]["OpenSSL Mbps"] == "-" and rows["misty1"][ratio] == "-"


def test_report_with_and_without_a_baseline(tmp_path: Path) -> None:
    path = tmp_path / "sw.json"
    path.write_text(json.dumps(BASELINE))
    write_report([_hardware()], tmp_path / "with", software_baseline=path)
    assert "Software baseline beside the hardware" in (tmp_path / "with" / "report.md").read_text()
    write_report([_hardware()], tmp_path / "without")
    assert "Software baseline" not in (tmp_path / "without" / "report.md").read_text()


@pytest.mark.parametrize("text", ["", "{", "[]", '{"host": {}, "figures": [{"cipher": 1}]}'])
def test_malformed_baseline_is_refused_before_writing(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CipherbenchError, match="software"):
        load_baseline(path)
    with pytest.raises(CipherbenchError):
        write_report([_hardware()], tmp_path / "out", software_baseline=path)
    assert not (tmp_path / "out").exists()
