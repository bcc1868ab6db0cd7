"""The software baseline beside the hardware, as the seeds set them (Sugawara Table 2,
Papaefstathiou Tables 1-6): our measured figures (``cipherbench software --json``) per cipher, the
seeds' published software throughputs, and our best hardware throughput of the same cipher.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from ..errors import CipherbenchError
from ..store import Result
from .names import design_cipher
from .papaefstathiou.published import PAPA_SOFTWARE
from .sugawara.published import SUGAWARA_TABLE_2
from .tables import Table, fmt, key_figure, key_sizes

SOURCES = ("openssl", "cryptopp", "model")
HEADERS = ["cipher", "OpenSSL Mbps", "Crypto++ Mbps", "model Mbps", "best software cycles/B",
           "Sugawara Table 2 (Pentium 4 2.1 GHz) Mbps",
           "Papaefstathiou IXP best encryption Mbps", "our best hardware Mbps (design @ target)",
           "hardware / best compiled software"]


def load_baseline(path: Path) -> dict[str, Any]:
    """A ``cipherbench software --json`` file; a malformed one is refused in one line."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CipherbenchError(f"{path}: not a readable software baseline "
                               f"(write one with `cipherbench software --json > FILE`): "
                               f"{type(exc).__name__}") from exc
    if (not isinstance(data, dict) or not isinstance(data.get("figures"), list)
            or not isinstance(data.get("host"), dict)):
        raise CipherbenchError(f"{path}: not a software baseline: expected the JSON of "
                               "`cipherbench software --json` (host, figures)")
    for figure in data["figures"]:
        if not (isinstance(figure, dict) and isinstance(figure.get("cipher"), str)
                and figure.get("source") in SOURCES):
            raise CipherbenchError(f"{path}: not a software baseline: a figure without "
                                   f"cipher/source: {figure!r:.60}")
    return data


def _measured(data: dict[str, Any], cipher: str, source: str) -> dict[str, Any] | None:
    for figure in data["figures"]:
        if figure["cipher"] == cipher and figure["source"] == source:
            return figure
    return None


def _papa_best(cipher: str) -> float | None:
    rates = [s.throughput_mbps for s in PAPA_SOFTWARE
             if s.cipher == cipher and s.direction == "encrypt" and s.throughput_mbps]
    return max(rates) if rates else None


def _best_hardware(results: Sequence[Result], cipher: str) -> tuple[float, str] | None:
    best: tuple[float, str] | None = None
    for r in results:
        if not r.ok or r.target_kind == "generic" or design_cipher(r.design) != cipher:
            continue
        for key in key_sizes(r):
            mbps = key_figure(r, key, "throughput_mbps")
            if isinstance(mbps, (int, float)) and (best is None or mbps > best[0]):
                best = (float(mbps), f"{r.design} @ {r.target}")
    return best


def software_table(data: dict[str, Any], results: Sequence[Result]) -> Table:
    """One row per cipher measured in software."""
    ciphers = sorted({f["cipher"] for f in data["figures"]})
    rows = []
    for cipher in ciphers:
        measured = {s: _measured(data, cipher, s) for s in SOURCES}
        # The ratio is against compiled software only: the Python models are a correctness
        # reference, thousands of times slower than any real implementation.
        rates = [f["mbps"] for s, f in measured.items()
                 if s != "model" and f and isinstance(f.get("mbps"), (int, float))]
        cycles = [f["cycles_per_byte"] for f in measured.values()
                  if f and isinstance(f.get("cycles_per_byte"), (int, float))]
        hardware = _best_hardware(results, cipher)
        ratio = hardware[0] / max(rates) if hardware and rates else None
        rows.append([
            cipher,
            *[fmt((measured[s] or {}).get("mbps")) for s in SOURCES],
            fmt(min(cycles) if cycles else None),
            fmt(SUGAWARA_TABLE_2.get(cipher)),
            fmt(_papa_best(cipher)),
            f"{fmt(hardware[0])} ({hardware[1]})" if hardware else "-",
            fmt(ratio),
        ])
    host = data["host"]
    notes = [
        f"Measured on {host.get('cpu_model', '?')}, {host.get('logical_cpus', '?')} logical CPUs, "
        f"nominal {host.get('nominal_mhz', '?')} MHz; one core, ECB encryption; "
        f"{data.get('cycles_per_byte', '')}.",
        "Published software: Sugawara et al. Table 2 (Crypto++ 5.2.1 on a Pentium 4 2.1 GHz); "
        "Papaefstathiou et al. Tables 1-6 (assembly on Intel IXP network processors, best "
        "steady-state encryption row).",
    ]
    notes += [f"{source}: {why}" for source, why in (data.get("notes") or {}).items()]
    return Table("Software baseline beside the hardware", HEADERS, rows, notes=notes)
