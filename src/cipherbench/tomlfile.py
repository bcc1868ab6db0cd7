"""A TOML file a user names (a study, a core description), read with one-line errors."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import CipherbenchError


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The table in ``path``; ``what`` names the file in errors ("study file")."""
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError as exc:
        raise CipherbenchError(f"{what} {path} not found") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CipherbenchError(f"{path}: not valid TOML: {exc}") from exc
    except (OSError, ValueError) as exc:  # a folder, no permission, a NUL in the name, ...
        raise CipherbenchError(f"{what} {path}: cannot read it ({exc}); name a TOML file") from exc
