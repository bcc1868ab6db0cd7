"""Where cipherbench keeps its caches, and how a file is published into them so that no reader
ever sees it half-written. A leaf module: the design cache (cache.py), the verification record,
the oracle builds and the simulator builds all write here, and none of them may import the
others through it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def cache_root() -> Path:
    """``$CIPHERBENCH_CACHE``, else ``~/.cache/cipherbench``."""
    env = os.environ.get("CIPHERBENCH_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "cipherbench"


def publish_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a private file and one rename: a reader (or a job
    racing to write the same file) never sees it half-written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, private = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.replace(private, path)
    except BaseException:
        Path(private).unlink(missing_ok=True)
        raise
