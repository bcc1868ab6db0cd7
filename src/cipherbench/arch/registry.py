"""The architectures: each a generator generic over ciphers, with its own parameters."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from amaranth.hdl import Elaboratable

from ..ciphers.registry import Param
from .base import DIRECTIONS, CipherHardware


@dataclass(frozen=True)
class ArchInfo:
    name: str
    title: str
    build: Callable[[CipherHardware, dict[str, str]], Elaboratable]
    params: dict[str, Param] = field(default_factory=dict)


def _iterative(hw: CipherHardware, params: dict[str, str]) -> Elaboratable:
    from .iterative import IterativeCore

    return IterativeCore(hw)


# Parameters every architecture has; they become CoreOptions, not architecture structure.
COMMON_PARAMS = {
    "ops": Param(DIRECTIONS, "both", "directions in the core: both, encrypt (only), decrypt (only)"),
}

ARCHITECTURES: dict[str, ArchInfo] = {
    "iterative": ArchInfo(
        name="iterative",
        title="basic iterative: one round per clock, round keys on the fly",
        build=_iterative,
    ),
}
