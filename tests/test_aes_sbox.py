"""The AES S-box kinds (table, gf-inv, composite): exhaustive simulation against FIPS-197, the
composite field's derivation, and synthesis size (generic gates; Liberty area when given)."""

from __future__ import annotations

import gzip
import os
import random
import re
import shutil
from pathlib import Path

import pytest
from amaranth.sim import Simulator

from cipherbench.components import aes_sbox_composite as composite
from cipherbench.components.aes_sbox import SBOX_KINDS, AesSbox, inv_sbox_table, sbox_table
from cipherbench.components.gf256 import gf_inverse_table, gf_mul
from cipherbench.rtl import run_yosys_script, to_rtlil

try:
    from cipherbench.ciphers.aes.model import INV_SBOX, SBOX
except ImportError:  # the reference model is optional here; the generator's tables will do
    SBOX, INV_SBOX = sbox_table(), inv_sbox_table()

DIRECTIONS = ("encrypt", "decrypt", "both")
GENERIC_GATES = "AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX"
# Area-oriented Liberty mapping: Yosys' default preparation for `abc -liberty`, then ABC's
# area-recovering mapper (what the ASIC flow's "area" goal runs, minus the timing-only buffering).
AREA_ABC_SCRIPT = (
    "strash; &get -n; &fraig -x; &put; scorr; dc2; dretime; strash; &get -n; &dch -f; &put; amap"
)
COMPOSITE_TARGET_GE = 250  # project target for the encrypt-only S-box on NanGate45


def _simulate(dut: AesSbox, decrypt_values: tuple[int, ...]) -> dict[tuple[int, int], int]:
    outputs: dict[tuple[int, int], int] = {}

    async def bench(ctx):  # type: ignore[no-untyped-def]
        for decrypt in decrypt_values:
            ctx.set(dut.decrypt, decrypt)
            for x in range(256):
                ctx.set(dut.i, x)  # combinational: a testbench sees the settled output
                outputs[decrypt, x] = ctx.get(dut.o)

    sim = Simulator(dut)
    sim.add_testbench(bench)
    sim.run()
    return outputs


@pytest.mark.parametrize("directions", DIRECTIONS)
@pytest.mark.parametrize("kind", SBOX_KINDS)
def test_sbox_matches_fips197(kind: str, directions: str) -> None:
    decrypt_values = {"encrypt": (0,), "decrypt": (1,), "both": (0, 1)}[directions]
    outputs = _simulate(AesSbox(kind, directions), decrypt_values)
    for (decrypt, x), y in outputs.items():
        expected = INV_SBOX[x] if decrypt else SBOX[x]
        assert y == expected, f"{kind}/{directions} decrypt={decrypt}: S({x:#04x}) = {y:#04x}"


def test_every_candidate_tower_is_isomorphic() -> None:
    """The search's machinery, not just its winner: every candidate is a field isomorphism
    and the tower-field inverse (the hardware's formulas) is the AES inverse."""
    inv = gf_inverse_table()
    candidates = composite.candidate_bases()
    assert len(candidates) == 2 * 8 * 8  # (N, nu) pairs x isomorphisms each
    for basis in candidates:
        assert composite.is_isomorphism(basis)
        for x in range(0, 256, 17):
            t_inv = composite.gf256_inv(composite.apply_rows(x, basis.to_tower), basis.n, basis.nu)
            assert composite.apply_rows(t_inv, basis.to_aes) == inv[x]


def test_chosen_basis_is_the_documented_one() -> None:
    b = composite.BASIS
    assert (b.n, b.nu, b.w, b.z, b.y) == (0b01, 0b0010, 0xBC, 0x5C, 0xFE)
    assert b.elements == (0x6E, 0x8C, 0x64, 0x78, 0xDE, 0x60, 0x68, 0x29)
    assert b.cost() == (27, 25)
    # The tower's defining relations, in the AES field.
    w, z, y = b.w, b.z, b.y
    assert gf_mul(w, w) ^ w == 1
    assert gf_mul(z, z) ^ z == w                         # N = W
    assert gf_mul(y, y) ^ y == gf_mul(z, gf_mul(w, w))   # nu = Z W^2


def test_xor_plans_compute_their_matrices() -> None:
    rng = random.Random(11)
    for width, height in ((8, 8), (9, 16), (18, 8)):
        rows = tuple(rng.getrandbits(width) for _ in range(height))
        plan = composite.plan_xor_network(rows, width)
        naive = sum(max(bin(r).count("1") - 1, 0) for r in rows)
        assert len(plan.gates) <= naive
        for _ in range(50):
            x = rng.getrandbits(width)
            values = [(x >> j) & 1 for j in range(width)]
            for a, b in plan.gates:
                values.append(values[a] ^ values[b])
            got = sum(values[o] << i for i, o in enumerate(plan.outputs) if o is not None)
            assert got == composite.apply_rows(x, rows)


def _synthesize(tmp_path: Path, kind: str, directions: str, mapping: list[str]) -> str:
    """Yosys log of one S-box, flattened, through the given mapping commands."""
    name = f"sbox_{kind.replace('-', '_')}_{directions}"
    dut = AesSbox(kind, directions)
    il = tmp_path / f"{name}.il"
    il.write_text(to_rtlil(dut, [dut.i, dut.o, dut.decrypt], name))
    script = [f"read_rtlil {il}", f"synth -flatten -top {name}", *mapping, "opt_clean", "stat"]
    return run_yosys_script("\n".join(script), tmp_path / f"{name}.log")


def _last_int(pattern: str, log: str) -> int:
    found = re.findall(pattern, log)
    assert found, f"{pattern!r} not in the Yosys log"
    return int(found[-1])


def test_composite_is_far_smaller_in_generic_gates(tmp_path: Path) -> None:
    cells, depth = {}, {}
    for kind in SBOX_KINDS:
        log = _synthesize(tmp_path, kind, "encrypt", [f"abc -g {GENERIC_GATES}", "ltp -noff"])
        cells[kind] = _last_int(r"(\d+)\s+cells\n", log)
        depth[kind] = _last_int(r"Longest topological path .*\(length=(\d+)\)", log)
    print(f"\ngeneric gates, encrypt only: cells {cells}, depth {depth}")
    assert cells["composite"] < 200 < 300 < cells["table"]
    assert cells["composite"] < cells["gf-inv"] / 2


def _nand2_area(liberty_text: str) -> float:
    """Area of the library's smallest two-input NAND (1 gate equivalent)."""
    headers = list(re.finditer(r"\bcell\s*\(\s*\"?(\w+)\"?\s*\)", liberty_text))
    areas = []
    for here, after in zip(headers, [*headers[1:], None]):
        if not re.search(r"nand2(_x)?_?1$", here.group(1), re.IGNORECASE):
            continue
        # The cell's own `area` may follow nested groups (sky130 lists leakage_power first).
        body = liberty_text[here.end():after.start() if after else len(liberty_text)]
        area = re.search(r"\barea\s*:\s*([\d.]+)", body)
        if area:
            areas.append(float(area.group(1)))
    assert areas, "no NAND2 (X1) cell in the library"
    return min(areas)


@pytest.fixture(scope="module")
def liberty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = os.environ.get("CIPHERBENCH_LIBERTY")
    if not path:
        pytest.skip("CIPHERBENCH_LIBERTY not set: no Liberty library for the area check")
    source = Path(path)
    if source.suffix != ".gz":
        return source
    # Yosys reads plain Liberty only.
    plain = tmp_path_factory.mktemp("liberty") / source.stem
    with gzip.open(source, "rb") as src, plain.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return plain


def test_composite_area_on_liberty(tmp_path: Path, liberty: Path) -> None:
    text = liberty.read_text()
    nand2 = _nand2_area(text)
    script = tmp_path / "area.abc"
    script.write_text(AREA_ABC_SCRIPT + "\n")
    mapping = [f"dfflibmap -liberty {liberty}", f"abc -liberty {liberty} -script {script}",
               f"stat -liberty {liberty}"]
    ge: dict[str, float] = {}
    for kind in SBOX_KINDS:
        for directions in ("encrypt", "both"):
            log = _synthesize(tmp_path, kind, directions, mapping)
            area = re.findall(r"Chip area for (?:top )?module .*?:\s+([\d.]+)", log)
            assert area, "no chip area in the Yosys log"
            ge[f"{kind}/{directions}"] = round(float(area[-1]) / nand2, 1)
    print(f"\n{liberty.name} (NAND2 = {nand2} um2), GE: {ge}")
    assert ge["composite/encrypt"] < ge["table/encrypt"] / 2
    assert ge["composite/both"] < ge["gf-inv/both"] / 2
    if "nangate" in text[:5000].lower() or "nangate" in liberty.name.lower():
        assert ge["composite/encrypt"] <= COMPOSITE_TARGET_GE
