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

Import order: this module declares the family and imports only declarations (the signature, the
model protocol, the formulas); the machinery that runs it (``verify/sim.py``,
``verify/measure.py``) imports this module for its testbench and figures, so the methods that
run that machinery import it where they run it.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from .. import metrics as formulas
from ..ciphers.base import CipherModel
from ..errors import CipherbenchError
from ..interface import CoreShape, CoreSignature
from . import Figure

if TYPE_CHECKING:
    from ..spec import DesignSpec
    from ..verify.sim import Simulator

# The cycle counts measured in simulation (never assumed), in the order verify/measure.py returns
# them and a manifest holds them. Cycle n is the n-th rising edge after reset.
CYCLE_COUNTS: tuple[Figure, ...] = (
    Figure("latency", "cycles",
           "cycles from the edge a block is accepted to the edge its result is accepted with "
           "`out_ready` held high: `t_out - t_in`"),
    Figure("latency_decrypt", "cycles",
           "the same for a decryption block (null for a core without decryption)"),
    Figure("initiation_interval", "cycles",
           "in a long stream under one key, with `in_valid` and `out_ready` held high: cycles "
           "between successive block acceptances (steady state)"),
    Figure("cycles_per_chained_block", "cycles",
           "each block is the previous result (CBC-like feedback, the feedback applied with zero "
           "delay in the same cycle the result is offered): cycles between successive "
           "acceptances"),
    Figure("key_setup_encrypt", "cycles",
           "after a key is accepted at cycle `k`, with an encryption block offered from then on, "
           "first accepted at `b`: `b - k - 1` (0: the block can follow the key immediately)"),
    Figure("key_setup_decrypt", "cycles", "the same for a decryption block"),
    Figure("algorithm_setup", "cycles",
           "cycles from the release of reset until `key_ready` first goes high"),
)

# The figures derived per key size (metrics), in the order reports list them. A figure that
# cannot be derived (no clock, no decryption, no LUTs on an ASIC) is null, never assumed.
DERIVED: tuple[Figure, ...] = (
    Figure("throughput_mbps", "Mbps",
           "block bits x clock / `initiation_interval`: non-feedback modes"),
    Figure("throughput_feedback_mbps", "Mbps",
           "block bits x clock / `cycles_per_chained_block`: feedback modes"),
    Figure("bits_per_cycle", "bits/cycle", "block bits / `initiation_interval`"),
    Figure("time_to_encrypt_ns", "ns", "`latency` / clock"),
    Figure("time_to_decrypt_ns", "ns", "`latency_decrypt` / clock"),
    Figure("key_setup_encrypt_ns", "ns", "`key_setup_encrypt` / clock"),
    Figure("key_setup_decrypt_ns", "ns", "`key_setup_decrypt` / clock"),
    Figure("algorithm_setup_ns", "ns", "`algorithm_setup` / clock"),
    Figure("kbps_per_ge", "Kbps/GE", "`throughput_mbps` / gate equivalents (ASIC)"),
    Figure("mbps_per_lut", "Mbps/LUT", "`throughput_mbps` / LUTs (FPGA)"),
    Figure("energy_per_bit_pj", "pJ/bit",
           "power / throughput, both at the clock the power was simulated at"),
)

# Where a manifest keeps every key size's counts (the top level has the smallest key size's).
BY_KEY_SIZE = "cycles_by_key_size"


class BlockFamily:
    """The block family (module docstring). Its one instance is ``BLOCK``."""

    name = "block"
    title = ("one block in, one block out, under a loaded key; cycle counts per block and key "
             "size")
    testbench = "verify/tb/tb.cpp"
    model_protocol: type = CipherModel
    manifest_fields: tuple[str, ...] = tuple(f.name for f in CYCLE_COUNTS)
    figures: tuple[Figure, ...] = CYCLE_COUNTS + DERIVED

    def signature(self, shape: CoreShape,
                  round_keys: tuple[int, int] | None = None) -> CoreSignature:
        """The core's ports (interface.py): ``round_keys=(index_bits, round_key_bits)`` for a
        keys=loaded core's round-key write port."""
        return CoreSignature(shape, round_keys=round_keys)

    def testbench_source(self) -> str:
        return resources.files("cipherbench").joinpath(self.testbench).read_text()

    def simulator(self, design_dir: Path, build_root: Path | None = None,
                  trace: bool = False) -> Simulator:
        """The Verilator simulator of ``design_dir``'s core (its "simulation" wrapper if it has
        one) around tb.cpp; built on first use, cached by a hash of what goes into it."""
        from ..verify.sim import Simulator

        return Simulator(design_dir, build_root, trace)

    def measure_cycles(self, design_dir: Path, spec: DesignSpec, model: CipherModel,
                       build_root: Path | None = None) -> dict[str, dict[str, int | None]]:
        """The cycle counts of every key size of ``spec``, keyed by its decimal string, each
        checked for constant time and against ``model`` (verify/measure.py)."""
        from ..verify.measure import measure_cycles

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
        block_bits = int(design["block_bits"])
        by_key: dict[str, dict[str, float | None]] = {}
        for bits in sorted(measured, key=lambda k: int(formulas.key_size_label(k))):
            label = formulas.key_size_label(bits)
            by_key[label] = per_key_size(block_bits, measured[bits], clock_mhz, flow_figures,
                                         label)
        return by_key


def _times(cycles: Mapping[str, Any], fmax: float | None, label: str) -> dict[str, float | None]:
    """Cycle counts -> ns. Missing counts or a missing clock give None."""
    pairs = {
        "time_to_encrypt_ns": "latency",
        "time_to_decrypt_ns": "latency_decrypt",
        "key_setup_encrypt_ns": "key_setup_encrypt",
        "key_setup_decrypt_ns": "key_setup_decrypt",
        "algorithm_setup_ns": "algorithm_setup",
    }
    out: dict[str, float | None] = {}
    for figure, count_name in pairs.items():
        count = formulas.checked_number(cycles.get(count_name), f"{count_name} (key {label})",
                                        positive=False)
        out[figure] = (formulas.cycles_to_ns(count, fmax)
                       if count is not None and fmax is not None else None)
    return out


def per_key_size(block_bits: int, cycles: Mapping[str, Any], fmax: float | None,
                 figures: Mapping[str, Any], label: str) -> dict[str, float | None]:
    """Every DERIVED figure for one key size: ``cycles`` its counts, ``fmax`` the clock in MHz,
    ``figures`` the flow's (area, gate equivalents, LUTs, power); ``label`` names the key size in
    errors."""
    ii = formulas.checked_number(cycles.get("initiation_interval"),
                                 f"initiation_interval (key {label})", positive=True)
    chained = formulas.checked_number(cycles.get("cycles_per_chained_block"),
                                      f"cycles_per_chained_block (key {label})", positive=True)
    out: dict[str, float | None] = dict.fromkeys(f.name for f in DERIVED)
    if ii is not None:
        out["bits_per_cycle"] = block_bits / ii
    if fmax is not None:
        out["throughput_mbps"] = (formulas.throughput_mbps(block_bits, fmax, ii)
                                  if ii is not None else None)
        if chained is not None:
            out["throughput_feedback_mbps"] = formulas.throughput_mbps(block_bits, fmax, chained)
    out.update(_times(cycles, fmax, label))
    rate = out["throughput_mbps"]
    if rate is not None:
        ge = formulas.gate_equivalents_of(figures)
        luts = formulas.checked_number(figures.get("luts"), "luts", positive=True)
        out["kbps_per_ge"] = formulas.kbps_per_ge(rate, ge) if ge is not None else None
        out["mbps_per_lut"] = formulas.mbps_per_lut(rate, luts) if luts is not None else None
    power = formulas.checked_number(figures.get("power_mw"), "power_mw", positive=False)
    # Power is only meaningful at the clock it was simulated at; default to fmax.
    power_clock = formulas.checked_number(figures.get("power_clock_mhz"), "power_clock_mhz",
                                          positive=True) or fmax
    if power is not None and power_clock is not None and ii is not None:
        out["energy_per_bit_pj"] = formulas.energy_per_bit_pj(power, block_bits, power_clock, ii)
    return out


BLOCK = BlockFamily()
