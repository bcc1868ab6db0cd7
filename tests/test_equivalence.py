"""Formal equivalence of component alternatives (verify/equivalence.py): every pair proven, and
deliberately wrong variants refused with a counterexample."""

from __future__ import annotations

import pytest
from amaranth.hdl import Elaboratable, Module, Signal

from cipherbench.components.aes_sbox import sbox_table, table_lookup
from cipherbench.components.mds import TWOFISH_MDS, TWOFISH_POLY, GfMatrixMul
from cipherbench.errors import CipherbenchError
from cipherbench.verify import equivalence as eq

PAIRS = eq.pairs()


@pytest.mark.parametrize("pair", PAIRS, ids=[p.title for p in PAIRS])
def test_alternative_equals_reference(pair: eq.Pair) -> None:
    result = eq.prove(pair)
    assert result.proven, result.describe()


def test_every_component_with_alternatives_is_covered() -> None:
    assert {p.component for p in PAIRS} >= {
        "aes-sbox", "aes-inv-sbox", "aes-sbox-both", "adder32", "addsub32", "pht32",
        f"mul{eq.MULTIPLIER_WIDTH}", f"rc6-f{eq.MULTIPLIER_WIDTH}", "rot32-var",
        "aes-mixcolumns", "aes-invmixcolumns", "twofish-mds"}


class _FlippedSbox(Elaboratable):
    """The AES S-box table with one output bit of one entry flipped."""

    def __init__(self, address: int, bit: int = 0) -> None:
        table = list(sbox_table())
        table[address] ^= 1 << bit
        self.table = tuple(table)
        self.i = Signal(8)
        self.o = Signal(8)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        table_lookup(m, self.i, self.table, self.o)
        return m


@pytest.mark.parametrize("address", [0x00, 0x53, 0xFF])
def test_a_flipped_sbox_entry_is_refused_with_its_address(address: int) -> None:
    from cipherbench.components.aes_sbox import AesSbox

    pair = eq.Pair("aes-sbox", "flipped = composite", lambda: AesSbox("composite", "encrypt"),
                   lambda: _FlippedSbox(address, bit=address % 8), ("i",), ("o",))
    result = eq.prove(pair)
    assert not result.proven
    assert result.counterexample == {"i": address}  # the only input where they differ
    assert f"i={address:#x}" in result.describe()


def test_a_wrong_mds_constant_is_refused_by_the_abc_engine() -> None:
    bad = [list(row) for row in TWOFISH_MDS]
    bad[2][1] ^= 0x01
    pair = eq.Pair("twofish-mds", "wrong", lambda: eq.BehavioralMatrixMul(TWOFISH_MDS, TWOFISH_POLY,
                                                                          "little"),
                   lambda: GfMatrixMul(bad, TWOFISH_POLY, "little"), ("i",), ("o",), engine="abc")
    result = eq.prove(pair)
    assert not result.proven and "i" in result.counterexample
    # The counterexample really separates them: byte 1 of the input feeds the changed entry.
    x = result.counterexample["i"]
    assert (x >> 8) & 0xFF != 0


def test_a_wrong_adder_is_refused() -> None:
    from cipherbench.components.adders import Adder
    from cipherbench.components.multipliers import Multiplier

    pair = eq.Pair("adder", "multiplier is not an adder", lambda: Adder(8, "behavioral"),
                   lambda: Multiplier(8, "behavioral"), ("a", "b"), ("o",))
    result = eq.prove(pair)
    assert not result.proven
    a, b = result.counterexample["a"], result.counterexample["b"]
    assert (a + b) % 256 != (a * b) % 256


def test_select_names_components() -> None:
    assert {p.component for p in eq.select(["adder32"])} == {"adder32"}
    with pytest.raises(CipherbenchError, match="valid: "):
        eq.select(["no-such-component"])


def test_cli_prove_prints_one_line_per_pair() -> None:
    from click.testing import CliRunner

    from cipherbench.cli import main

    result = CliRunner().invoke(main, ["prove", "adder32"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 4 and all(line.strip().startswith("ok") for line in lines[:3])
    assert lines[-1] == "3 proven, 0 failed"
    assert CliRunner().invoke(main, ["prove", "no-such"]).exit_code != 0
