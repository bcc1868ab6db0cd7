"""The ciphers cipherbench knows: one sub-package per cipher, found by discovery.

Each cipher package exports ``CIPHER``, a :class:`CipherInfo`. Adding a cipher means adding its
folder; nothing else in the project changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable

from ..arch.base import CipherHardware, CoreOptions
from .base import CipherModel


@dataclass(frozen=True)
class Param:
    """A design parameter: its valid values, default and meaning."""

    choices: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True)
class CipherInfo:
    name: str
    title: str
    block_bits: int
    key_sizes: tuple[int, ...]
    model: Callable[[], CipherModel]
    hardware: Callable[[CoreOptions], CipherHardware] | None
    params: dict[str, Param] = field(default_factory=dict)
    # Named known-answer sets for the given key sizes: (name, cases) with cases as
    # cipherbench.verify.vectors.VectorCase. Typed-in sets come first; file sets follow when found.
    vector_sets: Callable[[tuple[int, ...]], Iterable[tuple[str, list[Any]]]] | None = None
    # Architecture or common parameters this cipher restricts, e.g. {"keys": ("stored",)} for a key
    # schedule that cannot run backward: only these values are valid, the first is the default.
    # A key "arch:param" restricts the parameter on that architecture only (applied after the
    # general one), e.g. {"pipelined:keys": ("stored",)}.
    restricts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The architectures this cipher's hardware description supports (empty: all of them).
    architectures: tuple[str, ...] = ()


@lru_cache(maxsize=None)
def ciphers() -> dict[str, CipherInfo]:
    """All cipher packages under cipherbench.ciphers that export CIPHER."""
    found: dict[str, CipherInfo] = {}
    package = importlib.import_module("cipherbench.ciphers")
    for module in pkgutil.iter_modules(package.__path__):
        if not module.ispkg:
            continue
        mod = importlib.import_module(f"cipherbench.ciphers.{module.name}")
        info = getattr(mod, "CIPHER", None)
        if isinstance(info, CipherInfo):
            found[info.name] = info
    return dict(sorted(found.items()))
