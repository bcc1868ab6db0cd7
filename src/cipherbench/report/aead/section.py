"""The report's section "Authenticated encryption": our message-level engines (GCM over a
generated block core, behind the LWC API) with their message-level figures, what GCM costs on
top of the bare core measured on the same target, and the published engines beside ours, with
the ratio ours/published where both are at the same node."""

from __future__ import annotations

import json
from typing import Any, Sequence

from ...kinds.engine import EngineSpec, parse_engine
from ...store import Result
from ..same_node import library_name, library_text, ratio, ratio_text, result_node, same_node
from ..tables import MISSING, Table, fmt, key_figure
from .published import PUBLISHED, PublishedEngine

TITLE = "Authenticated encryption: GCM engines behind the LWC API"
EXPLANATION = (
    "Each engine is the GCM layer over a block core the generators build (its counter blocks "
    "go through the core's own stream interface), behind the NIST LWC hardware API at the "
    "named width (w = 128: the API widened to a block a word). Figures follow the LWC "
    "benchmarking convention: throughput of long messages from the clocks a block adds to "
    "1,536 bytes (encryption; 'AD + msg': a block of each; the convention's fifth block over "
    "four is beside it, which a deep pipeline's latency hides), and of 16, 64 and 1,536-byte "
    "messages "
    "(message only, encryption), from ENC taken to the status word taken; key setup is the "
    "clocks a new key adds (H = E_K(0)). Every engine was verified before it was measured "
    "(the CAVP files, two independent implementations, random lengths, stalls, key changes, "
    "constant time) and its netlist simulated. GCM's cost is the engine over its bare core "
    "(`ops=encrypt`) on the same target and settings, when the results hold the core.",
)
LONG = "throughput_mbps_enc_msg_stream"
LONG_BOTH = "throughput_mbps_enc_both_stream"
LWC_LONG = "throughput_mbps_enc_msg_long"


def engine_rows(results: Sequence[Result]) -> list[tuple[Result, EngineSpec]]:
    """The ok rows of engines, with their specs, in a stable order."""
    rows = []
    for r in results:
        if r.ok and (r.metrics or {}).get("family") == "message":
            rows.append((r, parse_engine(r.design)))
    return sorted(rows, key=lambda pair: (pair[0].target, json.dumps(pair[0].settings,
                                                                    sort_keys=True),
                                          pair[0].design))


def relevant(engines: Sequence[Result]) -> bool:
    return bool(engine_rows(engines))


def _place(r: Result) -> str:
    library = library_name(r)
    return library_text(library) if library else r.target


def _key(r: Result) -> str:
    keys = sorted((r.metrics.get("by_key_size") or {}), key=int)
    return keys[0] if keys else "128"


def _mbps(r: Result, name: str) -> Any:
    return key_figure(r, _key(r), name)


def _gbps(value: Any) -> Any:
    return None if value is None else value / 1000.0


def engines_table(rows: Sequence[tuple[Result, EngineSpec]]) -> Table:
    headers = ["engine", "core", "GHASH", "w", "library (node)", "synthesis", "GE", "MHz",
               "key setup (clocks)", "Gbps long", "Gbps long, AD + msg", "Gbps 5 - 4 blocks",
               "Mbps 16 B", "Mbps 64 B", "Mbps 1,536 B", "ns 16 B", "Kbps/GE long"]
    out = []
    for r, spec in rows:
        mode = spec.mode_params
        out.append([r.design, str(spec.core), mode["ghash"], mode["w"], _place(r),
                     str(r.settings.get("goal") or MISSING),
                     fmt(r.metrics.get("gate_equivalents")), fmt(r.metrics.get("fmax_mhz")),
                     fmt((r.cycles.get(_key(r)) or {}).get("key_setup")),
                     fmt(_gbps(_mbps(r, LONG))), fmt(_gbps(_mbps(r, LONG_BOTH))),
                     fmt(_gbps(_mbps(r, LWC_LONG))),
                     fmt(_mbps(r, "throughput_mbps_enc_msg_16")),
                     fmt(_mbps(r, "throughput_mbps_enc_msg_64")),
                     fmt(_mbps(r, "throughput_mbps_enc_msg_1536")),
                     fmt(_mbps(r, "time_ns_enc_msg_16")),
                     fmt(_mbps(r, "kbps_per_ge_enc_msg_stream"))])
    return Table("Our GCM engines: message-level figures", headers, out, key="aead-engines")


def _bare_core(r: Result, spec: EngineSpec, results: Sequence[Result]) -> Result | None:
    core = str(spec.core)
    settings = json.dumps(r.settings, sort_keys=True)
    return next((c for c in results if c.ok and c.design == core and c.target == r.target
                 and json.dumps(c.settings, sort_keys=True) == settings), None)


def overhead_table(rows: Sequence[tuple[Result, EngineSpec]], results: Sequence[Result]) -> Table:
    headers = ["engine", "library (node)", "synthesis", "bare core", "core GE", "core MHz",
               "core Gbps", "area x", "clock x", "throughput x"]
    out = []
    for r, spec in rows:
        core = _bare_core(r, spec, results)
        if core is None:
            out.append([r.design, _place(r), str(r.settings.get("goal") or MISSING),
                        f"{spec.core} (not in the results)", *[MISSING] * 6])
            continue
        core_mbps = key_figure(core, _key(r), "throughput_mbps")
        out.append([r.design, _place(r), str(r.settings.get("goal") or MISSING), core.design,
                    fmt(core.metrics.get("gate_equivalents")), fmt(core.metrics.get("fmax_mhz")),
                    fmt(_gbps(core_mbps)),
                    ratio_text(ratio(r.metrics.get("gate_equivalents"),
                                     core.metrics.get("gate_equivalents"))),
                    ratio_text(ratio(r.metrics.get("fmax_mhz"), core.metrics.get("fmax_mhz"))),
                    ratio_text(ratio(_mbps(r, LONG), core_mbps))])
    return Table("What GCM costs: each engine over its bare core on the same target", headers,
                 out, notes=["x: engine / bare core. The core's throughput is its non-feedback "
                             "(ECB) one; the engine's is long messages' (encryption)."],
                 key="aead-overhead")


def published_table(rows: Sequence[tuple[Result, EngineSpec]]) -> Table:
    headers = ["source", "node or device", "architecture", "MHz", "Gbps", "area", "note",
               "ours at the same node: engine", "Gbps", "MHz", "Gbps ours/published"]
    out = []
    for p in PUBLISHED:
        best = _fastest_at(rows, p)
        ours: list[str] = [MISSING] * 4
        if best is not None:
            gbps = _gbps(_mbps(best, LONG))
            ours = [f"{best.design} ({best.settings.get('goal') or '-'})", fmt(gbps),
                    fmt(best.metrics.get("fmax_mhz")), ratio_text(ratio(gbps, p.throughput_gbps))]
        out.append([p.source, p.node, p.architecture, fmt(p.clock_mhz), fmt(p.throughput_gbps),
                    p.area, p.note, *ours])
    return Table("Published AES-GCM engines beside ours", headers, out,
                 notes=["Ours: the fastest of our engines (long messages) on a library of the "
                        "source's node; none where we measured no library of that node "
                        "(an FPGA device or another node)."], key="aead-published")


def _fastest_at(rows: Sequence[tuple[Result, EngineSpec]],
                p: PublishedEngine) -> Result | None:
    if p.node_um is None:
        return None
    at = [r for r, _spec in rows if same_node(result_node(r), p.node_um)
          and _mbps(r, LONG) is not None]
    return max(at, key=lambda r: _mbps(r, LONG), default=None)


def tables(engines: Sequence[Result], results: Sequence[Result]) -> list[Table]:
    rows = engine_rows(engines)
    if not rows:
        return []
    return [engines_table(rows), overhead_table(rows, results), published_table(rows)]
