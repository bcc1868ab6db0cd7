"""The software baseline (`cipherbench software`): parsing `openssl speed` and `openssl list`, the
host record, one real OpenSSL and one real Crypto++ measurement, and the CLI's error path."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cipherbench.software import Baseline, format_table, openssl
from cipherbench.software import cryptopp as cryptopp_source
from cipherbench.software.common import Figure, SourceUnavailable, cycles_per_byte
from cipherbench.software.host import read_host

# Captured from OpenSSL 3.0 `openssl speed -elapsed -seconds 1 -bytes 16384 -evp aes-128-ecb`.
SPEED_SAMPLE = """\
You have chosen to measure elapsed time instead of user CPU time.
Doing AES-128-ECB for 1s on 16384 size blocks: 626690 AES-128-ECB's in 1.00s
version: 3.0.19
built on: Fri Apr  3 12:29:32 2026 UTC
options: bn(64,64)
compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O2 -DNDEBUG
CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x405fc6f1bf07ab
The 'numbers' are in 1000s of bytes per second processed.
type          16384 bytes
AES-128-ECB   10267688.96k
"""

LIST_SAMPLE = """\
Legacy:
  AES-128-ECB
  SEED-ECB
Provided:
  { 2.16.840.1.101.3.4.1.1, AES-128-ECB } @ default
  { DES-EDE3, DES-EDE3-ECB } @ default
  { 1.2.410.200004.1.3, SEED-ECB } @ legacy
  CAST5-ECB @ legacy
"""

CPUINFO_SAMPLE = """\
processor\t: 0
model name\t: Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz
cpu MHz\t\t: 1800.000
physical id\t: 0
core id\t\t: 0

processor\t: 1
model name\t: Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz
cpu MHz\t\t: 2000.000
physical id\t: 0
core id\t\t: 0
"""


def test_parse_speed_sample() -> None:
    # 10267688.96 thousand bytes per second = 82141.5 Mbps.
    assert openssl.parse_speed(SPEED_SAMPLE, "aes-128-ecb") == pytest.approx(82141.51, rel=1e-6)
    with pytest.raises(ValueError):
        openssl.parse_speed(SPEED_SAMPLE, "seed-ecb")


def test_parse_provided_listing() -> None:
    provided = openssl.parse_provided(LIST_SAMPLE)
    assert provided["AES-128-ECB"] == "default"
    assert provided["DES-EDE3-ECB"] == "default"
    assert provided["SEED-ECB"] == "legacy" and provided["CAST5-ECB"] == "legacy"
    assert "SERPENT-ECB" not in provided


def test_host_from_cpuinfo_and_derived_cycles() -> None:
    host = read_host(CPUINFO_SAMPLE)
    assert host.cpu_model.startswith("Intel(R) Xeon(R)")
    assert host.nominal_mhz == pytest.approx(2100) and host.nominal_mhz_from == "model name"
    assert host.current_mhz == pytest.approx(1900)
    assert host.logical_cpus == 2 and host.physical_cores == 1
    # 800 Mbps = 100 MB/s at 2100 MHz: 21 cycles per byte.
    assert cycles_per_byte(800.0, 2100.0) == pytest.approx(21.0)


def test_unavailable_ciphers_are_reported_not_faked() -> None:
    figure = openssl.measure("serpent", 1, "openssl", {}, True)
    assert figure.mbps is None and "not in OpenSSL" in figure.note
    baseline = Baseline(read_host(CPUINFO_SAMPLE), 1.0, [figure], {"cryptopp": "g++ missing"})
    text = "\n".join(format_table(baseline))
    assert "n/a" in text and "note: cryptopp: g++ missing" in text


def test_openssl_speed_real_one_second() -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    figures, version = openssl.measure_all(["aes"], 1)
    assert version
    (figure,) = figures
    assert figure.algorithm == "AES-128-ECB" and figure.mbps is not None and figure.mbps > 1


def test_cryptopp_bench_aes() -> None:
    try:
        binary = cryptopp_source.build()
    except SourceUnavailable as why:
        pytest.skip(f"Crypto++ benchmark unavailable: {why}")
    figure = cryptopp_source.measure("aes", 0.2, binary)
    assert isinstance(figure, Figure) and figure.mbps is not None and figure.mbps > 1
    # It ran for the time asked (how long beyond that is the host's business, not a test's),
    # and the figure is the bytes it did over that time.
    assert figure.seconds >= 0.2 and figure.bytes_done > 0
    assert figure.mbps == pytest.approx(figure.bytes_done * 8 / figure.seconds / 1e6)
    assert cryptopp_source.measure("misty1", 0.2, binary).mbps is None


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cipherbench.cli", *args], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).parent)


def test_cli_unknown_cipher_is_one_line_exit_2() -> None:
    proc = cli("software", "--cipher", "unknown")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown cipher 'unknown'")
    assert proc.stdout == ""


def test_cli_one_cipher_json() -> None:
    import json

    proc = cli("software", "--cipher", "misty1", "--seconds", "0.1", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["host"]["cpu_model"]
    by_source = {f["source"]: f for f in doc["figures"]}
    assert by_source["model"]["mbps"] > 0
    assert by_source.get("openssl", {"mbps": None})["mbps"] is None   # OpenSSL has no MISTY1


def test_cli_missing_tools_are_one_note_each(tmp_path: Path) -> None:
    """No openssl and no g++ on PATH, nothing cached: two notes, the model still measured."""
    import os

    env = {**os.environ, "PATH": str(tmp_path), "CIPHERBENCH_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "cipherbench.cli", "software", "--cipher", "des",
                           "--seconds", "0.1"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    notes = [line for line in proc.stdout.splitlines() if line.startswith("note: ")]
    assert [n.split(":")[1].strip() for n in notes] == ["openssl", "cryptopp"]
    assert any(line.startswith("des       model") for line in proc.stdout.splitlines())
