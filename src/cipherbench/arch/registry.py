"""The architectures: each a generator generic over ciphers, with its own parameters."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from amaranth.hdl import Elaboratable

from ..ciphers.registry import CipherInfo, Param
from .base import DIRECTIONS, CipherHardware


@dataclass(frozen=True)
class ArchInfo:
    name: str
    title: str
    build: Callable[[CipherHardware, dict[str, str]], Elaboratable]
    params: dict[str, Param] = field(default_factory=dict)
    # Offered only to ciphers that give a hardware description for it
    # (CipherInfo.arch_hardware[name]): its datapaths are the cipher's design (masked cores).
    declared_only: bool = False


def offered(cipher: CipherInfo, arch: ArchInfo) -> bool:
    """Whether ``cipher`` has architecture ``arch``: among its ``architectures`` (all, when it
    names none), and, for an architecture only declared ciphers have, declared by it."""
    if cipher.architectures and arch.name not in cipher.architectures:
        return False
    return not arch.declared_only or arch.name in cipher.arch_hardware


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


def _masked(hw: CipherHardware, params: dict[str, str]) -> Elaboratable:
    from .masked import MaskedCore

    return MaskedCore(hw, **params)


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
            "keys": Param(("fly", "stored", "loaded"), "fly",
                          "round keys on the fly (decryption run-up stored once per key), or all "
                          "round keys computed once per key into a round-key memory, or that "
                          "memory written from outside (no key schedule in the core; Gaj 4.1 b)"),
        },
    ),
    # Short lists on purpose: `cipherbench list` shows every combination for every cipher. Values
    # a cipher cannot take (k above its round count) are refused with one line when built.
    "unrolled": ArchInfo(
        name="unrolled",
        title="loop unrolling: k rounds per clock (Gaj section 3.3 b)",
        build=_unrolled,
        params={
            "k": Param(("2", "3", "4", "5", "7", "8", "10", "14"), "2",
                       "rounds per clock, up to the round count; when k does not divide it the "
                       "last pass uses fewer rounds"),
        },
    ),
    "pipelined": ArchInfo(
        name="pipelined",
        title="outer-round (partial or full) and inner-round pipelining",
        build=_pipelined,
        params={
            "keys": Param(("fly", "stored", "loaded"), "fly",
                          "fly: key states travel with the blocks, each unit steps them (a new "
                          "key any time); stored: round keys computed once per key into a "
                          "round-key memory every unit reads (a new key waits for an empty pipe); "
                          "loaded: that memory written from outside, no key schedule in the core"),
            "stages": Param(("1", "2", "5", "full"), "full",
                            "round units, each with its own pipeline register and key step; full = "
                            "one per round (one block per clock); fewer: blocks loop through them"),
            "inner": Param(("0", "1", "2"), "0",
                           "extra register cuts inside each round, between the cipher's named "
                           "sub-round steps (AES: SubBytes | MixColumns | AddRoundKey)"),
            "load": Param(("direct", "registered"), "direct",
                          "keys=fly: the start states are stepped from the key port on the edge "
                          "the key is taken (direct, key setup 0), or from a register of the "
                          "loaded key state one clock later (registered: for schedules whose load "
                          "is as deep as a key step, such as Serpent's; key setup 1)"),
        },
    ),
    "narrow": ArchInfo(
        name="narrow",
        title="narrow datapath: a round in w-bit slices over several clocks, S-boxes shared "
              "with the key schedule (Gaj section 3.3 e)",
        build=_narrow,
        params={
            "width": Param(("64", "32", "16", "8", "4"), "32",
                           "datapath bits per clock (AES: 64 = two columns and eight S-boxes, "
                           "32 = one column and four, 8 = one byte and one; Serpent: w/4 S-box "
                           "lanes, 128/w clocks per round; Twofish: 64 = one g and one subkey h, "
                           "32 = one h for both; PRESENT, GIFT: w/4 four-bit S-boxes, 4 = one); "
                           "each cipher names its widths"),
            "keys": Param(("rewind", "stored"), "rewind",
                          "rewind: one key register, walked back after each encryption and run "
                          "up before each decryption (smallest); stored: K0 and the decryption "
                          "start state kept beside it (run-up once per key, no per-block key "
                          "work)"),
        },
    ),
    "masked": ArchInfo(
        name="masked",
        title="masked (d+1 shares, domain-oriented masking): the cipher's masked datapath at w "
              "bits per clock, a randomness port, a harness that shares key and blocks",
        build=_masked,
        declared_only=True,
        params={
            "width": Param(("8", "32", "64", "128"), "8",
                           "datapath bits per clock (AES: 8 = one masked S-box shared with the "
                           "key schedule, 64/128 = two/four columns through eight/sixteen; "
                           "PRESENT 64, GIFT 128: the round-based cores; SM4 32: one word "
                           "through four); each cipher names its widths"),
            "shares": Param(("2", "3", "1"), "2",
                            "d+1 shares for protection order d; 1 = the same structure "
                            "unmasked (no randomness), for the cost of masking"),
            "flaw": Param(("none", "register", "reuse"), "none",
                          "deliberately broken variants for the leakage assessment, with the "
                          "same function: register = every DOM multiplier compressed before "
                          "its register; reuse = one multiplier of each S-box reading "
                          "another's random bits"),
            "prng": Param(("1", "2", "3", "zero"), "1",
                          "the simulation harness's PRNG (not part of the measured core): "
                          "seed 1, 2 or 3, or stuck at zero; the core must be right for any"),
        },
    ),
}


# --- how comparisons classify an architecture ------------------------------------------------
# The report sets our cores beside the seeds' by what an architecture is (a loop of one round
# unit, a full pipeline, a compact datapath, ...). That is decided here, once, beside the
# declarations, instead of by each report section reading architecture names and parameters.


@dataclass(frozen=True)
class ArchShape:
    """One architecture with its parameters (defaults filled in), as comparisons see it."""

    name: str  # the architecture's name in ARCHITECTURES
    # One round per clock through one round unit that blocks loop through (the NSA's "basic
    # iterative" architecture, Gaj's basic architecture), whatever its key handling.
    basic_iterative: bool = False
    keys_on_the_fly: bool = False  # round keys computed as the rounds run (keys=fly)
    full_pipeline: bool = False  # a round unit per round: one block per clock
    # A single 128-bit round unit looped through, with or without register cuts inside it
    # (iterative, or a pipeline of one outer stage): Fischer's full-width configuration.
    single_round_unit: bool = False
    compact: bool = False  # a round in w-bit slices over several clocks (narrow)
    datapath_bits: int | None = None  # a compact core's bits per clock
    rounds_per_clock: int | None = None  # k of a loop-unrolled core
    # (rounds per clock k, outer round units p (-1: one per round), inner stages s) for the
    # round-structured architectures; None for compact and masked cores.
    structure: tuple[int, int, int] | None = None
    masked: bool = False

    @property
    def loop(self) -> bool:
        """The loop architecture of the seeds: one round per clock, round keys on the fly."""
        return self.basic_iterative and self.keys_on_the_fly

    @property
    def nsa_architecture(self) -> str | None:
        """"iterative" or "pipelined" (full) for the two architectures the NSA built; else None."""
        if self.basic_iterative:
            return "iterative"
        return "pipelined" if self.full_pipeline else None


def _iterative_shape(p: dict[str, str]) -> ArchShape:
    fly = p["keys"] == "fly"
    return ArchShape("iterative", basic_iterative=True, keys_on_the_fly=fly,
                     single_round_unit=True, structure=(1, 1, 1) if fly else None)


def _unrolled_shape(p: dict[str, str]) -> ArchShape:
    k = int(p["k"])
    return ArchShape("unrolled", rounds_per_clock=k, structure=(k, 1, 1))


def _pipelined_shape(p: dict[str, str]) -> ArchShape:
    full = p["stages"] == "full"
    return ArchShape("pipelined", keys_on_the_fly=p["keys"] == "fly", full_pipeline=full,
                     single_round_unit=p["stages"] == "1",
                     structure=(1, -1 if full else int(p["stages"]), int(p["inner"]) + 1))


def _narrow_shape(p: dict[str, str]) -> ArchShape:
    return ArchShape("narrow", compact=True, datapath_bits=int(p["width"]))


def _masked_shape(p: dict[str, str]) -> ArchShape:
    return ArchShape("masked", masked=True, datapath_bits=int(p["width"]))


SHAPES: dict[str, Callable[[dict[str, str]], ArchShape]] = {
    "iterative": _iterative_shape,
    "unrolled": _unrolled_shape,
    "pipelined": _pipelined_shape,
    "narrow": _narrow_shape,
    "masked": _masked_shape,
}


def classify(arch: str, params: dict[str, str]) -> ArchShape:
    """The shape of architecture ``arch`` with ``params`` (a design spec's, defaults filled in
    from the declaration); an architecture without a declared shape is just its name."""
    info = ARCHITECTURES.get(arch)
    defaults = {name: p.default for name, p in info.params.items()} if info else {}
    shape = SHAPES.get(arch)
    return shape({**defaults, **params}) if shape else ArchShape(arch)
