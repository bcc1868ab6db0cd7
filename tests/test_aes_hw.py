"""The AES iterative cores, simulated from their generated Verilog: every AESAVS KAT and MMT vector
for every key size in both directions, random blocks with key changes against the model, and the
cycle counts of the NSA's RIJNDAEL iterative design (decryption key run-up stored once per key)."""

from __future__ import annotations

import json
import re

import pytest

from cipherbench.cache import ensure_design
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design
from cipherbench.ciphers.aes.vectors import aesavs_files

ROUNDS = {128: 10, 192: 12, 256: 14}
# Per key size: GFSbox + KeySbox + VarKey + VarTxt + MMT blocks, one direction (AESAVS).
AESAVS_BLOCKS = {128: 7 + 21 + 128 + 128 + 55, 192: 6 + 24 + 192 + 128 + 55,
                 256: 5 + 16 + 256 + 128 + 55}


def _manifest(design: str) -> dict:
    return json.loads((ensure_design(parse(design)) / "manifest.json").read_text())


@pytest.mark.parametrize("design", ["aes-128/iterative", "aes/iterative"])
def test_every_aesavs_vector_both_directions(design: str) -> None:
    spec = parse(design)
    if not all(aesavs_files(bits) for bits in spec.key_sizes):
        pytest.skip("no AESAVS files: install cryptography-vectors or set CIPHERBENCH_KAT")
    report = verify_design(spec, ensure_design(spec), random_blocks=2000)
    assert report.failed == 0
    counts = {s.name: s.passed for s in report.sets}
    for bits in spec.key_sizes:
        aesavs = sum(n for name, n in counts.items() if name.endswith(str(bits))
                     and name.startswith("ECB"))
        assert aesavs == 2 * AESAVS_BLOCKS[bits]
    # Appendix B and C.1 for 128-bit keys, C.2 for 192, C.3 for 256; both directions.
    assert counts["fips-197"] == {1: 4, 3: 8}[len(spec.key_sizes)]
    assert any(name.startswith("random") and n == 2000 for name, n in counts.items())


@pytest.mark.parametrize("design", ["aes-128/iterative", "aes/iterative"])
def test_cycle_counts_match_the_nsa_iterative_design(design: str) -> None:
    manifest = _manifest(design)
    for bits, counts in manifest["cycles_by_key_size"].items():
        rounds = ROUNDS[int(bits)]
        assert counts == {
            "latency": rounds, "latency_decrypt": rounds, "initiation_interval": rounds,
            "cycles_per_chained_block": rounds,
            "key_setup_encrypt": 0,          # encryption expands on the fly
            "key_setup_decrypt": rounds,     # one forward run-up, then stored
            "algorithm_setup": 0,
        }
    assert manifest["latency"] == 10 and manifest["key_setup_decrypt"] == 10


@pytest.mark.parametrize("design, expected", [
    ("aes-128/iterative:ops=encrypt", {"latency": 10, "latency_decrypt": None,
                                       "key_setup_decrypt": None}),
    ("aes-192/iterative:ops=decrypt", {"latency": None, "latency_decrypt": 12,
                                       "key_setup_decrypt": 12}),
    ("aes-256/iterative:sbox=gf-inv", {"latency": 14, "latency_decrypt": 14}),
    ("aes-128/iterative:sbox=composite", {"latency": 10, "key_setup_decrypt": 10}),
    # Round-key memory filled once per key: R+1 cycles of key setup, both directions.
    ("aes-192/iterative:keys=stored", {"latency": 12, "key_setup_encrypt": 13,
                                       "key_setup_decrypt": 13}),
])
def test_variants_verify_and_count(design: str, expected: dict) -> None:
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=500)
    assert report.failed == 0 and report.passed >= 500
    counts = json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]
    only = counts[str(spec.key_sizes[0])]
    for name, value in expected.items():
        assert only[name] == value


def test_manifest_has_the_stable_fields() -> None:
    manifest = _manifest("aes-128/iterative")
    for field in ("top", "clock", "ports", "parameters", "latency", "initiation_interval",
                  "cycles_per_chained_block", "key_setup_encrypt", "key_setup_decrypt"):
        assert field in manifest
    assert manifest["clock"] == "clk"
    widths = {p["name"]: p["width"] for p in manifest["ports"]}
    assert widths["key"] == 128 and widths["in_block"] == 128 and widths["key_len"] == 5
    assert manifest["io_count"] == sum(widths.values())
    assert manifest["parameters"]["sbox"] == "table"
    assert manifest["parameters"]["data_sboxes"] == 16
    assert manifest["parameters"]["key_schedule_sboxes"] == 4


# sbox=bram: the data S-boxes are synchronous-read memories whose read registers are the round's
# cut after SubBytes, so only pipelines with that cut take them. The inner-round pipelined basic
# architecture (one unit, one cut): two clocks a round, two blocks in flight.
@pytest.mark.parametrize("design, expected", [
    ("aes-128/pipelined:stages=1,inner=1,sbox=bram",
     {"latency": 20, "latency_decrypt": 20, "initiation_interval": 10, "key_setup_decrypt": 9}),
    ("aes-128/pipelined:stages=2,inner=2,ops=encrypt,sbox=bram",
     {"latency": 30, "latency_decrypt": None, "initiation_interval": 5}),
])
def test_block_ram_sboxes_verify_and_count(design: str, expected: dict) -> None:
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=400)
    assert report.failed == 0 and report.passed >= 400
    manifest = json.loads((folder / "manifest.json").read_text())
    only = manifest["cycles_by_key_size"]["128"]
    for name, value in expected.items():
        assert only[name] == value
    assert manifest["parameters"]["sbox"] == "bram"
    assert manifest["parameters"]["key_schedule_sbox"] == "table"
    # One 256 x 8 (one direction) or 512 x 8 (both, decrypt = top address bit) memory per lane:
    # the lanes are identical, so one module declares it (rtl_modules.py), instantiated per lane.
    depth = 512 if spec.param_dict["ops"] == "both" else 256
    verilog = (folder / manifest["verilog"][0]).read_text()
    modules = re.split(r"^module ", verilog, flags=re.M)[1:]
    with_rom = [m.split(None, 1)[0] for m in modules if f"reg [7:0] rom [{depth - 1}:0];" in m]
    assert len(with_rom) == 1
    instances = re.findall(rf"^\s*{re.escape(with_rom[0])}\s+\S+\s*\(", verilog, re.M)
    assert len(instances) == 16 * int(spec.param_dict["stages"])


@pytest.mark.parametrize("design", ["aes-128/iterative:sbox=bram", "aes-128/pipelined:sbox=bram",
                                    "aes-128/unrolled:k=2,sbox=bram"])
def test_block_ram_sboxes_without_a_registered_subbytes_are_refused(design: str) -> None:
    from cipherbench.errors import CipherbenchError

    with pytest.raises(CipherbenchError, match="sbox=bram registers the S-box output") as info:
        ensure_design(parse(design))
    assert "\n" not in str(info.value)
