"""Seed 003, Sugawara et al.: the published figures.

T. Sugawara, N. Homma, T. Aoki, A. Satoh, "ASIC Performance Comparison for the ISO Standard Block
Ciphers": 0.18 um CMOS, Synopsys DC 2005.09, worst case (Tables 1 and 2).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..record import PublishedFigure

SEED = "003"
SOURCE = (
    "Sugawara, Homma, Aoki, Satoh, ASIC Performance Comparison for the ISO Standard Block "
    "Ciphers; 0.18 um CMOS, Synopsys DC 2005.09, worst case"
)


@dataclass(frozen=True)
class SugawaraRow:
    """A row of Sugawara et al. Table 1 (0.18 um CMOS, loop architecture, worst case).

    ``sbox`` ("table" | "composite") and ``optimize`` ("area" | "speed") are None where the
    OCR'd table does not determine them (AES and Camellia rows: see ``note``).
    """

    cipher: str
    mode: str  # as printed: "Enc." or "Enc./Dec."
    block_bits: int
    key_bits: tuple[int, ...]
    cycles: int
    sbox: str | None
    optimize: str | None
    freq_mhz: float
    throughput_mbps: float
    area_kgates: float
    efficiency_kbps_per_gate: float
    note: str = ""

    @property
    def architecture(self) -> str:
        """straightforward / compact round function (SEED, MISTY1), else the loop architecture."""
        compact = {"seed": 52, "misty1": 30}
        if self.cipher in compact:
            return "compact" if self.cycles == compact[self.cipher] else "straightforward"
        return "loop"


_AES_CAM_NOTE = (
    "OCR: the AES and Camellia blocks print 4 S-box/Optimize labels each, but 5 value rows are "
    "AES (throughput = 128 x f / 10 cycles) and 3 are Camellia (23 cycles); labels not "
    "confirmed by the text are left unknown"
)
_SEED_NOTE = "Table 1 prints 16 cycles; section 2.1 says 20 (the throughput matches 16)"
_SUGAWARA_TABLE_1: tuple[SugawaraRow, ...] = (
    SugawaraRow("aes", "Enc.", 128, (128,), 10, None, None, 128.7, 1647.4, 31.2, 52.7,
                _AES_CAM_NOTE + "; printed label: Table / Area"),
    SugawaraRow("aes", "Enc.", 128, (128,), 10, None, None, 172.4, 2206.9, 36.6, 60.3,
                _AES_CAM_NOTE + "; printed label: Speed"),
    SugawaraRow("aes", "Enc.", 128, (128,), 10, "table", None, 261.8, 3350.8, 75.8, 44.2,
                _AES_CAM_NOTE + "; printed label: GF / Area; section 3: lookup-table S-boxes"),
    SugawaraRow("aes", "Enc.", 128, (128,), 10, "composite", None, 102.0, 1306.1, 18.3, 71.4,
                _AES_CAM_NOTE + "; printed label: Speed; section 3: composite field S-box, "
                "71.4 Kbps/gate"),
    SugawaraRow("aes", "Enc.", 128, (128,), 10, None, None, 128.0, 1638.9, 28.7, 57.1,
                _AES_CAM_NOTE + "; printed on the Camellia line (label Table / Area), but "
                "128 x 128.0 MHz / 10 = 1638.4 Mbps, / 23 would be 712.3"),
    SugawaraRow("camellia", "Enc./Dec.", 128, (128,), 23, None, None, 113.6, 632.4, 11.9, 53.1,
                _AES_CAM_NOTE + "; printed label: Speed"),
    SugawaraRow("camellia", "Enc./Dec.", 128, (128,), 23, None, None, 188.3, 1048.1, 21.5, 48.7,
                _AES_CAM_NOTE + "; printed label: GF / Area"),
    SugawaraRow("camellia", "Enc./Dec.", 128, (128,), 23, "composite", None, 101.9, 567.3, 9.1,
                62.0, _AES_CAM_NOTE + "; printed label: Speed; section 3: composite field "
                "S-box, 9.1 K gates"),
    SugawaraRow("seed", "Enc./Dec.", 128, (128,), 16, "table", "area", 67.5, 540.2, 23.5, 23.0,
                _SEED_NOTE),
    SugawaraRow("seed", "Enc./Dec.", 128, (128,), 16, "table", "speed", 84.6, 676.8, 36.2, 18.7,
                _SEED_NOTE),
    SugawaraRow("seed", "Enc./Dec.", 128, (128,), 52, "table", "area", 92.4, 227.5, 11.5, 19.8),
    SugawaraRow("seed", "Enc./Dec.", 128, (128,), 52, "table", "speed", 170.1, 418.6, 18.9, 22.2),
    SugawaraRow("tdea", "Enc./Dec.", 64, (56, 112, 168), 48, "table", "area", 170.9, 227.9, 4.6,
                49.4),
    SugawaraRow("tdea", "Enc./Dec.", 64, (56, 112, 168), 48, "table", "speed", 311.5, 415.4, 7.0,
                59.7),
    SugawaraRow("misty1", "Enc./Dec.", 64, (128,), 9, "table", "area", 40.2, 286.0, 14.1, 20.3),
    SugawaraRow("misty1", "Enc./Dec.", 64, (128,), 9, "table", "speed", 96.9, 689.1, 29.4, 23.4),
    SugawaraRow("misty1", "Enc./Dec.", 64, (128,), 30, "table", "area", 92.6, 197.5, 9.3, 21.3),
    SugawaraRow("misty1", "Enc./Dec.", 64, (128,), 30, "table", "speed", 171.5, 365.9, 17.6, 20.8),
    SugawaraRow("cast128", "Enc./Dec.", 64, (128,), 17, "table", "area", 50.5, 189.9, 26.4, 7.2),
    SugawaraRow("cast128", "Enc./Dec.", 64, (128,), 17, "table", "speed", 77.6, 292.1, 32.8, 8.9),
)
# Table 2: software on a Pentium 4 2.1 GHz (Crypto++ 5.2.1 benchmarks), Mbps; None = "-".
SUGAWARA_TABLE_2: dict[str, float | None] = {"aes": 488.08, "camellia": 152.64, "seed": None,
                                             "tdea": 78.80, "misty1": None, "cast128": 342.00}
# Section 3, running text only (not in Table 1): "from 166.2 Mbps with 10.6 K Gates".
SUGAWARA_TEXT_ONLY: tuple[tuple[str, str, float, str], ...] = (
    ("seed", "throughput_mbps", 166.2, "Mbps"), ("seed", "area_kgates", 10.6, "Kgates"),
)


def sugawara_table1() -> tuple[SugawaraRow, ...]:
    """Every value row of Sugawara et al. Table 1, in the printed order."""
    return _SUGAWARA_TABLE_1


def records() -> Iterator[PublishedFigure]:
    for row in _SUGAWARA_TABLE_1:
        column = " ".join(x for x in (row.sbox or "s-box ?", row.optimize or "optimize ?"))
        key = row.key_bits[0] if len(row.key_bits) == 1 else None
        for metric, value, unit in (("cycles", row.cycles, "cycles"),
                                    ("fmax_mhz", row.freq_mhz, "MHz"),
                                    ("throughput_mbps", row.throughput_mbps, "Mbps"),
                                    ("area_kgates", row.area_kgates, "Kgates"),
                                    ("kbps_per_gate", row.efficiency_kbps_per_gate,
                                     "Kbps/gate")):
            yield PublishedFigure(SEED, "Table 1", "3", row.cipher, row.architecture,
                                  f"{row.cycles} cycles", column, key, metric, value, unit,
                                  row.note)
    for cipher, mbps in SUGAWARA_TABLE_2.items():
        if mbps is not None:
            yield PublishedFigure(SEED, "Table 2", "3", cipher, "software", "Pentium 4 2.1 GHz",
                                  "", None, "throughput_mbps", mbps, "Mbps")
    for cipher, metric, value, unit in SUGAWARA_TEXT_ONLY:
        yield PublishedFigure(SEED, "", "3", cipher, "", "", "", 128, metric, value,
                              unit, "stated in the text, not a row of Table 1")
