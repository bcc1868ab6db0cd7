"""The component library against Python reference functions, in the Amaranth simulator.

Random and edge inputs everywhere, exhaustive where the input space is small (8-bit S-boxes,
6-bit DES S-boxes). The DES tables are checked by a whole DES built from them against
pycryptodome; the Twofish MDS by published table entries. Every catalog entry must build
(registered wrapper -> RTLIL) and one registered component is simulated through its registers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from amaranth.hdl import Elaboratable, Signal
from amaranth.sim import Simulator

from cipherbench.components import permutations as perm
from cipherbench.components.adders import ADDER_KINDS, Adder, AddSub, check_kind
from cipherbench.components.aes_sbox import inv_sbox_table, sbox_table
from cipherbench.components.aes_sbox_bram import LATENCY, AesSboxBram
from cipherbench.components.catalog import CATALOG, get_component
from cipherbench.components.des_sbox import DesSbox, DesSboxLayer, des_sbox_layer, des_sbox_tables
from cipherbench.components.gf256 import gf_mul
from cipherbench.components.mds import (
    AES_INV_MDS, AES_MDS, TWOFISH_MDS, TWOFISH_POLY, AesMixColumns, GfMatrixMul, gf_matrix_mul,
    pack, twofish_mds, unpack,
)
from cipherbench.components.multipliers import Multiplier, Rc6F, rc6_f
from cipherbench.components.pht import PseudoHadamard, pht
from cipherbench.components.rotators import BarrelRotator, FixedRotator, rotl, rotr
from cipherbench.errors import CipherbenchError
from cipherbench.rtl import to_rtlil

MASK32 = (1 << 32) - 1
EDGES32 = (0, 1, 2, MASK32, MASK32 - 1, 1 << 31, (1 << 31) - 1, 0x55555555, 0xAAAAAAAA,
           0x0000FFFF, 0xFFFF0000)


def edge_and_random(width: int, count: int, seed: int) -> list[int]:
    mask = (1 << width) - 1
    rng = random.Random(seed)
    edges = sorted({e & mask for e in EDGES32} | {mask, mask >> 1, 1 << (width - 1)})
    return edges + [rng.getrandbits(width) for _ in range(count)]


def pairs(width: int, count: int, seed: int) -> list[tuple[int, int]]:
    """Every pair of edge values, then random pairs."""
    rng = random.Random(seed)
    edges = edge_and_random(width, 0, seed)
    return [(a, b) for a in edges for b in edges] + [
        (rng.getrandbits(width), rng.getrandbits(width)) for _ in range(count)]


def check_comb(dut: Elaboratable, inputs: Iterable[dict[str, int]],
               expect: Callable[[dict[str, int]], dict[str, int]]) -> None:
    """Drive each input assignment and compare every named output with the reference."""
    failures: list[str] = []

    async def bench(ctx: Any) -> None:
        for values in inputs:
            for name, value in values.items():
                ctx.set(getattr(dut, name), value)
            for name, wanted in expect(values).items():
                got = ctx.get(getattr(dut, name))
                if got != wanted and len(failures) < 5:
                    failures.append(f"{values} -> {name} = {got:#x}, expected {wanted:#x}")

    sim = Simulator(dut)
    sim.add_testbench(bench)
    sim.run()
    assert not failures, "\n".join(failures)


# ---- adders ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ADDER_KINDS)
@pytest.mark.parametrize("width", [32, 13, 1])
def test_adder(kind: str, width: int) -> None:
    mask = (1 << width) - 1
    cases = [{"a": a, "b": b, "ci": (a ^ b) & 1} for a, b in pairs(width, 150, width)]
    check_comb(Adder(width, kind), cases,
               lambda v: {"o": (v["a"] + v["b"] + v["ci"]) & mask})


def test_adder_exhaustive_small() -> None:
    """4-bit prefix networks with every input: all carry patterns, both networks."""
    cases = [{"a": a, "b": b, "ci": c} for a in range(16) for b in range(16) for c in (0, 1)]
    for kind in ("kogge-stone", "brent-kung"):
        check_comb(Adder(4, kind), cases, lambda v: {"o": (v["a"] + v["b"] + v["ci"]) & 15})


@pytest.mark.parametrize("kind", ["ripple", "kogge-stone", "brent-kung"])
def test_addsub_both(kind: str) -> None:
    cases = [{"a": a, "b": b, "sub": s} for a, b in pairs(32, 100, 7) for s in (0, 1)]
    check_comb(AddSub(32, kind, "both"), cases,
               lambda v: {"o": (v["a"] - v["b"] if v["sub"] else v["a"] + v["b"]) & MASK32})


def test_fixed_subtractor() -> None:
    check_comb(AddSub(32, "brent-kung", "sub"), [{"a": a, "b": b} for a, b in pairs(32, 100, 8)],
               lambda v: {"o": (v["a"] - v["b"]) & MASK32})


def test_bad_kind_is_rejected() -> None:
    # Checked on the helper: a rejected Elaboratable would warn that it was never used.
    with pytest.raises(ValueError, match="valid: ripple"):
        check_kind("carry-lookahead")


# ---- multipliers ----------------------------------------------------------------------------


@pytest.mark.parametrize("reduction", ["wallace", "array", "behavioral"])
def test_multiplier(reduction: str) -> None:
    rng = random.Random(11)
    edges = [0, 1, 2, 3, MASK32, 1 << 31, 0x9E3779B9, 0xB7E15163]
    cases = [(a, b) for a in edges for b in edges]
    cases += [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(40)]
    check_comb(Multiplier(32, reduction, "brent-kung"), [{"a": a, "b": b} for a, b in cases],
               lambda v: {"o": (v["a"] * v["b"]) & MASK32})


def test_multiplier_exhaustive_small() -> None:
    cases = [{"a": a, "b": b} for a in range(32) for b in range(32)]
    check_comb(Multiplier(5, "wallace", "ripple"), cases, lambda v: {"o": (v["a"] * v["b"]) & 31})


@pytest.mark.parametrize("kind", ["squarer", "behavioral"])
def test_rc6_f(kind: str) -> None:
    check_comb(Rc6F(32, kind), [{"i": x} for x in edge_and_random(32, 120, 12)],
               lambda v: {"o": rc6_f(v["i"])})


@pytest.mark.parametrize("width", [1, 2, 3, 6, 7])
def test_rc6_f_squarer_exhaustive_small(width: int) -> None:
    """Every input of narrow squarers: the row bounds at the top of the word are right."""
    check_comb(Rc6F(width, "squarer", "array", "ripple"), [{"i": x} for x in range(1 << width)],
               lambda v: {"o": rc6_f(v["i"], width)})


def test_rc6_f_known_values() -> None:
    # f(x) = x(2x+1): f(1) = 3, f(2^31) = 2^31 (2^63 vanishes mod 2^32), f(-1) = (-1)(-1) = 1.
    assert (rc6_f(1), rc6_f(1 << 31), rc6_f(MASK32)) == (3, 1 << 31, 1)


# ---- rotators -------------------------------------------------------------------------------


@pytest.mark.parametrize("direction", ["left", "right", "both"])
def test_barrel_rotator(direction: str) -> None:
    rng = random.Random(13)
    words = edge_and_random(32, 10, 14)
    # Every amount, each with several words; both directions for "both".
    cases = [{"i": rng.choice(words), "amount": s, "right": r}
             for s in range(32) for r in (0, 1) for _ in range(3)]

    def expect(v: dict[str, int]) -> dict[str, int]:
        right = direction == "right" or (direction == "both" and v["right"])
        return {"o": (rotr if right else rotl)(v["i"], v["amount"])}

    check_comb(BarrelRotator(32, direction), cases, expect)


def test_barrel_rotator_non_power_of_two() -> None:
    """Width 24: amounts 24..31 rotate by the amount mod 24."""
    cases = [{"i": 0xABCDEF, "amount": s} for s in range(32)]
    check_comb(BarrelRotator(24, "left"), cases,
               lambda v: {"o": rotl(v["i"], v["amount"], 24)})


@pytest.mark.parametrize("direction", ["left", "right"])
def test_fixed_rotator(direction: str) -> None:
    words = edge_and_random(32, 20, 15)
    ref = rotl if direction == "left" else rotr
    check_comb(FixedRotator(32, 13, direction), [{"i": x} for x in words],
               lambda v: {"o": ref(v["i"], 13)})


# ---- permutations and DES -------------------------------------------------------------------


def test_des_ip_then_fp_is_identity() -> None:
    assert perm.inverse_table(perm.DES_IP) == perm.DES_FP
    rng = random.Random(16)
    for x in [0, MASK32 << 32 | MASK32, 1, 1 << 63] + [rng.getrandbits(64) for _ in range(100)]:
        assert perm.permute_int(perm.permute_int(x, perm.DES_IP, 64), perm.DES_FP, 64) == x


def test_des_ip_fp_in_hardware() -> None:
    ip, fp = perm.des_permutation("ip"), perm.des_permutation("fp")
    words = edge_and_random(64, 30, 17)
    check_comb(ip, [{"i": x} for x in words],
               lambda v: {"o": perm.permute_int(v["i"], perm.DES_IP, 64)})
    check_comb(fp, [{"i": perm.permute_int(x, perm.DES_IP, 64)} for x in words],
               lambda v: {"o": perm.permute_int(v["i"], perm.DES_FP, 64)})
    # and the composition is the identity on the hardware outputs
    assert all(perm.permute_int(perm.permute_int(x, perm.DES_IP, 64), perm.DES_FP, 64) == x
               for x in words)


@pytest.mark.parametrize("name", ["e", "p", "pc1", "pc2"])
def test_des_tables_in_hardware(name: str) -> None:
    table, width = perm.DES_TABLES[name]
    check_comb(perm.des_permutation(name), [{"i": x} for x in edge_and_random(width, 30, 18)],
               lambda v: {"o": perm.permute_int(v["i"], table, width)})


def test_des_e_known_bits() -> None:
    # E copies bit 32 to output bit 1 and bit 1 to output bit 48 (FIPS 46-3 p. 13).
    assert perm.permute_int(1, perm.DES_E, 32) == (1 << 47) | (1 << 1)


def test_lsb0_convention() -> None:
    # lsb0: output bit k takes input bit table[k]; here a reversal of 4 bits.
    assert perm.permute_int(0b0001, (3, 2, 1, 0), 4, "lsb0") == 0b1000
    with pytest.raises(ValueError, match="outside 0..3"):
        perm.permute_int(0, (0, 4), 4, "lsb0")


_DES_SHIFTS = (1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1)


def _des_encrypt(key: int, block: int) -> int:
    """DES from this library's tables (FIPS 46-3), to check them all against pycryptodome."""
    k56 = perm.permute_int(key, perm.DES_PC1, 64)
    c, d = k56 >> 28, k56 & 0xFFFFFFF
    x = perm.permute_int(block, perm.DES_IP, 64)
    left, right = x >> 32, x & MASK32
    for shift in _DES_SHIFTS:
        c = ((c << shift) | (c >> (28 - shift))) & 0xFFFFFFF
        d = ((d << shift) | (d >> (28 - shift))) & 0xFFFFFFF
        subkey = perm.permute_int((c << 28) | d, perm.DES_PC2, 56)
        expanded = perm.permute_int(right, perm.DES_E, 32) ^ subkey
        f = perm.permute_int(des_sbox_layer(expanded), perm.DES_P, 32)
        left, right = right, left ^ f
    return perm.permute_int((right << 32) | left, perm.DES_FP, 64)


def test_des_tables_make_des() -> None:
    des = pytest.importorskip("Crypto.Cipher.DES")
    rng = random.Random(19)
    for _ in range(40):
        key, block = rng.getrandbits(64), rng.getrandbits(64)
        cipher = des.new(key.to_bytes(8, "big"), des.MODE_ECB)
        expected = int.from_bytes(cipher.encrypt(block.to_bytes(8, "big")), "big")
        assert _des_encrypt(key, block) == expected


def test_des_sboxes_exhaustive() -> None:
    tables = des_sbox_tables()
    for number in range(1, 9):
        table = tables[number - 1]
        check_comb(DesSbox(number), [{"i": x} for x in range(64)],
                   lambda v, t=table: {"o": t[v["i"]]})
    # FIPS 46-3's worked property: every row of every box is a permutation of 0..15.
    for table in tables:
        for row in range(4):
            outer = ((row & 2) << 4) | (row & 1)
            assert sorted(table[outer | (col << 1)] for col in range(16)) == list(range(16))


def test_des_sbox_layer() -> None:
    check_comb(DesSboxLayer(), [{"i": x} for x in edge_and_random(48, 60, 20)],
               lambda v: {"o": des_sbox_layer(v["i"])})


# ---- MDS, MixColumns, PHT -------------------------------------------------------------------


def test_mixcolumns_fips197_example() -> None:
    # FIPS-197 / widely quoted: column db 13 53 45 -> 8e 4d a1 bc, and back.
    assert gf_matrix_mul(AES_MDS, [0xDB, 0x13, 0x53, 0x45]) == [0x8E, 0x4D, 0xA1, 0xBC]
    assert gf_matrix_mul(AES_INV_MDS, [0x8E, 0x4D, 0xA1, 0xBC]) == [0xDB, 0x13, 0x53, 0x45]


def _mix_state(state: int, matrix: Sequence[Sequence[int]]) -> int:
    columns = [unpack((state >> (32 * (3 - c))) & MASK32, 4, "big") for c in range(4)]
    return sum(pack(gf_matrix_mul(matrix, col), "big") << (32 * (3 - c))
               for c, col in enumerate(columns))


@pytest.mark.parametrize("inverse", [False, True])
@pytest.mark.parametrize("structure", ["tree", "shared"])
def test_aes_mixcolumns(inverse: bool, structure: str) -> None:
    matrix = AES_INV_MDS if inverse else AES_MDS
    states = edge_and_random(128, 40, 21)
    check_comb(AesMixColumns(inverse, structure), [{"i": s} for s in states],
               lambda v: {"o": _mix_state(v["i"], matrix)})


def test_aes_mixcolumns_matches_existing_linear_layer() -> None:
    """Same function as aes_linear.mix_columns, the one the AES core uses."""
    from amaranth.hdl import Module

    from cipherbench.components.aes_linear import inv_mix_columns, mix_columns

    class Wrap(Elaboratable):
        def __init__(self) -> None:
            self.i, self.o, self.oi = Signal(128), Signal(128), Signal(128)

        def elaborate(self, platform: object) -> Module:
            m = Module()
            m.d.comb += [self.o.eq(mix_columns(self.i)), self.oi.eq(inv_mix_columns(self.i))]
            return m

    states = edge_and_random(128, 20, 22)
    check_comb(Wrap(), [{"i": s} for s in states],
               lambda v: {"o": _mix_state(v["i"], AES_MDS), "oi": _mix_state(v["i"], AES_INV_MDS)})


@pytest.mark.parametrize("structure", ["tree", "shared"])
def test_twofish_mds(structure: str) -> None:
    words = edge_and_random(32, 60, 23)
    check_comb(twofish_mds(structure), [{"i": w} for w in words],
               lambda v: {"o": pack(gf_matrix_mul(TWOFISH_MDS, unpack(v["i"], 4, "little"),
                                                  TWOFISH_POLY), "little")})


def test_twofish_mds_published_values() -> None:
    """Entries of the MDS lookup tables of Twofish implementations (MDS applied to q1/q0 of 0
    and 1): column 0 with y0 = q1[0] = 0x75 and q1[1] = 0xF3, column 1 with y1 = q0[0] = 0xA9
    and q0[1] = 0x67. They pin the polynomial, the coefficients and the byte order."""
    def column(index: int, byte: int) -> int:
        vector = [0, 0, 0, 0]
        vector[index] = byte
        return pack(gf_matrix_mul(TWOFISH_MDS, vector, TWOFISH_POLY), "little")

    assert column(0, 0x75) == 0xBCBC3275 and column(0, 0xF3) == 0xECEC21F3
    assert column(1, 0xA9) == 0xA9D93939 and column(1, 0x67) == 0x67901717


def test_generic_matrix_little_and_big() -> None:
    # A 2x2 matrix over the AES field in both byte orders.
    matrix = ((1, 2), (3, 4))
    vectors = [[a, b] for a, b in [(0, 0), (1, 0), (0, 1), (0x57, 0x83), (0xFF, 0xFF)]]
    for order in ("big", "little"):
        check_comb(GfMatrixMul(matrix, byte_order=order), [{"i": pack(v, order)} for v in vectors],
                   lambda v, o=order: {"o": pack(gf_matrix_mul(matrix, unpack(v["i"], 2, o)), o)})
    assert gf_mul(0x57, 0x83) == 0xC1  # FIPS-197 section 4.2's example product


@pytest.mark.parametrize("kind", ["ripple", "kogge-stone"])
def test_pht(kind: str) -> None:
    cases = [{"a": a, "b": b} for a, b in pairs(32, 100, 24)]
    check_comb(PseudoHadamard(32, kind), cases,
               lambda v: dict(zip(("a_out", "b_out"), pht(v["a"], v["b"]))))


# ---- block-RAM S-box (one cycle of latency) --------------------------------------------------


@pytest.mark.parametrize("directions", ["encrypt", "decrypt", "both"])
def test_sbox_bram_exhaustive(directions: str) -> None:
    dut = AesSboxBram(directions)
    decrypts = {"encrypt": (0,), "decrypt": (1,), "both": (0, 1)}[directions]
    failures: list[str] = []

    async def bench(ctx: Any) -> None:
        for decrypt in decrypts:
            ctx.set(dut.decrypt, decrypt)
            for x in range(256):
                ctx.set(dut.i, x)
                for _ in range(LATENCY):
                    await ctx.tick()
                wanted = (inv_sbox_table() if decrypt else sbox_table())[x]
                if ctx.get(dut.o) != wanted and len(failures) < 5:
                    failures.append(f"decrypt={decrypt} x={x:#x}: {ctx.get(dut.o):#x}")

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    assert not failures, failures


def test_sbox_bram_latency_is_one_cycle() -> None:
    """The output changes on the clock edge after the address, not before."""
    dut = AesSboxBram("encrypt")
    seen: list[int] = []

    async def bench(ctx: Any) -> None:
        ctx.set(dut.i, 0x00)
        await ctx.tick()
        ctx.set(dut.i, 0x53)
        seen.append(ctx.get(dut.o))  # still S(0x00)
        await ctx.tick()
        seen.append(ctx.get(dut.o))  # now S(0x53)

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    assert seen == [sbox_table()[0x00], sbox_table()[0x53]] == [0x63, 0xED]


# ---- the catalog --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(CATALOG))
def test_catalog_entry_builds(name: str) -> None:
    entry = CATALOG[name]
    top = entry.build()
    text = to_rtlil(top, top.ports(), "t")
    assert "wire width 1 input 0 \\clk" in " ".join(text.split())
    ports = {p["name"]: p for p in top.port_info()}
    assert set(ports) == {"clk", *entry.inputs, *entry.outputs}
    assert entry.description and entry.name == name


def test_unknown_component_names_the_valid_ones() -> None:
    with pytest.raises(CipherbenchError, match="valid: adder32-ripple, .*aes-sbox-table"):
        get_component("adder33")


def test_registered_wrapper_delays_by_two_cycles() -> None:
    top = get_component("adder32-prefix").build()
    a, b, o = top.inputs["a"], top.inputs["b"], top.outputs["o"]
    seen: list[int] = []

    async def bench(ctx: Any) -> None:
        for k, (x, y) in enumerate([(1, 2), (MASK32, 1), (5, 6), (0, 0), (0, 0)]):
            ctx.set(a, x)
            ctx.set(b, y)
            await ctx.tick()
            seen.append(ctx.get(o))

    sim = Simulator(top)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    # Input register, then output register: the sum of step k appears after step k + 1.
    assert seen[1:4] == [3, 0, 11]
