"""Masked GF(2^8) inversion in Canright's tower field with DOM-indep multipliers, and the masked
AES S-box built on it (SM4's uses the same inverter: ciphers/sm4/masked.py).

The inverter follows the unmasked one (components/aes_sbox_composite.py, the same constants N,
nu and normal bases) with its five multiplications as DOM-indep multipliers (dom.py) and the
linear parts share-wise. Stage by stage (registers at the end of each line; t = input matrix
applied to the input byte):

    1  t = X x (+ c on share 0)                      register t: the multipliers' inputs
    2  p1 = t1 * t0            GF(2^4)  4 bits/pair   (DOM registers)
    3  d = p1 + nu (t1 + t0)^2                        register d, compressed
    4  p2 = d1 * d0            GF(2^2)  2 bits/pair   (DOM registers)
    5  delta^-1 = (p2 + N (d1 + d0)^2)^2              register delta^-1, compressed
    6  theta = d^-1 = (delta^-1 d0, delta^-1 d1)  2 x GF(2^2), 2 + 2 bits/pair
    7  t^-1 = (theta t0, theta t1)         2 x GF(2^4), 4 + 4 bits/pair
       S(x) = M t^-1 (+ c' on share 0), combinational after the stage-7 registers

Latency 7 clocks (the output follows the 7th register level combinationally; a core puts it in
its state register), a new input every clock, 18 fresh bits per pair of domains: 18 bits per
evaluation at first order (2 shares), 54 at second (3 shares), 18 d (d + 1) / 2 in general.

Why the registers are where they are (DOM-indep needs independent sharings of its operands, and
under glitches a multiplier's cross-domain term a_i b_j "sees" every register in the
combinational cones of a_i and b_j):
- t is registered before the first multiplier: t1 and t0 are linear in every bit of x, so the
  term t1_i t0_j computed straight from x would see x_i and x_j, both shares of the same bits.
  From the register, t1_i and t0_j are shares of distinct bits of a uniform sharing.
- d is registered compressed before d1 * d0: both halves come from the same multiplier, whose
  term registers a_i b_j + r_ij (domain i) and a_j b_i + r_ij (domain j) would otherwise meet
  in d1_i d0_j, and r_ij would cancel. Likewise delta^-1 before delta^-1 * d0 and delta^-1 * d1:
  delta holds N (d1 + d0)^2 and d1_i d0_i of domain i, the other operand d0_j domain j of d.
- theta (the GF(2^4) inverse) goes into the last multipliers without a register: its domain-i
  cone holds only stage-6 registers of domain i, whose values are masked by the fresh bits of
  p1 and p2 that the other operand's register (t0_j or t1_j) does not hold.
Gross et al.'s eight-stage DOM S-box (their public VHDL's ``EIGHT_STAGED`` variant) has the same
register after the input map, on the GF(2^4) inverter's input and on t's six-clock way to the
last multipliers, and the same 18 bits at first order. OpenTitan's
``aes_sbox_dom`` instead uses DOM-dep multipliers for the dependent products (blinding the second
operand with extra randomness) and reaches 5 clocks with 28 bits of randomness per evaluation.

Variants for the leakage assessment, functionally identical: ``register=False`` builds every
multiplier with its terms compressed before the register (dom.py); ``randomness="reuse"``
gives the two last multipliers (t^-1's halves) the same fresh bits, 14 instead of 18 per pair.
Their output shares then differ only by theta_i (t0 + t1): the output matrix M combines the two
halves, so a fixed linear combination of output share 0's bits is constant for the inputs whose
t0 equals t1 (a first-order flaw even without glitches; tests/test_masked_gadgets.py shows it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from amaranth.hdl import Module, Signal

from ..aes_affine import affine
from ..aes_sbox_composite import BASIS, gf4_mul, gf4_sq, gf16_sq_scale, matrix_of
from .dom import gf4_product, gf16_product
from .pipeline import MaskedBuilder, MaskedGadget, Shared, concat
from .shares import RandomLayout, join_shares, split_shares

LATENCY = 7
# (multiplier, width): the order of the fresh bits in the port ``r``.
MULTIPLIERS = (("m1", 4), ("m2", 2), ("m3_hi", 2), ("m3_lo", 2), ("m4_hi", 4), ("m4_lo", 4))
RANDOMNESS = ("fresh", "reuse")
REUSE = {"m4_lo": "m4_hi"}  # the randomness-reuse flaw: t^-1's halves share their bits


class Matrices(NamedTuple):
    """An S-box's linear parts around the tower inverter: S(x) = M inv(X x + X c) + c'."""
    in_rows: list[int]
    in_const: int
    out_rows: list[int]
    out_const: int


def random_layout(shares: int, randomness: str = "fresh") -> RandomLayout:
    if randomness not in RANDOMNESS:
        raise ValueError(f"unknown randomness {randomness!r}; valid: {', '.join(RANDOMNESS)}")
    return RandomLayout(shares, MULTIPLIERS, REUSE if randomness == "reuse" else None)


def _rows_first(f: Callable[[int], int], in_width: int, out_width: int) -> list[int]:
    """Rows of a linear map from in_width to out_width bits (given as an integer function)."""
    return matrix_of(f, in_width)[:out_width]


def masked_inverse(b: MaskedBuilder, t: Shared, n: int, nu: int) -> Shared:
    """t^-1 in the tower field for the registered sharing ``t`` (see the module docstring);
    0 maps to 0. Returns the inverse six stages after t (combinational after the last
    multipliers' registers)."""
    t1, t0 = t.bits(4, 8), t.bits(0, 4)
    p1 = b.multiply("m1", t1, t0, gf16_product(n))
    sq_scale = b.linear("sqs", [t], _rows_first(
        lambda x: gf16_sq_scale((x >> 4) ^ (x & 15), n, nu), 8, 4))
    d = b.register(b.linear("dsum", [p1, sq_scale], [0x11 << k for k in range(4)]), "d")
    d1, d0 = d.bits(2, 4), d.bits(0, 2)
    p2 = b.multiply("m2", d1, d0, gf4_product())
    n_sq = b.linear("nsq", [d], _rows_first(
        lambda x: gf4_mul(n, gf4_sq((x >> 2) ^ (x & 3))), 4, 2))
    # delta^-1 = delta^2 in GF(4): the two coordinates swapped.
    delta_inv = b.register(b.linear("dinv", [p2, n_sq], [0b1010, 0b0101]), "delta_inv")
    theta_hi = b.multiply("m3_hi", delta_inv, d0, gf4_product())
    theta_lo = b.multiply("m3_lo", delta_inv, d1, gf4_product())
    theta = concat([theta_lo, theta_hi], "theta")
    inv_hi = b.multiply("m4_hi", theta, t0, gf16_product(n))
    inv_lo = b.multiply("m4_lo", theta, t1, gf16_product(n))
    return concat([inv_lo, inv_hi], "tinv")


class MaskedTowerSbox(MaskedGadget):
    """An S-box of the form S(x) = M inv(X x + c) + c' over the tower field, masked (see the
    module docstring): ``in_rows`` (X, rows over the input byte), ``in_const`` (X c),
    ``out_rows`` (M), ``out_const`` (c'), ``n``, ``nu`` the tower's constants.

    Ports: ``i`` (8 x shares), ``r`` (:attr:`random_bits` bits, read every clock), ``o``
    (8 x shares, valid :data:`LATENCY` clocks after ``i``); share k of a byte at bits
    [8k, 8k + 8). ``shares`` = d + 1 (1 is the unmasked pipeline, no randomness).
    ``register=False`` and ``randomness="reuse"`` are the broken variants; ``transparent=True``
    the pipeline with every register a wire (for the SAT proof of the unmasked function)."""

    latency = LATENCY

    def __init__(self, in_rows: Sequence[int], in_const: int, out_rows: Sequence[int],
                 out_const: int, n: int, nu: int, shares: int = 2, *, register: bool = True,
                 randomness: str = "fresh", transparent: bool = False,
                 second: Matrices | None = None) -> None:
        self.in_rows, self.in_const = list(in_rows), in_const
        self.out_rows, self.out_const = list(out_rows), out_const
        self.second = second  # the other direction's matrices, chosen by ``decrypt``
        self.n, self.nu = n, nu
        self._ports(8, shares, random_layout(shares, randomness), register=register,
                    transparent=transparent)
        self.decrypt = Signal()  # only with ``second``: 1 selects it, read with ``i``

    def elaborate(self, platform: object) -> Module:
        m = Module()
        b = self._builder(m)
        x = b.input(split_shares(self.i, 8, self.shares), "x")
        if self.second is None:
            t = b.register(b.linear("in", [x], self.in_rows, self.in_const), "t")
            inverse = masked_inverse(b, t, self.n, self.nu)
            out = b.linear("out", [inverse], self.out_rows, self.out_const)
        else:
            out = self._both_directions(b, x)
        assert out.stage == LATENCY
        m.d.comb += self.o.eq(join_shares(out.shares))
        self.flipflops = b.registers
        self.flops = dict(b.flops)
        return m

    def _both_directions(self, b: MaskedBuilder, x: Shared) -> Shared:
        """One XOR network computes both input matrices (they share terms), the public select
        picks one per share; the select travels with the value to pick the output matrix."""
        second = self.second
        assert second is not None
        both_in = b.linear("in", [x], self.in_rows + second.in_rows,
                           self.in_const | second.in_const << 8)
        t = b.register(b.select("tsel", self.decrypt, both_in.bits(0, 8), both_in.bits(8, 16)),
                       "t")
        inverse = masked_inverse(b, t, self.n, self.nu)
        both_out = b.linear("out", [inverse], self.out_rows + second.out_rows,
                            self.out_const | second.out_const << 8)
        late = b.public(self.decrypt, LATENCY, "decrypt")
        return b.select("osel", late, both_out.bits(0, 8), both_out.bits(8, 16))


DIRECTIONS = ("encrypt", "decrypt", "both")


def aes_matrices(directions: str) -> Matrices:
    """(X, X c, M, c') of the AES S-box or its inverse over the composite S-box's basis."""
    if directions == "encrypt":
        return Matrices(BASIS.enc_in(), 0, BASIS.enc_out(), affine(0))
    if directions == "decrypt":
        return Matrices(BASIS.dec_in(), BASIS.dec_in_const(), BASIS.dec_out(), 0)
    raise ValueError(f"unknown directions {directions!r}; valid: encrypt, decrypt")


class MaskedAesSbox(MaskedTowerSbox):
    """The AES S-box (``directions="encrypt"``) or its inverse (``"decrypt"``), masked with
    ``shares`` = d + 1 shares: ports, latency and randomness as :class:`MaskedTowerSbox`
    (7 clocks; 18 fresh bits per evaluation at first order, 54 at second).

    The inverse S-box is the same inverter between the other two matrices (the affine map's
    inverse folded into the input matrix, its constant on share 0). ``"both"`` adds the port
    ``decrypt`` (1: the inverse S-box), read with ``i``: both input matrices in one XOR network
    and a share-wise multiplexer before the inverter, the select delayed 7 clocks to pick the
    output matrix; no more randomness."""

    def __init__(self, directions: str = "encrypt", shares: int = 2, *, register: bool = True,
                 randomness: str = "fresh", transparent: bool = False) -> None:
        if directions not in DIRECTIONS:
            raise ValueError(f"unknown directions {directions!r}; valid: {', '.join(DIRECTIONS)}")
        first = aes_matrices("encrypt" if directions == "both" else directions)
        second = aes_matrices("decrypt") if directions == "both" else None
        super().__init__(*first, BASIS.n, BASIS.nu, shares, register=register,
                         randomness=randomness, transparent=transparent, second=second)
        self.directions = directions
