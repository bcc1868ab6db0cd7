"""The leakage assessment of a generated masked core (issue 31): the core-level driver, the
probe scope read from the netlist, and one call running both checks.

Everything is read from the design's ``manifest.json`` (arch/masked.py writes it), nothing is
named per cipher:

- **ports and shares**: ``parameters.masking.share_ports`` (``key_s<k>``, ``in_block_s<k>``,
  ``out_block_s<k>``), the randomness port and its bits per clock (``parameters.randomness``);
- **timing**: the measured ``latency`` (clocks from the edge a block is taken to the edge its
  result is, docs/interface.md) and the datapath's ``round_clocks``.

Per trace (:func:`core_driver`): clock 0 offers the block (``in_valid`` high for that clock
only, ``out_ready`` high throughout) with the fixed key and the plaintext, both shared afresh
for the trace (shares 0..d-1 uniform, share d the value XOR them: ``MaskedDriver``); the key is
the same in every trace, the plaintext is the fixed one or a uniformly random one (the TVLA
fixed-versus-random sets); ``rnd`` gets fresh bits in every clock. The block's result is on
``out_block_s*`` at clock ``latency``; the campaign runs :data:`MARGIN` clocks beyond it.
:func:`check_core_runs` simulates a few traces first and compares the XOR of the output shares
with the cipher model's encryption, so a driver that runs the core wrong (a latency off by one,
a share port swapped) stops the assessment instead of judging an idle core.

An unmasked twin (``shares=1``) has one port per value: the driver gives it the values as they
are (there is nothing to share), so the same campaign judges it.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import CipherbenchError
from .assess import assess
from .driver import MaskedDriver, Secret
from .netlist import Netlist, read_netlist
from .probing import THRESHOLD as PROBING_THRESHOLD
from .probing import ProbeSelection, ProbeTest, ProbingResult
from .simulate import TraceSimulator, choose_backend
from .stimulus import Planes
from .synthesis import synthesize_netlist
from .tvla import TvlaResult

# The fixed inputs of the TVLA methodology's non-specific test (Goodwill et al. 2011): its AES
# key and fixed plaintext, taken from the left for narrower values and repeated for wider ones.
TVLA_KEY = bytes.fromhex("0123456789abcdef123456789abcdef023456789abcdef013456789abcdef012")
TVLA_BLOCK = bytes.fromhex("da39a3ee5e6b4b0d3255bfef95601890")
MARGIN = 2          # clocks simulated after the result's clock: the core idles, nothing leaks
CHECK_TRACES = 64   # traces whose output is compared with the model before the campaign
TARGET = "leakage:tvla+probing"
POWER_MODEL = "zero-delay Hamming distance of every net, unit weights, one sample per clock"
PROBING_MODEL = "first-order glitch-extended probing (robust probing model), G-test"
TVLA_MODEL = "fixed-vs-random Welch t-test, first order"
SBOX_PATTERN = re.compile(r"sbox", re.IGNORECASE)
# The chance that a secure core shows a false probing leak in one campaign, whatever the number
# of tests: a core's round is thousands of tests, each a false leak with probability 1e-5 at
# PROLEAD's threshold of 5 (docs/leakage.md), so the verdict's threshold grows with them.
FAMILY_ALPHA = 1e-3

Say = Callable[[str], None]


@dataclass(frozen=True)
class MaskedCoreInfo:
    """What the assessment needs to know of a masked core, read from its manifest."""

    design: str
    cipher: str
    top: str
    shares: int
    flaw: str
    key_bits: int
    block_bits: int
    key_ports: tuple[str, ...]
    block_ports: tuple[str, ...]
    out_ports: tuple[str, ...]
    random_port: str | None
    random_bits_per_clock: int
    random_bits_per_block: int
    random_bits_per_evaluation: int
    sbox_evaluations_per_block: int
    latency: int
    round_clocks: int
    decrypt_port: bool
    # A streaming core (arch/masked.py ``Stream``): the bytes (0 = most significant) each
    # input chunk carries, chunk j on the j-th clock from the load clock, and each output
    # chunk, one per clock, the last at ``latency``; empty for a core with whole-value ports.
    in_order: tuple[tuple[int, ...], ...] = ()
    out_order: tuple[tuple[int, ...], ...] = ()
    has_out_ready: bool = True

    @property
    def clocks(self) -> int:
        """Clocks a trace runs: the load clock, the block's, and the margin."""
        return self.latency + 1 + MARGIN

    @property
    def out_clocks(self) -> tuple[int, ...]:
        """The clocks the output shares are read at: ``latency``, or a stream's chunks."""
        count = max(len(self.out_order), 1)
        return tuple(range(self.latency - count + 1, self.latency + 1))


def read_core_info(manifest: Mapping[str, Any]) -> MaskedCoreInfo:
    """The masked core of ``manifest``; a one-line error for a design without shares."""
    design = str(manifest.get("design", "?"))
    params = manifest.get("parameters") or {}
    masking = params.get("masking")
    if not isinstance(masking, Mapping) or "share_ports" not in masking:
        raise no_shares(design, str(manifest.get("cipher", "?")), manifest.get("key_sizes") or [])
    ports = {p["name"]: p for p in manifest["ports"]}
    share_ports = masking["share_ports"]
    randomness = params.get("randomness") or {}
    key_sizes = manifest.get("key_sizes") or []
    if len(key_sizes) != 1:
        raise CipherbenchError(f"{design}: a masked core takes one key size, not {key_sizes}")
    latency = manifest.get("latency")
    if not isinstance(latency, int) or latency < 1:
        raise CipherbenchError(f"{design}: its manifest has no measured latency; generate it "
                               f"with cycle counts (without --no-measure)")
    info = MaskedCoreInfo(
        design=design, cipher=str(manifest["cipher"]), top=str(manifest["top"]),
        shares=int(masking["shares"]), flaw=str(masking.get("flaw", "none")),
        key_bits=int(key_sizes[0]), block_bits=int(manifest["block_bits"]),
        key_ports=tuple(share_ports["key"]), block_ports=tuple(share_ports["in_block"]),
        out_ports=tuple(share_ports["out_block"]),
        random_port=randomness.get("port") or None,
        random_bits_per_clock=int(randomness.get("bits_per_clock") or 0),
        random_bits_per_block=int(randomness.get("bits_per_block") or 0),
        random_bits_per_evaluation=int(randomness.get("bits_per_evaluation") or 0),
        sbox_evaluations_per_block=int(randomness.get("sbox_evaluations_per_block") or 0),
        latency=latency, round_clocks=int(params.get("round_clocks") or latency),
        decrypt_port="in_decrypt" in ports,
        in_order=_byte_order(params, "in_order"), out_order=_byte_order(params, "out_order"),
        has_out_ready="out_ready" in ports)
    # A stream's output has no out_ready: whoever reads it takes the chunks as they come.
    flow = ("in_valid", "out_valid") if info.out_order else ("in_valid", "out_ready", "out_valid")
    missing = [p for p in (*info.key_ports, *info.block_ports, *info.out_ports, *flow)
               if p not in ports]
    if missing:
        raise CipherbenchError(f"{design}: the manifest names share ports it does not list: "
                               f"{', '.join(missing)}")
    return info


def no_shares(design: str, cipher: str, key_sizes: Sequence[int]) -> CipherbenchError:
    """The one-line error for a design that is not masked: what to ask for instead."""
    return CipherbenchError(
        f"{design} has no shares: the leakage assessment drives a masked core's share ports; "
        f"ask for one with the masked architecture, e.g. {masked_example(cipher, key_sizes)} "
        f"(`cipherbench list` shows its parameters)")


def masked_example(cipher: str, key_sizes: Sequence[int]) -> str:
    """A masked design of ``cipher`` (of its first key size), or, when it has none, the ciphers
    that have one."""
    from ..arch.registry import ARCHITECTURES, offered
    from ..ciphers.registry import ciphers

    known = ciphers()
    arch = ARCHITECTURES["masked"]
    if cipher in known and offered(known[cipher], arch):
        sizes = list(key_sizes) or list(known[cipher].key_sizes)
        bits = f"-{sizes[0]}" if len(known[cipher].key_sizes) > 1 else ""
        return f"{cipher}{bits}/masked:shares=2"
    having = [name for name, info in known.items() if offered(info, arch)]
    return f"<cipher>/masked:shares=2 ({cipher} has no masked core; {', '.join(having)} do)"


def _byte_order(params: Mapping[str, Any], name: str) -> tuple[tuple[int, ...], ...]:
    """A streaming core's chunk order from ``parameters.io`` (empty without one)."""
    io = params.get("io")
    if not isinstance(io, Mapping) or name not in io:
        return ()
    return tuple(tuple(int(b) for b in chunk) for chunk in io[name])


def read_core_manifest(design_dir: Path) -> MaskedCoreInfo:
    return read_core_info(json.loads((Path(design_dir) / "manifest.json").read_text()))


def fixed_value(pattern: bytes, bits: int) -> bytes:
    """``bits`` bits of ``pattern`` from the left (repeated when shorter), as bytes."""
    if bits % 8:
        raise CipherbenchError(f"a fixed value of {bits} bits: only whole bytes are driven")
    size = bits // 8
    return (pattern * (size // len(pattern) + 1))[:size]


def as_int(value: bytes) -> int:
    """A key or block as the port value: byte 0 in the most significant bits."""
    return int.from_bytes(value, "big")


def core_driver(core: MaskedCoreInfo, key: bytes, block: bytes) -> MaskedDriver:
    """The fixed-versus-random driver (module docstring): the secret is the plaintext
    (``block``), the key is fixed in both groups; shared afresh per trace when the core has
    shares."""
    if len(key) * 8 != core.key_bits or len(block) * 8 != core.block_bits:
        raise CipherbenchError(f"{core.design}: a {core.key_bits}-bit key and "
                               f"{core.block_bits}-bit block, not {len(key) * 8} and "
                               f"{len(block) * 8} bits")
    key_value = as_int(key)
    masked = core.shares > 1
    key_name = "key" if masked else core.key_ports[0]
    block_name = "block" if masked else core.block_ports[0]
    load: dict[str, Any] = {"in_valid": 1}
    if core.has_out_ready:
        load["out_ready"] = 1
    if core.decrypt_port:
        load["in_decrypt"] = 0
    # A stream takes chunk j of the key and block on clock j; each chunk is shared afresh,
    # which draws its shares as a fresh sharing of the whole value would.
    chunks = core.in_order
    key_chunks = [int_chunk(key, order) for order in chunks] if chunks else [key_value]

    def schedule(clock: int, secrets: Mapping[str, Planes]) -> dict[str, Any]:
        given: dict[str, Any] = dict(load) if clock == 0 else {}
        if clock == 1:
            given["in_valid"] = 0
        if clock < len(key_chunks):
            block = secrets["block"]
            given[key_name] = key_chunks[clock]
            given[block_name] = planes_chunk(block, chunks[clock]) if chunks else block
        return given

    shares = {"key": core.key_ports, "block": core.block_ports} if masked else {}
    randomness = (core.random_port,) if core.random_port and core.random_bits_per_clock else ()
    return MaskedDriver([Secret("block", core.block_bits, fixed=as_int(block))], shares=shares,
                        randomness=randomness, schedule=schedule)


def int_chunk(value: bytes, order: Sequence[int]) -> int:
    """The chunk of ``value`` carrying bytes ``order``, its first byte the most significant."""
    return int.from_bytes(bytes(value[b] for b in order), "big")


def planes_chunk(planes: Planes, order: Sequence[int]) -> Planes:
    """The chunk of a block's bit planes (bit i in row i, byte 0 the most significant)
    carrying bytes ``order``, its first byte the most significant."""
    top = planes.width // 8 - 1
    rows = [planes.array[8 * (top - b):8 * (top - b) + 8] for b in reversed(order)]
    return Planes(np.concatenate(rows))


def planes_to_ints(planes: Planes, count: int) -> list[int]:
    """Each trace's value of ``planes`` (bit i of the port in bit i of the int)."""
    bits = planes.values(count)
    weights = [1 << i for i in range(planes.width)]
    return [sum(w for w, b in zip(weights, bits[:, t]) if b) for t in range(count)]


def check_core_runs(netlist: Netlist, core: MaskedCoreInfo, driver: MaskedDriver, key: bytes,
                    encrypt: Callable[[bytes, bytes], bytes], traces: int = CHECK_TRACES,
                    seed: int = 0, backend: str = "auto") -> int:
    """Simulate ``traces`` traces as the campaign will and check that the block is taken at
    clock 0, that ``out_valid`` rises first at clock ``latency`` and that the XOR of the output
    shares there is ``encrypt(key, block)`` on every trace. Returns the traces checked; a
    one-line error on the first difference."""
    driver.check(netlist)
    outputs = [n for port in core.out_ports for n in netlist.outputs[port]]
    flags = [netlist.outputs["in_ready"][0], netlist.outputs["out_valid"][0]]
    rng = np.random.default_rng(seed)
    drawn = driver.batch(rng, traces)
    out_clocks = core.out_clocks
    first = out_clocks[0]
    run = TraceSimulator(netlist, power_nets=[], backend=backend).run(
        traces, core.clocks, driver.stimulus(netlist, drawn, rng), record_nets=outputs + flags,
        record_clocks=(0, first - 1, *out_clocks))
    if not run.value(flags[0], 0).all():
        raise CipherbenchError(f"{core.design}: in_ready is low in the load clock: the core "
                               f"did not take the block (reset state?)")
    if run.value(flags[1], first - 1).any() or \
            not all(run.value(flags[1], c).all() for c in out_clocks):
        chunks = f" for its {len(out_clocks)} chunks" if len(out_clocks) > 1 else ""
        raise CipherbenchError(f"{core.design}: out_valid does not rise at clock {first}"
                               f"{chunks}, as the manifest's latency says: the driver's timing "
                               f"is wrong")
    result = _output_bits(run, core, out_clocks, len(outputs) // len(core.out_ports), traces)
    width = core.block_bits
    blocks = planes_to_ints(drawn.secrets["block"], traces)
    size = width // 8
    for t in range(traces):
        got = sum(1 << i for i in range(width) if result[i, t]).to_bytes(size, "big")
        block = blocks[t].to_bytes(size, "big")
        want = encrypt(key, block)
        if got != want:
            raise CipherbenchError(
                f"{core.design}: trace {t}: the output shares XOR to {got.hex()}, the model "
                f"encrypts {block.hex()} under {key.hex()} to {want.hex()}: the driver does "
                f"not run the core right")
    return traces


def _output_bits(run: Any, core: MaskedCoreInfo, out_clocks: Sequence[int], width: int,
                 traces: int) -> np.ndarray:
    """The XOR of the output shares (each ``width`` bits, recorded first), bit i in row i:
    read at ``latency``, or assembled from a stream's chunks."""
    result = np.zeros((core.block_bits, traces), dtype=np.uint8)
    top = core.block_bits // 8 - 1
    orders = core.out_order or (tuple(range(core.block_bits // 8)),)
    for clock, order in zip(out_clocks, orders):
        bits = run.bits(clock)
        chunk = np.zeros((width, traces), dtype=np.uint8)
        for share in range(len(core.out_ports)):
            chunk ^= bits[share * width:(share + 1) * width]
        for i, byte in enumerate(order):
            low = 8 * (len(order) - 1 - i)
            result[8 * (top - byte):8 * (top - byte) + 8] = chunk[low:low + 8]
    return result


# ---- what is probed ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ProbeScope:
    """The wires the probing check observes: the round's instances (``round``: the datapath
    and a key schedule beside it, the masked S-boxes inside), the S-box instances among them
    (``sboxes``, reported apart), and the clocks (the load clock, the first round and the
    clock after it)."""

    round: tuple[str, ...]
    sboxes: tuple[str, ...]
    clocks: tuple[int, ...]

    def nets(self, netlist: Netlist) -> tuple[int, ...]:
        return tuple(sorted({n for path in self.round for n in netlist.in_scope(path)}))


def family_threshold(tests: int, alpha: float = FAMILY_ALPHA) -> float:
    """The probing verdict's -log10(p) threshold for ``tests`` tests: PROLEAD's 5, or, when there
    are more tests than that keeps at ``alpha`` false leaks per campaign, Bonferroni's
    -log10(alpha / tests) (3 + log10(tests) at 1e-3: 7.3 for 18,000 tests). The tests are not
    independent (a wire at several clocks, overlapping probes), so this errs to the safe side
    for a secure core; a real leak's -log10(p) grows linearly with the traces and passes it
    quickly."""
    return max(PROBING_THRESHOLD, -math.log10(alpha / max(tests, 1)))


def _natural(path: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", path))


def probe_scope(netlist: Netlist, core: MaskedCoreInfo, clocks: int | None = None) -> ProbeScope:
    """The round to probe, read from the netlist's instance paths: the top's ``datapath``
    (and ``key_schedule``) instances, which hold the state and key shares and the masked
    S-boxes; the S-boxes are the instances inside them whose name says ``sbox``. ``clocks``:
    how many clocks from the load clock (default: the load clock, the first round's
    ``round_clocks`` and one more, where the round's result enters the next)."""
    tops = sorted({p.split(".")[0] for p in netlist.modules})
    round_paths = tuple(p for p in ("datapath", "key_schedule") if p in tops)
    if not round_paths:
        raise CipherbenchError(f"{core.design}: no datapath instance in the netlist (instances: "
                               f"{', '.join(tops) or 'none'}); synthesize with a structure that "
                               f"keeps instance names (keep or modules)")
    sboxes = tuple(sorted((p for p in netlist.modules
                           if p.split(".")[0] in round_paths and "." in p
                           and SBOX_PATTERN.search(p.rsplit(".", 1)[-1])), key=_natural))
    count = core.round_clocks + 2 if clocks is None else clocks
    if not 1 <= count <= core.clocks:
        raise CipherbenchError(f"probe clocks must be within 1..{core.clocks} (a trace's clocks)")
    return ProbeScope(round_paths, sboxes, tuple(range(count)))


def in_sbox(netlist: Netlist, scope: ProbeScope, test: ProbeTest) -> bool:
    """Whether a probing test's wires lie in one of the S-box instances."""
    for wire in test.wires:
        try:
            net = netlist.net(wire)
        except KeyError:
            continue
        if any(s == p or s.startswith(p + ".") for s in netlist.scopes[net] for p in scope.sboxes):
            return True
    return False


# ---- the assessment ---------------------------------------------------------------------------


@dataclass
class CoreAssessment:
    """Both checks on one masked core and how they were run."""

    core: MaskedCoreInfo
    structure: str
    backend: str
    seed: int
    gates: int
    flip_flops: int
    power_nets: int
    checked_traces: int
    scope: ProbeScope
    key: bytes
    block: bytes
    tvla: TvlaResult | None
    probing: ProbingResult | None
    sbox_tests: list[ProbeTest] = field(default_factory=list)
    tvla_seconds: float = 0.0
    probing_seconds: float = 0.0

    @property
    def tvla_passes(self) -> bool | None:
        return None if self.tvla is None else not self.tvla.leaks

    @property
    def probing_passes(self) -> bool | None:
        return None if self.probing is None else not self.probing.leaks

    @property
    def passes(self) -> bool:
        return self.tvla_passes is not False and self.probing_passes is not False

    def tvla_rate(self) -> float | None:
        """Traces per second of the t-test campaign (simulation included)."""
        if self.tvla is None or self.tvla_seconds <= 0:
            return None
        return self.tvla.traces / self.tvla_seconds

    def probing_rate(self) -> float | None:
        if self.probing is None or self.probing_seconds <= 0:
            return None
        return self.probing.traces / self.probing_seconds

    def sbox_worst(self) -> ProbeTest | None:
        return self.sbox_tests[0] if self.sbox_tests else None

    def measurements(self) -> dict[str, Any]:
        """The stored figures (plain JSON; infinities as strings, as TvlaResult writes them)."""
        data: dict[str, Any] = {
            "shares": self.core.shares, "flaw": self.core.flaw,
            "latency": self.core.latency, "clocks": self.core.clocks,
            "random_bits_per_clock": self.core.random_bits_per_clock,
            "random_bits_per_block": self.core.random_bits_per_block,
            "random_bits_per_evaluation": self.core.random_bits_per_evaluation,
            "sbox_evaluations_per_block": self.core.sbox_evaluations_per_block,
            "block_bits": self.core.block_bits,
            "netlist_gates": self.gates, "netlist_flip_flops": self.flip_flops,
            "power_nets": self.power_nets, "checked_traces": self.checked_traces,
            "power_model": POWER_MODEL, "tvla_model": TVLA_MODEL, "probing_model": PROBING_MODEL,
            "verdict": "pass" if self.passes else "fail",
        }
        if self.tvla is not None:
            t = self.tvla.to_dict()
            data.update({
                "tvla_traces": self.tvla.traces, "tvla_max_abs_t": t["max_abs_t"],
                "tvla_clock": self.tvla.at_sample, "tvla_threshold": self.tvla.threshold,
                "tvla_first_leak_traces": self.tvla.first_leak(),
                "tvla_verdict": "pass" if self.tvla_passes else "fail",
                "tvla_seconds": round(self.tvla_seconds, 3),
                "tvla_traces_per_second": _rounded(self.tvla_rate()),
            })
        if self.probing is not None:
            worst = self.probing.worst
            sbox = self.sbox_worst()
            data.update({
                "probing_traces": self.probing.traces,
                "probing_scope": list(self.scope.round),
                "probing_clocks": [self.scope.clocks[0], self.scope.clocks[-1]],
                "probing_tests": len(self.probing.tests),
                "probing_sparse_tests": sum(t.sparse for t in self.probing.tests),
                "probing_leaking_tests": len(self.probing.leaking()),
                "probing_max_minus_log10_p": _finite(worst.minus_log10_p) if worst else 0.0,
                "probing_where": _where(worst),
                "probing_threshold": self.probing.threshold,
                "probing_sbox_instances": len(self.scope.sboxes),
                "probing_sbox_tests": len(self.sbox_tests),
                "probing_sbox_max_minus_log10_p": _finite(sbox.minus_log10_p) if sbox else None,
                "probing_sbox_where": _where(sbox),
                "probing_verdict": "pass" if self.probing_passes else "fail",
                "probing_seconds": round(self.probing_seconds, 3),
                "probing_traces_per_second": _rounded(self.probing_rate()),
            })
        return data

    def summary_lines(self) -> list[str]:
        """The verdict in one screen."""
        core = self.core
        rnd = (f"{core.random_bits_per_clock} random bits per clock"
               if core.random_bits_per_clock else "no randomness")
        lines = [f"{core.design}: {core.shares} share{'s' if core.shares > 1 else ''}"
                 f"{'' if core.flaw == 'none' else f', flaw={core.flaw}'}, {rnd}, "
                 f"{core.clocks} clocks per trace (latency {core.latency})",
                 f"  netlist ({self.structure}): {self.gates} gates, {self.flip_flops} flip-flops, "
                 f"{self.power_nets} nets in the power sample; output checked against the model "
                 f"on {self.checked_traces} traces"]
        if self.tvla is not None:
            rate = self.tvla_rate()
            lines.append(f"  t-test: {'PASS' if self.tvla_passes else 'FAIL'}: max |t| = "
                         f"{self.tvla.max_abs_t:.2f} at clock {self.tvla.at_sample} over "
                         f"{self.tvla.traces} traces (threshold {self.tvla.threshold}); "
                         f"{self.tvla_seconds:.1f} s" + (f", {rate:,.0f} traces/s" if rate else ""))
            first = self.tvla.first_leak()
            if first is not None:
                lines.append(f"    |t| above the threshold after {first} traces")
        if self.probing is not None:
            worst = self.probing.worst
            sbox = self.sbox_worst()
            lines.append(
                f"  probing: {'PASS' if self.probing_passes else 'FAIL'}: "
                f"{len(self.probing.leaking())} of {len(self.probing.tests)} tests above "
                f"-log10(p) = {self.probing.threshold:.1f}, {self.probing.traces} traces, "
                f"{'+'.join(self.scope.round)} at clocks {self.scope.clocks[0]}-"
                f"{self.scope.clocks[-1]}; {self.probing_seconds:.1f} s")
            if worst is not None:
                lines.append(f"    worst: {worst.minus_log10_p:.1f} at {_where(worst)}")
            if sbox is not None:
                lines.append(f"    S-boxes ({len(self.scope.sboxes)} instances, "
                             f"{len(self.sbox_tests)} tests): worst {sbox.minus_log10_p:.1f} at "
                             f"{_where(sbox)}")
            sparse = sum(t.sparse for t in self.probing.tests)
            if sparse:
                lines.append(f"    {sparse} tests too sparse to have much power (more traces)")
        lines.append(f"  verdict: {'PASS' if self.passes else 'FAIL'} "
                     f"(first order; {POWER_MODEL}; {PROBING_MODEL})")
        return lines


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _finite(value: float) -> float | str:
    return value if np.isfinite(value) else "inf"


def _where(test: ProbeTest | None) -> str | None:
    """A probing test's place, short: its clock and first wires."""
    if test is None:
        return None
    wires = ", ".join(test.wires[:2]) + (f" (+{len(test.wires) - 2})" if len(test.wires) > 2
                                         else "")
    return f"clock {test.clock}: {wires}"


def assess_core(design_dir: Path, traces: int, probe_traces: int, *,
                structure: str = "keep", netlist: Netlist | None = None,
                probe_clocks: int | None = None, seed: int = 1, backend: str = "auto",
                threads: int = 1, batch: int | None = None, key: bytes | None = None,
                block: bytes | None = None, say: Say | None = None) -> CoreAssessment:
    """Both checks on the masked core in ``design_dir``: the t-test over every clock of
    ``traces`` traces (0: none), glitch-extended probing of the round over ``probe_traces``
    (0: none). ``netlist``: an already synthesized one (else ``structure`` decides).
    ``batch``: the t-test's traces per batch (default: as many as fit 64 MB), the resolution
    of ``tvla.first_leak()``."""
    from ..ciphers.registry import ciphers

    core = read_core_manifest(design_dir)
    backend = choose_backend(backend)
    if traces < 0 or probe_traces < 0 or (traces and traces < 2) or \
            (probe_traces and probe_traces < 2):
        raise CipherbenchError("a fixed-versus-random test needs at least 2 traces")
    if not traces and not probe_traces:
        raise CipherbenchError("nothing to assess: give traces for the t-test, the probing or both")
    key = key if key is not None else fixed_value(TVLA_KEY, core.key_bits)
    block = block if block is not None else fixed_value(TVLA_BLOCK, core.block_bits)
    if netlist is None:
        if say:
            say(f"synthesizing {core.design} to gates (structure {structure})")
        netlist = read_netlist(synthesize_netlist(Path(design_dir), structure))
    driver = core_driver(core, key, block)
    model = ciphers()[core.cipher].model()
    checked = check_core_runs(netlist, core, driver, key, model.encrypt, seed=seed,
                              backend=backend)
    scope = probe_scope(netlist, core, probe_clocks)
    power_nets = len(netlist.design_nets())
    tvla = probing = None
    tvla_seconds = probing_seconds = 0.0
    if traces:
        if say:
            say(f"t-test: {traces} traces x {core.clocks} clocks")
        start = time.monotonic()
        tvla = assess(netlist, driver, traces, core.clocks, seed=seed, backend=backend,
                      threads=threads, batch=batch).tvla
        tvla_seconds = time.monotonic() - start
    sbox_tests: list[ProbeTest] = []
    if probe_traces:
        if say:
            say(f"probing: {probe_traces} traces, {'+'.join(scope.round)} at clocks "
                f"{scope.clocks[0]}-{scope.clocks[-1]}")
        selection = ProbeSelection(nets=scope.nets(netlist), clocks=scope.clocks)
        start = time.monotonic()
        # Only as many clocks as the probes need are simulated.
        probing = assess(netlist, driver, probe_traces, scope.clocks[-1] + 1, tvla=False,
                         probes=selection, seed=seed + 1, backend=backend,
                         threads=threads).probing
        probing_seconds = time.monotonic() - start
        assert probing is not None
        probing.threshold = family_threshold(len(probing.tests))
        sbox_tests = [t for t in probing.tests if in_sbox(netlist, scope, t)]
    return CoreAssessment(
        core=core, structure=structure, backend=backend, seed=seed, gates=len(netlist.gates),
        flip_flops=len(netlist.registers), power_nets=power_nets, checked_traces=checked,
        scope=scope, key=key, block=block, tvla=tvla, probing=probing, sbox_tests=sbox_tests,
        tvla_seconds=tvla_seconds, probing_seconds=probing_seconds)
