"""Where the flows keep the Liberty files they derive: decompressed copies of gzipped ones
(liberty.py) and the built-in kits' files with their zero cell areas filled in (libraries.py).

Its own module because both of those write here and liberty.py reads the kits through
libraries.py: with the folder in either, each would import the other.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_CACHE = "CIPHERBENCH_CACHE"


def cache_dir() -> Path:
    """$CIPHERBENCH_CACHE, else the XDG cache directory's cipherbench folder (the derived
    Liberty files go in its ``liberty`` folder)."""
    base = os.environ.get(ENV_CACHE) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cipherbench"
    )
    return Path(base)
