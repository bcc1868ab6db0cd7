"""The machine a software baseline ran on: CPU model, clock, cores, library versions."""

from __future__ import annotations

import os
import platform
import re
from dataclasses import dataclass
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")
_CPUFREQ = Path("/sys/devices/system/cpu/cpu0/cpufreq")


@dataclass(frozen=True)
class Host:
    cpu_model: str
    nominal_mhz: float | None
    nominal_mhz_from: str        # where the nominal clock came from (see nominal_clock)
    current_mhz: float | None    # mean of the per-CPU "cpu MHz" lines when sampled
    logical_cpus: int
    physical_cores: int | None
    machine: str
    openssl: str | None = None
    cryptopp: str | None = None


def _cpuinfo_records(text: str) -> list[dict[str, str]]:
    """One dict per processor block of /proc/cpuinfo."""
    records: list[dict[str, str]] = []
    for block in text.strip().split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            name, sep, value = line.partition(":")
            if sep:
                fields[name.strip()] = value.strip()
        if fields:
            records.append(fields)
    return records


def _read_khz(name: str) -> float | None:
    try:
        return int((_CPUFREQ / name).read_text().strip()) / 1000
    except (OSError, ValueError):
        return None


def nominal_clock(model: str, current_mhz: float | None) -> tuple[float | None, str]:
    """The nominal (base) clock in MHz and its origin.

    Preferred: the "@ 2.10GHz" of an Intel model name, which is the base clock; then the
    cpufreq driver's base or maximum frequency; last, /proc/cpuinfo "cpu MHz", which on a
    virtual machine without cpufreq (AMD names carry no clock) is the clock the hypervisor
    reports and the best figure there is.
    """
    match = re.search(r"@\s*([\d.]+)\s*GHz", model)
    if match:
        return float(match.group(1)) * 1000, "model name"
    for name in ("base_frequency", "cpuinfo_max_freq"):
        mhz = _read_khz(name)
        if mhz:
            return mhz, f"cpufreq {name}"
    return current_mhz, "/proc/cpuinfo cpu MHz"


def read_host(cpuinfo_text: str | None = None) -> Host:
    """The host as /proc/cpuinfo (or the given text) describes it; versions are filled in later."""
    if cpuinfo_text is None:
        try:
            cpuinfo_text = CPUINFO.read_text()
        except OSError:
            cpuinfo_text = ""
    records = _cpuinfo_records(cpuinfo_text)
    model = next((r["model name"] for r in records if "model name" in r), platform.processor())
    clocks = [float(r["cpu MHz"]) for r in records if "cpu MHz" in r]
    current = round(sum(clocks) / len(clocks), 1) if clocks else None
    nominal, origin = nominal_clock(model or "", current)
    cores = {(r.get("physical id", "0"), r["core id"]) for r in records if "core id" in r}
    return Host(cpu_model=model or "unknown", nominal_mhz=nominal, nominal_mhz_from=origin,
                current_mhz=current, logical_cpus=len(records) or (os.cpu_count() or 0),
                physical_cores=len(cores) or None, machine=platform.machine())
