"""Every interface family, by name."""

from __future__ import annotations

from ..errors import CipherbenchError
from . import InterfaceFamily
from .block import BLOCK
from .message import MESSAGE

FAMILIES: dict[str, InterfaceFamily] = {family.name: family for family in (BLOCK, MESSAGE)}


def family(name: str) -> InterfaceFamily:
    """The family called ``name``; an unknown one is refused in one line naming the valid ones."""
    try:
        return FAMILIES[name]
    except KeyError:
        valid = ", ".join(sorted(FAMILIES))
        raise CipherbenchError(f"unknown interface family {name!r}: the families are "
                               f"{valid}") from None
