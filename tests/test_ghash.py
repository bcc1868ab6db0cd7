"""GCM's GF(2^128) and the GHASH multipliers.

The reference (components/gf128.py) against the GCM specification's test cases 1 and 2 and against
an independent implementation (the `cryptography` package's AES-GCM tags); the multipliers
(components/ghash_mul.py) against the reference in the Amaranth simulator on edge and random
operands, the serial ones' clock counts exactly; the proof pairs of the parallel structures in
GF(2^8); and a multiplier built with the wrong reduction polynomial caught by each check.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from amaranth.sim import Simulator
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from cipherbench.components.catalog import get_component
from cipherbench.components.gf128 import (
    GCM, MASK128, NARROW, ONE, R, Field, field_mul, gf128_mul, ghash, poly_mul,
)
from cipherbench.components.ghash_mul import (
    DIGITS, GhashMul, GhashMulSerial, check_digit, check_structure, proof_pairs,
)
from cipherbench.verify.equivalence import Pair, prove

ALPHA = ONE >> 1            # alpha: x_1 set
ALPHA127 = 1                # alpha^127: x_127, the integer's bit 0
# The GCM specification (McGrew and Viega), test case 2: K = 0^128, IV = 0^96, P = 0^128.
TC2_H = 0x66E94BD4EF8A2C3B884CFA59CA342B2E
TC2_C = 0x0388DACE60B6A392F328C2B971B2FE78
TC2_X1 = 0x5E2EC746917062882C85B0685353DEB7          # C * H
TC2_GHASH = 0xF38CBB1AD69223DCC3457AE5B6B0F885       # GHASH(H, C || len(A) || len(C))
TC2_EK_Y0 = 0x58E2FCCEFA7E3061367F1D57A4E7455A       # E(K, Y0); test case 1's tag
TC2_TAG = 0xAB6E47D42CEC13BDF53A67B21257BDDF

rng = random.Random(0x6C3)
EDGES = [(0, 0), (0, MASK128), (MASK128, 0), (ONE, ONE), (ONE, MASK128), (MASK128, ONE),
         (MASK128, MASK128), (ALPHA, ALPHA127), (ALPHA127, ALPHA127), (TC2_C, TC2_H)]
OPERANDS = EDGES + [(rng.getrandbits(128), rng.getrandbits(128)) for _ in range(8)]
WRONG = Field(128, (1 << 128) | 0x85)    # x^128 + x^7 + x^2 + 1: R = 0xA1 || 0^120


def _aes_block(key: bytes, block: bytes) -> bytes:
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return encryptor.update(block) + encryptor.finalize()


def _padded(data: bytes) -> bytes:
    return data + bytes(-len(data) % 16)


# ---- the reference ------------------------------------------------------------------------------


def test_one_is_the_identity_and_alpha_times_alpha127_is_r() -> None:
    for x, _ in OPERANDS:
        assert gf128_mul(ONE, x) == gf128_mul(x, ONE) == x
    # alpha^128 = 1 + alpha + alpha^2 + alpha^7, which is R's bit pattern.
    assert gf128_mul(ALPHA, ALPHA127) == R == 0xE1 << 120
    assert GCM.r == R


def test_reference_gives_the_gcm_spec_test_case_2() -> None:
    key = bytes(16)
    h = _aes_block(key, bytes(16))
    assert int.from_bytes(h, "big") == TC2_H
    assert gf128_mul(TC2_C, TC2_H) == TC2_X1
    lengths = (0).to_bytes(8, "big") + (128).to_bytes(8, "big")
    assert ghash(h, TC2_C.to_bytes(16, "big") + lengths) == TC2_GHASH.to_bytes(16, "big")
    assert TC2_EK_Y0 ^ TC2_GHASH == TC2_TAG
    # The same figures from `cryptography`: test case 1 (empty P) and 2.
    aead = AESGCM(key)
    assert aead.encrypt(bytes(12), b"", None) == TC2_EK_Y0.to_bytes(16, "big")
    assert aead.encrypt(bytes(12), bytes(16), None) == (TC2_C << 128 | TC2_TAG).to_bytes(32, "big")


@pytest.mark.parametrize("case", range(6))
def test_reference_tags_equal_cryptography_aes_gcm(case: int) -> None:
    """Tag = E_K(J0) ^ GHASH_H(A padded || C padded || len(A) || len(C)), J0 = IV || 0^31 || 1,
    against AESGCM's tag: empty plaintext with AD of 0..70 bytes, and two with a plaintext."""
    r = random.Random(case)
    key = r.randbytes((16, 24, 32)[case % 3])
    iv, ad = r.randbytes(12), r.randbytes(r.choice((0, 1, 15, 16, 17, 33, 70)))
    plaintext = r.randbytes(21 * (case // 4) + (case // 5))
    sealed = AESGCM(key).encrypt(iv, plaintext, ad)
    ciphertext, tag = sealed[:-16], sealed[-16:]
    h = _aes_block(key, bytes(16))
    lengths = (8 * len(ad)).to_bytes(8, "big") + (8 * len(ciphertext)).to_bytes(8, "big")
    s = ghash(h, _padded(ad) + _padded(ciphertext) + lengths)
    ek_j0 = _aes_block(key, iv + (1).to_bytes(4, "big"))
    assert bytes(x ^ y for x, y in zip(ek_j0, s)) == tag


def test_algorithm_1_equals_the_polynomial_product() -> None:
    """Two independent constructions: the standard's shift-and-add, and reflect, carry-less
    multiply, reduce mod the polynomial, reflect back; in GCM's field and the narrow ones."""
    for x, y in OPERANDS:
        assert gf128_mul(x, y) == field_mul(x, y, GCM) == poly_mul(x, y, GCM)
    for field in NARROW.values():
        for _ in range(50):
            x, y = rng.getrandbits(field.width), rng.getrandbits(field.width)
            assert field_mul(x, y, field) == poly_mul(x, y, field)


def test_ghash_refuses_partial_blocks() -> None:
    with pytest.raises(ValueError, match="whole number of blocks"):
        ghash(bytes(16), bytes(17))
    assert ghash(bytes(16), b"") == bytes(16)


# ---- the parallel multipliers -------------------------------------------------------------------


def _parallel_products(dut: GhashMul, operands: list[tuple[int, int]]) -> list[int]:
    seen: list[int] = []

    async def bench(ctx: Any) -> None:
        for x, y in operands:
            ctx.set(dut.a, x)
            ctx.set(dut.b, y)
            seen.append(ctx.get(dut.p))

    sim = Simulator(dut)
    sim.add_testbench(bench)
    sim.run()
    return seen


@pytest.mark.parametrize("structure,levels", [("schoolbook", 1), ("karatsuba", 1),
                                              ("karatsuba", 2), ("behavioral", 1)])
def test_parallel_multiplier_equals_reference(structure: str, levels: int) -> None:
    got = _parallel_products(GhashMul(structure, levels), OPERANDS)
    assert got == [gf128_mul(x, y) for x, y in OPERANDS]


def test_parallel_multiplier_with_the_wrong_reduction_is_caught() -> None:
    got = _parallel_products(GhashMul("schoolbook", field=WRONG), OPERANDS)
    wrong = [k for k, (x, y) in enumerate(OPERANDS) if got[k] != gf128_mul(x, y)]
    # Products without a term above alpha^127 need no reduction and agree; the others do not.
    assert OPERANDS.index((MASK128, MASK128)) in wrong and len(wrong) >= 8


def test_structures_and_digits_are_checked() -> None:
    with pytest.raises(ValueError, match="levels"):
        check_structure("karatsuba", 0, GCM)
    with pytest.raises(ValueError, match="levels"):
        check_structure("karatsuba", 8, GCM)      # 128 >> 8 is no operand
    with pytest.raises(ValueError, match="unknown GHASH multiplier structure"):
        check_structure("toom", 1, GCM)
    with pytest.raises(ValueError, match="digit width"):
        check_digit(3, GCM)


# ---- the serial multipliers ---------------------------------------------------------------------


def _run_serial(dut: GhashMulSerial, operands: list[tuple[int, int]],
                idle: int = 0) -> list[tuple[int, int, list[int]]]:
    """Start each product in turn (the next start in the done cycle, after ``idle`` more
    cycles); per product: clocks from the start edge to done, the product, busy per cycle."""
    results: list[tuple[int, int, list[int]]] = []

    async def bench(ctx: Any) -> None:
        for x, y in operands:
            ctx.set(dut.a, x)
            ctx.set(dut.b, y)
            ctx.set(dut.start, 1)
            await ctx.tick()
            ctx.set(dut.start, 0)
            ctx.set(dut.a, rng.getrandbits(128))   # the ports are read at the start edge only
            ctx.set(dut.b, rng.getrandbits(128))
            clocks, busy = 1, []
            while not ctx.get(dut.done):
                busy.append(ctx.get(dut.busy))
                assert clocks <= 128, "no done in 128 clocks"
                await ctx.tick()
                clocks += 1
            assert not ctx.get(dut.busy)
            results.append((clocks, ctx.get(dut.p), busy))
            for _ in range(idle):
                await ctx.tick()
                assert not ctx.get(dut.done) and ctx.get(dut.p) == results[-1][1]

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return results


@pytest.mark.parametrize("digit", DIGITS)
def test_serial_multiplier_takes_128_over_d_clocks(digit: int) -> None:
    operands = EDGES[4:8] + OPERANDS[-2:] if digit in (1, 8) else OPERANDS[-2:] + [EDGES[6]]
    results = _run_serial(GhashMulSerial(digit), operands, idle=digit % 3)
    cycles = 128 // digit
    for (x, y), (clocks, product, busy) in zip(operands, results):
        assert product == gf128_mul(x, y)
        assert clocks == cycles
        assert busy == [1] * (cycles - 1)


def test_serial_restart_abandons_the_running_product() -> None:
    dut = GhashMulSerial(8)
    (x, y), (u, v) = OPERANDS[-2:]
    seen: list[int] = []

    async def bench(ctx: Any) -> None:
        ctx.set(dut.a, x)
        ctx.set(dut.b, y)
        ctx.set(dut.start, 1)
        for _ in range(5):               # starts x * y, then four steps in, starts u * v
            await ctx.tick()
        ctx.set(dut.a, u)
        ctx.set(dut.b, v)
        await ctx.tick()
        ctx.set(dut.start, 0)
        for _ in range(15):
            assert not ctx.get(dut.done)
            await ctx.tick()
        assert ctx.get(dut.done)
        seen.append(ctx.get(dut.p))

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    assert seen == [gf128_mul(u, v)]


def test_serial_multiplier_with_the_wrong_reduction_is_caught() -> None:
    (clocks, product, _), = _run_serial(GhashMulSerial(4, field=WRONG), [EDGES[6]])
    assert clocks == 32 and product != gf128_mul(MASK128, MASK128)


def test_registered_bitserial_entry_is_done_2_plus_128_clocks_after_start() -> None:
    """The catalog's wrapper around the bit-serial multiplier: done 2 + 128 clocks after start
    is presented (its input and output registers), with the product."""
    entry = get_component("ghash-mul-bitserial")
    assert entry.latency == 128 and entry.parameters == {"digit": 1}
    top = entry.build()
    x, y = OPERANDS[-1]
    clocks: list[int] = []

    async def bench(ctx: Any) -> None:
        ctx.set(top.inputs["a"], x)
        ctx.set(top.inputs["b"], y)
        ctx.set(top.inputs["start"], 1)
        await ctx.tick()
        ctx.set(top.inputs["start"], 0)
        for k in range(1, 140):
            if ctx.get(top.outputs["done"]):
                clocks.append(k)
                assert ctx.get(top.outputs["p"]) == gf128_mul(x, y)
            await ctx.tick()

    sim = Simulator(top)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    assert clocks == [2 + 128]


# ---- the proofs ---------------------------------------------------------------------------------


def _pairs(field: Field | None = None) -> list[Pair]:
    return [Pair("ghash-mul", *spec) for spec in proof_pairs(field=field)]


def test_parallel_structures_are_proven_equal_to_algorithm_1() -> None:
    results = [prove(pair) for pair in _pairs()]
    assert [r.proven for r in results] == [True, True, True], [r.describe() for r in results]


def test_the_proof_refuses_the_wrong_reduction() -> None:
    """x^8 + x^4 + x^3 + x^2 + 1 for AES's x^8 + x^4 + x^3 + x + 1: the counterexample is a pair
    of operands whose product needs reducing and differs."""
    wrong = Field(8, 0x11D)
    result = prove(_pairs(wrong)[0])
    assert not result.proven
    a, b = result.counterexample["a"], result.counterexample["b"]
    assert field_mul(a, b, NARROW[8]) != field_mul(a, b, wrong)


# ---- the pipelined multiplier and the interleaved lanes around it ------------------------------


@pytest.mark.parametrize("stages", [2, 4, 8])
def test_pipelined_multiplier_gives_each_product_k_advances_later(stages: int) -> None:
    """Products entering on advance edges, with idle clocks (advance low) between some: each
    leaves exactly ``stages`` advances after it entered, equal to the reference."""
    from cipherbench.components.ghash_mul import GhashMulPipelined

    dut = GhashMulPipelined(stages)
    rng = random.Random(stages)
    operands = OPERANDS[-3:] + EDGES[4:8] + [(rng.getrandbits(128), rng.getrandbits(128))
                                            for _ in range(6)]
    out: list[int] = []

    async def bench(ctx: Any) -> None:
        fed = 0
        for step in range(3 * (len(operands) + stages)):
            advance = step % 3 != 2   # every third clock holds
            x, y = operands[fed] if fed < len(operands) else (0, 0)
            ctx.set(dut.a, x)
            ctx.set(dut.b, y)
            ctx.set(dut.advance, advance)
            if advance and fed >= stages:
                out.append(ctx.get(dut.p))   # the product that entered ``stages`` advances ago
            await ctx.tick()
            fed += advance

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    expected = [gf128_mul(x, y) for x, y in operands]
    assert out[:len(operands)] == expected


@pytest.mark.parametrize("stages", [2, 4])
def test_interleaved_lanes_compute_ghash(stages: int) -> None:
    """GhashAcc over the pipelined multiplier: after a new H, messages of 0 to 9 blocks taken
    with random gaps give GHASH_H of their blocks (the lanes folded after the last block)."""
    from cipherbench.message.gcm_core import GhashAcc

    acc = GhashAcc(f"pipelined:{stages}")
    rng = random.Random(10 + stages)
    h = rng.getrandbits(128)
    # the first message right after the powers: its lanes read what they left in the multiplier
    messages = [[rng.getrandbits(128) for _ in range(n)] for n in (9, 1, 2, 3, 4, 5, 8, 1)]
    got: list[int] = []

    async def bench(ctx: Any) -> None:
        ctx.set(acc.h, h)
        ctx.set(acc.load, 1)
        await ctx.tick()
        ctx.set(acc.load, 0)
        for blocks in messages:
            while not ctx.get(acc.free):
                await ctx.tick()
            ctx.set(acc.clear, 1)
            await ctx.tick()
            ctx.set(acc.clear, 0)
            for i, x in enumerate(blocks):
                for _ in range(rng.choice([0, 0, 1, 3])):   # gaps: the lanes wait
                    await ctx.tick()
                assert ctx.get(acc.free)
                ctx.set(acc.x, x)
                ctx.set(acc.take, 1)
                ctx.set(acc.last, i == len(blocks) - 1)
                await ctx.tick()
                ctx.set(acc.take, 0)
                ctx.set(acc.last, 0)
            clocks = 0
            while not ctx.get(acc.free):
                await ctx.tick()
                clocks += 1
            # the last block's register clock, then the k lanes folded through the multiplier
            assert clocks == 2 * stages + 1
            got.append(ctx.get(acc.y))

    sim = Simulator(acc)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    expected = [int.from_bytes(ghash(h.to_bytes(16, "big"),
                                     b"".join(x.to_bytes(16, "big") for x in blocks)), "big")
                for blocks in messages]
    assert got == expected
