"""Every kind of design, and the kind of a design name or argument.

The list's order is the order a design argument is offered to the kinds: the generated kind is
last, since any argument no other kind takes is a design spec (and its parser says what is wrong).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import CipherbenchError
from . import DesignKind
from .described import DESCRIBED
from .engine import ENGINE
from .generated import GENERATED

if TYPE_CHECKING:
    from ..spec import DesignSpec

KINDS: tuple[DesignKind, ...] = (DESCRIBED, ENGINE, GENERATED)
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
    kind = known_kind_of_name(design)
    if kind is None:
        raise CipherbenchError(f"{design!r} names no kind of design cipherbench knows "
                               f"({', '.join(_BY_NAME)})")
    return kind


def known_kind_of_name(design: str) -> DesignKind | None:
    """The kind of a stored design name, or None for a name of no kind (a results file may hold
    anything: a report shows such a row but ranks it among nothing)."""
    return next((kind for kind in KINDS if kind.names(design)), None)


def ranks(design: str, *, reference: bool) -> bool:
    """Whether a stored design name is of a kind the others are ranked against
    (``reference=True``: a generated core) or of a kind ranked among them (``False``: a
    designer's core); a name of no known kind is neither."""
    kind = known_kind_of_name(design)
    return kind is not None and kind.reference == reference


def design_of(text: str) -> DesignSpec:
    """The design a design argument names: a design spec (``aes-128/iterative``) or a core
    description's path (``core.toml``)."""
    kind = next(kind for kind in KINDS if kind.takes(text))
    return kind.spec(text)
