"""The masked 4-bit S-boxes (components/masked/sbox4.py): PRESENT's S and GIFT's GS and their
inverses as two layers of DOM ANDs, exhaustive under random, all-zero and all-one randomness, one
input per clock; the broken variants compute the same; the reuse flaw in the registers the output
XOR sees; the netlist's domains."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from maskedbench import check_under_all_randomness, meeting_shares, stream

from cipherbench.components import sbox4 as s4
from cipherbench.components.masked.sbox4 import MaskedSbox4, anf_plan

TABLES = {"present": s4.PRESENT_SBOX, "present-inv": s4.PRESENT_INV_SBOX,
          "gift": s4.GIFT_SBOX, "gift-inv": s4.GIFT_INV_SBOX}


def test_plans() -> None:
    """ANDs per layer (the module docstring's table) and that the plan is the ANF: evaluated in
    Python, quadratic and cubic monomials as planned, it gives the table."""
    counts = {n: (len(anf_plan(t).quadratic), len(anf_plan(t).cubic)) for n, t in TABLES.items()}
    assert counts == {"present": (5, 3), "present-inv": (6, 3), "gift": (4, 2),
                      "gift-inv": (6, 2)}
    for table in TABLES.values():
        plan = anf_plan(table)
        for x in range(16):
            bit = [(x >> k) & 1 for k in range(4)]
            quad = {q: int(x & q == q) for q in plan.quadratic}
            cube = {c: quad[f] & bit[(c & ~f).bit_length() - 1] for c, f in plan.cubic}
            y = plan.constant
            for k in range(4):
                y ^= (bin(x & plan.linear[k]).count("1") & 1) << k
                for mono in plan.monomials[k]:
                    y ^= (quad[mono] if mono in quad else cube[mono]) << k
            assert y == table[x]


@pytest.mark.parametrize("shares,runs", [(2, 8), (3, 4)])
@pytest.mark.parametrize("name", list(TABLES))
def test_masked_sbox4_under_any_randomness(name: str, shares: int, runs: int) -> None:
    table = TABLES[name]
    made: list[MaskedSbox4] = []

    def make() -> MaskedSbox4:
        made.append(MaskedSbox4(table, shares))
        return made[-1]

    problems = check_under_all_randomness(make, table.__getitem__, 4, shares, 2, runs)
    assert problems == []
    plan = anf_plan(table)
    pairs = shares * (shares - 1) // 2
    assert made[0].random_bits == (len(plan.quadratic) + len(plan.cubic)) * pairs
    assert made[0].latency == 2


@pytest.mark.parametrize("variant", [{"register": False}, {"randomness": "reuse"}],
                         ids=["register=False", "reuse"])
@pytest.mark.parametrize("name", ["present", "gift"])
def test_the_broken_variants_compute_the_sbox(name: str, variant: dict[str, object]) -> None:
    table = TABLES[name]
    problems = check_under_all_randomness(lambda: MaskedSbox4(table, 2, **variant),
                                          table.__getitem__, 4, 2, 2, runs=4)
    assert problems == []


def test_a_wrong_table_is_caught() -> None:
    """PRESENT's table with entries 5 and 6 swapped (still a permutation, so still cubic)."""
    wrong = list(s4.PRESENT_SBOX)
    wrong[5], wrong[6] = wrong[6], wrong[5]
    problems = check_under_all_randomness(lambda: MaskedSbox4(wrong, 2),
                                          s4.PRESENT_SBOX.__getitem__, 4, 2, 2, runs=1)
    assert {p[2] for p in problems} == {5, 6} and len(problems) == 2 * 3


@pytest.mark.parametrize("randomness", ["fresh", "reuse"])
@pytest.mark.parametrize("name", ["present", "gift"])
def test_reuse_shows_in_the_registers_an_output_xor_sees(name: str, randomness: str) -> None:
    """The two quadratic ANDs that the reuse variant gives one random bit both feed one output
    bit, so that bit's XOR sees both of their (delayed, domain-0) registers. With fresh bits
    their XOR is masked for every input; with one bit it is constant for some inputs (a function
    of share 0 and the unmasked input: a first-order flaw under glitches)."""
    table = TABLES[name]
    reader, owner = anf_plan(table).reused_pair()
    inputs = list(range(16)) * 24
    random.Random(9).shuffle(inputs)
    taps = (f"{reader}_d2", f"{owner}_d2")
    _, tapped = stream(MaskedSbox4(table, 2, randomness=randomness), 4, 2, inputs, 2, 11,
                       taps=taps)
    values: dict[int, set[int]] = {}
    for x, regs in zip(inputs, tapped):
        values.setdefault(x, set()).add(regs[taps[0]][0] ^ regs[taps[1]][0])
    constant = sorted(x for x, v in values.items() if len(v) == 1)
    if randomness == "fresh":
        assert constant == []
    else:
        assert len(constant) >= 4


@pytest.mark.parametrize("register", [True, False])
def test_domains_in_the_netlist(register: bool, tmp_path: Path) -> None:
    gadget = MaskedSbox4(s4.GIFT_SBOX, 2, register=register)
    meetings = meeting_shares(gadget, [gadget.i, gadget.r, gadget.o], tmp_path)
    assert (meetings == []) == register


# ---- GIFT's bitsliced sequence, gate by gate ------------------------------------------------


@pytest.mark.parametrize("shares,runs", [(2, 8), (3, 4)])
def test_gift_bitsliced_under_any_randomness(shares: int, runs: int) -> None:
    from cipherbench.ciphers.gift.masked import LATENCY, MaskedGiftBitsliced

    made: list[MaskedGiftBitsliced] = []

    def make() -> MaskedGiftBitsliced:
        made.append(MaskedGiftBitsliced(shares))
        return made[-1]

    problems = check_under_all_randomness(make, s4.GIFT_SBOX.__getitem__, 4, shares, LATENCY,
                                          runs)
    assert problems == []
    assert made[0].random_bits == 4 * shares * (shares - 1) // 2 and made[0].latency == 6


def test_gift_bitsliced_register_schedule_sets_the_latency() -> None:
    """Without the two compression registers the chain is four ANDs deep (latency 4); each
    register adds a clock. A missing register is not a functional error (hence this count)."""
    from cipherbench.components.masked.sbox4 import program_latency

    steps = s4.BITSLICED[s4.GIFT_SBOX]
    latencies = [program_latency(steps, schedule)
                 for schedule in ({}, {2: (0,)}, {2: (0,), 6: (1,)})]
    assert latencies == [4, 5, 6]


@pytest.mark.parametrize("register", [True, False])
def test_gift_bitsliced_domains_in_the_netlist(register: bool, tmp_path: Path) -> None:
    from cipherbench.ciphers.gift.masked import MaskedGiftBitsliced

    gadget = MaskedGiftBitsliced(2, register=register)
    meetings = meeting_shares(gadget, [gadget.i, gadget.r, gadget.o], tmp_path)
    assert (meetings == []) == register


def test_the_proof_of_a_wrong_masked_sbox_fails_with_its_input() -> None:
    """`cipherbench prove`'s masked pair on PRESENT's table with entries 5 and 6 swapped: not
    equal, and the counterexample's secret input is one of the two."""
    from cipherbench.components.masked.sbox4 import random_layout
    from cipherbench.verify.equivalence import masked_sbox_pair, prove

    wrong = list(s4.PRESENT_SBOX)
    wrong[5], wrong[6] = wrong[6], wrong[5]
    pair = masked_sbox_pair("present-sbox-masked", "swapped = table",
                            lambda: s4.Sbox4(s4.PRESENT_SBOX, "table"),
                            lambda: MaskedSbox4(wrong, 2, transparent=True), 4, 2,
                            random_layout(wrong, 2).width)
    result = prove(pair)
    assert not result.proven
    assert result.counterexample["i"] in (5, 6)
