"""The generated Verilog of every design of the shipped studies, kept to compare two versions of
the code: a restructuring must leave the hardware as it was.

    python benchmarks/design_texts.py write OUT_DIR [STUDY.toml ...]   # generate, keep, hash
    python benchmarks/design_texts.py compare BEFORE_DIR AFTER_DIR      # same text, or prove
    python benchmarks/design_texts.py figures BEFORE_DB AFTER_DB        # same stored figures

``write`` generates each design (no cycle measurement: the Verilog only) into OUT_DIR/<slug>/ and
writes OUT_DIR/digests.json: the design as the study names it -> its spec, slug and the sha256 of
its Verilog files, in order. The study's own text is the key because the two versions of the code
may spell a design's canonical name differently (``des/iterative`` once read ``des-64/...``).
``compare`` lists the designs whose text is the same, and proves the others equal with the project's netlist proof
(verify/netlist_proof.py: both sides' gate prefixes, registers matched by name); a design whose
proof does not succeed is printed as DIFFERENT and the exit status is 1. ``figures`` pairs the
rows of two results databases (the same study run by each version) by design and target and
compares what a report shows of them: status, reason, measurements, cycles and metrics. The
provenance (dates, durations, commit, tool paths) is left out: it says how a row was made.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tomllib
from pathlib import Path

STUDIES = ("nsa", "sugawara", "gaj", "fischer", "papaefstathiou")
ROOT = Path(__file__).resolve().parent.parent


def study_designs(paths: list[Path]) -> list[str]:
    designs: dict[str, None] = {}
    for path in paths:
        for design in tomllib.loads(path.read_text())["designs"]:
            designs.setdefault(design, None)
    # The default study too.
    for design in ("aes-128/iterative", "aes/iterative"):
        designs.setdefault(design, None)
    return list(designs)


def _digest(folder: Path) -> str:
    manifest = json.loads((folder / "manifest.json").read_text())
    digest = hashlib.sha256()
    for name in manifest["verilog"]:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    return digest.hexdigest()


def write(out: Path, studies: list[Path]) -> None:
    from cipherbench.errors import CipherbenchError
    from cipherbench.generate import generate
    from cipherbench.spec import parse

    out.mkdir(parents=True, exist_ok=True)
    digests: dict[str, dict[str, str]] = {}
    for design in study_designs(studies):
        spec = parse(design)
        folder = out / spec.slug
        try:
            if not (folder / "manifest.json").is_file():
                generate(spec, folder, measure=False)
        except CipherbenchError as exc:
            # A design this version refuses is kept as refused: the other version must refuse
            # it too (the Fischer study once named Twofish 16-bit cores that never existed).
            digests[design] = {"spec": str(spec), "refused": str(exc)}
            print(f"{design}: refused ({exc})", flush=True)
            continue
        digests[design] = {"spec": str(spec), "slug": spec.slug, "sha256": _digest(folder)}
        print(f"{design}: {digests[design]['sha256'][:16]}", flush=True)
    (out / "digests.json").write_text(json.dumps(digests, indent=2) + "\n")


def compare(before: Path, after: Path) -> int:
    from cipherbench.flows.base import load_design
    from cipherbench.flows.gates_prefix import gates_prefix
    from cipherbench.verify.netlist_proof import prove_equal

    old = json.loads((before / "digests.json").read_text())
    new = json.loads((after / "digests.json").read_text())
    different = 0
    for design, entry in old.items():
        if design not in new:
            print(f"{design}: MISSING after")
            different += 1
            continue
        if "refused" in entry or "refused" in new[design]:
            both = "refused" in entry and "refused" in new[design]
            different += 0 if both else 1
            print(f"{design}: refused {'by both' if both else 'by one side only: DIFFERENT'}")
            continue
        if entry["sha256"] == new[design]["sha256"]:
            print(f"{design}: same text")
            continue
        a = load_design(before / entry["slug"])
        b = load_design(after / new[design]["slug"])
        work = after / "proofs" / entry["slug"]
        work.mkdir(parents=True, exist_ok=True)
        ref, _ = gates_prefix(a, "flat", "restructure", work / "before_gates.log")
        mapped, _ = gates_prefix(b, "flat", "restructure", work / "after_gates.log")
        proof = prove_equal(ref, mapped, b.top, work)
        verdict = "proven equal" if proof.equal else f"DIFFERENT ({proof.reason})"
        different += 0 if proof.equal else 1
        print(f"{design}: text differs, {verdict}")
    return 1 if different else 0


FIGURE_FIELDS = ("status", "reason", "measurements", "cycles", "metrics")


def figures(before_db: str, after_db: str) -> int:
    from cipherbench.store import Store

    def rows(db: str) -> dict[tuple[str, str], dict[str, object]]:
        with Store(db) as store:
            return {(r.design, r.target): {f: getattr(r, f) for f in FIGURE_FIELDS}
                    for r in store.results()}

    old, new = rows(before_db), rows(after_db)
    different = compared = 0
    for key in sorted(old.keys() | new.keys()):
        name = f"{key[0]} on {key[1]}"
        if key not in old or key not in new:
            print(f"{name}: only {'after' if key in new else 'before'}")
            different += 1
            continue
        changed, only_before, only_after = _figure_differences(old[key], new[key])
        different += bool(changed or only_before or only_after)
        compared += len(_shared_figures(old[key], new[key]))
        parts = [f"changed: {', '.join(changed)}"] if changed else []
        parts += [f"only before: {', '.join(only_before)}"] if only_before else []
        parts += [f"only after: {', '.join(only_after)}"] if only_after else []
        shared = "every shared figure identical" if not changed else "DIFFERENT"
        print(f"{name} ({old[key]['status']}): "
              f"{'identical' if not parts else shared + '; ' + '; '.join(parts)}")
    print(f"{len(old.keys() & new.keys())} rows in both, {compared} figures both have: "
          f"{'every one identical' if not different else f'{different} rows differ'}")
    return 1 if different else 0


def _shared_figures(old: dict[str, object], new: dict[str, object]) -> set[str]:
    a = {k for f in FIGURE_FIELDS for k in _flat(old[f], f)}
    return a & {k for f in FIGURE_FIELDS for k in _flat(new[f], f)}


def _flat(value: object, prefix: str) -> dict[str, object]:
    if not isinstance(value, dict):
        return {} if value is None else {prefix: value}  # a None figure is one not measured
    flat: dict[str, object] = {}
    for name, inner in value.items():
        flat.update(_flat(inner, f"{prefix}.{name}"))
    return flat


def _figure_differences(old: dict[str, object],
                        new: dict[str, object]) -> tuple[list[str], list[str], list[str]]:
    """Figures (field.key...) whose values differ, and those only one row has."""
    a = {k: v for f in FIGURE_FIELDS for k, v in _flat(old[f], f).items()}
    b = {k: v for f in FIGURE_FIELDS for k, v in _flat(new[f], f).items()}
    changed = sorted(k for k in a.keys() & b.keys() if a[k] != b[k])
    return changed, sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("out", type=Path)
    w.add_argument("studies", type=Path, nargs="*")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    f = sub.add_parser("figures")
    f.add_argument("before_db")
    f.add_argument("after_db")
    args = parser.parse_args()
    if args.command == "write":
        write(args.out, args.studies or [ROOT / "studies" / f"{s}.toml" for s in STUDIES])
    elif args.command == "compare":
        sys.exit(compare(args.before, args.after))
    else:
        sys.exit(figures(args.before_db, args.after_db))


if __name__ == "__main__":
    main()
