"""Seed 002, Papaefstathiou et al.: the published figures.

I. Papaefstathiou, V. Papaefstathiou, C. Sotiriou, "Design-space exploration of the most widely used
cryptography algorithms": DES and AES on Intel IXP network processors (Tables 1-7) and in 0.18 um
VST-UMC standard cells, synthesis vs placed and routed (Tables 8-14).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..record import PublishedFigure

SEED = "002"
SOURCE = (
    "Papaefstathiou, Papaefstathiou, Sotiriou, Design-space exploration of the most "
    "widely used cryptography algorithms; Intel IXP1200/IXP2400 software, 0.18 um "
    "VST-UMC standard cells (Synopsys, Cadence Silicon Ensemble)"
)


@dataclass(frozen=True)
class PapaSoftware:
    """A row of Tables 1-6: hand-written assembly on Intel IXP network processors."""

    table: str
    platform: str  # "IXP1200" | "IXP2400"
    microengines: int
    direction: str  # "encrypt" | "decrypt"
    step: str  # "key setup", "first block", "second block", "third block"
    cipher: str
    latency_ns: float
    instruction_count: int
    throughput_mbps: float | None  # N/A for key setup


_STEPS = ("key setup", "first block", "second block", "third block")


def _sw(table: str, platform: str, engines: int, direction: str, cipher: str,
        rows: tuple[tuple[float, int, float | None], ...]) -> tuple[PapaSoftware, ...]:
    return tuple(PapaSoftware(table, platform, engines, direction, step, cipher, lat, ic, thr)
                 for step, (lat, ic, thr) in zip(_STEPS, rows))


PAPA_SOFTWARE: tuple[PapaSoftware, ...] = (
    # Table 1: encryption, one IXP1200 microengine.
    *_sw("Table 1", "IXP1200", 1, "encrypt", "des", (
        (412_405, 93_000, None), (428_038, 3808, 3.74), (444_032, 3808, 3.84),
        (460_026, 3808, 3.88))),
    *_sw("Table 1", "IXP1200", 1, "encrypt", "aes", (
        (92_460, 21_000, None), (266_662, 2394, 5.98), (265_237, 2394, 6.12),
        (271_802, 2394, 5.83))),
    # Table 2: decryption, one IXP1200 microengine.
    *_sw("Table 2", "IXP1200", 1, "decrypt", "des", (
        (410_955, 93_000, None), (427_669, 3970, 3.62), (444_334, 3968, 3.71),
        (461_000, 3968, 3.69))),
    *_sw("Table 2", "IXP1200", 1, "decrypt", "aes", (
        (185_964, 42_110, None), (264_320, 2453, 5.86), (252_942, 2453, 5.93),
        (252_272, 2453, 5.95))),
    # Table 3: encryption, 6 IXP1200 microengines (6-block steps).
    *_sw("Table 3", "IXP1200", 6, "encrypt", "des", (
        (412_405, 93_000, None), (430_613, 4407, 20.23), (446_731, 4407, 20.26),
        (463_425, 4407, 20.26))),
    *_sw("Table 3", "IXP1200", 6, "encrypt", "aes", (
        (92_460, 21_000, None), (271_028, 2713, 32.43), (270_159, 2713, 32.56),
        (268_225, 2713, 32.89))),
    # Table 4: decryption, 6 IXP1200 microengines.
    *_sw("Table 4", "IXP1200", 6, "decrypt", "des", (
        (410_955, 93_000, None), (431_421, 4582, 19.35), (447_968, 4582, 19.46),
        (464_793, 4582, 19.39))),
    *_sw("Table 4", "IXP1200", 6, "decrypt", "aes", (
        (185_964, 42_110, None), (280_692, 2890, 30.82), (284_945, 2890, 30.13),
        (277_832, 2890, 31.05))),
    # Table 5: encryption, all eight IXP2400 microengines (8-block steps). The caption says
    # "IXP1200"; the table header and the text say IXP2400.
    *_sw("Table 5", "IXP2400", 8, "encrypt", "des", (
        (157_241, 91_213, None), (164_894, 4230, 72.22), (174_713, 4230, 72.22),
        (182_423, 4230, 72.22))),
    *_sw("Table 5", "IXP2400", 8, "encrypt", "aes", (
        (37_493, 21_000, None), (42_148, 2698, 112.09), (46_658, 2698, 112.09),
        (51_280, 2698, 112.09))),
    # Table 6: decryption, all eight IXP2400 microengines.
    *_sw("Table 6", "IXP2400", 8, "decrypt", "des", (
        (157_241, 91_213, None), (164_642, 4379, 68.27), (171_964, 4379, 68.27),
        (179_087, 4379, 68.27))),
    *_sw("Table 6", "IXP2400", 8, "decrypt", "aes", (
        (73_242, 41_732, None), (78_042, 2864, 116.32), (82_142, 2864, 116.32),
        (86_965, 2864, 116.32))),
)
# Table 7: IXP1200 core power, measured (W), same for DES and AES.
PAPA_TABLE_7_POWER_W: dict[int, float] = {1: 1.8, 6: 3.2}


@dataclass(frozen=True)
class PapaHardware:
    """A row of Tables 8-14: 0.18 um VST-UMC standard cells."""

    table: str
    section: str
    design: str  # as printed: "AO Enc AES(FF)"
    cipher: str
    style: str  # "synchronous flip-flop" | "synchronous latch" | "asynchronous"
    optimization: str  # "area" | "performance"
    architecture: str
    direction: str  # "encrypt" | "decrypt" | "both"
    stage: str  # "synthesis" | "placed and routed"
    latency_ns: float
    throughput_gbps: float
    power_mw: float
    area_kum2: float
    note: str = ""


_PAPA_DES = {  # design -> (style, optimization, architecture)
    "AO SDES(PERM)": ("synchronous flip-flop", "area", "iterative (16 steps, permutations)"),
    "PO SDES(PERM)": ("synchronous flip-flop", "performance",
                      "pipelined (16 stages, permutations)"),
    "PO SDES(OD)": ("synchronous flip-flop", "performance", "pipelined (16 stages, low power)"),
    "AO DES": ("asynchronous", "area", "iterative"),
    "FGP DES": ("asynchronous", "performance", "fine-grain pipelined"),
    "PO DES(F)": ("asynchronous flip-flop", "performance", "coarse-grain pipelined"),
    "PO DES(L)": ("asynchronous latch", "performance", "coarse-grain pipelined"),
}


def _des_hw(table: str, section: str, stage: str,
            rows: tuple[tuple[str, float, float, float, float], ...]) -> tuple[PapaHardware, ...]:
    return tuple(PapaHardware(table, section, name, "des", *_PAPA_DES[name], "encrypt", stage,
                              lat, thr, power, area)
                 for name, lat, thr, power, area in rows)


def _aes_hw(table: str, stage: str, cells: str,
            rows: tuple[tuple[float, float, float, float], ...],
            note: str = "") -> tuple[PapaHardware, ...]:
    style = "synchronous flip-flop" if cells == "FF" else "synchronous latch"
    names = ((f"AO Enc AES({cells})", "area", "encrypt"),
             (f"AO Dec AES({cells})", "area", "decrypt"),
             (f"PO Enc AES({cells})", "performance", "encrypt"),
             (f"PO Dec AES({cells})", "performance", "decrypt"))
    return tuple(PapaHardware(table, "4.3", name, "aes", style, opt, "iterative (10 rounds)",
                              direction, stage, *values, note=note)
                 for (name, opt, direction), values in zip(names, rows))


_T14_NOTE = "as printed: the power column repeats Table 13's (synthesis) values"
PAPA_HARDWARE: tuple[PapaHardware, ...] = (
    # Table 8: DES synchronous designs, synthesis (power by switching-activity annotation).
    *_des_hw("Table 8", "4.1", "synthesis", (
        ("AO SDES(PERM)", 65.6, 0.97, 31.74, 37), ("PO SDES(PERM)", 28.8, 35.7, 661.69, 5952),
        ("PO SDES(OD)", 27.28, 32.27, 331.4, 675))),
    # Table 9: DES synchronous designs, placed and routed (power measured after P&R).
    *_des_hw("Table 9", "4.1", "placed and routed", (
        ("AO SDES(PERM)", 70.4, 0.91, 12.55, 52), ("PO SDES(PERM)", 41.6, 24.6, 553.3, 842),
        ("PO SDES(OD)", 49.2, 21.46, 412.1, 912))),
    # Table 10: DES asynchronous designs, placed and routed (no synthesis figures published).
    *_des_hw("Table 10", "4.2.2", "placed and routed", (
        ("AO DES", 138, 7.42, 23.76, 83), ("FGP DES", 69.74, 10.42, 70.04, 882),
        ("PO DES(F)", 30.83, 33.16, 156.29, 560), ("PO DES(L)", 26.36, 38.78, 420.8, 512))),
    # Tables 11-14: AES, encryption and decryption modules separately, none pipelined.
    *_aes_hw("Table 11", "synthesis", "FF", (
        (57.6, 2.2, 85.49, 245), (96.4, 1.33, 175.21, 426), (25.2, 5.07, 121.7, 340),
        (64.8, 1.97, 206.85, 526))),
    *_aes_hw("Table 12", "placed and routed", "FF", (
        (55.2, 2.31, 79.24, 349), (110.4, 1.15, 163.72, 602), (43.2, 2.96, 112.48, 484),
        (96, 1.33, 193.45, 743))),
    *_aes_hw("Table 13", "synthesis", "LA", (
        (52.4, 2.37, 84.82, 269), (85.38, 1.29, 196.47, 511), (23.8, 5.31, 129.09, 387),
        (63.1, 2.03, 225.49, 641))),
    *_aes_hw("Table 14", "placed and routed", "LA", (
        (56.2, 2.28, 84.82, 363), (92.22, 1.39, 196.47, 656), (49.7, 2.57, 129.09, 476),
        (87.6, 1.46, 225.49, 808)), note=_T14_NOTE),
)
# Section 4.2.2: power at 50% throughput (16 busy, 16 idle cycles), measured after P&R.
PAPA_HALF_LOAD_POWER_MW: dict[str, float] = {"synchronous area-optimized DES": 171.38,
                                            "asynchronous DES": 12.78}




@dataclass(frozen=True)
class PapaClaim:
    """A finding about the asynchronous DES designs stated in words (sections 4.2.2 and 5):
    ``quote`` is the seed's own wording, as printed; ``statement`` says it in the report's."""

    key: str
    statement: str
    section: str
    quote: str


PAPA_ASYNC_CLAIMS: tuple[PapaClaim, ...] = (
    PapaClaim("efficient", "The most efficient DES (throughput per power) is an asynchronous one",
              "5 (and abstract)", "the most efficient implementation of the DES algorithm in "
              "terms of data bandwidth serviced and power consumed, is indeed an asynchronous "
              "one"),
    PapaClaim("po_f_over_sync", "The asynchronous PO DES(F) has a higher performance-to-power "
              "ratio than the best synchronous DES, by about 12 %", "4.2.2",
              "the flip-flop based Performance-Optimized asynchronous design has a higher "
              "performance to power ratio than the best synchronous one by about 12%"),
    PapaClaim("latch", "The latch version PO DES(L) is faster but consumes more than the "
              "flip-flop version PO DES(F)", "4.2.2",
              "The latch design is faster as latches have a shorter propagation delay, however, "
              "it consumes more power than the equivalent edge-triggered versions"),
    PapaClaim("control_bound", "AO and FGP DES are control-bound: much slower than PO DES",
              "4.2.2", "The additional asynchronous control required to implement the "
              "Area-Optimized and Fine-Grain pipelined ADES designs implies a significantly high "
              "cost in performance"),
    PapaClaim("idle", "Asynchronous cores consume almost no power when idle; a synchronous "
              "core's power does not drop significantly", "4.2.2",
              "The asynchronous versions, as opposed to their synchronous counterparts, consume "
              "almost no power when idle"),
)
# Section 4.2.2: PO DES(F)'s performance-to-power ratio over the best synchronous DES's, "by
# about 12%" (stated in words; no pair of the tables gives it: asynchronous.py computes theirs).
PAPA_PO_F_OVER_BEST_SYNC = 1.12


def records() -> Iterator[PublishedFigure]:
    for s in PAPA_SOFTWARE:
        variant = f"{s.microengines}x {s.platform} microengine"
        for metric, value, unit in (("latency_ns", s.latency_ns, "ns"),
                                    ("instruction_count", s.instruction_count, "instructions"),
                                    ("throughput_mbps", s.throughput_mbps, "Mbps")):
            if value is not None:
                yield PublishedFigure(SEED, s.table, "3", s.cipher, "software", variant,
                                      f"{s.direction}, {s.step}", None, metric, value, unit)
    for engines, watts in PAPA_TABLE_7_POWER_W.items():
        for cipher in ("des", "aes"):
            yield PublishedFigure(SEED, "Table 7", "3", cipher, "software",
                                  f"{engines}x IXP1200 microengine", "core power", None,
                                  "power_w", watts, "W", "measured; same for DES and AES")
    for h in PAPA_HARDWARE:
        for metric, value, unit in (("latency_ns", h.latency_ns, "ns"),
                                    ("throughput_gbps", h.throughput_gbps, "Gbps"),
                                    ("power_mw", h.power_mw, "mW"),
                                    ("area_kum2", h.area_kum2, "K um2")):
            yield PublishedFigure(SEED, h.table, h.section, h.cipher, h.architecture, h.design,
                                  h.stage, None, metric, value, unit, h.note)
    claim = next(c for c in PAPA_ASYNC_CLAIMS if c.key == "po_f_over_sync")
    yield PublishedFigure(SEED, "", claim.section, "des", "coarse-grain pipelined", "PO DES(F)",
                          "over the best synchronous DES", None, "performance_to_power_ratio",
                          PAPA_PO_F_OVER_BEST_SYNC, "ratio", claim.quote)
    for design, mw in PAPA_HALF_LOAD_POWER_MW.items():
        yield PublishedFigure(SEED, "", "4.2.2", "des", "iterative", design,
                              "50% throughput, placed and routed", None, "power_mw", mw, "mW")
