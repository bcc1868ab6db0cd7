"""The masked gadgets of issue 31 (components/masked/): the DOM-indep multiplier, the masked AES
S-box and inverse S-box, SM4's masked S-box. For every input (exhaustive), many random sharings
and fresh-randomness streams, all-zero and all-one randomness, one input per clock: the XOR of
the output shares is the function's value after the stated latency. The broken variants
(register=False, randomness reuse) compute the same; the reuse flaw is shown on the values, the
missing register in the netlist. Every check is also run on a wrong input and fails there."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from amaranth.hdl import Cat, Elaboratable, Module, Signal, Value
from maskedbench import check_under_all_randomness, meeting_shares, share_values, stream

from cipherbench.components.aes_sbox import inv_sbox_table, sbox_table
from cipherbench.components.aes_sbox_composite import BASIS, apply_rows
from cipherbench.components.catalog import Registered
from cipherbench.components.masked import tower
from cipherbench.components.masked.dom import GF2_AND, DomIndepMul, gf4_product, gf16_product
from cipherbench.components.masked.shares import (RandomLayout, domain_pairs,
                                                  random_bits_per_product)
from cipherbench.components.masked.tower import MaskedAesSbox, MaskedTowerSbox

SBOX, INV_SBOX = sbox_table(), inv_sbox_table()


# ---- layouts -------------------------------------------------------------------------------------


def test_randomness_counts() -> None:
    assert domain_pairs(3) == [(0, 1), (0, 2), (1, 2)]
    assert [random_bits_per_product(1, s) for s in (1, 2, 3, 4)] == [0, 1, 3, 6]
    assert [random_bits_per_product(4, s) for s in (2, 3)] == [4, 12]
    for shares, bits in ((1, 0), (2, 18), (3, 54), (4, 108)):
        assert tower.random_layout(shares).width == bits
    assert tower.random_layout(2, "reuse").width == 14
    layout = tower.random_layout(2, "reuse")
    assert layout.indices("m4_lo") == layout.indices("m4_hi") == list(range(10, 14))
    assert tower.LATENCY == MaskedAesSbox.latency == 7


def test_an_alias_must_name_a_multiplier_of_the_same_width() -> None:
    with pytest.raises(ValueError, match="unknown multiplier"):
        RandomLayout(2, [("a", 1)], {"b": "a"})
    with pytest.raises(ValueError, match="cannot read"):
        RandomLayout(2, [("a", 1), ("b", 4)], {"b": "a"})


# ---- the DOM multiplier ------------------------------------------------------------------------


class _ProductOf(Elaboratable):
    """A multiplier behind the stream() ports: i = (a, b) share by share, o = q."""

    def __init__(self, mul: DomIndepMul) -> None:
        self.mul, w, s = mul, mul.product.width, mul.shares
        self.i = Signal(2 * w * s)
        self.r = mul.r
        self.o = mul.q
        self.flops: dict[str, object] = {}

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.mul = self.mul
        w, s = self.mul.product.width, self.mul.shares
        # Input shares are (a_k, b_k) pairs of 2w bits: a value x = (a << w) | b shared as one.
        m.d.comb += [self.mul.a.eq(self._half(w, s, 1)), self.mul.b.eq(self._half(w, s, 0))]
        return m

    def _half(self, w: int, s: int, upper: int) -> Value:
        return Cat(*(self.i[2 * w * k + upper * w:2 * w * k + (upper + 1) * w] for k in range(s)))


PRODUCTS = {"gf2": GF2_AND, "gf4": gf4_product(), "gf16": gf16_product(BASIS.n)}


@pytest.mark.parametrize("register", [True, False], ids=["registered", "register=False"])
@pytest.mark.parametrize("shares", [2, 3])
@pytest.mark.parametrize("name", list(PRODUCTS))
def test_dom_multiplier_computes_the_product(name: str, shares: int, register: bool) -> None:
    product = PRODUCTS[name]
    w = product.width

    def expected(x: int) -> int:
        return product.model(x >> w, x & ((1 << w) - 1))

    made = []

    def make() -> _ProductOf:
        made.append(_ProductOf(DomIndepMul(product, shares, register)))
        return made[-1]

    problems = check_under_all_randomness(make, expected, 2 * w, shares, DomIndepMul.latency,
                                          runs=8, out_width=w)
    assert problems == []
    assert len(made[0].r) == random_bits_per_product(w, shares)


def test_the_multiplier_check_fails_when_read_a_clock_early() -> None:
    """The same streaming check, reading the output in the clock the operands enter: the
    previous operands' product, so mismatches (the check can fail)."""
    product = gf4_product()
    order = list(range(16)) * 2
    outputs, _ = stream(_ProductOf(DomIndepMul(product, 2)), 4, 2, order, 1, 7, read_at=0,
                        out_width=2)
    wrong = [x for x, y in zip(order, outputs) if y != product.model(x >> 2, x & 3)]
    assert len(wrong) > 8


def test_tower_products_are_the_field_products() -> None:
    from cipherbench.components.aes_sbox_composite import gf4_mul, gf16_mul

    for a, b in itertools.product(range(16), repeat=2):
        p = gf16_product(BASIS.n)
        forms = [[(bin(v & row).count("1") & 1) for row in p.expand] for v in (a, b)]
        gates = sum((forms[0][k] & forms[1][k]) << k for k in range(p.gates))
        assert apply_rows(gates, p.combine) == gf16_mul(a, b, BASIS.n)
        if a < 4 and b < 4:
            assert gf4_product().model(a, b) == gf4_mul(a, b)


# ---- the masked AES S-box ------------------------------------------------------------------------


@pytest.mark.parametrize("directions,shares,runs", [
    ("encrypt", 2, 3), ("decrypt", 2, 1), ("encrypt", 3, 1),
    pytest.param("decrypt", 3, 1, marks=pytest.mark.slow),
    pytest.param("encrypt", 2, 16, marks=pytest.mark.slow, id="encrypt-2-16-runs"),
    pytest.param("encrypt", 4, 2, marks=pytest.mark.slow)])
def test_masked_aes_sbox_under_any_randomness(directions: str, shares: int, runs: int) -> None:
    """Every input, one per clock, under ``runs`` streams of random sharings and randomness, then
    all-zero and all-one randomness (more runs and orders with --runslow)."""
    table = SBOX if directions == "encrypt" else INV_SBOX
    problems = check_under_all_randomness(lambda: MaskedAesSbox(directions, shares),
                                          table.__getitem__, 8, shares, tower.LATENCY, runs)
    assert problems == []


@pytest.mark.parametrize("variant", [{"register": False}, {"randomness": "reuse"}],
                         ids=["register=False", "reuse"])
def test_the_broken_variants_compute_the_sbox(variant: dict[str, object]) -> None:
    problems = check_under_all_randomness(lambda: MaskedAesSbox("encrypt", 2, **variant),
                                          SBOX.__getitem__, 8, 2, tower.LATENCY, runs=1)
    assert problems == []


def test_a_wrong_output_constant_is_caught() -> None:
    """The streaming check on an S-box whose affine constant is off by one bit."""
    in_rows, in_const, out_rows, out_const = tower.aes_matrices("encrypt")

    def make() -> MaskedTowerSbox:
        return MaskedTowerSbox(in_rows, in_const, out_rows, out_const ^ 0x10, BASIS.n,
                               BASIS.nu, 2)

    problems = check_under_all_randomness(make, SBOX.__getitem__, 8, 2, tower.LATENCY, runs=0)
    assert len(problems) == 2 * 256 and {p[2] for p in problems} == set(range(256))


def test_one_input_per_clock_for_the_stated_latency_only() -> None:
    """Read one clock early, the outputs are the previous inputs' S-boxes, not these."""
    order = list(range(256))
    early, _ = stream(MaskedAesSbox("encrypt", 2), 8, 2, order, tower.LATENCY, 3,
                      read_at=tower.LATENCY - 1)
    assert sum(y != SBOX[x] for x, y in zip(order, early)) > 250
    assert early[1:] == [SBOX[x] for x in order[:-1]]


def _equal_halves() -> list[int]:
    """The inputs whose tower representation t = X x has equal halves t1 = t0."""
    return [x for x in range(256)
            if (t := apply_rows(x, BASIS.enc_in())) >> 4 == t & 15]


def _balancing_form() -> int:
    """A mask y with y.M_hi = y.M_lo for the output matrix M (columns 4..7 against 0..3):
    y.out_0 then depends on the last multipliers' two halves only through their XOR."""
    rows = BASIS.enc_out()
    column = [sum(((rows[i] >> j) & 1) << i for i in range(8)) for j in range(8)]
    for y in range(1, 256):
        parity = [bin(y & column[j]).count("1") & 1 for j in range(8)]
        if parity[:4] == parity[4:] and any(parity):
            return y
    raise AssertionError("no balancing form")


@pytest.mark.parametrize("randomness", ["fresh", "reuse"])
def test_reuse_is_a_first_order_flaw(randomness: str) -> None:
    """With t^-1's halves sharing their fresh bits, output share 0 alone gives away whether
    t1 = t0: a fixed parity of its bits is constant over every sharing and randomness for those
    inputs. With fresh bits the same parity takes both values."""
    y = _balancing_form()
    inputs = _equal_halves() * 12
    assert len(set(inputs)) == 16
    gadget = MaskedAesSbox("encrypt", 2, randomness=randomness)
    tap = []

    async def bench(ctx):  # type: ignore[no-untyped-def]
        rng = random.Random(5)
        from cipherbench.components.masked.shares import share

        for cycle in range(len(inputs) + tower.LATENCY):
            if cycle < len(inputs):
                ctx.set(gadget.i, share(inputs[cycle], 8, 2, rng))
            ctx.set(gadget.r, rng.getrandbits(len(gadget.r)))
            if cycle >= tower.LATENCY:
                out0 = share_values(ctx.get(gadget.o), 8, 2)[0]
                tap.append(bin(out0 & y).count("1") & 1)
            await ctx.tick()

    from amaranth.sim import Simulator

    sim = Simulator(gadget)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    per_input: dict[int, set[int]] = {}
    for x, parity in zip(inputs, tap):
        per_input.setdefault(x, set()).add(parity)
    constant = all(len(v) == 1 for v in per_input.values())
    assert constant == (randomness == "reuse")


# ---- where shares meet in the netlist ----------------------------------------------------------


@pytest.mark.parametrize("directions", ["encrypt", "both"])
def test_no_cone_holds_two_shares_of_one_value(directions: str, tmp_path: Path) -> None:
    """The registered S-box: every combinational cone (into a register or the output) holds at
    most one domain of every register bit, the DOM terms' fresh values included."""
    gadget = MaskedAesSbox(directions, 2)
    ports = [gadget.i, gadget.r, gadget.o] + ([gadget.decrypt] if directions == "both" else [])
    assert meeting_shares(gadget, ports, tmp_path) == []


def test_register_false_lets_shares_meet(tmp_path: Path) -> None:
    """Without the term registers the compression XOR holds both shares of t (its operands)."""
    gadget = MaskedAesSbox("encrypt", 2, register=False)
    meetings = meeting_shares(gadget, [gadget.i, gadget.r, gadget.o], tmp_path)
    where = {w for w, _ in meetings}
    assert "register m1_s0" in where and "register m4_hi_s1" in where
    assert ("t", 0) in {vb for _, vb in meetings}


def _wrapper_key(width: int):  # type: ignore[no-untyped-def]
    """What the catalog wrapper's input registers hold: share bit // width of bit % width."""
    def key(name: str, bit: int):  # type: ignore[no-untyped-def]
        from maskedbench import register_key

        if name in ("a_q", "b_q"):
            return name[0], bit % width, bit // width
        return register_key(name, bit)
    return key


@pytest.mark.parametrize("register", [True, False])
def test_the_multiplier_register_separates_the_domains(register: bool, tmp_path: Path) -> None:
    top = Registered(DomIndepMul(GF2_AND, 2, register), ("a", "b", "r"), ("q",))
    meetings = meeting_shares(top, top.ports(), tmp_path, _wrapper_key(1))
    if register:
        assert meetings == []
    else:  # q_i = a_i b_i + a_i b_j + r: each domain's compression holds both shares of b
        assert meetings == [("register mul_s0", ("b", 0)), ("register mul_s1", ("b", 0))]


# ---- SM4 ---------------------------------------------------------------------------------------


def test_sm4_sbox_is_affine_inverse_affine() -> None:
    from cipherbench.ciphers.sm4 import masked
    from cipherbench.ciphers.sm4.model import SBOX as SM4_SBOX

    assert [masked.algebraic_sbox(x) for x in range(256)] == list(SM4_SBOX)
    basis = masked.choose_basis()
    assert (basis.n, basis.nu, basis.w, basis.z, basis.y) == (1, 14, 0x5D, 0x51, 0xBE)
    assert masked.cost(basis) == 27
    assert all(masked.tower_sbox(x, basis) == SM4_SBOX[x] for x in range(256))
    # A wrong constant is not SM4's S-box (the check can fail).
    assert sum(masked.affine(x) ^ 1 != masked.affine(x) for x in range(256)) == 256


@pytest.mark.parametrize("shares,runs", [(2, 2), pytest.param(3, 1, marks=pytest.mark.slow)])
def test_masked_sm4_sbox_under_any_randomness(shares: int, runs: int) -> None:
    from cipherbench.ciphers.sm4.masked import MaskedSm4Sbox
    from cipherbench.ciphers.sm4.model import SBOX as SM4_SBOX

    made = []

    def make() -> MaskedSm4Sbox:
        made.append(MaskedSm4Sbox(shares))
        return made[-1]

    problems = check_under_all_randomness(make, SM4_SBOX.__getitem__, 8, shares, 7, runs)
    assert problems == []
    assert made[0].random_bits == 18 * len(domain_pairs(shares)) and made[0].latency == 7


def test_both_directions_with_the_select_travelling_along() -> None:
    """directions="both": every input in both directions, the direction chosen per input at
    random while the pipeline is full; the select is read with the input."""
    from amaranth.sim import Simulator

    from cipherbench.components.masked.shares import share, unshare

    gadget = MaskedAesSbox("both", 2)
    rng = random.Random(13)
    jobs = [(x, d) for x in range(256) for d in (0, 1)]
    rng.shuffle(jobs)
    seen: list[int] = []

    async def bench(ctx):  # type: ignore[no-untyped-def]
        for cycle in range(len(jobs) + tower.LATENCY):
            if cycle < len(jobs):
                ctx.set(gadget.i, share(jobs[cycle][0], 8, 2, rng))
                ctx.set(gadget.decrypt, jobs[cycle][1])
            ctx.set(gadget.r, rng.getrandbits(len(gadget.r)))
            if cycle >= tower.LATENCY:
                seen.append(unshare(ctx.get(gadget.o), 8, 2))
            await ctx.tick()

    sim = Simulator(gadget)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    expected = [INV_SBOX[x] if d else SBOX[x] for x, d in jobs]
    assert seen == expected
    assert gadget.random_bits == 18
