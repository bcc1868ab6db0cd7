"""Seed 004, Fischer: the published figures.

V. Fischer, "Realization of the Round 2 AES Candidates using Altera FPGA": FLEX10K130E (Table 1:
cipher parameters; Tables 4-6: fast, fair and minimum configurations).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..names import project_cipher
from ..record import PublishedFigure, Value

SEED = "004"
SOURCE = (
    "Fischer, Realization of the Round 2 AES Candidates using Altera FPGA; "
    "FLEX10K130EQC240-1, MaxPlus2 9.3"
)


@dataclass(frozen=True)
class FischerParams:
    """Fischer Table 1, basic parameters of a finalist (128-bit block and key)."""

    cipher: str
    rounds: str  # as printed ("2+16+2" for MARS)
    operations: str
    subkeys: int
    subkey_bits: int
    ram_bits: int
    sboxes: int  # "none" -> 0
    sbox_bits: int | None
    sbox_shape: str | None  # "256 x 32"
    rom_bits: int | None
    rom_only_if_lookup: bool  # footnote *: only if S-boxes are realized as lookup tables


FISCHER_TABLE_1: dict[str, FischerParams] = {p.cipher: p for p in (
    FischerParams("mars", "2+16+2", "Complex", 40, 32, 1280, 2, 8192, "256 x 32", 16384, False),
    FischerParams("rc6", "20", "Complex", 44, 32, 1408, 0, None, None, None, False),
    FischerParams("aes", "10", "Simple", 11, 128, 1408, 1, 2048, "256 x 8", 2048, False),
    FischerParams("serpent", "32", "Very simple", 33, 128, 4224, 8, 64, "16 x 4", 512, True),
    FischerParams("twofish", "16", "Simple", 42, 32, 1344, 8, 64, "16 x 4", 512, True),
)}


@dataclass(frozen=True)
class FischerConfig:
    """A cell group of Fischer Tables 4-6: one cipher, configuration and mode on FLEX10K130E."""

    table: str
    cipher: str
    configuration: str  # "fast" | "fair" | "minimum"
    mode: str  # "encrypt" | "decrypt" | "both"
    eab_subkeys: int
    eab_sboxes: int | None  # "-": S-boxes in logic elements
    eab_total: int
    logic_elements: int
    throughput_mbps: float


_FISCHER_MODES = ("encrypt", "decrypt", "both")


def _fischer(table: str, configuration: str, cipher: str, subkeys: int, sboxes: int | None,
             les: tuple[int, int, int], speeds: tuple[float, float, float]
             ) -> tuple[FischerConfig, ...]:
    total = subkeys + (sboxes or 0)
    return tuple(FischerConfig(table, cipher, configuration, mode, subkeys, sboxes, total, le, mb)
                 for mode, le, mb in zip(_FISCHER_MODES, les, speeds))


FISCHER_CONFIGS: tuple[FischerConfig, ...] = (
    # Table 4 - Fast configurations.
    *_fischer("Table 4", "fast", "aes", 8, 16, (1585, 2145, 3348), (232.7, 211.5, 179.0)),
    *_fischer("Table 4", "fast", "serpent", 8, None, (3678, 3780, 5816), (125.5, 119.0, 111.4)),
    *_fischer("Table 4", "fast", "twofish", 8, None, (1950, 1935, 2104), (81.5, 81.5, 80.3)),
    # Table 5 - Fair configurations.
    *_fischer("Table 5", "fair", "aes", 4, 8, (1604, 2098, 3320), (121.9, 110.8, 93.8)),
    *_fischer("Table 5", "fair", "serpent", 4, None, (2238, 2309, 3270), (52.5, 52.5, 52.5)),
    *_fischer("Table 5", "fair", "twofish", 4, None, (1870, 1798, 1915), (73.7, 73.7, 72.6)),
    # Table 6 - Minimum configurations.
    *_fischer("Table 6", "minimum", "aes", 1, 2, (1673, 2033, 3324), (31.6, 28.7, 24.3)),
    *_fischer("Table 6", "minimum", "serpent", 2, None, (1385, 1402, 1579), (13.4, 13.4, 13.4)),
    *_fischer("Table 6", "minimum", "twofish", 1, None, (1318, 1302, 1409), (26.7, 26.7, 25.3)),
)
# Sections 3.3-3.5: clock periods per block (not printed for TWOFISH fair/minimum).
FISCHER_CLOCK_PERIODS: dict[tuple[str, str], int] = {
    ("aes", "fast"): 10, ("aes", "fair"): 20, ("aes", "minimum"): 80,
    ("serpent", "fast"): 33, ("serpent", "fair"): 66, ("serpent", "minimum"): 264,
    ("twofish", "fast"): 17,
}
FISCHER_DATA_WIDTH_BITS: dict[str, int] = {"fast": 128, "fair": 64, "minimum": 16}  # 3.3
FISCHER_INTERFACE_LES = 380  # section 3.2: "about 380 Logic Elements"
_FISCHER_SECTIONS = {"aes": "3.3", "serpent": "3.4", "twofish": "3.5"}


def fischer_configurations(cipher: str | None = None,
                           configuration: str | None = None) -> tuple[FischerConfig, ...]:
    """Rows of Fischer Tables 4-6, optionally for one cipher and/or configuration."""
    name = project_cipher(cipher) if cipher else None
    return tuple(c for c in FISCHER_CONFIGS
                 if (name is None or c.cipher == name)
                 and (configuration is None or c.configuration == configuration))


def records() -> Iterator[PublishedFigure]:
    for p in FISCHER_TABLE_1.values():
        values: tuple[tuple[str, Value, str], ...] = (
            ("rounds", p.rounds, "rounds"), ("operations", p.operations, ""),
            ("subkeys", p.subkeys, "subkeys"), ("subkey_bits", p.subkey_bits, "bits"),
            ("ram_bits", p.ram_bits, "bits"), ("sboxes", p.sboxes, "S-boxes"),
            ("sbox_bits", p.sbox_bits, "bits"), ("rom_bits", p.rom_bits, "bits"))
        for metric, value, unit in values:
            if value is not None:
                note = ("only if S-boxes are realized as lookup tables"
                        if metric == "rom_bits" and p.rom_only_if_lookup else "")
                yield PublishedFigure(SEED, "Table 1", "2.7", p.cipher, "", "", "", 128, metric,
                                      value, unit, note)
    for c in FISCHER_CONFIGS:
        for metric, value, unit in (("eab_subkeys", c.eab_subkeys, "EAB"),
                                    ("eab_sboxes", c.eab_sboxes, "EAB"),
                                    ("eab_total", c.eab_total, "EAB"),
                                    ("logic_elements", c.logic_elements, "LEs"),
                                    ("throughput_mbps", c.throughput_mbps, "Mbps")):
            if value is not None:
                yield PublishedFigure(SEED, c.table, "4", c.cipher, c.configuration,
                                      "FLEX10K130EQC240-1", c.mode, 128, metric, value, unit)
    for (cipher, configuration), periods in FISCHER_CLOCK_PERIODS.items():
        yield PublishedFigure(SEED, "", _FISCHER_SECTIONS[cipher], cipher, configuration,
                              "FLEX10K130EQC240-1", "", 128, "cycles", periods, "clock periods")
    yield PublishedFigure(SEED, "", "3.2", "", "interface", "FLEX10K", "", None,
                          "logic_elements", FISCHER_INTERFACE_LES, "LEs", "about 380")
