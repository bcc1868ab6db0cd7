"""The block family: one block in, one block out, under a key loaded before it.

Every cipher core cipherbench generates or wraps is a block design (docs/interface.md):

- ports: ``interface.CoreSignature`` (a key channel, an input and an output stream of blocks);
- testbench: ``verify/tb/tb.cpp``, driving ``in_block``/``out_block`` from a list of operations
  (``verify/sim.py``'s ``Op``: key loads, blocks, chains, idle cycles), built by Verilator with the
  port widths as defines (``verify/sim.py``'s ``Simulator``);
- model: ``ciphers/base.py``'s ``CipherModel`` (``encrypt(key, block)``, ``decrypt(key, block)``);
- measured: cycle counts per key size (``verify/measure.py``), written into the manifest: those
  of the smallest key size at its top level, every key size's under ``cycles_by_key_size``;
- derived: throughput, times, efficiency and energy per key size from the counts, a flow's clock
  and area (``metrics``, on the generic formulas of ``cipherbench.metrics``).

Import order: the family is the top of its graph. The machinery it runs declares its own part
of the contract (verify/sim.py the testbench, verify/measure.py the cycle counts, metrics.py the
derived figures and how they are computed), and this module gathers them into the family;
nothing below imports the family.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ..ciphers.base import CipherModel
from ..errors import CipherbenchError
from ..interface import CoreShape, CoreSignature
from ..metrics import DERIVED, by_key_size
from ..verify.activity import WORKLOADS
from ..verify.measure import CYCLE_COUNTS, measure_cycles
from ..verify.sim import TESTBENCH, Simulator, testbench_source
from . import Figure

if TYPE_CHECKING:
    from ..spec import DesignSpec

# Where a manifest keeps every key size's counts (the top level has the smallest key size's).
BY_KEY_SIZE = "cycles_by_key_size"


class BlockFamily:
    """The block family (module docstring). Its one instance is ``BLOCK``."""

    name = "block"
    title = ("one block in, one block out, under a loaded key; cycle counts per block and key "
             "size")
    testbench = TESTBENCH
    model_protocol: type = CipherModel
    power_workloads = WORKLOADS
    manifest_fields: tuple[str, ...] = tuple(f.name for f in CYCLE_COUNTS)
    figures: tuple[Figure, ...] = CYCLE_COUNTS + DERIVED

    def signature(self, shape: CoreShape,
                  round_keys: tuple[int, int] | None = None) -> CoreSignature:
        """The core's ports (interface.py): ``round_keys=(index_bits, round_key_bits)`` for a
        keys=loaded core's round-key write port."""
        return CoreSignature(shape, round_keys=round_keys)

    def testbench_source(self) -> str:
        return testbench_source()

    def simulator(self, design_dir: Path, build_root: Path | None = None,
                  trace: bool = False) -> Simulator:
        """The Verilator simulator of ``design_dir``'s core (its "simulation" wrapper if it has
        one) around tb.cpp; built on first use, cached by a hash of what goes into it."""
        return Simulator(design_dir, build_root, trace)

    def measure_cycles(self, design_dir: Path, spec: DesignSpec, model: CipherModel,
                       build_root: Path | None = None) -> dict[str, dict[str, int | None]]:
        """The cycle counts of every key size of ``spec``, keyed by its decimal string, each
        checked for constant time and against ``model`` (verify/measure.py)."""
        sim = self.simulator(design_dir, build_root)
        sim.build()
        return {str(bits): measure_cycles(sim, model, bits) for bits in spec.key_sizes}

    def manifest_entries(self, measured: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        """The smallest key size's counts at the manifest's top level, then every key size's."""
        smallest = min(measured, key=int)
        return {**measured[smallest], BY_KEY_SIZE: dict(measured)}

    def measured(self, manifest: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        try:
            return dict(manifest[BY_KEY_SIZE])
        except KeyError:
            raise CipherbenchError(f"manifest of {manifest.get('design', 'a design')} has no "
                                   f"measured cycle counts ({BY_KEY_SIZE}): generate it with "
                                   "measurement") from None

    def metrics(self, design: Mapping[str, Any], measured: Mapping[Any, Mapping[str, Any]],
                clock_mhz: float | None,
                flow_figures: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
        """Every DERIVED figure per key size, keyed by its decimal string in ascending order.
        ``design["block_bits"]``: the block size; ``measured``: counts by key size (ints or
        decimal strings, as JSON gives them back)."""
        return by_key_size(int(design["block_bits"]), measured, clock_mhz, flow_figures)


    def activity(self, spec: DesignSpec, design_dir: Path, manifest: Mapping[str, Any],
                 sim_netlist: Path, work: Path, workload: str, model: Any) -> Any:
        """Blocks offered back to back (stream) or every 2 x II clocks (half)."""
        from ..verify.activity import simulate_activity

        cycles = next(iter(manifest["cycles_by_key_size"].values()))
        return simulate_activity(spec, design_dir, sim_netlist, work, workload,
                                 int(cycles["initiation_interval"]))

    def simulate_vectors(self, design_dir: Path, spec: DesignSpec, model: Any, op: str,
                         vectors: Path) -> tuple[str, str]:
        """``KEYHEX DATAHEX`` lines in, one ``RESULTHEX`` line per block out."""
        from ..verify.sim import BlockOp, KeyOp
        from ..verify.vectors import read_simple_vectors

        pairs = read_simple_vectors(vectors)
        _check_vector_sizes(spec, model, pairs, vectors, op)
        sim = Simulator(design_dir)
        sim.build()
        ops: list[Any] = []
        current: bytes | None = None
        for key, data in pairs:
            if key != current:
                ops.append(KeyOp(key))
                current = key
            ops.append(BlockOp(data, op == "decrypt"))
        trace = sim.run(ops)
        return ("".join(out.hex() + "\n" for out in trace.outputs),
                f"{len(trace.outputs)} blocks {op}ed by {spec}")


def _check_vector_sizes(spec: DesignSpec, model: Any, vectors: list[tuple[bytes, bytes]],
                        path: Path, op: str) -> None:
    block_bytes = model.block_bits // 8
    ops = spec.param_dict.get("ops", "both")
    if ops != "both" and ops != op:
        raise CipherbenchError(f"{spec} is an {ops}-only core; use --op {ops} or ops=both")
    valid = ", ".join(str(k) for k in spec.key_sizes)
    for n, (key, data) in enumerate(vectors, start=1):
        if len(key) * 8 not in spec.key_sizes:
            raise CipherbenchError(f"{path}: vector {n}: {len(key) * 8}-bit key; {spec} takes "
                                   f"{valid}-bit keys")
        if len(data) != block_bytes:
            raise CipherbenchError(f"{path}: vector {n}: {len(data)}-byte block; {spec.cipher} "
                                   f"blocks are {block_bytes} bytes")


BLOCK = BlockFamily()
