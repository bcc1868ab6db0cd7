"""Published AES-GCM hardware, as read in each source: the figures the report's section
"Authenticated encryption" sets our engines beside. Only what a source states is typed here; a
figure the source does not give (or that could not be read) is None and the note says so."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PublishedEngine:
    source: str
    node: str            # the process node or the FPGA device
    node_um: float | None  # for same-node comparison (None: an FPGA)
    architecture: str
    clock_mhz: float | None
    throughput_gbps: float | None
    area: str            # as the source states it (units differ)
    note: str


PUBLISHED: tuple[PublishedEngine, ...] = (
    PublishedEngine(
        "Yang, Mishra, Karri, \"A High Speed Architecture for Galois/Counter Mode of Operation "
        "(GCM)\", IACR ePrint 2005/146, abstract", "0.18 um CMOS standard cells", 0.18,
        "AES-GCM, fully pipelined (encryption and authentication of similar critical paths)",
        271.0, 34.0, "not stated in the abstract",
        "the paper's tables (area, GHASH organisation) could not be read from the build "
        "machine"),
    PublishedEngine(
        "Lemsitzer, Wolkerstorfer, Felber, Braendli, \"Multi-gigabit GCM-AES Architecture "
        "Optimized for FPGAs\", CHES 2007, abstract", "Xilinx Virtex-4 FX100", None,
        "GCM-AES, 128/64/32/16-bit datapaths (a block every 1/2/4/8 clocks); bit-parallel, "
        "digit-serial and hybrid multipliers; 128/192/256-bit keys",
        None, 15.3, "not stated in the abstract",
        "peak throughput over the variants; per-variant slices and clocks are in the paper's "
        "table, not read"),
    PublishedEngine(
        "OpenTitan AES unit with GCM (lowRISC/opentitan hw/ip/aes: doc/theory_of_operation.md, "
        "README.md, rtl/aes_ghash.sv; GCM added 2025)", "110 nm CMOS", 0.11,
        "AES-128/192/256 iterative (12/14/16 clocks a block unmasked, 56/66/72 masked); GHASH "
        "a 128-bit multiplier taken in 8 clocks (unmasked; 32 masked, two multipliers)",
        None, None, "whole unit, masked: 136 kGE with GCM, 112 kGE without (GCM: +24 kGE); "
        "unmasked AES-128 cipher core 12-22 kGE",
        "no clock or GCM throughput stated; 96-bit IVs and 128-bit tags only"),
    PublishedEngine(
        "Satoh et al., high-speed (pipelined and parallel) GCM, ISC 2007 and ISCAS 2007",
        "-", None, "AES-GCM, pipelined and parallel GHASH", None, None, "-",
        "the papers could not be read from the build machine: no figure typed"),
)
