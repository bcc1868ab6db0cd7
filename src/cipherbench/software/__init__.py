"""Software baseline on the host CPU, measured here: OpenSSL, Crypto++ and the reference models.

One job: time ECB encryption of each cipher on one core with each software source, and record the
host it ran on, so that reports can set measured software figures beside the hardware ones (as the
seeds do: Papaefstathiou Tables 1-7, Sugawara Table 2). Nothing is stored; a missing source is one
note and the others still run.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable

from . import cryptopp, models, openssl
from .common import Figure, SourceUnavailable, cycles_per_byte
from .host import Host, read_host

SOURCES = ("openssl", "cryptopp", "model")
CYCLES_DERIVATION = ("cycles per byte = seconds x nominal MHz / bytes (= MHz x 8 / Mbps); "
                     "derived from the nominal clock, not read from a cycle counter")

__all__ = ["Baseline", "Figure", "Host", "SOURCES", "format_table", "measure_baseline", "to_json"]


@dataclass(frozen=True)
class Baseline:
    host: Host
    seconds: float
    figures: list[Figure]
    notes: dict[str, str] = field(default_factory=dict)   # source -> why it did not run

    def cycles_per_byte(self, figure: Figure) -> float | None:
        if figure.mbps is None or not self.host.nominal_mhz:
            return None
        return cycles_per_byte(figure.mbps, self.host.nominal_mhz)


def _run_source(name: str, run: Callable[[], Any], notes: dict[str, str]) -> Any:
    """The source's result, or None with a one-line note when the source is missing."""
    try:
        return run()
    except SourceUnavailable as why:
        notes[name] = str(why)
        return None


def measure_baseline(ciphers: list[str], seconds: float,
                     say: Callable[[str], None] | None = None) -> Baseline:
    """Time every cipher with every source, one after the other (never two at once: the
    sources would share the cores and each figure would be per half a core)."""
    tell = say or (lambda text: None)
    notes: dict[str, str] = {}
    figures: list[Figure] = []
    host = read_host()
    tell("openssl speed")
    got = _run_source("openssl", lambda: openssl.measure_all(ciphers, seconds), notes)
    if got:
        figures += got[0]
        host = replace(host, openssl=got[1])
    tell("Crypto++ benchmark (built on first use)")
    got = _run_source("cryptopp", lambda: cryptopp.measure_all(ciphers, seconds), notes)
    if got:
        figures += got[0]
        host = replace(host, cryptopp=got[1])
    tell("reference models")
    figures += models.measure_all(ciphers, seconds)
    return Baseline(host, seconds, figures, notes)


def _fmt(value: float | None, digits: int) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def format_table(baseline: Baseline) -> list[str]:
    """The host, then one row per cipher and source, then the notes; plain text."""
    h = baseline.host
    lines = [f"CPU: {h.cpu_model} ({h.machine}), {h.logical_cpus} logical CPUs, "
             f"{h.physical_cores or '?'} cores",
             f"clock: nominal {_fmt(h.nominal_mhz, 1)} MHz (from {h.nominal_mhz_from}), "
             f"current {_fmt(h.current_mhz, 1)} MHz",
             f"OpenSSL: {h.openssl or 'not run'}; Crypto++: {h.cryptopp or 'not run'}",
             f"one core, ECB encryption, about {baseline.seconds:g} s per figure; {CYCLES_DERIVATION}",
             "",
             f"{'cipher':9s} {'source':9s} {'algorithm':28s} {'key':>4s} {'Mbps':>12s} "
             f"{'cycles/B':>9s}  note"]
    order = {name: n for n, name in enumerate(SOURCES)}
    for f in sorted(baseline.figures, key=lambda f: (f.cipher, order[f.source])):
        lines.append(f"{f.cipher:9s} {f.source:9s} {f.algorithm:28s} {f.key_bits:4d} "
                     f"{_fmt(f.mbps, 1):>12s} {_fmt(baseline.cycles_per_byte(f), 2):>9s}  {f.note}")
    lines += [f"note: {source}: {why}" for source, why in baseline.notes.items()]
    return lines


def _key_bits() -> dict[str, int]:
    """The key size timed for every registered cipher."""
    from ..ciphers.registry import ciphers

    return {name: info.bench_key_bits for name, info in ciphers().items()}


def to_json(baseline: Baseline) -> str:
    figures = [{**asdict(f), "cycles_per_byte": baseline.cycles_per_byte(f)}
               for f in baseline.figures]
    return json.dumps({"host": asdict(baseline.host), "seconds": baseline.seconds,
                       "cycles_per_byte": CYCLES_DERIVATION, "key_bits": _key_bits(),
                       "figures": figures, "notes": baseline.notes}, indent=2)
