"""The ``cipherbench`` command. Every user error is one line on stderr and a non-zero exit."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from .errors import CipherbenchError

EXIT_USER_ERROR = 2
EXIT_FAILED_JOBS = 1


class _Group(click.Group):
    """Turn CipherbenchError into one line and exit code 2, wherever it is raised."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CipherbenchError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(EXIT_USER_ERROR)
        except KeyboardInterrupt:
            click.echo("interrupted: nothing half-written was kept; rerun to resume", err=True)
            ctx.exit(130)


def _progress(text: str) -> None:
    click.echo(f"  {text}", err=True)


# Text, not click.Path: a path would fold the "//" of a postgresql:// URL.
_db_option = click.option(
    "--db", default=None, metavar="FILE|URL",
    help="Results database: a SQLite file (or sqlite:///FILE) or a postgresql:// URL "
         "(default: $CIPHERBENCH_DB or results/cipherbench.sqlite).")


def _existing_db(db: str | None) -> str | Path:
    """The database to read; a SQLite file that is not there is an error, not a new file."""
    from .store import default_db_path, store_exists

    location = db if db is not None else default_db_path()
    if not store_exists(location):
        raise CipherbenchError(f"no results database at {location}; run `cipherbench run` "
                               f"first or name one with --db")
    return location


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cipherbench")
def main() -> None:
    """Design, verify and measure block-cipher hardware with open tools.

    Designs are named by specs such as aes-128/iterative or aes/iterative (3-in-1); see
    `cipherbench list` and docs/spec.md.
    """


@main.command("list")
@click.option("--json", "as_json", is_flag=True,
              help="Machine-readable: a list of every valid design, each with its verification "
                   "record's summary (or null).")
@click.option("--all", "show_all", is_flag=True,
              help="Every valid design with its status: verified, FAILED or not verified.")
def list_cmd(as_json: bool, show_all: bool) -> None:
    """Print the ciphers, architectures, parameters and targets, and the designs verified here.

    A design is listed once it has passed verification on this machine: `cipherbench verify
    DESIGN` (or `cipherbench run`, which verifies before it measures) stores the record beside
    the generated design in the cache ($CIPHERBENCH_CACHE, else ~/.cache/cipherbench), keyed by
    the generator's code, so a change to a design's generator unlists it until it is verified
    again. Designs that failed are listed apart; the rest of the valid designs are counted, and
    --all prints every one with its status.
    """
    from .arch.registry import ARCHITECTURES, COMMON_PARAMS
    from .cachedir import cache_root
    from .ciphers.registry import BUILT_IN, ciphers
    from .spec import all_designs
    from .targets import describe_targets
    from .cache import find_records
    from .verify.record import describe, passed, summary

    designs = all_designs()
    records = find_records(designs)
    if as_json:
        click.echo(json.dumps([{
            "design": str(d), "canonical": d.canonical(), "cipher": d.cipher,
            "key_sizes": list(d.key_sizes), "architecture": d.arch, "parameters": d.param_dict,
            "verification": summary(records.get(d)),
        } for d in designs], indent=2))
        return
    click.echo("Ciphers:")
    for info in ciphers().values():
        sizes = "/".join(map(str, info.key_sizes))
        hw = "" if info.hardware else " (model only)"
        # A cipher from $CIPHERBENCH_CIPHERS says which folder it came from.
        origin = "" if info.origin == BUILT_IN else f" [from {info.origin}]"
        click.echo(f"  {info.name:10s} {info.title}; block {info.block_bits}, keys {sizes}{hw}"
                   f"{origin}")
        for name, p in info.params.items():
            click.echo(f"      {name}={'|'.join(p.choices)} (default {p.default}): {p.help}")
    click.echo("Architectures:")
    for arch in ARCHITECTURES.values():
        click.echo(f"  {arch.name:10s} {arch.title}")
        for name, p in arch.params.items():
            click.echo(f"      {name}={'|'.join(p.choices)} (default {p.default}): {p.help}")
    click.echo("Parameters of every design:")
    for name, p in COMMON_PARAMS.items():
        click.echo(f"      {name}={'|'.join(p.choices)} (default {p.default}): {p.help}")
    click.echo("Targets:")
    for line in describe_targets():
        click.echo(f"  {line}")
    verified = [d for d in designs if d in records and passed(records[d])]
    failed = [d for d in designs if d in records and not passed(records[d])]
    unverified = len(designs) - len(verified) - len(failed)

    def show(shown: list[Any]) -> None:
        width = max((len(str(d)) for d in shown), default=0)
        for d in shown:
            status = describe(records[d]) if d in records else "not verified"
            click.echo(f"  {d!s:{width}s}  {status}")

    if show_all:
        click.echo(f"Designs ({len(designs)} valid: {len(verified)} verified, {len(failed)} "
                   f"FAILED, {unverified} not verified; cache {cache_root()}):")
        show(designs)
    else:
        click.echo(f"Designs verified on this machine ({len(verified)} of {len(designs)} valid; "
                   f"cache {cache_root()}):")
        show(verified)
        if failed:
            click.echo(f"FAILED verification ({len(failed)}; nothing of them is measured, "
                       f"`cipherbench verify DESIGN` shows the mismatches):")
            show(failed)
    click.echo(f"{unverified} of {len(designs)} valid designs are not verified on this machine: "
               f"`cipherbench verify DESIGN` verifies one (or `cipherbench run`, which verifies "
               f"before measuring)" + ("." if show_all else
                                       "; `cipherbench list --all` shows every design's status."))


@main.command()
@click.argument("design")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              required=True, help="Folder for the Verilog and manifest.json.")
@click.option("--no-measure", is_flag=True, help="Skip the cycle-count simulation.")
def generate(design: str, out_dir: Path, no_measure: bool) -> None:
    """Write DESIGN's Verilog and manifest.json (with cycle counts measured in simulation)."""
    from .generate import generate as run_generate

    manifest = run_generate(design, out_dir, measure=not no_measure, progress=_progress)
    counts = ", ".join(f"{k}={manifest[k]}" for k in (
        "latency", "initiation_interval", "cycles_per_chained_block",
        "key_setup_encrypt", "key_setup_decrypt") if k in manifest)
    click.echo(f"{manifest['design']}: {out_dir / manifest['verilog'][0]} ({counts})")


def _verify_with_kind(spec: Any, kind: Any, folder: Path) -> None:
    """``cipherbench verify`` of a design whose kind verifies it (an engine): every set shown,
    the record written."""
    from .verify.record import RECORD, write_record

    report = kind.verify(spec, folder)
    for outcome in report.sets:
        mark = "ok  " if outcome.failed == 0 else "FAIL"
        click.echo(f"  {mark} {outcome.name}: {outcome.passed} passed, {outcome.failed} failed")
        for failure in outcome.first_failures[:1]:
            click.echo(f"       {failure}")
    for note in report.notes:
        click.echo(f"  note {note}")
    write_record(folder, report)
    _progress(f"recorded in {folder / RECORD}")
    click.echo(f"{spec}: {report.passed} passed, {report.failed} failed")
    if report.failed:
        sys.exit(EXIT_FAILED_JOBS)


@main.command()
@click.argument("design")
@click.option("--op", type=click.Choice(["encrypt", "decrypt"]), required=True)
@click.option("--vectors", "vectors_in", type=click.Path(dir_okay=False, path_type=Path),
              required=True, help="Input: a block design's 'KEYHEX DATAHEX' lines; an engine's "
                                  "NIST LWC KAT file (Count, Key, Nonce, PT, AD, CT).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              required=True, help="Output: one RESULTHEX per line (block design); a KAT file "
                                  "(engine: CT = ciphertext || tag, or PT / FAIL).")
def simulate(design: str, op: str, vectors_in: Path, out_path: Path) -> None:
    """Run vectors through DESIGN's generated RTL in Verilator (not the model)."""
    from .cache import ensure_design
    from .kinds.registry import design_of, kind_of

    spec = design_of(design)
    kind = kind_of(spec)
    family = kind.family(spec)
    folder = ensure_design(spec, progress=_progress)
    text, summary = family.simulate_vectors(folder, spec, kind.model(spec), op, vectors_in)
    _write_atomically(out_path, text)
    click.echo(f"{summary} -> {out_path}")


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


@main.command()
@click.argument("design")
@click.option("--random", "random_blocks", default=1000, show_default=True,
              help="Random blocks against the reference model, with key changes.")
@click.option("--seed", default=2026, show_default=True)
@click.option("--mct-outer", default=2, show_default=True,
              help="Outer iterations of the cipher's Monte Carlo test (AES, Serpent, MARS).")
def verify(design: str, random_blocks: int, seed: int, mct_outer: int) -> None:
    """Simulate DESIGN on every known-answer file of its cipher and random vectors.

    The outcome is recorded beside the design in the cache, where `cipherbench run` and
    `cipherbench list` read it: always when it fails, and when it passes at least the check a
    run makes (the default --seed, and --random at least the default).
    """
    from .cache import ensure_design
    from .kinds.registry import design_of, kind_of
    from .verify.designs import verify_design
    from .verify.record import MCT_OUTER, RANDOM_BLOCKS, RECORD, SEED, write_record

    spec = design_of(design)
    kind = kind_of(spec)
    if kind.family(spec).name != "block":
        # A message-level engine: its kind's whole procedure (the options are a block core's).
        _verify_with_kind(spec, kind, ensure_design(spec, progress=_progress))
        return
    folder = ensure_design(spec, progress=_progress)

    def show(outcome: Any) -> None:
        mark = "ok  " if outcome.failed == 0 else "FAIL"
        click.echo(f"  {mark} {outcome.name}: {outcome.passed} passed, {outcome.failed} failed")
        for failure in outcome.first_failures[:3]:
            click.echo(f"       {failure}")

    report = verify_design(spec, folder, random_blocks=random_blocks, seed=seed,
                           mct_outer=mct_outer, on_set=show)
    for note in report.notes:
        click.echo(f"  note {note}")
    # A pass is recorded only for at least a run's own check (`run` then skips it); a failure is
    # a failure whatever the settings.
    if report.failed or (random_blocks >= RANDOM_BLOCKS and seed == SEED
                         and mct_outer >= MCT_OUTER):
        write_record(folder, report, random_blocks=random_blocks, seed=seed)
        _progress(f"recorded in {folder / RECORD} (`cipherbench list` shows it)")
    else:
        _progress(f"not recorded: a run checks --random {RANDOM_BLOCKS} --seed {SEED} "
                  f"--mct-outer {MCT_OUTER}")
    click.echo(f"{spec}: {report.passed} passed, {report.failed} failed")
    if report.failed:
        sys.exit(EXIT_FAILED_JOBS)


@main.command()
@click.argument("study", required=False, type=click.Path(dir_okay=False, path_type=Path))
@_db_option
@click.option("--liberty", default=None, metavar="LIB",
              help="A Liberty file, or a built-in library (osu018, osu035, osu050), measured by "
                   "the asic and asic-desync targets beside the study's own (default osu018); "
                   "else $CIPHERBENCH_LIBERTY, $PDK_ROOT.")
@click.option("--design", "designs", multiple=True, help="Override the study's designs.")
@click.option("--target", "targets", multiple=True,
              help="Override the study's targets (generic, asic, fpga-ecp5, fpga-ice40, "
                   "asic-layout, asic-desync).")
@click.option("--force", is_flag=True, help="Recompute even cached results.")
@click.option("--jobs", "-j", "jobs", type=int, default=None, metavar="N",
              help="Local worker processes (default: the CPUs this process may use; 1 runs "
                   "the jobs in order in this process).")
@click.option("--executor", type=click.Choice(["local", "dask", "dask-local"]), default="local",
              show_default=True, help="local: a process pool of --jobs workers; dask: an "
              "existing Dask scheduler (--scheduler); dask-local: a Dask LocalCluster of "
              "--workers processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler address for --executor dask, e.g. tcp://host:8786.")
@click.option("--workers", type=int, default=None, metavar="N",
              help="Worker processes of --executor dask-local (default: the CPUs).")
def run(study: Path | None, db: str | None, liberty: str | None, designs: tuple[str, ...],
        targets: tuple[str, ...], force: bool, jobs: int | None, executor: str,
        scheduler: str | None, workers: int | None) -> None:
    """Run a study (default: AES-128 and 3-in-1 iterative on every available target)."""
    from .executor import make_runner
    from .store import Store, default_db_path
    from .study import default_study, load_study, run_study

    location = db or default_db_path()
    runner = make_runner(executor, location, jobs=jobs, workers=workers, scheduler=scheduler)
    plan = load_study(study) if study else default_study()
    plan = plan.override(designs=designs, targets=targets, liberty=liberty)
    # The store is opened only once the study has been planned and checked, so bad input never
    # leaves a database behind.
    summary = run_study(plan, lambda: Store(location), force=force, say=_progress, runner=runner)
    click.echo(summary.line())
    if summary.errors:
        sys.exit(EXIT_FAILED_JOBS)


@main.command()
@click.argument("description", type=click.Path(dir_okay=False, path_type=Path))
@_db_option
@click.option("--liberty", default=None, metavar="LIB",
              help="A Liberty file or built-in library measured beside osu018 (as for run).")
@click.option("--target", "targets", multiple=True,
              help="Only these targets (default: every available one).")
@click.option("--jobs", "-j", "jobs", type=int, default=None, metavar="N",
              help="Local worker processes (default: the CPUs).")
def measure(description: Path, db: str | None, liberty: str | None, targets: tuple[str, ...],
            jobs: int | None) -> None:
    """Verify and measure your own core (DESCRIPTION: a core.toml, docs/your-core.md) on every
    available target, and print where it stands among the generated cores of its cipher."""
    from dataclasses import replace

    from .executor import make_runner
    from .external.measure import measured_designs
    from .external.spec import external_spec
    from .report.standing import HEADERS, standing_rows
    from .store import Store, default_db_path, store_exists
    from .study import default_study, run_study

    spec = external_spec(description)
    location = db or default_db_path()
    stored = Store(location).results() if store_exists(location) else []
    plan = replace(default_study(), name=f"measure {spec.core}",
                   designs=measured_designs(spec, stored))
    plan = plan.override(targets=targets, liberty=liberty)
    runner = make_runner("local", location, jobs=jobs, workers=None, scheduler=None)
    summary = run_study(plan, lambda: Store(location), say=_progress, runner=runner)
    click.echo(summary.line())
    rows = standing_rows(Store(location).results(), str(spec))
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(HEADERS)]
    for row in [HEADERS, *rows]:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    if summary.errors:
        sys.exit(EXIT_FAILED_JOBS)


@main.command()
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("report"), show_default=True)
@_db_option
@click.option("--software", "software_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="A `cipherbench software --json` file: the measured software "
                                 "baseline beside the hardware.")
def report(out_dir: Path, db: str | None, software_file: Path | None) -> None:
    """Render the results database as Markdown, CSV, HTML and plots."""
    from .report import write_report
    from .store import Store

    written = write_report(Store(_existing_db(db)), out_dir, software_baseline=software_file)
    for item in written:
        click.echo(str(item))


@main.command()
@click.argument("result_id", type=int)
@_db_option
def reproduce(result_id: int, db: str | None) -> None:
    """Regenerate stored result RESULT_ID from its provenance and compare every figure (exit 1
    if any differs). Nothing is written to the database."""
    from .reproduce import format_comparison, reproduce as run_reproduce
    from .store import Store

    with Store(_existing_db(db)) as store:
        comparison = run_reproduce(store, result_id, say=_progress)
    for line in format_comparison(comparison):
        click.echo(line)
    if not comparison.ok:
        raise SystemExit(1)


@main.command()
@click.argument("component", required=False)
@click.option("--list", "list_components", is_flag=True, help="List the components and exit.")
@click.option("--liberty", default=None, metavar="LIB",
              help="A Liberty file or a built-in library (osu018, osu035, osu050); default: "
                   "$CIPHERBENCH_LIBERTY, $PDK_ROOT, else osu018.")
@click.option("--points", default=7, show_default=True,
              help="Syntheses on the curve: the area end, the speed end and N-2 delay targets.")
@_db_option
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("characterization"), show_default=True,
              help="Folder for the component's RTL, curve.png/.svg and curve.json.")
@click.option("--force", is_flag=True, help="Recompute even cached points.")
@click.option("--structure", type=click.Choice(["restructure", "keep"]), default="restructure",
              show_default=True,
              help="keep: synthesize without ABC's restructuring (dc2, fraig, scorr), so the "
                   "component's own structure (ripple or prefix carries) is what gets mapped.")
def characterize(component: str | None, list_components: bool, liberty: str | None,
                 points: int, db: str | None, out_dir: Path, force: bool,
                 structure: str) -> None:
    """Sweep COMPONENT's area-delay curve on the ASIC flow and pick five speed grades."""
    from .characterize import characterize as run_characterize, format_table
    from .components.catalog import CATALOG, get_component
    from .store import Store, default_db_path

    if list_components:
        for entry in CATALOG.values():
            params = ", ".join(f"{k}={v}" for k, v in entry.parameters.items())
            suffix = f" [{params}]" if params else ""
            click.echo(f"  {entry.name:24s} {entry.description}{suffix}")
        return
    if component is None:
        raise CipherbenchError("name a COMPONENT to characterize (see --list)")
    # Bad input fails before a database is created.
    get_component(component)
    if points < 2:
        raise CipherbenchError(f"--points must be at least 2 (the area and the speed end), "
                               f"not {points}")
    from .flows.liberty import find_liberty

    find_liberty(liberty)
    with Store(db or default_db_path()) as store:
        result = run_characterize(component, store=store, out_dir=out_dir, liberty=liberty,
                                  points=points, force=force, say=_progress,
                                  structure=structure)
    for line in format_table(result):
        click.echo(line)
    for kind in ("png", "svg", "json"):
        click.echo(f"{kind}: {result.outputs[kind]}")


@main.command()
@click.argument("components", nargs=-1)
@click.option("--list", "list_components", is_flag=True,
              help="List the components with alternatives to prove and exit.")
def prove(components: tuple[str, ...], list_components: bool) -> None:
    """Prove by SAT that each alternative of COMPONENTS (default: all) equals its reference."""
    from .verify.equivalence import prove as run_proof
    from .verify.equivalence import select

    pairs = select(components)
    if list_components:
        for pair in pairs:
            click.echo(f"  {pair.title} [{pair.engine}]")
        return
    failed = 0
    for pair in pairs:
        result = run_proof(pair)
        failed += not result.proven
        click.echo(f"  {'ok  ' if result.proven else 'FAIL'} {pair.title}: {result.describe()}")
    click.echo(f"{len(pairs) - failed} proven, {failed} failed")
    if failed:
        sys.exit(EXIT_FAILED_JOBS)


@main.command("export")
@_db_option
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default=None,
              help="json: full records; csv: one flattened line per result "
                   "(default: from -o's suffix, else json).")
@click.option("-o", "--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="File to write (default: standard output).")
@click.option("--design", default=None, metavar="GLOB",
              help="Only designs matching, e.g. 'aes-*'.")
@click.option("--target", default=None, metavar="GLOB", help="Only targets matching, e.g. 'asic:*'.")
def export_cmd(db: str | None, fmt: str | None, out_path: Path | None, design: str | None,
               target: str | None) -> None:
    """Write every result with its provenance as JSON (for `import`) or CSV."""
    from .store import Store
    from .store.transfer import export_document, to_csv, to_json

    fmt = fmt or ("csv" if out_path is not None and out_path.suffix.lower() == ".csv" else "json")
    with Store(_existing_db(db)) as store:
        document = export_document(store, design=design, target=target)
    text = to_csv(document) if fmt == "csv" else to_json(document)
    count = len(document["results"])
    if out_path is None:
        click.echo(text, nl=False)
        return
    _write_atomically(out_path, text)
    click.echo(f"{count} results from {document['exported']['store']} -> {out_path} ({fmt})")


@main.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@_db_option
@click.option("--replace", is_flag=True,
              help="On a conflict (same cache key, different figures) keep the imported row.")
def import_cmd(file: Path, db: str | None, replace: bool) -> None:
    """Merge a JSON export (from `cipherbench export`) into the results database, in one
    transaction: new cache keys are added, identical rows skipped, conflicts reported."""
    from .store import Store
    from .store.transfer import read_export

    # The whole file is checked before the database is opened: a bad file writes nothing.
    results = read_export(file)
    with Store(db) as store:
        outcome = store.merge(results, replace=replace)
    verdict = "replaced by the import" if replace else "kept ours; --replace takes theirs"
    for line in outcome.conflicts:
        click.echo(f"  conflict ({verdict}): {line}", err=True)
    click.echo(f"{outcome.line()} from {file}")


@main.command("leakage")
@click.argument("design")
@click.option("--traces", default=100_000, show_default=True, metavar="N",
              help="Traces of the fixed-versus-random t-test, over every clock of the block.")
@click.option("--probe-traces", default=None, type=int, metavar="M",
              help="Traces of the glitch-extended probing of the round (default: N, at most "
                   "20000; 0: no probing).")
@click.option("--probe-clocks", default=None, type=int, metavar="C",
              help="Clocks probed from the load clock (default: the load clock, the first round "
                   "and the clock after it).")
@click.option("--structure", type=click.Choice(["keep", "modules", "restructure"]),
              default="keep", show_default=True,
              help="The gate netlist judged: keep = the RTL's structure, no ABC (the design as "
                   "written); modules = each module alone; restructure = with ABC, which may "
                   "merge shares (what a default synthesis makes of it).")
@click.option("--seed", default=1, show_default=True, help="Seed of groups, shares and randomness.")
@click.option("--threads", default=1, show_default=True, help="Simulation threads.")
@_db_option
def leakage_cmd(design: str, traces: int, probe_traces: int | None, probe_clocks: int | None,
                structure: str, seed: int, threads: int, db: str | None) -> None:
    """Assess a masked DESIGN's gate netlist for first-order leakage: the fixed-versus-random
    t-test (|t| > 4.5) on simulated power of every net, and glitch-extended probing of the round
    (S-boxes included); print the verdict and store it beside the design's results
    (docs/leakage.md)."""
    from .cache import ensure_design
    from .leakage.core import assess_core, no_shares
    from .leakage.record import leakage_result, leakage_settings
    from .spec import parse
    from .store import Store, default_db_path

    probes = min(traces, 20_000) if probe_traces is None else probe_traces
    if traces < 2 or probes == 1 or probes < 0:
        raise CipherbenchError(f"a fixed-versus-random test needs at least 2 traces (--traces "
                               f"{traces}, --probe-traces {probes})")
    if threads < 1:
        raise CipherbenchError(f"--threads must be at least 1, not {threads}")
    spec = parse(design)
    if spec.arch != "masked":
        raise no_shares(str(spec), spec.cipher, spec.key_sizes)
    folder = ensure_design(spec, progress=_progress)
    assessment = assess_core(folder, traces, probes, structure=structure, seed=seed,
                             threads=threads, probe_clocks=probe_clocks, say=_progress)
    for line in assessment.summary_lines():
        click.echo(line)
    result = leakage_result(spec, assessment, leakage_settings(assessment),
                            verification=_verification_summary(spec))
    with Store(db or default_db_path()) as store:
        stored = store.put(result)
    click.echo(f"stored as result {stored.id} ({stored.target}) in {db or default_db_path()}")


def _verification_summary(spec: Any) -> dict[str, Any] | None:
    """The design's verification record on this machine, if it was verified (the assessment
    checks the netlist's outputs against the model itself)."""
    from .cache import find_records
    from .verify.record import summary

    return summary(find_records([spec]).get(spec))


@main.command("software")
@click.option("--cipher", "cipher_names", multiple=True, metavar="NAME",
              help="Only this cipher (repeatable; default: every cipher of `cipherbench list`).")
@click.option("--seconds", default=1.0, show_default=True,
              help="Time per cipher and source (OpenSSL rounds it to whole seconds, at least 1).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable: host, figures and notes.")
def software_cmd(cipher_names: tuple[str, ...], seconds: float, as_json: bool) -> None:
    """Measure the software baseline on this CPU: Mbps and cycles per byte, one core, ECB
    encryption, via OpenSSL, Crypto++ and the reference models (docs/software.md). Stores nothing."""
    from .ciphers.registry import ciphers
    from .software import format_table, measure_baseline, to_json

    known = list(ciphers())
    unknown = [name for name in cipher_names if name not in known]
    if unknown:
        raise CipherbenchError(f"unknown cipher {unknown[0]!r}; known: {', '.join(known)}")
    if seconds <= 0:
        raise CipherbenchError(f"--seconds must be positive, not {seconds:g}")
    chosen = list(dict.fromkeys(cipher_names)) or known
    # Everything is measured before anything is printed: an interrupted run prints nothing.
    baseline = measure_baseline(chosen, seconds, say=_progress)
    click.echo(to_json(baseline) if as_json else "\n".join(format_table(baseline)))


if __name__ == "__main__":  # pragma: no cover
    main()
