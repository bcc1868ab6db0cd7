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

    return IterativeCore(hw, **params)


def _unrolled(hw: CipherHardware, params: dict[str, str]) -> Elaboratable:
    from .unrolled import UnrolledCore

    return UnrolledCore(hw, **params)


def _pipelined(hw: CipherHardware, params: dict[str, str]) -> Elaboratable:
    from .pipelined import PipelinedCore

    return PipelinedCore(hw, **params)


def _narrow(hw: CipherHardware, params: dict[str, str]) -> Elaboratable:
    from .narrow import NarrowCore

    return NarrowCore(hw, **params)


# Parameters every architecture has; they become CoreOptions, not architecture structure.
COMMON_PARAMS = {
    "ops": Param(DIRECTIONS, "both", "directions in the core: both, encrypt (only), decrypt (only)"),
}

ARCHITECTURES: dict[str, ArchInfo] = {
    "iterative": ArchInfo(
        name="iterative",
        title="basic iterative: one round per clock",
        build=_iterative,
        params={
            "keys": Param(("fly", "stored"), "fly",
                          "round keys on the fly (decryption run-up stored once per key), or all "
                          "round keys computed once per key into a round-key memory"),
        },
    ),
}
