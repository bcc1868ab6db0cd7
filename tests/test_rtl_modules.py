"""Identical Amaranth submodules written once (rtl_modules.py), and the design unchanged by it."""

from __future__ import annotations

from pathlib import Path

import pytest
from amaranth.hdl import Elaboratable, Module, Signal

from cipherbench.components.aes_sbox import AesSbox
from cipherbench.rtl import run_yosys_script, to_rtlil, to_verilog
from cipherbench.rtl_modules import share_identical_modules

CHILD = """attribute \\src "{src}"
module \\{name}
  attribute \\src "{src}:2"
  wire width 8 input {a_pos} \\a
  wire width 8 output {y_pos} \\y
  cell $xor $1
    parameter \\A_SIGNED 0
    parameter \\A_WIDTH 8
    parameter \\B_SIGNED 0
    parameter \\B_WIDTH 8
    parameter \\Y_WIDTH 8
    connect \\A \\a
    connect \\B 8'{const}
    connect \\Y \\y
  end
end
"""

TOP = """attribute \\top 1
module \\top
  wire width 8 input 0 \\a
  wire width 8 output 1 \\y
  wire width 8 \\m1
  wire width 8 \\m2
  cell \\top.u1 \\u1
    connect \\a \\a
    connect \\y \\m1
  end
  cell \\top.u2 \\u2
    connect \\a \\m1
    connect \\y \\m2
  end
  cell \\top.u3 \\u3
    connect \\a \\m2
    connect \\y \\y
  end
end
"""


def _design(third_const: str = "00011011") -> str:
    return "".join([
        CHILD.format(name="top.u1", src="a.py:1", a_pos=0, y_pos=1, const="00011011"),
        # Another source line and the ports in another order: still the same module.
        CHILD.format(name="top.u2", src="a.py:9", a_pos=1, y_pos=0, const="00011011"),
        CHILD.format(name="top.u3", src="a.py:1", a_pos=0, y_pos=1, const=third_const),
        TOP,
    ])


def test_identical_modules_are_written_once() -> None:
    shared = share_identical_modules(_design())
    assert shared.modules == 4 and shared.distinct == 2
    assert shared.kinds == {"\\top.u1": "\\top.u1", "\\top.u2": "\\top.u1",
                            "\\top.u3": "\\top.u1", "\\top": "\\top"}
    assert "module \\top.u2" not in shared.rtlil and "module \\top.u3" not in shared.rtlil
    # Every instance keeps its name and now uses the one module.
    for instance in ("u1", "u2", "u3"):
        assert f"cell \\top.u1 \\{instance}\n" in shared.rtlil
    assert shared.rtlil.count("attribute \\top 1") == 1


def test_a_different_constant_keeps_modules_apart() -> None:
    shared = share_identical_modules(_design(third_const="00011101"))
    assert shared.distinct == 3
    assert shared.kinds["\\top.u3"] == "\\top.u3"
    assert "cell \\top.u3 \\u3" in shared.rtlil


def test_shared_parents_are_found_after_their_children() -> None:
    """Two parents that differ only in which of the (identical) children they name are shared."""
    design = _design().replace("attribute \\top 1\n", "")
    other = (TOP.replace("attribute \\top 1\n", "").replace("module \\top", "module \\other")
             .replace("cell \\top.u1", "cell \\top.u3").replace("cell \\top.u2", "cell \\top.u1"))
    shared = share_identical_modules(design + other)
    assert shared.kinds["\\other"] == "\\top"
    assert shared.distinct == 2


def test_malformed_rtlil_is_refused() -> None:
    with pytest.raises(ValueError, match="ends inside a module"):
        share_identical_modules("module \\a\n  wire \\x\n")
    with pytest.raises(ValueError, match="defines module"):
        share_identical_modules("module \\a\nend\nmodule \\a\nend\n")


class _ThreeSboxes(Elaboratable):
    """Three S-boxes in a chain, one of them decrypt-only: two kinds of module."""

    def __init__(self) -> None:
        self.i = Signal(8)
        self.o = Signal(8)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        boxes = [AesSbox("table", "encrypt"), AesSbox("table", "encrypt"),
                 AesSbox("table", "decrypt")]
        source = self.i
        for n, box in enumerate(boxes):
            m.submodules[f"s{n}"] = box
            m.d.comb += box.i.eq(source)
            source = box.o
        m.d.comb += self.o.eq(source)
        return m


def test_the_written_design_is_the_same_circuit(tmp_path: Path) -> None:
    """The Verilog with shared modules, flattened, is proven equal to Amaranth's own output."""
    core = _ThreeSboxes()
    verilog = to_verilog(core, [core.i, core.o], "three", tmp_path)
    text = verilog.read_text()
    assert text.count("\nmodule ") + text.startswith("module ") == 3  # top + two S-box kinds
    original = tmp_path / "original.il"
    core = _ThreeSboxes()
    original.write_text(to_rtlil(core, [core.i, core.o], "three"))
    script = "\n".join([
        f"read_rtlil {original}", "hierarchy -top three", "proc", "flatten", "opt_clean",
        "rename three gold", "design -stash gold",
        f"read_verilog {verilog}", "hierarchy -top three", "proc", "flatten", "opt_clean",
        "rename three gate", "design -stash gate",
        "design -copy-from gold -as gold gold", "design -copy-from gate -as gate gate",
        "memory_map", "opt -fast",
        # Eight inputs, no state: SAT proves the two outputs equal for all of them at once.
        "miter -equiv -flatten -make_assert gold gate miter", "hierarchy -top miter",
        "sat -verify -prove-asserts -set-init-zero miter",
    ])
    log = run_yosys_script(script, tmp_path / "equiv.log")
    assert "SAT proof finished - no model found: SUCCESS!" in log


NUMBERED_CHILD = """module \\top.{name}
  wire width 8 input 0  \\port${net}$0
  wire width 8 output 1  \\y
  connect \\y \\port${net}$0
end
"""
NUMBERED_TOP = """attribute \\top 1
module \\top
  wire width 8 input 0 \\a
  wire width 8 output 1 \\y
  wire width 8 \\m
  cell \\top.u1 \\u1
    connect \\port$315437$0 \\a
    connect \\y \\m
  end
  cell \\top.u2 \\u2
    connect \\port$384269$0 \\m
    connect \\y \\y
  end
end
"""


def test_ports_named_after_global_nets_are_renamed() -> None:
    """Amaranth names a port after its net's number in the whole design, so two identical rounds
    differ in their port names: they are renamed in order, and the parent's connections with
    them, so the rounds are shared."""
    text = (NUMBERED_CHILD.format(name="u1", net=315437) + NUMBERED_CHILD.format(name="u2", net=384269)
            + NUMBERED_TOP)
    shared = share_identical_modules(text)
    assert shared.distinct == 2 and shared.kinds["\\top.u2"] == "\\top.u1"
    assert "\\port$p0" in shared.rtlil and "315437" not in shared.rtlil and "384269" not in shared.rtlil
    assert shared.rtlil.count("connect \\port$p0 ") == 2  # one per instance
    # The top's ports are the design's interface: never renamed.
    assert "wire width 8 input 0 \\a" in shared.rtlil
