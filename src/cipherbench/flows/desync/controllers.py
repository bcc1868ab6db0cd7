"""The handshake network of a de-synchronized core: one four-phase controller per bank, built
from C-elements and simple gates of the library (blocks.py), with requests joined by C-element
trees, acknowledges joined the same way, and a matched delay in front of every bank's request.

Why this controller. The simple four-phase controller (one C-element per bank, a Muller
pipeline: blocks.latch_controller) keeps a token in every second bank, so a ring needs three
banks per token; the two banks of a register that feeds itself (an iterative core's state) are a
ring of two, and it deadlocks (tests/test_desync_blocks.py shows it). De-synchronization needs a
controller that lets every bank hold a token of its own: the input and the output handshake
decoupled. The one here does that with three C-elements and three gates per bank:

    start = RIN & !AOUT & !AIN & !ROUT      (NOR3 of AIN, ROUT and NAND2(RIN, !AOUT))
    E     = C(start, !(AIN & ROUT))         the bank's enable: a pulse
    Ed    = E through a short delay line    (the pulse lasts at least that long)
    AIN   = C(Ed, RIN)                      acknowledge to the banks before: captured
    ROUT  = C(Ed, !AOUT)                    request to the banks after: new data

A bank captures (E pulses: latches open and close, or flip-flops clock on its rising edge) when
its inputs carry a token (RIN high) and its previous output token has been taken and the output
handshake has returned to zero (AOUT low, ROUT low). Capturing raises both AIN (the banks before
may lower their requests and, once AIN falls again, send the next token) and ROUT (the banks
after may capture). E falls only once both have risen, so neither C-element can miss the pulse.
The two sides then return to zero independently: AIN falls once RIN has, ROUT once AOUT has
risen; neither waits for the other, so a bank can hold its token while the bank before already
holds the next one. Every signal's transitions are enabled by inputs that stay stable until the
signal has switched (the AND-type start condition only ever becomes true once per cycle, and
nothing it reads can change back before E rises), which is what makes the network work under any
gate delays; the one timing assumption is the bundled data: a bank's request reaches it only
after its data has settled, which the matched delay on RIN guarantees (timing.py).

Initial state: slave banks hold a token (ROUT high: the registers' current values), master banks
are empty; so every master can capture at once, as at a clock edge. Rings in the bank graph always
alternate masters and slaves (banks.py), so each holds a token and a bubble and none deadlocks.

The environment's two nodes are ports: ``env_req`` (ENV_IN's ROUT, high in reset with the first
input token) and ``env_ack`` (the join of the AINs of the banks that read inputs); ``out_req``
(ENV_OUT's delayed RIN) and ``out_ack`` (ENV_OUT's AIN, the testbench's).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .banks import ENV_IN, ENV_OUT, BankGraph
from .blocks import Netlist, c_element, delay_line

ENV_REQ, ENV_ACK, OUT_REQ, OUT_ACK = "env_req", "env_ack", "out_req", "out_ack"
RESET = "arst"
# Fanout of one buffer in an enable's buffer tree.
ENABLE_FANOUT = 8
# Delay-line stages sharing one buffered copy of the line's input (the fast reset).
RESET_GROUP = 8


@dataclass
class BankControl:
    """The nets of one bank's controller."""

    name: str
    full: bool  # holds a token after reset (slave banks)
    rin: str = ""  # the delayed, joined request
    aout: str = ""
    ain: str = ""
    rout: str = ""
    enable: str = ""  # E, before its buffer tree
    stages: int = 0  # of RIN's matched delay
    pulse_stages: int = 0


@dataclass
class Network:
    """The controllers and where each bank's storage enable comes from."""

    controls: dict[str, BankControl]
    enable_nets: dict[str, list[str]] = field(default_factory=dict)  # bank -> buffered enables
    cells: dict[str, int] = field(default_factory=dict)  # part -> instances


def build_network(net: Netlist, graph: BankGraph, request_stages: dict[str, int],
                  pulse_stages: int, storage_counts: dict[str, int]) -> Network:
    """Emit the controllers of every bank of ``graph`` into ``net``.

    ``request_stages``: delay-line stages of each sink (bank or ENV_OUT) after its request join;
    ``storage_counts``: storage cells each bank's enable drives (for its buffer tree)."""
    controls = {name: BankControl(name, full=bank.role == "slave")
                for name, bank in graph.banks.items()}
    for ctl in controls.values():
        ctl.ain, ctl.rout, ctl.enable = (net.wire(f"{ctl.name}_ain"), net.wire(f"{ctl.name}_rout"),
                                         net.wire(f"{ctl.name}_e"))
    network = Network(controls)

    def request_of(src: str) -> str:
        return ENV_REQ if src == ENV_IN else controls[src].rout

    def ack_of(dst: str) -> str:
        return OUT_ACK if dst == ENV_OUT else controls[dst].ain

    for name, ctl in controls.items():
        joined = join(net, f"{name}_rj", [request_of(p) for p in graph.preds(name)],
                      init=1 if _preds_full(graph, name) else 0)
        ctl.stages = request_stages.get(name, 1)
        ctl.rin = fast_reset_delay(net, f"{name}_md", joined, ctl.stages)
        ctl.aout = join(net, f"{name}_aj", [ack_of(s) for s in graph.succs(name)], init=0)
        ctl.pulse_stages = pulse_stages
        _controller(net, ctl)
        network.enable_nets[name] = buffer_tree(net, f"{name}_eb", ctl.enable,
                                                storage_counts.get(name, 0))
    # The environment's side.
    out_join = join(net, "envout_rj", [request_of(p) for p in graph.preds(ENV_OUT)], init=1)
    out_req = fast_reset_delay(net, "envout_md", out_join, request_stages.get(ENV_OUT, 1))
    net.lines.append(f"  assign {OUT_REQ} = {out_req};")
    env_ack = join(net, "envin_aj", [ack_of(s) for s in graph.succs(ENV_IN)], init=0)
    net.lines.append(f"  assign {ENV_ACK} = {env_ack};")
    return network


def _preds_full(graph: BankGraph, name: str) -> bool:
    """Whether the banks before ``name`` start with a token: a master's (slaves, ENV_IN) do."""
    preds = graph.preds(name)
    return bool(preds) and all(p == ENV_IN or graph.banks[p].role == "slave" for p in preds)


def _controller(net: Netlist, ctl: BankControl) -> None:
    cells, n = net.cells, ctl.name
    aout_n = net.gate(cells.inverter, f"{n}_aoi", {"a": ctl.aout}, f"{n}_aout_n")
    ready_n = net.gate(cells.nand2, f"{n}_rdy", {"a": ctl.rin, "b": aout_n}, f"{n}_ready_n")
    start = net.gate(cells.nor3, f"{n}_st", {"a": ctl.ain, "b": ctl.rout, "c": ready_n},
                     f"{n}_start")
    done_n = net.gate(cells.nand2, f"{n}_dn", {"a": ctl.ain, "b": ctl.rout}, f"{n}_done_n")
    c_element(net, f"{n}_ce", start, done_n, ctl.enable, RESET, init=0)
    delayed = delay_line(net, f"{n}_pd", ctl.enable, ctl.pulse_stages)
    c_element(net, f"{n}_ca", delayed, ctl.rin, ctl.ain, RESET, init=0)
    c_element(net, f"{n}_cr", delayed, aout_n, ctl.rout, RESET, init=1 if ctl.full else 0)


def join(net: Netlist, name: str, signals: list[str], init: int) -> str:
    """All of ``signals`` high -> high, all low -> low: a balanced tree of 2-input C-elements
    (reset to ``init``); one signal is itself, none is a constant high (nothing to wait for)."""
    if not signals:
        return "1'b1" if init else "1'b0"
    level, depth = list(signals), 0
    while len(level) > 1:
        nxt = []
        for i in range(0, len(level) - 1, 2):
            out = net.wire(f"{name}_{depth}_{i // 2}")
            nxt.append(c_element(net, f"{name}_c{depth}_{i // 2}", level[i], level[i + 1], out,
                                 RESET, init=init))
        if len(level) % 2:
            nxt.append(level[-1])
        level, depth = nxt, depth + 1
    return level[0]


def fast_reset_delay(net: Netlist, name: str, source: str, stages: int) -> str:
    """A matched delay that delays only the rising edge: stage k = AND(source, stage k-1), so a
    request's fall resets every stage at once (one AND delay) and the four-phase return to zero
    does not wait through the line. The source's fanout to the stages goes through one buffer per
    ``RESET_GROUP`` stages. Zero stages: the source itself."""
    if stages <= 0 or source.startswith("1'b"):
        return source
    # The first stage is a buffer (an AND of the source with itself is no gate to time).
    current = net.gate(net.cells.buffer, f"{name}_b0", {"a": source}, f"{name}_d0")
    reset_copy = source
    for k in range(1, stages):
        if k % RESET_GROUP == 0:
            reset_copy = net.gate(net.cells.buffer, f"{name}_rb{k}", {"a": source},
                                  f"{name}_r{k}")
        current = net.gate(net.cells.and2, f"{name}_a{k}", {"a": reset_copy, "b": current},
                           f"{name}_d{k}")
    return current


def buffer_tree(net: Netlist, name: str, source: str, loads: int) -> list[str]:
    """Nets that together drive ``loads`` storage enables from ``source``, at most
    ``ENABLE_FANOUT`` loads each: a balanced buffer tree (the clock tree a bank needs)."""
    if loads <= ENABLE_FANOUT:
        return [source]
    leaves = -(-loads // ENABLE_FANOUT)
    level, depth = [source], 0
    while len(level) < leaves:
        nxt = []
        for i, parent in enumerate(level):
            for j in range(ENABLE_FANOUT):
                if len(nxt) >= leaves:
                    break
                nxt.append(net.gate(net.cells.buffer, f"{name}_b{depth}_{i}_{j}", {"a": parent},
                                    f"{name}_n{depth}_{i}_{j}"))
        level, depth = nxt, depth + 1
    return level
