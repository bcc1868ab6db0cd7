"""Where generated designs and simulator builds are cached (content-addressed)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable

from .spec import DesignSpec


def cache_root() -> Path:
    """``$CIPHERBENCH_CACHE``, else ``~/.cache/cipherbench``."""
    env = os.environ.get("CIPHERBENCH_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "cipherbench"


def design_dir(spec: DesignSpec) -> Path:
    """The cache folder of a design: keyed by its canonical spec and the generator's digest."""
    from .generate import generator_digest

    text = f"{spec.canonical()}|{generator_digest(spec)}"
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    return cache_root() / "designs" / f"{spec.slug}-{key}"


def ensure_design(spec: DesignSpec, progress: Callable[[str], None] | None = None) -> Path:
    """Generate (and measure) a design unless an identical one is cached; return its folder."""
    from .generate import generate

    folder = design_dir(spec)
    manifest = folder / "manifest.json"
    if manifest.exists() and "latency" in _read(manifest):
        return folder
    generate(spec, folder, progress=progress)
    return folder


def _read(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
