"""Interface families (families/): the block family is the contract the code had before it was
named: the same ports, the same testbench, the same manifest fields, the same derived figures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cipherbench import metrics
from cipherbench.ciphers.base import CipherModel
from cipherbench.ciphers.registry import ciphers
from cipherbench.errors import CipherbenchError
from cipherbench.families import InterfaceFamily
from cipherbench.families.registry import FAMILIES, family
from cipherbench.families.block import BLOCK
from cipherbench.interface import CoreShape, CoreSignature
from cipherbench.spec import DesignSpec, parse
from cipherbench.verify import measure

sys.path.insert(0, str(Path(__file__).parent))
from toycore import ITERATIVE_CYCLES, ToyIterative, ToyModel, write_design  # noqa: E402

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "cipherbench"


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_answers_the_protocol_and_documents_its_figures(name: str) -> None:
    fam = family(name)
    assert isinstance(fam, InterfaceFamily) and fam.name == name
    assert (PACKAGE / fam.testbench).is_file()
    assert fam.testbench_source() == (PACKAGE / fam.testbench).read_text()
    names = [figure.name for figure in fam.figures]
    assert names[:len(fam.manifest_fields)] == list(fam.manifest_fields)
    assert len(set(names)) == len(names)
    assert all(figure.unit and figure.meaning for figure in fam.figures)


def test_an_object_missing_a_member_is_not_a_family() -> None:
    class NoMetrics:
        name, title, testbench = "broken", "", "verify/tb/tb.cpp"

    assert not isinstance(NoMetrics(), InterfaceFamily)


def test_an_unknown_family_is_refused_in_one_line_naming_the_valid_ones() -> None:
    assert family("block") is BLOCK
    with pytest.raises(CipherbenchError) as refused:
        family("stream")
    assert str(refused.value) == ("unknown interface family 'stream': the families are block, "
                                  "message")


def _ports(shape: CoreShape, round_keys: tuple[int, int] | None = None) -> list[dict[str, object]]:
    return CoreSignature(shape, round_keys=round_keys).create().ports()


@pytest.mark.parametrize("shape,round_keys", [
    (CoreShape(128, (128, 192, 256)), None),   # AES, 3-in-1
    (CoreShape(64, (80, 128)), None),          # PRESENT
    (CoreShape(32, (24, 40)), None),           # odd widths
    (CoreShape(128, (128,)), (5, 128)),        # keys=loaded: the round-key write port
])
def test_the_block_signature_has_the_ports_of_core_signature(
        shape: CoreShape, round_keys: tuple[int, int] | None) -> None:
    signature = BLOCK.signature(shape, round_keys)
    assert isinstance(signature, CoreSignature)
    assert signature.create().ports() == _ports(shape, round_keys)
    if round_keys is None:
        assert signature.create().ports() == shape.ports()


def test_the_block_model_is_cipher_model_and_measure_reports_the_manifest_fields() -> None:
    assert BLOCK.model_protocol is CipherModel
    assert measure.FIGURES == BLOCK.manifest_fields


def test_the_simulator_is_built_for_the_block_ports(tmp_path: Path) -> None:
    sim = BLOCK.simulator(write_design(ToyIterative(), tmp_path))
    ports = BLOCK.signature(CoreShape(64, (64, 128))).create().ports()
    assert sim.widths == {p["name"]: p["width"] for p in ports}


def test_measured_cycles_are_the_toy_cores_known_counts(tmp_path: Path) -> None:
    design = write_design(ToyIterative(), tmp_path / "design")
    spec = DesignSpec("toy", (64, 128), False, "iterative", ())
    measured = BLOCK.measure_cycles(design, spec, ToyModel(), build_root=tmp_path / "vl")
    assert measured == {str(bits): counts for bits, counts in ITERATIVE_CYCLES.items()}


@pytest.fixture(scope="module")
def present(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A small real design, generated and measured the way every design is."""
    from cipherbench.generate import generate

    folder = tmp_path_factory.mktemp("families") / "present"
    return folder, generate("present-80/iterative", folder)


def test_a_real_manifest_carries_the_block_manifest_fields(present: tuple[Path, dict]) -> None:
    folder, manifest = present
    measured = BLOCK.measured(manifest)
    assert list(measured) == ["80"]
    assert list(measured["80"]) == list(BLOCK.manifest_fields)
    # The smallest key size's counts at the top level, then every key size's, at the end.
    entries = BLOCK.manifest_entries(measured)
    assert list(manifest)[-len(entries):] == list(entries)
    assert {name: manifest[name] for name in entries} == entries
    # Measuring again through the family gives what generation wrote.
    spec = parse("present-80/iterative")
    model = ciphers()[spec.cipher].model()
    assert BLOCK.measure_cycles(folder, spec, model) == measured


def test_a_manifest_without_cycle_counts_is_refused_in_one_line() -> None:
    with pytest.raises(CipherbenchError, match=r"^manifest of aes-128/iterative has no measured "
                                               r"cycle counts \(cycles_by_key_size\)"):
        BLOCK.measured({"design": "aes-128/iterative"})


COUNTS = {"latency": 10, "latency_decrypt": 10, "initiation_interval": 10,
          "cycles_per_chained_block": 10, "key_setup_encrypt": 0, "key_setup_decrypt": 10,
          "algorithm_setup": 0}
FLOW = {"gate_equivalents": 24_100, "luts": 2000, "power_mw": 5.0, "power_clock_mhz": 100.0}


def test_block_metrics_are_the_hand_computed_figures() -> None:
    # 128 bits x 280 MHz / 10 cycles = 3584 Mbps; / 24,100 GE = 148.71 Kbps/GE; / 2000 LUTs =
    # 1.792 Mbps/LUT; 10 cycles at 280 MHz = 35.714 ns; 5 mW at 100 MHz over 1280 Mbps = 3.906
    # pJ/bit. A 256-bit key at 14 cycles: 2560 Mbps.
    by_key = BLOCK.metrics({"block_bits": 128}, {256: {**COUNTS, "initiation_interval": 14},
                                                 "128": COUNTS}, 280.0, FLOW)
    assert list(by_key) == ["128", "256"]
    k128 = by_key["128"]
    assert list(k128) == [f.name for f in BLOCK.figures if f.name not in BLOCK.manifest_fields]
    assert k128["throughput_mbps"] == pytest.approx(3584.0)
    assert k128["kbps_per_ge"] == pytest.approx(148.71, abs=0.005)
    assert k128["mbps_per_lut"] == pytest.approx(1.792)
    assert k128["time_to_encrypt_ns"] == pytest.approx(35.714, abs=5e-4)
    assert k128["energy_per_bit_pj"] == pytest.approx(3.906, abs=5e-4)
    assert by_key["256"]["throughput_mbps"] == pytest.approx(2560.0)


def test_derive_and_per_key_size_give_the_block_metrics() -> None:
    cycles = {"128": COUNTS, "256": {**COUNTS, "latency_decrypt": None}}
    by_key = BLOCK.metrics({"block_bits": 128}, cycles, 280.0, FLOW)
    derived = metrics.derive({"block_bits": 128, "cycles": cycles, "fmax_mhz": 280.0, **FLOW})
    assert derived["by_key_size"] == by_key
    assert metrics.per_key_size(128, COUNTS, 280.0, FLOW, "128") == by_key["128"]
    assert by_key["256"]["time_to_decrypt_ns"] is None  # not measured: never assumed


def test_a_bad_count_is_refused_naming_its_key_size() -> None:
    with pytest.raises(CipherbenchError, match=r"initiation_interval \(key 192\) must be a finite "
                                               r"positive number, got 0"):
        BLOCK.metrics({"block_bits": 128}, {"192": {**COUNTS, "initiation_interval": 0}},
                      280.0, FLOW)
