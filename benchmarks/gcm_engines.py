"""AES-GCM engines behind the LWC API, measured: cycles per message (the message family's cases,
each message checked against the GCM model in simulation), then the ASIC flow's area and clock,
and the figures derived from them, beside the bare block core on the same flow (GCM's overhead).

    python benchmarks/gcm_engines.py OUT [--engine SPEC,W,GHASH ...] [--liberty osu018 ...]
        [--goal area|speed ...]

An engine is ``SPEC,W,GHASH[,OPTION...]``: the block core's design spec
(``aes-128/iterative:ops=encrypt``), the LWC data width (32 or 128), the GHASH multiplier
(``karatsuba``, ``schoolbook``, ``karatsuba2``, ``serial:D``), and options: ``decouple`` (the core's
streams behind FIFOs) and ``ahead=N`` (at most N blocks in the core). Results go to OUT/results.json, one entry per engine, library and
goal, kept across runs (an entry there is not measured again: the script is resumable), and a
Markdown table is printed. The engines are verified in simulation by the measurement itself
(every message of every case against the model) and by tests/test_gcm_engine.py (CAVP records);
the synthesized netlists are not simulated here.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_ENGINES = ("aes-128/iterative:ops=encrypt,32,karatsuba",
                   "aes-128/iterative:ops=encrypt,32,serial:8",
                   "aes-128/iterative:ops=encrypt,128,karatsuba")


def engine_options(options: list[str]) -> dict[str, Any]:
    """``decouple`` and ``ahead=N`` as gcm_engine_design's keywords."""
    found: dict[str, Any] = {}
    for option in options:
        if option == "decouple":
            found["decouple"] = True
        elif option.startswith("ahead="):
            found["ahead"] = int(option.split("=", 1)[1])
        else:
            raise SystemExit(f"unknown engine option {option!r}: decouple or ahead=N")
    return found


def engine_folder(out: Path, spec: str, w: int, ghash: str, options: list[str]) -> Path:
    """The engine's design folder (Verilog, manifest, cycles), written once."""
    from cipherbench.families.message import MESSAGE
    from cipherbench.message.gcm import GcmAead
    from cipherbench.message.gcm_engine import gcm_engine_design
    from cipherbench.message.lwc_io import write_lwc_design
    from cipherbench.spec import parse

    parsed = parse(spec)
    suffix = "".join(f"_{o.replace('=', '')}" for o in options)
    folder = out / f"{parsed.slug}_w{w}_{ghash.replace(':', '')}{suffix}"
    manifest_path = folder / "manifest.json"
    if manifest_path.exists() and "cycles_per_message" in json.loads(manifest_path.read_text()):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    manifest = write_lwc_design(gcm_engine_design(spec, w, ghash, **engine_options(options)),
                                folder)
    model = GcmAead(parsed.cipher, max(parsed.key_sizes))
    started = time.monotonic()
    manifest.update(MESSAGE.manifest_entries(MESSAGE.measure_cycles(folder, parsed, model)))
    manifest.update({"design": f"{spec} + GCM ({ghash}, {options}), w = {w}", "block_bytes": 16,
                     "measure_seconds": round(time.monotonic() - started, 1)})
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    return folder


def synthesize(folder: Path, liberty: str, goal: str) -> dict[str, Any]:
    """The ASIC flow's measurements of the design in ``folder``."""
    from cipherbench.flows import get_flow
    from cipherbench.targets import expand_target

    target = next(t for t in expand_target("asic", libraries=[liberty], goals=(goal,)))
    with tempfile.TemporaryDirectory(prefix="gcm-flow-") as work:
        result = get_flow("asic").run(folder, Path(work), dict(target.settings))
    return dict(result.measurements)


def bare_core(spec: str, liberty: str, goal: str) -> dict[str, Any]:
    """The block core alone on the same flow, with its measured cycles."""
    from cipherbench.cache import ensure_design
    from cipherbench.spec import parse

    folder = ensure_design(parse(spec))
    manifest = json.loads((folder / "manifest.json").read_text())
    return {"measurements": synthesize(folder, liberty, goal),
            "initiation_interval": manifest["initiation_interval"]}


def measure(out: Path, engine: str, liberty: str, goal: str) -> dict[str, Any]:
    from cipherbench.families.message import MESSAGE

    spec, w, ghash, *options = engine.split(",")
    folder = engine_folder(out, spec, int(w), ghash, options)
    manifest = json.loads((folder / "manifest.json").read_text())
    started = time.monotonic()
    figures = synthesize(folder, liberty, goal)
    bare = bare_core(spec, liberty, goal)
    clock = figures.get("fmax_mhz")
    derived = MESSAGE.metrics({"block_bytes": 16}, manifest["cycles_per_message"], clock, figures)
    (key_bits, counts), = manifest["cycles_per_message"].items()
    bare_clock = bare["measurements"].get("fmax_mhz")
    return {"engine": engine, "liberty": liberty, "goal": goal, "key_bits": key_bits,
            "measurements": figures, "cycles": counts, "metrics": derived[key_bits],
            "bare": {**bare, "throughput_mbps": 128 * bare_clock / bare["initiation_interval"]
                     if bare_clock else None},
            "flow_seconds": round(time.monotonic() - started, 1)}


def table(entries: list[dict[str, Any]]) -> str:
    rows = ["| engine | library, goal | GE | MHz | long msg Mbps (enc) | 16 B | 64 B | 1536 B | "
            "bare core GE | bare Mbps | GE x | Mbps x |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for e in entries:
        m, d, b = e["measurements"], e["metrics"], e["bare"]
        ge, bare_ge = m.get("gate_equivalents"), b["measurements"].get("gate_equivalents")
        long = d.get("throughput_mbps_enc_msg_long")
        short = [d.get(f"throughput_mbps_enc_msg_{n}") for n in (16, 64, 1536)]
        rows.append(
            f"| `{e['engine']}` | {Path(e['liberty']).name}, {e['goal']} | {ge:,.0f} | "
            f"{m.get('fmax_mhz', 0):.1f} | {long:,.0f} | "
            + " | ".join(f"{s:,.0f}" for s in short)
            + f" | {bare_ge:,.0f} | {b['throughput_mbps']:,.0f} | {ge / bare_ge:.2f} | "
              f"{long / b['throughput_mbps']:.2f} |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--engine", action="append")
    parser.add_argument("--liberty", action="append")
    parser.add_argument("--goal", action="append", choices=("area", "speed"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    store = args.out / "results.json"
    entries: list[dict[str, Any]] = json.loads(store.read_text()) if store.exists() else []
    done = {(e["engine"], e["liberty"], e["goal"]) for e in entries}
    for engine in args.engine or DEFAULT_ENGINES:
        for liberty in args.liberty or ["osu018"]:
            for goal in args.goal or ["area"]:
                if (engine, liberty, goal) in done:
                    continue
                print(f"measuring {engine} on {liberty}, {goal}", file=sys.stderr, flush=True)
                entries.append(measure(args.out, engine, liberty, goal))
                store.write_text(json.dumps(entries, indent=1) + "\n")
    print(table(entries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
