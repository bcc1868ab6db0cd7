"""The components of the ciphers standardized since the seeds (issue 29): 4-bit S-boxes (PRESENT's
S, GIFT's GS and their inverses), PRESENT's and GIFT-128's bit permutations, SM4's L and L',
ARIA's diffusion A and CLEFIA's M0/M1.

Each against its Python reference in the Amaranth simulator (exhaustive for the 4-bit S-boxes,
structured and random words for the linear maps), each reference against the cipher's own model
(typed separately in the cipher's folder), the proofs of `cipherbench prove` passing and failing
on deliberately broken tables and wirings, and one characterization on NanGate45.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cipherbench.components import permutations as perm
from cipherbench.components import sbox4 as s4
from cipherbench.components.catalog import CATALOG
from cipherbench.components.diffusion import (
    ARIA_A, ARIA_POLY, CLEFIA_M0, CLEFIA_M1, CLEFIA_POLY, aria_a, aria_diffusion, clefia_m,
    clefia_matrix, matrix_square_is_identity,
)
from cipherbench.components.rotxor import (
    ROTXOR_STRUCTURES, SM4_L, SM4_L_PRIME, RotXor, rot_xor, sm4_linear,
)
from cipherbench.verify import equivalence as eq

sys.path.insert(0, str(Path(__file__).parent))
from test_components import check_comb, edge_and_random  # noqa: E402

TABLES = {
    "present": s4.PRESENT_SBOX, "present-inv": s4.PRESENT_INV_SBOX,
    "gift": s4.GIFT_SBOX, "gift-inv": s4.GIFT_INV_SBOX,
}


def structured_words(width: int, count: int, seed: int) -> list[int]:
    """Edges, every single bit set, every single bit clear, then random words."""
    mask = (1 << width) - 1
    singles = [1 << k for k in range(width)]
    return edge_and_random(width, count, seed) + singles + [mask ^ b for b in singles]


# ---- the tables against the ciphers' models ------------------------------------------------------


def test_tables_equal_the_models() -> None:
    from cipherbench.ciphers.gift import model as gift
    from cipherbench.ciphers.present import model as present

    assert (s4.PRESENT_SBOX, s4.PRESENT_INV_SBOX) == (present.SBOX, present.INVERSE_SBOX)
    assert (s4.GIFT_SBOX, s4.GIFT_INV_SBOX) == (gift.SBOX, gift.INVERSE_SBOX)
    assert perm.PRESENT_P == present.PERMUTATION and perm.GIFT128_P == gift.PERMUTATION
    # Papers' tables: PRESENT S(0) = C, P(1) = 16, P(62) = 47 (Table 2); GIFT GS(0) = 1 and the
    # first row of GIFT-128's Table 3.
    assert (s4.PRESENT_SBOX[0], perm.present_p(1), perm.present_p(62)) == (0xC, 16, 47)
    assert s4.GIFT_SBOX[0] == 0x1 and perm.GIFT128_P[:16] == (
        0, 33, 66, 99, 96, 1, 34, 67, 64, 97, 2, 35, 32, 65, 98, 3)


def test_linear_maps_equal_the_models() -> None:
    from cipherbench.ciphers.aria import model as aria
    from cipherbench.ciphers.clefia import model as clefia
    from cipherbench.ciphers.sm4 import model as sm4

    assert tuple(tuple(j for j, b in enumerate(row) if b) for row in ARIA_A) == aria.DIFFUSION
    assert (CLEFIA_M0, CLEFIA_M1, CLEFIA_POLY) == (clefia.M0, clefia.M1, clefia.GF8_POLY)
    for x in structured_words(32, 200, 31):
        assert rot_xor(x, SM4_L) == sm4.linear(x) and rot_xor(x, SM4_L_PRIME) == sm4.linear_key(x)
    for x in structured_words(128, 100, 32):
        assert aria_a(x) == aria.diffuse(x)


def test_involutions() -> None:
    """A, M0 and M1 are their own inverses (RFC 5794 2.4.3; RFC 6114's Hadamard-type matrices)."""
    assert matrix_square_is_identity(ARIA_A, ARIA_POLY)
    assert matrix_square_is_identity(CLEFIA_M0, CLEFIA_POLY)
    assert matrix_square_is_identity(CLEFIA_M1, CLEFIA_POLY)
    for x in structured_words(128, 50, 33):
        assert aria_a(aria_a(x)) == x
    for x in structured_words(32, 50, 34):
        assert clefia_m("m0", clefia_m("m0", x)) == x and clefia_m("m1", clefia_m("m1", x)) == x


def test_clefia_matrices_on_known_products() -> None:
    # 0x11d: z^8 = z^4 + z^3 + z^2 + 1, so 0x80 * 2 = 0x1D (not AES's 0x1B); column 0 of M0
    # applied to 0x80 is 0x80, 0x80*2, 0x80*4, 0x80*6.
    assert clefia_m("m0", 0x80000000) == (0x80 << 24) | (0x1D << 16) | (0x3A << 8) | 0x27
    assert clefia_m("m1", 0x01000000) == 0x0108020A


# ---- 4-bit S-boxes ------------------------------------------------------------------------------


def test_inverse_tables_invert() -> None:
    for forward, inverse in ((s4.PRESENT_SBOX, s4.PRESENT_INV_SBOX),
                             (s4.GIFT_SBOX, s4.GIFT_INV_SBOX)):
        assert all(inverse[forward[x]] == x for x in range(16))


@pytest.mark.parametrize("name", list(TABLES))
def test_anf_and_bitsliced_in_python(name: str) -> None:
    table = TABLES[name]
    assert [s4.anf_eval(table, x) for x in range(16)] == list(table)
    if table in s4.BITSLICED:
        assert [s4.run_program(s4.BITSLICED[table], x) for x in range(16)] == list(table)


def test_present_anf_is_the_known_one() -> None:
    # PRESENT's S: y0 = x0 + x2 + x1 x2 + x3 (x0 the least significant input bit).
    assert s4.anf(s4.PRESENT_SBOX)[0] == [0b0001, 0b0100, 0b0110, 0b1000]


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize("kind", s4.SBOX4_KINDS)
def test_sbox4_exhaustive(name: str, kind: str) -> None:
    table = TABLES[name]
    if kind == "bitsliced" and table not in s4.BITSLICED:
        with pytest.raises(ValueError, match="no bitsliced program"):
            s4.check_kind(table, kind)
        return
    check_comb(s4.Sbox4(table, kind), [{"i": x} for x in range(16)],
               lambda v: {"o": table[v["i"]]})


@pytest.mark.parametrize("kind", ["table", "anf"])
def test_sbox4_layer(kind: str) -> None:
    words = structured_words(64, 40, 35)
    check_comb(s4.Sbox4Layer(s4.PRESENT_SBOX, 16, kind), [{"i": w} for w in words],
               lambda v: {"o": s4.sbox4_layer(v["i"], s4.PRESENT_SBOX, 16)})


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="16 entries"):
        s4.check_table(range(15))
    with pytest.raises(ValueError, match="bijective"):
        s4.inverse_sbox4([0] * 16)
    with pytest.raises(ValueError, match="valid: table, anf, bitsliced"):
        s4.check_kind(s4.GIFT_SBOX, "mux")


# ---- bit permutations ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(perm.SPN_PERMUTATIONS))
def test_spn_permutations(name: str) -> None:
    destinations, width = perm.SPN_PERMUTATIONS[name]
    inverse = [destinations.index(k) for k in range(width)]
    words = structured_words(width, 40, 36)
    check_comb(perm.spn_permutation(name), [{"i": w} for w in words],
               lambda v: {"o": perm.move_bits(v["i"], destinations)})
    check_comb(perm.spn_permutation(name, inverse=True), [{"i": w} for w in words],
               lambda v: {"o": perm.move_bits(v["i"], inverse)})
    assert all(perm.move_bits(perm.move_bits(w, destinations), inverse) == w for w in words)


def test_present_player_matches_the_model() -> None:
    from cipherbench.ciphers.gift import model as gift
    from cipherbench.ciphers.present import model as present

    for w in structured_words(64, 30, 37):
        assert perm.move_bits(w, perm.PRESENT_P) == present.p_layer(w)
    for w in structured_words(128, 30, 38):
        assert perm.move_bits(w, perm.GIFT128_P) == gift.perm_bits(w)


# ---- SM4 L, L'; ARIA A; CLEFIA M0, M1 -----------------------------------------------------------


@pytest.mark.parametrize("structure", ROTXOR_STRUCTURES)
@pytest.mark.parametrize("which", ["l", "l-prime"])
def test_sm4_linear(which: str, structure: str) -> None:
    rotations = SM4_L if which == "l" else SM4_L_PRIME
    check_comb(sm4_linear(which, structure), [{"i": w} for w in structured_words(32, 150, 39)],
               lambda v: {"o": rot_xor(v["i"], rotations)})


def test_rot_xor_other_width() -> None:
    check_comb(RotXor((3, 5), 13, "shared"), [{"i": w} for w in range(1 << 13)][::7],
               lambda v: {"o": rot_xor(v["i"], (3, 5), 13)})


@pytest.mark.parametrize("structure", ["tree", "shared"])
def test_aria_diffusion(structure: str) -> None:
    check_comb(aria_diffusion(structure), [{"i": w} for w in structured_words(128, 60, 40)],
               lambda v: {"o": aria_a(v["i"])})


@pytest.mark.parametrize("structure", ["tree", "shared"])
@pytest.mark.parametrize("which", ["m0", "m1"])
def test_clefia_matrices(which: str, structure: str) -> None:
    check_comb(clefia_matrix(which, structure), [{"i": w} for w in structured_words(32, 150, 41)],
               lambda v: {"o": clefia_m(which, v["i"])})


# ---- catalog and proofs -------------------------------------------------------------------------

NEW_COMPONENTS = (
    "present-sbox", "present-inv-sbox", "present-player", "present-player-inv", "gift-sbox",
    "gift-inv-sbox", "gift128-permbits", "gift128-permbits-inv", "sm4-l", "sm4-l-prime",
    "aria-diffusion", "clefia-m0", "clefia-m1")


def test_catalog_and_proofs_cover_the_new_components() -> None:
    for name in ("present-sbox-table", "present-sbox-anf", "present-inv-sbox-anf",
                 "gift-sbox-bitsliced", "gift-inv-sbox-bitsliced", "present-player",
                 "gift128-permbits-inv", "sm4-l", "sm4-l-prime-shared", "aria-diffusion",
                 "clefia-m0", "clefia-m1-shared"):
        assert name in CATALOG, name
    proven = {p.component: p for p in eq.pairs()}
    assert set(NEW_COMPONENTS) <= set(proven)
    kinds = {p.name for p in eq.pairs() if p.component in ("gift-sbox", "gift-inv-sbox")}
    assert kinds == {"anf = table", "bitsliced = table"}


class _Broken(s4.Sbox4):
    """A table S-box whose table has one entry changed (kind=table: the lookup as given)."""

    def __init__(self, table: tuple[int, ...], address: int) -> None:
        bad = list(table)
        bad[address] ^= 0b0100
        super().__init__(bad, "table")


@pytest.mark.parametrize("name,address", [("present", 0x0), ("gift", 0x9), ("gift-inv", 0xF)])
def test_a_broken_table_is_refused_with_its_address(name: str, address: int) -> None:
    table = TABLES[name]
    for kind in ("anf", "bitsliced") if table in s4.BITSLICED else ("anf",):
        pair = eq.Pair(f"{name}-sbox", f"{kind} = broken table",
                       lambda: _Broken(table, address), lambda k=kind: s4.Sbox4(table, k),
                       ("i",), ("o",))
        result = eq.prove(pair)
        assert not result.proven
        assert result.counterexample == {"i": address}


def test_a_wrong_wiring_is_refused() -> None:
    """pLayer with two destinations swapped is not pLayer: the proof names an input that moves
    one of those bits."""
    wrong = list(perm.PRESENT_P)
    wrong[1], wrong[2] = wrong[2], wrong[1]
    pair = eq.Pair("present-player", "swapped = formula",
                   lambda: eq.MovedBits(perm.present_p, 64),
                   lambda: perm.BitPermutation(perm.destination_table(wrong), 64, "lsb0"),
                   ("i",), ("o",))
    result = eq.prove(pair)
    assert not result.proven
    x = result.counterexample["i"]
    assert (x >> 1 & 1) != (x >> 2 & 1)


def test_a_wrong_rotation_is_refused() -> None:
    from cipherbench.ciphers.sm4 import model as sm4

    pair = eq.Pair("sm4-l", "wrong", lambda: eq.ModelLinearMap(sm4.linear, 32),
                   lambda: RotXor((2, 10, 18, 25), 32, "shared"), ("i",), ("o",))
    result = eq.prove(pair)
    assert not result.proven
    x = result.counterexample["i"]
    assert rot_xor(x, (2, 10, 18, 25)) != sm4.linear(x)


def test_cli_prove_passes_and_fails_on_a_broken_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cipherbench prove present-sbox gift-sbox` proves every alternative; with a broken table
    among the pairs it prints FAIL with the entry's address and exits non-zero."""
    from click.testing import CliRunner

    from cipherbench.cli import main

    good = CliRunner().invoke(main, ["prove", "present-sbox", "gift-sbox", "present-player",
                                     "sm4-l"])
    assert good.exit_code == 0, good.output
    lines = good.output.strip().splitlines()
    assert lines[-1] == f"{len(lines) - 1} proven, 0 failed" and len(lines) == 1 + 1 + 2 + 1 + 3

    real = eq.pairs

    def with_broken() -> list[eq.Pair]:
        return real() + [eq.Pair("present-sbox", "anf = broken table",
                                 lambda: _Broken(s4.PRESENT_SBOX, 0x7),
                                 lambda: s4.Sbox4(s4.PRESENT_SBOX, "anf"), ("i",), ("o",))]

    monkeypatch.setattr(eq, "pairs", with_broken)
    bad = CliRunner().invoke(main, ["prove", "present-sbox"])
    assert bad.exit_code != 0
    assert "FAIL present-sbox: anf = broken table: NOT EQUAL, counterexample i=0x7" in bad.output
    assert bad.output.strip().splitlines()[-1] == "1 proven, 1 failed"


# ---- characterization (NanGate45, 2 points: the area and the speed end) --------------------------


@pytest.mark.parametrize("name", ["present-sbox-anf", "present-player"])
def test_characterize_cli(name: str, tmp_path: Path) -> None:
    """`cipherbench characterize` on a 4-bit S-box (some logic) and on pLayer (none: every cell
    is one of the wrapper's 128 flip-flops)."""
    import json
    import os
    import subprocess

    from test_characterize import _liberty

    liberty = _liberty()
    if liberty is None:
        pytest.skip("no Liberty for the asic flow")
    from cipherbench.flows import get_flow

    reason = get_flow("asic").available()
    if reason is not None:
        pytest.skip(f"asic flow unavailable: {reason}")
    env = {**os.environ, "CIPHERBENCH_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-m", "cipherbench.cli", "characterize", name, "--liberty", str(liberty),
         "--points", "2", "--db", str(tmp_path / "db.sqlite"), "-o", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "G1" in proc.stdout and "png: " in proc.stdout
    data = json.loads((tmp_path / "out" / name / "curve.json").read_text())
    assert data["component"] == name and len(data["points"]) == 2
    from cipherbench.store import Store

    with Store(tmp_path / "db.sqlite") as store:
        rows = [r.measurements for r in store.results(design=f"component:{name}")]
    assert len(rows) == 2
    flipflops = {"present-sbox-anf": 8, "present-player": 128}[name]
    assert all(m["flipflops"] == flipflops for m in rows)
    if name == "present-player":  # wiring: nothing but the registers
        assert all(m["area_um2"] == pytest.approx(m["sequential_area_um2"]) for m in rows)
    else:
        assert all(m["area_um2"] > m["sequential_area_um2"] for m in rows)
