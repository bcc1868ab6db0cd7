"""Masked cores (arch/masked.py, issue 31): the architecture, its harness and the cores of AES,
PRESENT and GIFT, verified through the harness like every core (known-answer sets, random
blocks against the model and the oracle, key changes, constant time), correct under any
randomness, with the cycle counts and randomness their docs state, and no combinational cone of a
core holding two shares of one value.

Default suite: the smallest core of each family that is quick to build (PRESENT-80 round-based,
the 8-bit AES), the harness's PRNG stuck at zero, the checks shown to fail. Marked slow: the
64- and 128-bit AES, GIFT, SM4, three shares, the broken variants and the other seeds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from amaranth.hdl import Fragment, Module, Signal
from amaranth.sim import Simulator as AmaranthSimulator
from maskedbench import meeting_shares

from cipherbench.arch.masked import MaskedCore, XorshiftBank, seed_state
from cipherbench.cache import ensure_design
from cipherbench.ciphers.present import masked as present_masked
from cipherbench.errors import CipherbenchError
from cipherbench.generate import write_design
from cipherbench.kinds.generated import build_core
from cipherbench.spec import all_designs, parse
from cipherbench.verify.designs import VerifyReport, verify_design

# Cycle counts (docs/architectures.md, "Masked cores"): latency, initiation interval, fresh
# bits per clock at 2 shares. PRESENT and GIFT: 3 clocks a round (the S-box's 2, the state
# register's 1) after the load clock; AES 8-bit: 3 load clocks, 9 passes of 28, the last of
# 30 and 4 output clocks after the transfer (the next block one clock later); AES columns: the
# load clock, 4/n whitening clocks, 10 rounds of 6 + 4/n and the last column's write.
CYCLES = {
    "present-80/masked": (1 + 31 * 3, 1 + 31 * 3, 17 * 8),
    "gift/masked": (1 + 40 * 3, 1 + 40 * 3, 32 * 6),
    "aes-128/masked": (3 + 9 * 28 + 30 + 4, 3 + 9 * 28 + 30 + 4 + 1, 18),
    "aes-128/masked:width=64": (1 + 2 + 10 * 8 + 1, 1 + 2 + 10 * 8 + 1, 8 * 18),
    "aes-128/masked:width=128": (1 + 1 + 10 * 7 + 1, 1 + 1 + 10 * 7 + 1, 16 * 18),
    # SM4: the load clock, 32 rounds of 8 (the S-box's 7 and one for the round key), 7 clocks
    # for the last round's T.
    "sm4/masked": (1 + 32 * 8 + 7, 1 + 32 * 8 + 7, 4 * 18),
}
DEFAULT = ("present-80/masked", "aes-128/masked")
SLOW = tuple(d for d in CYCLES if d not in DEFAULT)


def verify(design: str, folder: Path | None = None, **counts: int) -> VerifyReport:
    """The standard verification of a masked core through its harness, with fewer random
    blocks than `cipherbench verify` (every known-answer vector is still run)."""
    spec = parse(design)
    settings = dict(random_blocks=120, oracle_blocks=40, key_change_blocks=12,
                    constant_time_keys=6)
    settings.update(counts)
    return verify_design(spec, folder if folder is not None else ensure_design(spec), **settings)


def built(design: str) -> tuple[MaskedCore, dict[str, Any]]:
    """The core of a design and its manifest facts, elaborated (as generation would)."""
    core, _shape, facts = build_core(parse(design))
    assert isinstance(core, MaskedCore)
    Fragment.get(core, None)
    return core, facts


def passed_sets(report: VerifyReport) -> set[str]:
    return {s.name.split(" (")[0].split(":")[0] for s in report.sets
            if s.failed == 0 and s.passed}


def test_masked_is_offered_only_to_ciphers_that_declare_it() -> None:
    listed = {(d.cipher, d.arch) for d in all_designs()}
    assert {("aes", "masked"), ("present", "masked"), ("gift", "masked"),
            ("sm4", "masked")} <= listed
    assert ("des", "masked") not in listed
    with pytest.raises(CipherbenchError, match="des has no masked architecture; valid: "
                                               "iterative, unrolled, pipelined, narrow"):
        parse("des/masked")
    spec = parse("aes-128/masked:width=8,shares=2")
    assert spec.param_dict["ops"] == "encrypt" and spec.param_dict["sbox"] == "composite"
    with pytest.raises(CipherbenchError, match="valid: 8, 64, 128"):
        parse("aes-128/masked:width=32")
    with pytest.raises(CipherbenchError, match="one key size; name it, e.g. aes-128/masked"):
        build_core(parse("aes/masked"))


def test_ports_are_shares_and_randomness() -> None:
    """The key, the block and the result only ever as shares, on ports of their own."""
    core, described = built("present-80/masked:shares=3")
    ports = {p["name"]: (p["dir"], p["width"]) for p in core.io.ports()}
    assert ports == {
        "clk": ("in", 1), "rst": ("in", 1),
        **{f"key_s{k}": ("in", 80) for k in range(3)},
        **{f"in_block_s{k}": ("in", 64) for k in range(3)},
        "in_valid": ("in", 1), "in_ready": ("out", 1),
        **{f"out_block_s{k}": ("out", 64) for k in range(3)},
        "out_valid": ("out", 1), "out_ready": ("in", 1),
        "rnd": ("in", 17 * 24),    # 17 S-boxes, 8 ANDs x 3 pairs of domains
    }
    assert described["randomness"] == {
        "port": "rnd", "bits_per_clock": 408, "bits_per_block": 408 * 94,
        "bits_per_evaluation": 24, "sbox_evaluations_per_block": 31 * 17,
        "bits_used_per_block": 24 * 31 * 17}
    assert described["masking"]["share_ports"]["key"] == ["key_s0", "key_s1", "key_s2"]
    # Unmasked: the same structure, no randomness port.
    unmasked, facts = built("present-80/masked:shares=1")
    assert "rnd" not in {p["name"] for p in unmasked.io.ports()}
    assert facts["randomness"]["bits_per_block"] == 0


def test_the_streaming_core_takes_and_gives_columns() -> None:
    core, described = built("aes-128/masked")
    ports = {p["name"]: p["width"] for p in core.io.ports()}
    assert ports["key_s0"] == ports["in_block_s1"] == ports["out_block_s0"] == 32
    assert "out_ready" not in ports
    io = described["io"]
    # Every byte of the block in once, and of the result out once.
    assert sorted(b for chunk in io["in_order"] for b in chunk) == list(range(16))
    assert sorted(b for chunk in io["out_order"] for b in chunk) == list(range(16))


@pytest.mark.parametrize("design", DEFAULT)
def test_default_cores_verify_with_their_cycle_counts(design: str) -> None:
    _check_core(design)


@pytest.mark.slow
@pytest.mark.parametrize("design", SLOW)
def test_other_cores_verify_with_their_cycle_counts(design: str) -> None:
    _check_core(design)


def _check_core(design: str) -> None:
    spec = parse(design)
    folder = ensure_design(spec)
    import json
    manifest = json.loads((folder / "manifest.json").read_text())
    latency, interval, bits = CYCLES[design]
    assert (manifest["latency"], manifest["initiation_interval"]) == (latency, interval)
    assert manifest["key_setup_encrypt"] == 0
    assert manifest["parameters"]["randomness"]["bits_per_clock"] == bits
    assert manifest["simulation"]["top"] == manifest["top"] + "_harness"
    report = verify(design, folder)
    assert report.failed == 0, report.first_failures()
    expected = {"random-vs-model", "new key every block, not drained", "constant time"}
    if spec.cipher == "aes":
        expected |= {"fips-197", "ECBGFSbox128", "random-vs-oracle"}
    if spec.cipher == "sm4":
        expected |= {"random-vs-oracle"}
    assert expected <= passed_sets(report)


def _same_core(a: str, b: str) -> bool:
    """Two designs whose measured cores are the same Verilog (module names aside)."""
    texts = []
    for design in (a, b):
        spec = parse(design)
        folder = ensure_design(spec)
        top = f"cb_{spec.slug}"
        texts.append((folder / f"{top}.v").read_text().replace(top, "CORE"))
    return texts[0] == texts[1]


@pytest.mark.parametrize("prng", ["zero", pytest.param("2", marks=pytest.mark.slow),
                                  pytest.param("3", marks=pytest.mark.slow)])
def test_the_same_core_is_right_under_any_randomness(prng: str) -> None:
    """The harness's PRNG stuck at zero (shares = the value and zeros, every random bit 0) and
    other seeds: the same core gives the same results."""
    design = f"aes-128/masked:prng={prng}"
    assert _same_core("aes-128/masked", design)
    report = verify(design)
    assert report.failed == 0, report.first_failures()


def test_a_core_whose_result_depends_on_the_randomness_is_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a PRESENT core that XORs a random bit into its key schedule is
    right only when the bits are all zero."""
    original = present_masked.PresentMaskedRound._updated

    def leaky(self: present_masked.PresentMaskedRound, register: object, share: int) -> object:
        value = original(self, register, share)
        return value ^ self.random[0] if share == 0 else value

    monkeypatch.setattr(present_masked.PresentMaskedRound, "_updated", leaky)
    outcomes = {}
    for prng in ("zero", "1"):
        spec = parse(f"present-80/masked:prng={prng}")
        folder = tmp_path / prng
        write_design(spec, folder)
        outcomes[prng] = verify(str(spec), folder).failed
    assert outcomes["zero"] == 0 and outcomes["1"] > 0


def test_a_wrong_core_fails_verification(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The round counter one bit off in the key schedule: every check through the harness sees
    it."""
    monkeypatch.setattr(present_masked, "counter_position", lambda bits: 16)
    spec = parse("present-80/masked")
    write_design(spec, tmp_path)
    report = verify(str(spec), tmp_path)
    assert report.failed > 0
    assert "present-spec" not in passed_sets(report)


@pytest.mark.parametrize("design", [
    "present-80/masked:flaw=register", "present-80/masked:flaw=reuse",
    pytest.param("aes-128/masked:flaw=register", marks=pytest.mark.slow),
    pytest.param("aes-128/masked:flaw=reuse", marks=pytest.mark.slow),
    pytest.param("gift/masked:flaw=reuse", marks=pytest.mark.slow),
    pytest.param("sm4/masked:flaw=register", marks=pytest.mark.slow),
    pytest.param("aes-128/masked:width=64,flaw=register", marks=pytest.mark.slow),
])
def test_the_broken_variants_compute_correctly(design: str) -> None:
    report = verify(design)
    assert report.failed == 0, report.first_failures()


@pytest.mark.parametrize("design", [
    "present-80/masked:shares=1",
    pytest.param("present-80/masked:shares=3", marks=pytest.mark.slow),
    pytest.param("aes-128/masked:shares=1", marks=pytest.mark.slow),
    pytest.param("aes-128/masked:shares=3", marks=pytest.mark.slow),
    pytest.param("aes-128/masked:width=64,shares=3", marks=pytest.mark.slow),
    pytest.param("gift/masked:shares=3", marks=pytest.mark.slow),
    pytest.param("sm4/masked:shares=3", marks=pytest.mark.slow),
])
def test_other_share_counts_verify(design: str) -> None:
    report = verify(design)
    assert report.failed == 0, report.first_failures()


@pytest.mark.parametrize("design", ["present-80/masked",
                                    pytest.param("aes-128/masked", marks=pytest.mark.slow),
                                    pytest.param("gift/masked", marks=pytest.mark.slow),
                                    pytest.param("sm4/masked", marks=pytest.mark.slow)])
def test_no_cone_of_a_core_holds_two_shares_of_one_value(design: str, tmp_path: Path) -> None:
    """Every register names the share it holds (``<value>_s<k>``, the gadgets' DOM terms
    ``<mul>_c<i><j>``); following each combinational cone back to registers and inputs finds
    no two domains of one bit. A necessary condition for first-order security under glitches,
    not a proof (the leakage assessment is the test)."""
    core, _shape, _facts = build_core(parse(design))
    assert meeting_shares(core, core.io.port_list(), tmp_path) == []


def test_the_cone_check_finds_the_compressed_multiplier(tmp_path: Path) -> None:
    core, _shape, _facts = build_core(parse("present-80/masked:flaw=register"))
    meetings = meeting_shares(core, core.io.port_list(), tmp_path)
    assert meetings and all(where.startswith("register") for where, _ in meetings)


def xorshift64_model(x: int) -> int:
    mask = (1 << 64) - 1
    x ^= (x << 13) & mask
    x ^= x >> 7
    x ^= (x << 17) & mask
    return x


@pytest.mark.parametrize("seed", [1, None])
def test_the_harness_prng(seed: int | None) -> None:
    """The harness's generators step as xorshift64 from their seeded states every clock; stuck
    at zero, every bit is 0."""
    bank = XorshiftBank(100, seed)
    seen: list[int] = []

    async def bench(ctx: object) -> None:
        for _ in range(5):
            seen.append(ctx.get(bank.output))  # type: ignore[attr-defined]
            await ctx.tick()  # type: ignore[attr-defined]

    top = Module()
    top.submodules.bank = bank
    top.d.sync += Signal(name="tick").eq(1)  # a clock domain even where the bank has no register
    sim = AmaranthSimulator(top)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    if seed is None:
        assert seen == [0] * 5
        return
    states = [seed_state(seed, 0), seed_state(seed, 1)]
    for value in seen:
        assert value == (states[0] | states[1] << 64) & ((1 << 100) - 1)
        states = [xorshift64_model(s) for s in states]
    assert len(set(seen)) == 5
