"""The standard-cell libraries cipherbench knows by name, and the process node of known libraries.

Debian packages three open cell kits from Oklahoma State University with qflow
(``qflow-tech-osu018``, ``-osu035``, ``-osu050``): Liberty (timing and power tables) and LEF for
0.18, 0.35 and 0.5 um CMOS. They are the same process generations as the seeds' commercial
libraries (the NSA's 0.5 um MOSIS library, Sugawara et al.'s and Papaefstathiou et al.'s 0.18 um
ones), so figures measured on them can be set beside the published ones without scaling. The
``asic`` target, ``--liberty`` and a study's ``liberty`` accept these names beside any Liberty
path; the ``asic-layout`` target places and routes on the same kits.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import CipherbenchError, ToolMissing
from .liberty_cache import cache_dir

KIT_ROOT = Path("/usr/share/qflow/tech")


@dataclass(frozen=True)
class Kit:
    """One built-in cell kit: where Debian installs it and the process it models."""

    name: str
    package: str
    node_um: float
    volts: float  # the Liberty's nominal supply (its tables are characterized there)

    def folder(self) -> Path:
        return KIT_ROOT / self.name


KITS: dict[str, Kit] = {kit.name: kit for kit in (
    Kit("osu018", "qflow-tech-osu018", 0.18, 1.8),
    Kit("osu035", "qflow-tech-osu035", 0.35, 3.3),
    Kit("osu050", "qflow-tech-osu050", 0.5, 5.0),
)}
DEFAULT_KIT = "osu018"

# Process node of libraries known by their Liberty `library (...)` name: the reports set a figure
# beside a published one only when both come from the same node.
_NODE_BY_LIBRARY_NAME = {
    "osu018_stdcells": 0.18,
    "osu035_stdcells": 0.35,
    "osu05_stdcells": 0.5,
    "NangateOpenCellLibrary": 0.045,
}
_NODE_BY_PREFIX = (("sky130_fd_sc_", 0.13),)


def is_kit(value: object) -> bool:
    """Whether ``value`` names a built-in kit (rather than a Liberty path)."""
    return isinstance(value, str) and value in KITS


def kit_files(name: str) -> tuple[Path, Path]:
    """The Liberty and LEF of a built-in kit as its Debian package installs them."""
    kit = KITS.get(name)
    if kit is None:
        raise CipherbenchError(f"unknown cell library {name!r}; built-in: {', '.join(KITS)} "
                               "(or give a Liberty file's path)")
    folder = kit.folder()
    libs = sorted(folder.glob("*stdcells.lib")) or sorted(folder.glob("*.lib"))
    lefs = sorted(folder.glob("*stdcells.lef"))
    if not libs or not lefs:
        raise ToolMissing(f"cell library {name} is not installed ({folder} has no Liberty): "
                          f"apt-get install {kit.package}")
    return libs[0], lefs[0]


def kit_liberty(name: str) -> Path:
    """The kit's Liberty as the flows read it: the Debian file, except that a cell whose
    Liberty area is 0 gets its footprint from the kit's LEF (``patched_liberty``)."""
    liberty, lef = kit_files(name)
    return patched_liberty(liberty, lef)


def kit_named_by_path(path: Path) -> str | None:
    """The built-in kit whose Debian Liberty file ``path`` is, so a kit given by its path is
    read (patched) and deduplicated like the kit given by its name."""
    try:
        real = path.resolve()
    except OSError:
        return None
    for kit in KITS.values():
        if real.parent == kit.folder().resolve() and real.suffix == ".lib":
            return kit.name
    return None


_RE_LEF_SIZE = re.compile(r"^MACRO\s+(\S+)\s*$.*?^\s*SIZE\s+([0-9.]+)\s+BY\s+([0-9.]+)",
                          re.MULTILINE | re.DOTALL)


def patched_liberty(liberty: Path, lef: Path) -> Path:
    """The OSU kits' Liberty files give their LATCH cell an area of 0 (all three kits), so a
    latch design would count its latches as nothing; the kit's LEF has the cell's footprint
    (osu018: 5.6 x 10.0 um = 56 um2, against 96 um2 for DFFPOSX1, whose Liberty and LEF
    areas agree). This returns the Liberty with every zero area replaced by the LEF's
    width x height: a copy in the cache, keyed by both files' contents, or the file itself
    where nothing needs replacing."""
    text = liberty.read_text(errors="replace")
    lef_text = lef.read_text(errors="replace")
    sizes = {m.group(1): float(m.group(2)) * float(m.group(3))
             for m in _RE_LEF_SIZE.finditer(lef_text)}
    patched, count = _replace_zero_areas(text, sizes)
    if not count:
        return liberty
    digest = hashlib.sha256(text.encode() + lef_text.encode()).hexdigest()[:16]
    target = cache_dir() / "liberty" / f"{liberty.stem}-lef-areas-{digest}.lib"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(patched)
        tmp.replace(target)
    return target


_RE_CELL_AREA = re.compile(r"(cell\s*\(\s*\"?(\w+)\"?\s*\)\s*\{\s*area\s*:\s*)0(?:\.0*)?(\s*;)")


def _replace_zero_areas(text: str, sizes: dict[str, float]) -> tuple[str, int]:
    count = 0

    def fix(m: re.Match[str]) -> str:
        nonlocal count
        size = sizes.get(m.group(2))
        if not size:
            return m.group(0)
        count += 1
        return f"{m.group(1)}{size:g}{m.group(3)}"

    return _RE_CELL_AREA.sub(fix, text), count


def node_um(library_name: str | None) -> float | None:
    """The process node of a library known by its Liberty name, else None."""
    if not library_name:
        return None
    if library_name in _NODE_BY_LIBRARY_NAME:
        return _NODE_BY_LIBRARY_NAME[library_name]
    for prefix, node in _NODE_BY_PREFIX:
        if library_name.startswith(prefix):
            return node
    return None


def node_text(node: float | None) -> str:
    """0.18 -> "0.18 um", 0.045 -> "45 nm"."""
    if node is None:
        return "unknown node"
    return f"{node * 1000:g} nm" if node < 0.1 else f"{node:g} um"
