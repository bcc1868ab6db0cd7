"""A designer's own core (docs/your-core.md): the description's checks, the harness of each
protocol, verification that catches a wrong description, and bad input.

The streams tests use a shim written here around a generated PRESENT core (both key sizes) that
changes everything the description can say: a byte-reversed key, a bit-mirrored block, a
key-length code of its own, an active-low reset and a test input to tie. The examples/ cores
cover the command and fixed-latency protocols (test_examples.py)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cipherbench.cache import ensure_design
from cipherbench.cli import main
from cipherbench.errors import CipherbenchError, ToolFailed
from cipherbench.external.description import load_description
from cipherbench.external.spec import external_spec
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

SHIM = """\
module present_shim(
  input clock, input reset_n, input test_mode,
  input [127:0] k, input [1:0] ksel, input kv, output kr,
  input [63:0] d, input dec, input dv, output dr,
  output [63:0] q, output qv, input qr, output key_led);
  assign key_led = kr;
  wire [127:0] k_std;
  wire [63:0] d_std, q_std;
  genvar i;
  generate for (i = 0; i < 16; i = i + 1) begin : kb
    assign k_std[8*i+7:8*i] = k[8*(15-i)+7:8*(15-i)];
  end endgenerate
  generate for (i = 0; i < 64; i = i + 1) begin : db
    assign d_std[i] = d[63-i];
    assign q[i] = q_std[63-i];
  end endgenerate
  wire [4:0] klen = ksel == 2'd2 ? 5'd16 : 5'd10;
  cb_present_iterative core(.clk(clock), .rst(~reset_n | test_mode), .key(k_std), .key_len(klen),
    .key_valid(kv), .key_ready(kr), .in_block(d_std), .in_decrypt(dec), .in_valid(dv),
    .in_ready(dr), .out_block(q_std), .out_valid(qv), .out_ready(qr));
endmodule
"""

DESCRIPTION = """\
name = "present-shim"
cipher = "present"
key_sizes = [80, 128]
files = ["present_shim.v", "cb_present_iterative.v"]
top = "present_shim"
protocol = "streams"
clock = "clock"
reset = "reset_n"
reset_active = "low"
key_order = "bytes-reversed"
block_order = "bits-reversed"
tie = { test_mode = 0 }

[key_length]
port = "ksel"
values = { 80 = 1, 128 = 2 }

[ports]
key = "k"
key_valid = "kv"
key_ready = "kr"
block_in = "d"
decrypt = "dec"
in_valid = "dv"
in_ready = "dr"
block_out = "q"
out_valid = "qv"
out_ready = "qr"
"""


@pytest.fixture(scope="module")
def present_rtl() -> Path:
    """The generated PRESENT core (both key sizes) the shim wraps."""
    folder = ensure_design(parse("present/iterative"))
    return folder / "cb_present_iterative.v"


def _core(folder: Path, rtl: Path, text: str = DESCRIPTION, **changes: str) -> Path:
    """The shim, the generated core and a description (with lines changed) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "present_shim.v").write_text(SHIM)
    shutil.copyfile(rtl, folder / rtl.name)
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new)
    path = folder / "core.toml"
    path.write_text(text)
    return path


def test_streams_core_with_every_option_verifies_and_takes_the_generated_cycles(
        tmp_path: Path, present_rtl: Path) -> None:
    spec = external_spec(_core(tmp_path / "core", present_rtl))
    assert str(spec) == "present/external:present-shim"
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=300, mct_outer=0)
    assert report.failed == 0, report.first_failures()
    counts = {s.name: s.passed for s in report.sets}
    assert counts["present-spec"] == 10 and counts["random-vs-model (300)"] == 300
    # The harness adds no clock: the cycles are the wrapped generated core's.
    ours = json.loads((ensure_design(parse("present/iterative")) / "manifest.json").read_text())
    theirs = json.loads((folder / "manifest.json").read_text())
    assert theirs["cycles_by_key_size"] == ours["cycles_by_key_size"]
    assert theirs["top"] == "present_shim" and theirs["architecture"] == "external"
    assert theirs["simulation"]["top"] == "cb_external_present_shim_harness"


@pytest.mark.parametrize("change", [
    {'key_order = "bytes-reversed"\n': ""},        # the key's bytes in the wrong order
    pytest.param({'block_order = "bits-reversed"\n': 'block_order = "bytes-reversed"\n'},
                 marks=pytest.mark.slow),
    pytest.param({"values = { 80 = 1, 128 = 2 }": "values = { 80 = 2, 128 = 1 }"},  # swapped
                 marks=pytest.mark.slow),
])
def test_a_wrong_description_fails_with_its_first_case(tmp_path: Path, present_rtl: Path,
                                                       change: dict[str, str]) -> None:
    """Verified before its cycles are measured: the error gives the first failing case of each
    failing set in full."""
    spec = external_spec(_core(tmp_path / "core", present_rtl, **change))
    with pytest.raises(CipherbenchError, match="fails verification") as caught:
        ensure_design(spec)
    message = str(caught.value)
    for part in ("key=", "in=", "expected ", "got ", "out at cycle ", "cipherbench verify ",
                 "core.toml"):
        assert part in message, message
    assert "\n" not in message


def test_a_core_that_never_answers_names_the_flag_it_waited_for(tmp_path: Path,
                                                                present_rtl: Path) -> None:
    """Tied into reset, the core takes the key (its key_ready is high in reset) but never raises
    its input-ready flag ``dr``."""
    spec = external_spec(_core(tmp_path / "core", present_rtl,
                               **{"tie = { test_mode = 0 }": "tie = { test_mode = 1 }"}))
    with pytest.raises(ToolFailed, match=r"hung at cycle .*in_ready stayed low.*the core's in_ready \('dr'\) never rose"):
        ensure_design(spec)


@pytest.mark.parametrize("change, message", [
    ({'block_in = "d"': 'block_in = "data"'}, "block_in port 'data' is not a port of present_shim"),
    ({'block_in = "d"': 'block_in = "k"', 'key = "k"': 'key = "d"'},
     "block_in port 'k' is 128 bits wide; present blocks are 64 bits"),
    ({'decrypt = "dec"': 'decrypt = "key_led"'},
     "decrypt port 'key_led' is an output of present_shim"),
    ({"tie = { test_mode = 0 }\n": ""}, "input 'test_mode' of present_shim is not described"),
    ({'top = "present_shim"': 'top = "present_shimmy"'}, "top module 'present_shimmy' not found"),
    ({"tie = { test_mode = 0 }": "tie = { test_mode = 2 }"}, "does not fit its 1 bits"),
])
def test_ports_that_do_not_match_the_hdl_are_one_line_errors(
        tmp_path: Path, present_rtl: Path, change: dict[str, str], message: str) -> None:
    spec = external_spec(_core(tmp_path / "core", present_rtl, **change))
    with pytest.raises(CipherbenchError) as caught:
        ensure_design(spec)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_hdl_that_does_not_parse_is_a_one_line_error(tmp_path: Path, present_rtl: Path) -> None:
    path = _core(tmp_path / "core", present_rtl)
    (path.parent / "present_shim.v").write_text(SHIM.replace("endmodule", "endmodul"))
    with pytest.raises(CipherbenchError, match="the core's HDL does not parse"):
        ensure_design(external_spec(path))


@pytest.mark.parametrize("change, message", [
    ({'cipher = "present"': 'cipher = "presant"'}, "unknown cipher 'presant'"),
    ({"key_sizes = [80, 128]": "key_sizes = [80, 96]"}, "present has no 96-bit key"),
    ({'protocol = "streams"': 'protocol = "axi"'}, "'protocol' is 'axi'; valid: streams"),
    ({'out_ready = "qr"\n': ""}, "[ports] lacks out_ready"),
    ({'key = "k"': 'key = "k"\nstart = "go"'}, "[ports] has start, not a role of the streams"),
    ({'files = ["present_shim.v", ': 'files = ["nothere.v", '}, "HDL file 'nothere.v' not found"),
    ({'name = "present-shim"': 'name = "present shim"'}, "'name' 'present shim' must be"),
    ({"[key_length]\nport = \"ksel\"\nvalues = { 80 = 1, 128 = 2 }\n": ""},
     "needs a [key_length] table"),
    ({"values = { 80 = 1, 128 = 2 }": "values = { 80 = 1, 128 = 1 }"}, "its own non-negative code"),
    ({'decrypt = "dec"\n': ""}, "ops = \"both\" needs a decrypt (or encrypt) select"),
    ({'key_valid = "kv"': 'key_valid = "dv"'}, "port 'dv' is named for two roles"),
    ({'clock = "clock"': 'clock = "clock"\nspeed = 3'}, "unknown key(s) speed"),
    ({'reset_active = "low"': 'reset_active = "negative"'}, "'reset_active' is 'negative'"),
])
def test_a_bad_description_is_a_one_line_error(tmp_path: Path, change: dict[str, str],
                                               message: str) -> None:
    folder = tmp_path / "core"
    folder.mkdir()
    (folder / "present_shim.v").write_text(SHIM)
    (folder / "cb_present_iterative.v").write_text("module cb_present_iterative(); endmodule\n")
    text = DESCRIPTION
    for old, new in change.items():
        assert old in text, old
        text = text.replace(old, new)
    (folder / "core.toml").write_text(text)
    with pytest.raises(CipherbenchError) as caught:
        load_description(folder / "core.toml")
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_cli_refuses_a_bad_core_and_stores_nothing(tmp_path: Path, present_rtl: Path) -> None:
    path = _core(tmp_path / "core", present_rtl, **{'block_in = "d"': 'block_in = "data"'})
    db = tmp_path / "results.sqlite"
    for args in (["run", "--design", str(path), "--target", "generic", "--db", str(db)],
                 ["measure", str(path), "--target", "generic", "--db", str(db)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0
        assert "block_in port 'data' is not a port of present_shim" in result.output
        assert not db.exists()


def test_a_core_that_fails_verification_stores_nothing(tmp_path: Path, present_rtl: Path) -> None:
    path = _core(tmp_path / "core", present_rtl, **{'key_order = "bytes-reversed"\n': ""})
    db = tmp_path / "results.sqlite"
    result = CliRunner().invoke(main, ["measure", str(path), "--target", "generic", "--db",
                                       str(db)])
    assert result.exit_code != 0
    assert "fails verification" in result.output and "expected" in result.output
    assert not db.exists()


def test_measure_ranks_the_core_among_the_generated_ones(tmp_path: Path,
                                                         present_rtl: Path) -> None:
    """`cipherbench measure` on the generic target: the core and, with no generated PRESENT core
    in the store, the generated present/iterative it wraps. The shim adds wiring only, so the
    two count the same transistors and the core ranks level with it; the report has the section."""
    from cipherbench.report import write_report
    from cipherbench.store import Store

    path = _core(tmp_path / "core", present_rtl)
    db = tmp_path / "results.sqlite"
    result = CliRunner().invoke(main, ["measure", str(path), "--target", "generic", "--db",
                                       str(db), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    rows = {r.design: r for r in Store(db).results() if r.ok}
    assert set(rows) == {"present/external:present-shim", "present/iterative"}
    core, ours = rows["present/external:present-shim"], rows["present/iterative"]
    # The same core inside; the shim's own logic (the key-length decoder, the inverted reset)
    # and what synthesis makes of it move the count by about 1 %.
    assert ours.measurements["transistors"] > 20_000
    assert abs(core.measurements["transistors"] / ours.measurements["transistors"] - 1) < 0.03
    # Content-addressed: a folder made from identical files elsewhere names that path.
    hashes = core.provenance["external"]["sha256"].values()
    assert hashlib.sha256(path.read_bytes()).hexdigest() in hashes
    assert core.provenance["verification"]["failed"] == 0
    lines = result.output.splitlines()
    area = next(line for line in lines if " area " in line)
    smaller = core.measurements["transistors"] < ours.measurements["transistors"]
    assert f"{1 if smaller else 2} of 2" in area, result.output
    ratio = core.measurements["transistors"] / ours.measurements["transistors"]
    assert f"present/iterative: {ours.measurements['transistors']:,} transistors ({ratio:.2f}x)" \
        in area, result.output
    write_report(Store(db), tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    assert "## Designers' own cores" in text and "present/external:present-shim" in text
    # The explorer marks it too: its architecture column says external.
    from cipherbench.report.html import explorer_rows

    arch = {row["design"]: row["arch"] for row in explorer_rows(Store(db).results())}
    assert arch == {"present/external:present-shim": "external:present-shim",
                    "present/iterative": "iterative"}


# --- the options the shim above does not exercise, on the examples' cores ------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# The command example behind level-style commands, a busy flag for the key (inverted ready) and
# an encrypt select: the shim turns each level's rising edge into the core's pulse and starts
# only encryptions, so a wrong style or select polarity hangs or fails.
AES_LEVEL_SHIM = """\
module aes_level_shim(input clk, input rst_n, input [127:0] key, input [127:0] din,
  input kgo, output kbusy, input go, input enc, output fin, output [127:0] dout);
  reg kgo_q, go_q;
  wire kready;
  always @(posedge clk) begin kgo_q <= kgo; go_q <= go; end
  assign kbusy = ~kready;
  aes128_command core(.clk(clk), .rst_n(rst_n), .key(key), .din(din),
    .key_load(kgo & ~kgo_q), .key_ready(kready), .start(go & ~go_q & enc), .busy(),
    .done(fin), .dout(dout));
endmodule
"""

AES_LEVEL = """\
name = "aes-level"
cipher = "aes"
key_sizes = [128]
ops = "encrypt"
files = ["aes_level_shim.v", "aes128_command.v"]
top = "aes_level_shim"
protocol = "command"
reset = "rst_n"
reset_active = "low"

[ports]
key = "key"
block_in = "din"
block_out = "dout"
key_load = "kgo"
key_busy = "kbusy"
start = "go"
encrypt = "enc"
done = "fin"

[command]
key_load = "level"
start = "level"
"""

# The pipelined DES example behind a key register: the key reaches the rounds a clock late, so
# the core is not key-agile and needs a clock after each new key.
DES_LATE_KEY_SHIM = """\
module des_late_key(input clk, input [63:0] key, input [63:0] din, input decrypt,
  output [63:0] dout);
  reg [63:0] key_q;
  always @(posedge clk) key_q <= key;
  des_pipelined core(.clk(clk), .reset(1'b0), .vin(1'b1), .key(key_q), .din(din),
    .decrypt(decrypt), .dout(dout), .vout());
endmodule
"""

DES_LATE_KEY = """\
name = "des-late-key"
cipher = "des"
files = ["des_late_key.v", "des_pipelined.v"]
top = "des_late_key"
protocol = "fixed-latency"

[ports]
key = "key"
block_in = "din"
block_out = "dout"
decrypt = "decrypt"

[fixed_latency]
latency = 17
key_agile = false
key_setup = 1
"""

# The generated PRESENT core with an 80-bit key in the low bits of its 128-bit port.
PRESENT_LSB_SHIM = """\
module present_lsb(input clk, input rst, input [127:0] k, input [1:0] ksel, input kv, output kr,
  input [63:0] d, input dec, input dv, output dr, output [63:0] q, output qv, input qr);
  wire [127:0] k_std = ksel == 2'd2 ? k : {k[79:0], 48'd0};
  cb_present_iterative core(.clk(clk), .rst(rst), .key(k_std), .key_len(ksel == 2'd2 ? 5'd16 : 5'd10),
    .key_valid(kv), .key_ready(kr), .in_block(d), .in_decrypt(dec), .in_valid(dv),
    .in_ready(dr), .out_block(q), .out_valid(qv), .out_ready(qr));
endmodule
"""


def _example_core(folder: Path, shim_name: str, shim: str, description: str,
                  inner: Path, **changes: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / shim_name).write_text(shim)
    shutil.copyfile(inner, folder / inner.name)
    for old, new in changes.items():
        assert old in description, old
        description = description.replace(old, new)
    (folder / "core.toml").write_text(description)
    return folder / "core.toml"


def _quick_verify(path: Path) -> None:
    spec = external_spec(path)
    report = verify_design(spec, ensure_design(spec), random_blocks=200, oracle_blocks=50,
                           mct_outer=0)
    assert report.failed == 0, report.first_failures()


@pytest.mark.slow  # the command protocol is in the default suite through examples/
def test_level_commands_a_key_busy_flag_and_an_encrypt_select(tmp_path: Path) -> None:
    inner = EXAMPLES / "aes128-command" / "aes128_command.v"
    _quick_verify(_example_core(tmp_path / "ok", "aes_level_shim.v", AES_LEVEL_SHIM, AES_LEVEL,
                                inner))
    # An encrypt select said to be a decrypt select starts nothing: the hang names done.
    wrong = _example_core(tmp_path / "wrong", "aes_level_shim.v", AES_LEVEL_SHIM, AES_LEVEL,
                          inner, **{'encrypt = "enc"': 'decrypt = "enc"'})
    with pytest.raises(ToolFailed, match=r"the core's done \('fin'\) never rose after start"):
        ensure_design(external_spec(wrong))


@pytest.mark.slow  # two DES cores verified in full: 75 s of CPU on a loaded machine
def test_a_core_that_is_not_key_agile_waits_for_its_key(tmp_path: Path) -> None:
    inner = EXAMPLES / "des-pipelined" / "des_pipelined.v"
    _quick_verify(_example_core(tmp_path / "ok", "des_late_key.v", DES_LATE_KEY_SHIM,
                                DES_LATE_KEY, inner))
    # Called key-agile, a block right behind a new key meets the old one in the rounds.
    wrong = _example_core(tmp_path / "agile", "des_late_key.v", DES_LATE_KEY_SHIM, DES_LATE_KEY,
                          inner, **{"key_agile = false\nkey_setup = 1\n": ""})
    with pytest.raises(CipherbenchError, match="fails verification"):
        ensure_design(external_spec(wrong))


@pytest.mark.slow  # a third shim around the PRESENT core, verified in full
def test_a_short_key_in_the_low_bits_of_the_key_port(tmp_path: Path, present_rtl: Path) -> None:
    description = (DESCRIPTION.replace('"present_shim.v"', '"present_lsb.v"')
                   .replace('top = "present_shim"', 'top = "present_lsb"')
                   .replace('clock = "clock"\nreset = "reset_n"\nreset_active = "low"\n'
                            'key_order = "bytes-reversed"\nblock_order = "bits-reversed"\n'
                            'tie = { test_mode = 0 }\n', 'reset = "rst"\nkey_align = "lsb"\n'))
    _quick_verify(_example_core(tmp_path / "lsb", "present_lsb.v", PRESENT_LSB_SHIM, description,
                                present_rtl))
    msb = _example_core(tmp_path / "msb", "present_lsb.v", PRESENT_LSB_SHIM, description,
                        present_rtl, **{'key_align = "lsb"\n': ""})
    with pytest.raises(CipherbenchError, match="fails verification"):
        ensure_design(external_spec(msb))


def test_reset_polarity_said_wrong_holds_the_core_in_reset(tmp_path: Path,
                                                           present_rtl: Path) -> None:
    path = _core(tmp_path / "core", present_rtl, **{'reset_active = "low"': 'reset_active = "high"'})
    with pytest.raises(ToolFailed, match=r"hung at cycle .*never rose"):
        ensure_design(external_spec(path))
