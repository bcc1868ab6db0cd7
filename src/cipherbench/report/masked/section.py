"""The report section on masked cores (issue 31): the cost of protection across ciphers and
datapaths, the leakage assessment's verdict per design, and the published masked AES cores beside
ours.

Our rows are the stored results of ``*/masked`` designs: their ASIC rows (area, cycles, throughput
per area) and their leakage rows (``cipherbench leakage``: target ``leakage:tvla+probing``, with
the randomness the core reads and both checks' figures). The section is shown only when the
results hold either.

- :func:`cost_table`: per masked design and library, its area against its unmasked twin
  (``shares=1``, the same datapath without shares), cycles, random bits, bits per clock per kGE
  and the verdict;
- :func:`assessment_table`: every leakage row: traces, max |t| and its clock, the probing tests,
  the largest -log10(p) against the verdict's threshold and where, the models, traces per second;
- :func:`published_table`: the published masked AES cores (``published.cores()``) beside our
  masked AES of the nearest datapath on each library, GE compared only at the same node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...flows.libraries import node_text
from ...metrics import bits_per_clock_per_kge
from ...leakage.record import is_leakage
from ...spec import DesignSpec
from ...store import Result
from ..names import shape_of
from ..same_node import library_name, library_text, ratio, ratio_text, result_node, same_node
from ..tables import MISSING, Table, cycle_count, design_spec, figure, fmt, key_figure, key_sizes
from .published import PublishedMaskedCore, cores

TITLE = "Masked cores: the cost of protection and the leakage assessment"
# What identifies a masked core's unmasked twin: every parameter but these.
SHARING_PARAMS = ("shares", "flaw", "prng")

EXPLANATION = (
    "Our masked cores (d+1 shares, domain-oriented masking; the masked architecture of "
    "docs/architectures.md) beside their unmasked twins (shares=1: the same datapath and "
    "schedule without shares or randomness) and beside the published masked AES cores. Area "
    "is each library's smallest GE of the design; cycles per block measured in simulation; "
    "random bits are what the core's rnd port takes per clock and per block (the block's "
    "clocks times the bits per clock), and per S-box evaluation. The verdict is the leakage "
    "assessment's (`cipherbench leakage`, docs/leakage.md): a first-order fixed-versus-random "
    "t-test on the simulated power of the gate netlist (zero-delay switching of every net; "
    "|t| > 4.5 fails) and first-order glitch-extended probing of the first round (G-test; "
    "-log10(p) above the threshold fails). Pass means no first-order leak in these models at "
    "the traces given; it is not a proof, and glitches are only in the probing check."
)

COST_HEADERS = ["cipher", "design", "bits/clock", "shares", "flaw", "library (node)", "GE",
                "x unmasked", "cycles", "random bits/clock", "random bits/block",
                "bits/clock/kGE", "Kbps/GE", "leakage verdict"]
ASSESSMENT_HEADERS = ["design", "netlist (gates / FFs)", "clocks", "t-test traces",
                      "max |t| (clock)", "t-test", "probing traces", "probing tests",
                      "max -log10 p / threshold", "where", "probing", "traces/s (t-test)",
                      "verdict"]
PUBLISHED_HEADERS = ["source", "scheme", "order (shares)", "GE (library)", "cycles",
                     "random bits", "our core", "our library (node)", "our GE", "GE ours/theirs",
                     "our cycles", "our random bits per S-box", "our verdict", "note"]


@dataclass(frozen=True)
class MaskedRow:
    """A stored result of a masked design."""

    result: Result
    spec: DesignSpec

    @property
    def shares(self) -> int:
        return int(self.spec.param_dict.get("shares", "2"))

    @property
    def flaw(self) -> str:
        return self.spec.param_dict.get("flaw", "none")

    @property
    def width(self) -> str:
        return self.spec.param_dict.get("width", "?")

    @property
    def family(self) -> tuple[Any, ...]:
        """Every parameter but the sharing: a design and its unmasked twin share it."""
        rest = tuple((k, v) for k, v in self.spec.params if k not in SHARING_PARAMS)
        return (self.spec.cipher, self.spec.key_sizes, rest)


def masked_rows(results: Sequence[Result]) -> list[MaskedRow]:
    """The ok rows of masked designs (ASIC and leakage)."""
    rows = []
    for result in results:
        if not result.ok:
            continue
        spec = design_spec(result.design)
        if spec is not None and shape_of(spec).masked:
            rows.append(MaskedRow(result, spec))
    return rows


def relevant(results: Sequence[Result]) -> bool:
    """Whether the results hold an ASIC or a leakage row of a masked design."""
    return any(is_leakage(r.result) or r.result.target_kind == "asic"
               for r in masked_rows(results))


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def smallest_asic(rows: Sequence[MaskedRow], library: str) -> MaskedRow | None:
    """The row of least GE on ``library``."""
    found = [r for r in rows if r.result.target_kind == "asic"
             and library_name(r.result) == library
             and _number(figure(r.result, "gate_equivalents")) is not None]
    return min(found, key=lambda r: figure(r.result, "gate_equivalents")) if found else None


def best_leakage(rows: Sequence[MaskedRow]) -> MaskedRow | None:
    """The design's leakage row with the most t-test traces (then probing traces)."""
    found = [r for r in rows if is_leakage(r.result)]
    if not found:
        return None
    return max(found, key=lambda r: (r.result.measurements.get("tvla_traces") or 0,
                                     r.result.measurements.get("probing_traces") or 0))


def _cycles(asic: MaskedRow | None, leakage: MaskedRow | None) -> Any:
    if asic is not None:
        for key in key_sizes(asic.result):
            found = (cycle_count(asic.result, key, "cycles_per_chained_block")
                     or cycle_count(asic.result, key, "latency"))
            if found is not None:
                return found
    return leakage.result.measurements.get("latency") if leakage else None


def _kbps_per_ge(asic: MaskedRow | None) -> Any:
    if asic is None:
        return None
    values = [key_figure(asic.result, key, "kbps_per_ge") for key in key_sizes(asic.result)]
    numbers = [v for v in values if _number(v) is not None]
    return max(numbers) if numbers else None


def verdict_text(leakage: MaskedRow | None) -> str:
    """One cell: the verdict, the traces of each check and their largest statistics."""
    if leakage is None:
        return "not assessed"
    m = leakage.result.measurements
    parts = []
    if m.get("tvla_traces"):
        parts.append(f"|t| {fmt(_number(m.get('tvla_max_abs_t')) or m.get('tvla_max_abs_t'))} "
                     f"at {m['tvla_traces']:,} traces")
    if m.get("probing_traces"):
        parts.append(f"probing {fmt(_number(m.get('probing_max_minus_log10_p')))} / "
                     f"{fmt(_number(m.get('probing_threshold')))} at {m['probing_traces']:,}")
    verdict = "pass" if m.get("verdict") == "pass" else "FAIL"
    return f"{verdict}: {'; '.join(parts)}" if parts else verdict


def _per_clock_kge(block_bits: Any, cycles: Any, ge: Any) -> float | None:
    b, c, g = _number(block_bits), _number(cycles), _number(ge)
    if not (b and c and g):
        return None
    return bits_per_clock_per_kge(b, c, g)


def cost_table(results: Sequence[Result]) -> Table:
    rows_by_design: dict[str, list[MaskedRow]] = {}
    for row in masked_rows(results):
        rows_by_design.setdefault(row.result.design, []).append(row)
    twins: dict[tuple[Any, ...], list[MaskedRow]] = {}
    for rows in rows_by_design.values():
        if rows[0].shares == 1:
            twins.setdefault(rows[0].family, []).extend(rows)
    lines = []
    for design in sorted(rows_by_design, key=lambda d: _order(rows_by_design[d][0])):
        rows = rows_by_design[design]
        first = rows[0]
        leakage = best_leakage(rows)
        libraries = sorted({str(library_name(r.result)) for r in rows
                            if r.result.target_kind == "asic" and library_name(r.result)})
        for library in libraries or [None]:
            asic = smallest_asic(rows, library) if library else None
            ge = figure(asic.result, "gate_equivalents") if asic else None
            twin = smallest_asic(twins.get(first.family, []), library) if library else None
            twin_ge = figure(twin.result, "gate_equivalents") if twin else None
            cycles = _cycles(asic, leakage)
            m = leakage.result.measurements if leakage else {}
            block_bits = m.get("block_bits") or _block_bits(first.spec)
            lines.append([
                first.spec.cipher, design, first.width, str(first.shares), first.flaw,
                library_text(library) if library else MISSING, fmt(ge),
                ratio_text(ratio(ge, twin_ge)) if first.shares > 1 else MISSING, fmt(cycles),
                fmt(m.get("random_bits_per_clock")), fmt(m.get("random_bits_per_block")),
                fmt(_per_clock_kge(block_bits, cycles, ge)), fmt(_kbps_per_ge(asic)),
                verdict_text(leakage)])
    return Table("The cost of protection: our masked cores and their unmasked twins",
                 COST_HEADERS, lines, notes=[
                     "x unmasked: GE over the same design's shares=1 twin on the same library.",
                     "bits/clock/kGE = block bits / cycles / GE x 1000: throughput per area "
                     "without the clock, comparable across nodes.",
                     "Random bits come with the leakage row (the manifest's); '-' where the "
                     "design was not assessed."])


def _block_bits(spec: DesignSpec) -> int | None:
    from ...ciphers.registry import ciphers

    info = ciphers().get(spec.cipher)
    return info.block_bits if info else None


def _order(row: MaskedRow) -> tuple[Any, ...]:
    width = int(row.width) if row.width.isdigit() else 0
    return (row.spec.cipher, row.spec.key_sizes, width, row.flaw != "none", row.flaw,
            row.shares)


def assessment_table(results: Sequence[Result]) -> Table:
    rows = [r for r in masked_rows(results) if is_leakage(r.result)]
    lines = []
    for row in sorted(rows, key=lambda r: (_order(r), r.result.settings.get("traces") or 0)):
        m = row.result.measurements
        lines.append([
            row.result.design,
            f"{fmt(m.get('netlist_gates'))} / {fmt(m.get('netlist_flip_flops'))} "
            f"({row.result.settings.get('structure', '?')})",
            fmt(m.get("clocks")), fmt(m.get("tvla_traces")),
            f"{fmt(_number(m.get('tvla_max_abs_t')) or m.get('tvla_max_abs_t'))} "
            f"({fmt(m.get('tvla_clock'))})" if m.get("tvla_traces") else MISSING,
            str(m.get("tvla_verdict", MISSING)), fmt(m.get("probing_traces")),
            fmt(m.get("probing_tests")),
            f"{fmt(_number(m.get('probing_max_minus_log10_p')))} / "
            f"{fmt(_number(m.get('probing_threshold')))}" if m.get("probing_traces")
            else MISSING,
            str(m.get("probing_where") or MISSING), str(m.get("probing_verdict", MISSING)),
            fmt(m.get("tvla_traces_per_second")),
            "pass" if m.get("verdict") == "pass" else "FAIL"])
    models = sorted({(str(r.result.measurements.get("power_model")),
                      str(r.result.measurements.get("probing_model"))) for r in rows})
    notes = [f"Power model: {power}. Probing: {probing}." for power, probing in models]
    notes.append("The probing threshold is PROLEAD's 5, raised with the number of tests so that "
                 "a secure core shows a false leak in at most 1e-3 of campaigns "
                 "(docs/leakage.md).")
    return Table("The leakage assessment per design", ASSESSMENT_HEADERS, lines, notes=notes)


def _ours_for(core: PublishedMaskedCore, rows: Sequence[MaskedRow]) -> list[tuple[str, MaskedRow]]:
    """(library, our smallest row there) of masked AES-128, 2 shares, no flaw, the published
    core's datapath width."""
    mine = [r for r in rows if r.spec.cipher == "aes" and r.spec.key_sizes == (128,)
            and r.shares == 2 and r.flaw == "none" and r.width == str(core.width)
            and r.result.target_kind == "asic"]
    found = []
    for library in sorted({str(library_name(r.result)) for r in mine}):
        best = smallest_asic(mine, library)
        if best is not None:
            found.append((library, best))
    return found


def published_table(results: Sequence[Result]) -> Table:
    rows = masked_rows(results)
    lines = []
    for core in cores():
        lead = [core.source, core.scheme, f"{core.order} ({core.shares or '?'})", core.ge_text,
                fmt(core.cycles),
                f"{core.random_bits} {core.random_unit}" if core.random_bits else MISSING]
        ours = _ours_for(core, rows)
        same_design = [r for r in rows if r.spec.cipher == "aes" and r.shares == 2
                       and r.flaw == "none" and r.width == str(core.width)
                       and r.spec.key_sizes == (128,)]
        leakage = best_leakage(same_design)
        per_sbox = leakage.result.measurements.get("random_bits_per_evaluation") if leakage \
            else None
        if not ours:
            design = f"aes-128/masked:width={core.width}"
            lines.append([*lead, design, MISSING, MISSING, MISSING,
                          fmt(_cycles(None, leakage)), fmt(per_sbox), verdict_text(leakage),
                          core.note])
            continue
        for library, row in ours:
            ge = figure(row.result, "gate_equivalents")
            at_node = core.node_um is not None and same_node(result_node(row.result),
                                                            core.node_um)
            lines.append([*lead, row.result.design,
                          f"{library_text(library)}", fmt(ge),
                          ratio_text(ratio(ge, core.gates)) if at_node else MISSING,
                          fmt(_cycles(row, leakage)), fmt(per_sbox), verdict_text(leakage),
                          core.note])
    return Table("Published masked AES cores beside ours", PUBLISHED_HEADERS, lines, notes=[
        "Published figures as issue 31 gives them, each with its source "
        "(report/masked/published.py; docs/published.md says what was re-read).",
        "Our core: masked AES-128, 2 shares, the datapath nearest the published one (8 bits "
        "serial; 64 bits for SMAesH's 32-bit datapath, the nearest in cycles; the 128-bit round "
        "for OpenTitan). GE ours/theirs only at the same node (NanGate45: "
        f"{node_text(0.045)})."])


def tables(results: Sequence[Result]) -> list[Table]:
    found = [cost_table(results)]
    if any(is_leakage(r.result) for r in masked_rows(results)):
        found.append(assessment_table(results))
    found.append(published_table(results))
    return found
