"""Where generated designs and simulator builds are cached (content-addressed)."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from .cachedir import cache_root, publish_text
from .generate import generate, generator_digest
from .spec import DesignSpec

__all__ = ["cache_root", "cached_design_dirs", "design_dir", "ensure_design", "find_records",
           "publish_text"]


def design_dir(spec: DesignSpec) -> Path:
    """The cache folder of a design: keyed by its canonical spec and its kind's digest."""
    text = f"{spec.canonical()}|{generator_digest(spec)}"
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    return cache_root() / "designs" / f"{spec.slug}-{key}"


def cached_design_dirs(specs: Iterable[DesignSpec], containing: str) -> dict[DesignSpec, Path]:
    """The cache folders (:func:`design_dir`) of those ``specs`` whose folder holds ``containing``.

    Fast for all ~13,000 valid designs: a folder is named ``SLUG-KEY``, so only a spec whose slug
    names a folder with that file gets its :func:`design_dir` computed, and with it the digest of
    its cipher and architecture (about 0.1 s for each pair, hashed once per process).
    """
    root = cache_root() / "designs"
    slugs = {path.parent.name.rsplit("-", 1)[0] for path in root.glob(f"*/{containing}")
             if not path.parent.name.startswith(".")}
    found = {}
    for spec in specs:
        if spec.slug in slugs:
            folder = design_dir(spec)
            if (folder / containing).is_file():
                found[spec] = folder
    return found


def find_records(specs: Iterable[DesignSpec]) -> dict[DesignSpec, dict[str, Any]]:
    """The verification records (verify/record.py) in the design cache of those ``specs`` that
    have one (for the current code: the cache folder is keyed by the design's digest). Fast for
    every valid design at once: see :func:`cached_design_dirs`."""
    from .verify.record import RECORD, read_record

    found = {}
    for spec, folder in cached_design_dirs(specs, containing=RECORD).items():
        record = read_record(folder)
        if isinstance(record, dict):
            found[spec] = record
    return found


def ensure_design(spec: DesignSpec, progress: Callable[[str], None] | None = None) -> Path:
    """Generate (and measure) a design unless an identical one is cached; return its folder.

    Safe when several processes race for the same design: each builds in a private folder and
    publishes it with one rename; a loser keeps the winner's folder (never deletes a folder that
    another process may be reading) and discards its own.
    """
    folder = design_dir(spec)
    if _complete(folder):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    private = Path(tempfile.mkdtemp(prefix=f".{folder.name}.build.", dir=folder.parent))
    try:
        built = private / "design"
        generate(spec, built, progress=progress)
        _retire_stale(folder, private)
        try:
            built.rename(folder)
        except OSError:
            if not _complete(folder):  # not a lost race: a real error
                raise
    finally:
        shutil.rmtree(private, ignore_errors=True)
    return folder


def _complete(folder: Path) -> bool:
    """A finished design: its manifest has the measured cycle counts (the last thing written)."""
    manifest = folder / "manifest.json"
    return manifest.exists() and "latency" in _read(manifest)


def _retire_stale(folder: Path, private: Path) -> None:
    """Move an incomplete or outdated folder out of the way (atomically, so a racer that already
    published a complete one is left alone)."""
    if not folder.exists() or _complete(folder):
        return
    try:
        folder.rename(private / "stale")
    except FileNotFoundError:
        pass  # another process moved it first


def _read(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
