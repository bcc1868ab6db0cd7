"""Seed 001, Gaj & Chodowiec: the published figures.

K. Gaj, P. Chodowiec, FPGA comparison of the AES finalists (Xilinx Virtex XCV1000 and XC4000XL;
basic iterative architecture, 128-bit keys, round keys loaded from outside). Tables I-IV and the
figures the text states (Fig. 10's numbers are only plotted).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..names import project_cipher
from ..record import PublishedFigure, Value

SEED = "001"
SOURCE = (
    "Gaj, Chodowiec, FPGA comparison of the AES finalists; Xilinx Virtex XCV1000BG560-6 "
    "and XC4000XL, basic architecture, 128-bit keys"
)

GAJ_VIRTEX = "XCV1000BG560-6"
GAJ_VIRTEX_SLICES = 12288  # section 5.1: CLB slices of the device


@dataclass(frozen=True)
class GajCipher:
    """Tables II-IV of Gaj & Chodowiec for one cipher (basic architecture, Virtex/XC4000)."""

    cipher: str
    extra_logic: str  # Table II: what decryption adds to the encryption circuit
    extra_logic_percent: float  # Table II: extra logic area / encryption logic area
    clock_period_virtex_ns: float  # Table III
    clock_period_xc4000_ns: float | None  # Table III; "-" where it does not fit XC4000
    rounds: int  # Table III: implementation rounds (SERPENT: 4 rounds of 8 cipher rounds)
    critical_path: str  # Table III, path flow
    critical_path_operations: str  # Table III, list of operations
    area_slices_virtex: int  # Table IV, CLB slices
    area_clbs_xc4000: int | None  # Table IV, CLBs
    area_critical_components: str  # Table IV ("GF(28)" of the OCR written GF(2^8))


GAJ_CIPHERS: dict[str, GajCipher] = {c.cipher: c for c in (
    GajCipher("twofish", "2 32-bit XOR2, 2 32-bit MUX2", 6, 45.1, 88.0, 16,
              "S-box → MDS → PHT → key addition → xor → E/D MUX → init MUX",
              "6 S-box 4x4, 2 ADD32, 9 XOR2, XOR4, XOR5, 2 MUX2", 1076, 907,
              "96 S-box 4x4 (6 kbit), 18 32-bit XOR2, 24 MUL GF(2^8)"),
    GajCipher("mars", "2 SUB32, 3 32-bit MUX2", 3, 100.6, None, 32,
              "2 mode MUXes → E/D MUX → multiplication → XOR → init MUX",
              "MUL32, XOR2, 4 MUX2", 2737, None,
              "4 S-box 8x32 (32 kbit), MUL32, 22 32-bit MUX2"),
    GajCipher("rc6", "2 SUB32, 2 32-bit XOR2, 8 32-bit MUX2 (see Fig. 11)", 20, 61.6, 139.5, 20,
              "E/D MUX → squaring → addition → xor → E/D MUX → variable rotation → addition → "
              "E/D MUX → init MUX",
              "SQR32, 2 ADD32, ROT32, XOR2, 4 MUX2", 1139, 1222,
              "2 SQR32, 12 32-bit MUX2, 2 ROT32"),
    GajCipher("aes", "Decryption independent of encryption, except 16 S-boxes 8x8", 55, 38.6,
              None, 10, "E/D MUX → S-box → affine transformation → MixColumn → init MUX",
              "S-box 8x8, XOR6, XOR5, XOR4, XOR2, 2 MUX2", 2902, None,
              "16 S-box 8x8 (32 kbit), 24 MUL GF(2^8), 256 XOR5 (affine and inverse affine "
              "transformation)"),
    GajCipher("serpent", "Decryption independent of encryption", 100, 94.3, None, 4,
              "8 x {key mixing → S-box → linear transformation) → init MUX",
              "8 S-box 4x4, 8 XOR2, 8 XOR7, MUX2", 4438, None,
              "512 S-box 4x4 (32 kbit), 2048 XORn (linear transformation, n=2..7)"),
)}


@dataclass(frozen=True)
class GajXC4000:
    """Table I: Twofish and RC6 on XC4000XL devices (the only two that fit the family)."""

    cipher: str
    device: str
    throughput_mbps: float
    area_clbs: int
    throughput_per_area_kbps_per_clb: float


GAJ_TABLE_I: tuple[GajXC4000, ...] = (
    GajXC4000("twofish", "XC4028XL", 90.9, 907, 100.2),
    GajXC4000("twofish", "XC4085XL", 89.2, 907, 98.3),
    GajXC4000("rc6", "XC4036XL", 45.9, 1222, 37.6),
    GajXC4000("rc6", "XC4085XL", 43.1, 1222, 35.3),
)
# Section 5.2 / Table I: which finalists fit the largest XC4000XL device (XC4085XL).
GAJ_FITS_XC4000: dict[str, bool] = {"twofish": True, "rc6": True, "mars": False, "aes": False,
                                    "serpent": False}
# Section 5.1: share of the XCV1000's 12288 CLB slices, "from 9% (Twofish) to 38% (Serpent)".
GAJ_VIRTEX_UTILIZATION_PERCENT: dict[str, float] = {"twofish": 9, "serpent": 38}
# Section 5.7: rounds that fit unrolled in the largest Virtex device.
GAJ_MAX_UNROLLED_ROUNDS: dict[str, int] = {"rc6": 10, "twofish": 8, "mars": 4, "aes": 2,
                                           "serpent": 2}


@dataclass(frozen=True)
class GajClaim:
    """A relative result stated in words (section 8): ``cipher`` vs ``other`` ~ ``ratio``."""

    cipher: str
    other: str
    metric: str  # "speed" | "area"
    ratio: float  # cipher / other
    text: str


GAJ_CLAIMS: tuple[GajClaim, ...] = (
    GajClaim("twofish", "rc6", "speed", 1.7, "about 70% faster"),
    GajClaim("aes", "serpent", "area", 0.65, "about 35% less area"),
    GajClaim("mars", "rc6", "speed", 0.5, "over twice as slow (ratio is an upper bound)"),
    GajClaim("mars", "serpent", "speed", 0.125, "over 8 times slower (ratio is an upper bound)"),
    GajClaim("mars", "twofish", "area", 2.0, "over twice the area (ratio is a lower bound)"),
    GajClaim("mars", "rc6", "area", 2.0, "over twice the area (ratio is a lower bound)"),
)


def gaj_basic_throughput_mbps(cipher: str, device: str = "virtex") -> float | None:
    """DERIVED, not printed: formula (1), 128 bits / (rounds x Table III clock period).

    Fig. 10 (throughput and area on Virtex) is only a plot in the text; this reproduces its
    throughput from Table III. On XC4000 it gives Table I's smaller-device figures (90.9, 45.9).
    """
    row = GAJ_CIPHERS[project_cipher(cipher)]
    period = row.clock_period_virtex_ns if device == "virtex" else row.clock_period_xc4000_ns
    return None if period is None else 128e3 / (row.rounds * period)


def records() -> Iterator[PublishedFigure]:
    def fig(table: str, section: str, cipher: str, variant: str, metric: str, value: Value,
            unit: str, note: str = "", column: str = "") -> PublishedFigure:
        return PublishedFigure(SEED, table, section, cipher, "basic", variant, column, 128,
                               metric, value, unit, note)

    for row in GAJ_TABLE_I:
        for metric, value, unit in (("throughput_mbps", row.throughput_mbps, "Mbps"),
                                    ("area_clbs", row.area_clbs, "CLBs"),
                                    ("throughput_per_area", row.throughput_per_area_kbps_per_clb,
                                     "kbps/CLB")):
            yield fig("Table I", "5.2", row.cipher, row.device, metric, value, unit)
    for cipher, fits in GAJ_FITS_XC4000.items():
        yield fig("Table I", "5.2", cipher, "XC4085XL", "fits_device", fits, "bool",
                  "only Twofish and RC6 fit the largest XC4000XL device")
    for c in GAJ_CIPHERS.values():
        yield fig("Table II", "5.3", c.cipher, GAJ_VIRTEX, "extra_logic", c.extra_logic, "")
        yield fig("Table II", "5.3", c.cipher, GAJ_VIRTEX, "extra_logic_area_percent",
                  c.extra_logic_percent, "%")
        yield fig("Table III", "5.4", c.cipher, GAJ_VIRTEX, "clock_period_ns",
                  c.clock_period_virtex_ns, "ns")
        if c.clock_period_xc4000_ns is not None:
            yield fig("Table III", "5.4", c.cipher, "XC4000XL", "clock_period_ns",
                      c.clock_period_xc4000_ns, "ns",
                      "the device that fits it: XC4028XL (Twofish), XC4036XL (RC6)")
        yield fig("Table III", "5.4", c.cipher, "", "rounds", c.rounds, "rounds")
        yield fig("Table III", "5.4", c.cipher, "", "critical_path", c.critical_path, "")
        yield fig("Table III", "5.4", c.cipher, "", "critical_path_operations",
                  c.critical_path_operations, "")
        yield fig("Table IV", "5.5", c.cipher, GAJ_VIRTEX, "area_clb_slices",
                  c.area_slices_virtex, "CLB slices")
        if c.area_clbs_xc4000 is not None:
            yield fig("Table IV", "5.5", c.cipher, "XC4000XL", "area_clbs", c.area_clbs_xc4000,
                      "CLBs")
        yield fig("Table IV", "5.5", c.cipher, "", "area_critical_components",
                  c.area_critical_components, "")
    for cipher, pct in GAJ_VIRTEX_UTILIZATION_PERCENT.items():
        yield fig("", "5.1", cipher, GAJ_VIRTEX, "device_utilization_percent", pct, "%",
                  "of 12288 CLB slices; Table IV's 4438 slices are 36% for Serpent")
    for cipher, rounds in GAJ_MAX_UNROLLED_ROUNDS.items():
        yield PublishedFigure(SEED, "", "5.7", cipher, "loop unrolling", "largest Virtex", "",
                              128, "max_unrolled_rounds", rounds, "rounds")
    for claim in GAJ_CLAIMS:
        yield PublishedFigure(SEED, "", "8", claim.cipher, "basic", f"vs {claim.other}", "",
                              128, f"{claim.metric}_ratio", claim.ratio, "ratio", claim.text)
