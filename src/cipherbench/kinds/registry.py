"""Every kind of design, and the kind of a design name or argument.

The list's order is the order a design argument is offered to the kinds: the generated kind is
last, since any argument no other kind takes is a design spec (and its parser says what is wrong).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import CipherbenchError
from . import DesignKind
from .described import DESCRIBED
from .generated import GENERATED

if TYPE_CHECKING:
    from ..spec import DesignSpec

KINDS: tuple[DesignKind, ...] = (DESCRIBED, GENERATED)
_BY_NAME = {kind.name: kind for kind in KINDS}


def kind_named(name: str) -> DesignKind:
    if name not in _BY_NAME:
        raise CipherbenchError(f"unknown kind of design {name!r}; valid: {', '.join(_BY_NAME)}")
    return _BY_NAME[name]


def kind_of(spec: DesignSpec) -> DesignKind:
    """The kind of a design spec (``spec.kind`` names it)."""
    return kind_named(spec.kind)


def kind_of_name(design: str) -> DesignKind:
    """The kind of a design name as results store it (``str(spec)`` or ``spec.canonical()``)."""
    for kind in KINDS:
        if kind.names(design):
            return kind
    raise CipherbenchError(f"{design!r} names no kind of design cipherbench knows "
                           f"({', '.join(_BY_NAME)})")


def design_of(text: str) -> DesignSpec:
    """The design a design argument names: a design spec (``aes-128/iterative``) or a core
    description's path (``core.toml``)."""
    kind = next(kind for kind in KINDS if kind.takes(text))
    return kind.spec(text)
