"""Seed 000, the NSA (Weeks, Bean, Rozylowicz, Ficke): the published figures.

B. Weeks, M. Bean, T. Rozylowicz, C. Ficke (NSA), "Hardware Performance Simulations of Round 2
Advanced Encryption Standard Algorithms": VHDL synthesized with Synopsys Design Compiler 1999.10 to
a 0.5 um MOSIS CMOS library, pre-layout. Tables 1-10 (per finalist: 3-in-1 and 128-bit key cores,
iterative and pipelined, Min./Max.), Table 7 (SERPENT key setup reduction), Tables 11/12 and 15/16
(summaries), 13/14 and 17/18 (throughput per area by speed grade).

The NSA's summary tables are kept as :class:`PublishedColumn` objects, the form
``report.tables`` puts beside our results; every figure is also a flat ``PublishedFigure``
record (:func:`records`, gathered with the other seeds' by ``report.published``).

NSA "Min." and "Max." are the extremes of each row over the NSA's sweep of synthesis constraints,
not two designs: the smallest area and the shortest time come from different points of the sweep
(e.g. Table 5, iterative: min throughput 190.05 Mbps = 128 bits / max time 673.5 ns).
The NSA reports one throughput (non-feedback); feedback throughput and gate equivalents are not
published. Pipelined key setup is given as "key setup / key agility" for RIJNDAEL and TWOFISH
(e.g. 0/29.28). Values are recorded as printed, including the few that contradict other cells of
the same paper; those carry a note.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial

from ..names import architecture_of, design_cipher, is_aes, project_cipher
from ..record import PublishedFigure, Value

SEED = "000"
SOURCE = (
    "Weeks, Bean, Rozylowicz, Ficke (NSA), Hardware Performance Simulations of Round 2 AES "
    "Algorithms; 0.5 um MOSIS CMOS, Synopsys 1999.10, pre-layout"
)
GROUP_LABEL = "published (NSA, 0.5 um)"
KEY_AGILITY_NOTE = (
    "NSA: both key setup / key agility times given for the pipelined core "
    "(RIJNDAEL: encryption; TWOFISH: encryption and decryption), as they differ for this algorithm"
)
RANGE_NOTE = "NSA Min./Max. are per-row extremes of a synthesis sweep, not single designs"


NSA_CIPHERS = ("mars", "rc6", "aes", "serpent", "twofish")  # the NSA's order (sections 5.1-5.5)


@dataclass(frozen=True)
class PublishedColumn:
    """One column of an NSA summary table: per-design figures and per-key-size figures."""

    table: str  # "Table 5"
    section: str  # "5.3.2"
    cores: str  # "3-in-1" or "128-bit"
    architecture: str  # "iterative" | "pipelined"
    bound: str  # "min" | "max"
    area_um2: float
    transistors: int
    io_count: int
    algorithm_setup_ns: float
    throughput_mbps: dict[int, float]
    key_setup_encrypt_ns: dict[int, float]
    key_setup_decrypt_ns: dict[int, float]
    time_to_encrypt_ns: dict[int, float]
    time_to_decrypt_ns: dict[int, float]
    # Key agility (re-keying) time where the NSA gives it next to key setup: "0/29.28".
    key_agility_encrypt_ns: dict[int, float] = field(default_factory=dict)
    cipher: str = "aes"
    # True where the table has a "Key Size Selected" column (Tables 5, 9) or is a 128-bit table;
    # False for 3-in-1 tables with one value per row (Tables 1, 3, 8), repeated for every size.
    by_key_size: bool = True
    key_agility_decrypt_ns: dict[int, float] = field(default_factory=dict)
    note: str = ""

    @property
    def label(self) -> str:
        return f"NSA {self.table} {self.cores} {self.architecture} {self.bound}"

    @property
    def key_sizes(self) -> tuple[int, ...]:
        return tuple(sorted(self.throughput_mbps))


def _same(value: float, sizes: tuple[int, ...] = (128, 192, 256)) -> dict[int, float]:
    return dict.fromkeys(sizes, value)


def _by_size(v128: float, v192: float, v256: float) -> dict[int, float]:
    return {128: v128, 192: v192, 256: v256}


def _k128(value: float) -> dict[int, float]:
    return {128: value}


def _flat_3in1(table: str, section: str, cipher: str, architecture: str, bound: str,
               row: tuple[float, ...], note: str = "") -> PublishedColumn:
    """A column of a 3-in-1 table without a key size column (one value per row).

    ``row``: area, transistors, throughput, key setup enc, key setup dec, time enc, time dec.
    """
    area, transistors, rate, ks_enc, ks_dec, t_enc, t_dec = row
    return PublishedColumn(
        table=table, section=section, cores="3-in-1", architecture=architecture, bound=bound,
        area_um2=area, transistors=int(transistors), io_count=520, algorithm_setup_ns=0.0,
        throughput_mbps=_same(rate), key_setup_encrypt_ns=_same(ks_enc),
        key_setup_decrypt_ns=_same(ks_dec), time_to_encrypt_ns=_same(t_enc),
        time_to_decrypt_ns=_same(t_dec), cipher=cipher, by_key_size=False, note=note,
    )


def _single_128(table: str, section: str, cipher: str, architecture: str, bound: str,
                row: tuple[float, ...], agility: float | None = None,
                note: str = "") -> PublishedColumn:
    """A column of a 128-bit key table; ``agility`` for "0/x*" key setup cells.

    Only TWOFISH (Table 10) uses 128-bit "0/x*" cells through here, printed for both directions.
    """
    area, transistors, rate, ks_enc, ks_dec, t_enc, t_dec = row
    return PublishedColumn(
        table=table, section=section, cores="128-bit", architecture=architecture, bound=bound,
        area_um2=area, transistors=int(transistors), io_count=520, algorithm_setup_ns=0.0,
        throughput_mbps=_k128(rate), key_setup_encrypt_ns=_k128(ks_enc),
        key_setup_decrypt_ns=_k128(ks_dec), time_to_encrypt_ns=_k128(t_enc),
        time_to_decrypt_ns=_k128(t_dec), cipher=cipher, note=note,
        key_agility_encrypt_ns=_k128(agility) if agility is not None else {},
        key_agility_decrypt_ns=_k128(agility) if agility is not None else {},
    )


# Table 1: MARS Summary (section 5.1.2), 3-in-1.
_T1_NOTE = ("as printed: iterative Max. time to encrypt/decrypt 8600.1928 ns does not match "
            "128 bits / 29.06 Mbps = 4404.7 ns")
TABLE_1: tuple[PublishedColumn, ...] = (
    _flat_3in1("Table 1", "5.1.2", "mars", "iterative", "min",
               (52_717_560, 734_751, 29.06, 9553, 9553, 2256.92, 2256.92)),
    _flat_3in1("Table 1", "5.1.2", "mars", "iterative", "max",
               (127_432_766, 1_950_277, 56.71, 27470, 27470, 8600.1928, 8600.1928), _T1_NOTE),
    _flat_3in1("Table 1", "5.1.2", "mars", "pipelined", "min",
               (670_181_619, 9_340_818, 1123.89, 3718, 3718, 1987.98, 1987.98)),
    _flat_3in1("Table 1", "5.1.2", "mars", "pipelined", "max",
               (1_333_099_627, 20_667_308, 2189.16, 10206.23, 10206.23, 3872.26, 3872.26)),
)

# Table 2: MARS 128 Bit Key Summary (section 5.1.3).
_T2_NOTE = ("as printed: iterative time to encrypt/decrypt equals the pipelined columns' "
            "(Table 15 gives 2256.92 ns for the iterative 128-bit MARS)")
TABLE_2: tuple[PublishedColumn, ...] = (
    _single_128("Table 2", "5.1.3", "mars", "iterative", "min",
                (51_986_292, 724_403, 29.06, 9553, 9553, 1987.98, 1987.98), note=_T2_NOTE),
    _single_128("Table 2", "5.1.3", "mars", "iterative", "max",
                (126_827_662, 1_941_371, 56.71, 27429, 27429, 3872.26, 3872.26), note=_T2_NOTE),
    _single_128("Table 2", "5.1.3", "mars", "pipelined", "min",
                (669_735_987, 9_334_605, 1123.89, 3712, 3712, 1987.98, 1987.98)),
    _single_128("Table 2", "5.1.3", "mars", "pipelined", "max",
                (1_332_658_283, 20_661_116, 2189.16, 10199, 10199, 3872.26, 3872.26)),
)

# Table 3: RC6 3-in-1 Summary (section 5.2.2).
TABLE_3: tuple[PublishedColumn, ...] = (
    _flat_3in1("Table 3", "5.2.2", "rc6", "iterative", "min",
               (16_027_545, 248_686, 54.94, 8139.00, 8139.00, 1233.2, 1233.2)),
    _flat_3in1("Table 3", "5.2.2", "rc6", "iterative", "max",
               (21_660_006, 430_436, 103.98, 15348.96, 15348.96, 2329, 2329)),
    _flat_3in1("Table 3", "5.2.2", "rc6", "pipelined", "min",
               (318_931_799, 7_304_500, 1192.47, 3659.51, 3659.51, 1179.2, 1179.2)),
    _flat_3in1("Table 3", "5.2.2", "rc6", "pipelined", "max",
               (592_088_503, 16_055_292, 2170.96, 6922.53, 6922.53, 2146.8, 2146.8)),
)

# Table 4: RC6 128 Bit Key Summary (section 5.2.3).
_T4_NOTE = ("as printed: iterative Max. time to encrypt/decrypt 6,674.62 ns does not match "
            "128 bits / 59.68 Mbps = 2144.8 ns")
TABLE_4: tuple[PublishedColumn, ...] = (
    _single_128("Table 4", "5.2.3", "rc6", "iterative", "min",
                (13_966_637, 217_008, 59.68, 5742.00, 5742.00, 1244.80, 1244.80)),
    _single_128("Table 4", "5.2.3", "rc6", "iterative", "max",
                (19_248_830, 307_247, 102.83, 13776.64, 13776.64, 6674.62, 6674.62),
                note=_T4_NOTE),
    _single_128("Table 4", "5.2.3", "rc6", "pipelined", "min",
                (285_334_063, 6_853_619, 1216.38, 3728.50, 3728.50, 1165.40, 1165.40)),
    _single_128("Table 4", "5.2.3", "rc6", "pipelined", "max",
                (453_248_223, 11_611_314, 2196.67, 6897.64, 6897.64, 2104.60, 2104.60)),
)

# Table 5: RIJNDAEL 3-in-1 Summary (section 5.3.2).
_T5 = partial(PublishedColumn, table="Table 5", section="5.3.2", cores="3-in-1", io_count=520,
               algorithm_setup_ns=0.0)
TABLE_5: tuple[PublishedColumn, ...] = (
    _T5(
        architecture="iterative", bound="min",
        area_um2=24_158_661, transistors=481_002,
        throughput_mbps=_by_size(190.05, 158.38, 135.75),
        key_setup_encrypt_ns=_same(0.0),
        key_setup_decrypt_ns=_by_size(286, 343.2, 400.4),
        time_to_encrypt_ns=_by_size(286, 343.2, 400.4),
        time_to_decrypt_ns=_by_size(286, 343.2, 400.4),
    ),
    _T5(
        architecture="iterative", bound="max",
        area_um2=46_362_850, transistors=1_029_054,
        throughput_mbps=_by_size(447.55, 372.96, 319.68),
        key_setup_encrypt_ns=_same(0.0),
        key_setup_decrypt_ns=_by_size(673.5, 808.2, 942.9),
        time_to_encrypt_ns=_by_size(673.5, 808.2, 942.9),
        time_to_decrypt_ns=_by_size(673.5, 808.2, 942.9),
    ),
    _T5(
        architecture="pipelined", bound="min",
        area_um2=307_129_513, transistors=4_190_611,
        throughput_mbps=_same(4026.42),
        key_setup_encrypt_ns=_same(0.0),
        key_agility_encrypt_ns=_same(29.28),
        key_setup_decrypt_ns=_by_size(233.99, 262.83, 277.25),
        time_to_encrypt_ns=_by_size(239.8, 287.76, 335.72),
        time_to_decrypt_ns=_by_size(239.8, 287.76, 335.72),
    ),
    _T5(
        architecture="pipelined", bound="max",
        area_um2=471_996_329, transistors=7_130_697,
        throughput_mbps=_same(5337.78),
        key_setup_encrypt_ns=_same(0.0),
        key_agility_encrypt_ns=_same(44.76),
        key_setup_decrypt_ns=_by_size(318.63, 374.33, 402.18),
        time_to_encrypt_ns=_by_size(317.9, 381.48, 445.06),
        time_to_decrypt_ns=_by_size(317.9, 381.48, 445.06),
    ),
)

# Table 6: RIJNDAEL 128 Bit Key Summary (section 5.3.3).
_T6 = partial(PublishedColumn, table="Table 6", section="5.3.3", cores="128-bit", io_count=520,
               algorithm_setup_ns=0.0)
TABLE_6: tuple[PublishedColumn, ...] = (
    _T6(
        architecture="iterative", bound="min",
        area_um2=20_739_239, transistors=275_485,
        throughput_mbps={128: 271.13},
        key_setup_encrypt_ns={128: 0.0},
        key_setup_decrypt_ns={128: 211.30},
        time_to_encrypt_ns={128: 211.3},
        time_to_decrypt_ns={128: 211.3},
    ),
    _T6(
        architecture="iterative", bound="max",
        area_um2=33_851_050, transistors=641_681,
        throughput_mbps={128: 605.77},
        key_setup_encrypt_ns={128: 0.0},
        key_setup_decrypt_ns={128: 472.10},
        time_to_encrypt_ns={128: 472.1},
        time_to_decrypt_ns={128: 472.1},
    ),
    _T6(
        architecture="pipelined", bound="min",
        area_um2=262_721_033, transistors=3_660_325,
        throughput_mbps={128: 4200.85},
        key_setup_encrypt_ns={128: 0.0},
        key_agility_encrypt_ns={128: 26.6},
        key_setup_decrypt_ns={128: 226.87},
        time_to_encrypt_ns={128: 222.8},
        time_to_decrypt_ns={128: 222.8},
    ),
    _T6(
        architecture="pipelined", bound="max",
        area_um2=419_886_025, transistors=4_292_749,
        throughput_mbps={128: 5745.06},
        key_setup_encrypt_ns={128: 0.0},
        key_agility_encrypt_ns={128: 33.96},
        key_setup_decrypt_ns={128: 333.26},
        time_to_encrypt_ns={128: 304.7},
        time_to_decrypt_ns={128: 304.7},
    ),
)

# Table 8: SERPENT Summary (section 5.4.2). The NSA pads SERPENT keys to 256 bits internally and
# reports only the 3-in-1 core (section 5.4.1.5); there is no 128-bit SERPENT table.
_T8_NOTE = ("as printed: iterative time to encrypt/decrypt 510.08 ns does not match "
            "128 bits / 202.30 Mbps = 632.7 ns (Tables 11 and 15 give 632.6 / 632.64 ns)")
TABLE_8: tuple[PublishedColumn, ...] = (
    _flat_3in1("Table 8", "5.4.2", "serpent", "iterative", "min",
               (13_779_834, 204_617, 102.00, 19.77, 672.18, 510.08, 510.08), _T8_NOTE),
    _flat_3in1("Table 8", "5.4.2", "serpent", "iterative", "max",
               (23_274_086, 345_483, 202.30, 39.21, 1333.14, 775.18, 775.18)),
    _flat_3in1("Table 8", "5.4.2", "serpent", "pipelined", "min",
               (210_124_852, 3_298_104, 5298.01, 18.98, 212.55, 510.08, 510.08)),
    _flat_3in1("Table 8", "5.4.2", "serpent", "pipelined", "max",
               (438_561_500, 5_741_469, 8030.11, 22.91, 365.58, 773.12, 773.12)),
)

# Table 9: TWOFISH Summary (section 5.5.2), 3-in-1 with a key size column. The 3-in-1 core is
# over-clocked for shorter keys (section 5.5.1.5), so throughput and times depend on key size.
_T9 = partial(PublishedColumn, table="Table 9", section="5.5.2", cores="3-in-1", io_count=520,
               algorithm_setup_ns=0.0, cipher="twofish")
_T9_NOTE = ("as printed: iterative Max. time to decrypt (1223.2/1407.2/1589.8 ns) repeats the "
            "Min. column, unlike time to encrypt (2151.2/2559.6/2980 ns)")
TABLE_9: tuple[PublishedColumn, ...] = (
    _T9(
        architecture="iterative", bound="min",
        area_um2=12_700_019, transistors=182_533,
        throughput_mbps=_by_size(59.50, 50.00, 42.95),
        key_setup_encrypt_ns=_by_size(42.48, 61.28, 79.49),
        key_setup_decrypt_ns=_by_size(42.48, 61.28, 79.49),
        time_to_encrypt_ns=_by_size(1223.2, 1407.2, 1589.8),
        time_to_decrypt_ns=_by_size(1223.2, 1407.2, 1589.8),
    ),
    _T9(
        architecture="iterative", bound="max",
        area_um2=23_044_514, transistors=377_599,
        throughput_mbps=_by_size(104.60, 90.96, 80.51),
        key_setup_encrypt_ns=_by_size(65.36, 106.78, 149),
        key_setup_decrypt_ns=_by_size(65.36, 106.78, 149),
        time_to_encrypt_ns=_by_size(2151.2, 2559.6, 2980),
        time_to_decrypt_ns=_by_size(1223.2, 1407.2, 1589.8),
        note=_T9_NOTE,
    ),
    _T9(
        architecture="pipelined", bound="min",
        area_um2=187_058_851, transistors=2_666_940,
        throughput_mbps=_by_size(1429.00, 1164.00, 977.20),
        key_setup_encrypt_ns=_same(0.0), key_agility_encrypt_ns=_same(65.63),
        key_setup_decrypt_ns=_same(0.0), key_agility_decrypt_ns=_same(65.63),
        time_to_encrypt_ns=_by_size(1123.8, 1307.8, 1490.4),
        time_to_decrypt_ns=_by_size(1123.8, 1307.8, 1490.4),
    ),
    _T9(
        architecture="pipelined", bound="max",
        area_um2=343_109_723, transistors=5_750_915,
        throughput_mbps=_by_size(2278.00, 1957.00, 1718.00),
        key_setup_encrypt_ns=_same(0.0), key_agility_encrypt_ns=_same(127.42),
        key_setup_decrypt_ns=_same(0.0), key_agility_decrypt_ns=_same(127.42),
        time_to_encrypt_ns=_by_size(1791, 2199.4, 2619.8),
        time_to_decrypt_ns=_by_size(1791, 2199.4, 2619.8),
    ),
)

# Table 10: Twofish 128 Bit Key Summary (section 5.5.3).
TABLE_10: tuple[PublishedColumn, ...] = (
    _single_128("Table 10", "5.5.3", "twofish", "iterative", "min",
                (9_158_239, 134_997, 60.84, 60.87, 60.87, 1217.4, 1217.4)),
    _single_128("Table 10", "5.5.3", "twofish", "iterative", "max",
                (16_110_756, 264_058, 105.14, 105.2, 105.2, 2104.00, 2104.00)),
    _single_128("Table 10", "5.5.3", "twofish", "pipelined", "min",
                (121_705_687, 1_785_286, 1341.44, 0.0, 0.0, 1126, 1126), agility=47.29),
    _single_128("Table 10", "5.5.3", "twofish", "pipelined", "max",
                (225_298_323, 3_783_973, 2273.53, 0.0, 0.0, 1908.4, 1908.4), agility=91.86),
)

# (cipher, cores) -> the NSA table's four columns.
NSA_TABLES: dict[tuple[str, str], tuple[PublishedColumn, ...]] = {
    ("mars", "3-in-1"): TABLE_1, ("mars", "128-bit"): TABLE_2,
    ("rc6", "3-in-1"): TABLE_3, ("rc6", "128-bit"): TABLE_4,
    ("aes", "3-in-1"): TABLE_5, ("aes", "128-bit"): TABLE_6,
    ("serpent", "3-in-1"): TABLE_8,
    ("twofish", "3-in-1"): TABLE_9, ("twofish", "128-bit"): TABLE_10,
}
SERPENT_128_NOTE = (
    "NSA section 5.4.1.5: SERPENT pads keys to 256 bits internally, so only the 3-in-1 core "
    "(Table 8) was reported; it stands for the 128-bit core as well"
)

# Table 7: SERPENT Key Setup Reduction Summary (section 5.4.1.6): decrypt key setup of the
# pipelined core's initial expand function, original vs single-step ("Best Case Timing", ns).
TABLE_7: dict[str, dict[str, float]] = {
    "Original (Unrolled method)": {"key_setup_decrypt_ns": 212.55, "area_um2": 16_856_672},
    "Improved (Single Step)": {"key_setup_decrypt_ns": 6.95, "area_um2": 12_901_915},
}

_SUMMARY_METRICS = ("area_um2", "transistors", "io_count", "throughput_mbps",
                    "key_setup_encrypt_ns", "key_setup_decrypt_ns", "algorithm_setup_ns",
                    "time_to_encrypt_ns", "time_to_decrypt_ns")


def _summary(columns: dict[str, tuple[float, ...]]) -> dict[str, dict[str, float]]:
    return {cipher: dict(zip(_SUMMARY_METRICS, values)) for cipher, values in columns.items()}


# Summary tables, one column per finalist (rows in _SUMMARY_METRICS order). They repeat the
# Max. (iterative) or fastest (pipelined) points of Tables 1-10, but not always the same digits
# (e.g. Table 11 RIJNDAEL area 46,361,993 vs Table 5 46,362,850): recorded as printed.
NSA_SUMMARIES: dict[str, dict[str, dict[str, float]]] = {
    # Table 11 Iterated Summary (section 6.1, 3-in-1).
    "Table 11": _summary({
        "mars": (127_432_766, 1_950_277, 520, 56.7, 9553, 27470, 0, 2256.9, 2256.9),
        "aes": (46_361_993, 1_029_046, 520, 443.2, 0, 288.8, 0, 288.8, 288.8),
        "rc6": (21_660_006, 430_436, 520, 103.8, 8139, 8139, 0, 1233.2, 1233.2),
        "serpent": (23_274_086, 345_483, 520, 202.3, 19.77, 672.18, 0, 632.6, 632.6),
        "twofish": (23_044_514, 377_599, 520, 104.6, 61.16, 61.16, 0, 1223.2, 1223.2),
    }),
    # Table 12 Pipelined Summary (section 6.1, 3-in-1).
    "Table 12": _summary({
        "mars": (1_333_099_627, 20_667_308, 520, 2189, 3718, 3718, 0, 1988, 1988),
        "aes": (471_996_329, 7_130_697, 520, 5163, 0, 233.99, 0, 248, 248),
        "rc6": (554_268_739, 9_013_872, 520, 2171, 3660, 3660, 0, 1179, 1179),
        "serpent": (438_561_500, 5_741_469, 520, 8030, 18.98, 212.55, 0, 510, 510),
        "twofish": (343_109_723, 5_750_915, 520, 2278, 0, 0, 0, 1123, 1123),
    }),
    # Table 15 Iterated Summary (section 7.1, 128-bit key).
    "Table 15": _summary({
        "mars": (126_827_662, 1_941_371, 520, 56.71, 9553, 9553, 0, 2256.92, 2256.92),
        "aes": (33_851_050, 641_681, 520, 605.77, 0, 211.3, 0, 211.3, 211.3),
        "rc6": (19_248_830, 307_247, 520, 102.83, 5742, 5742, 0, 1244.8, 1244.8),
        "serpent": (23_274_086, 345_483, 520, 202.33, 19.77, 672.18, 0, 632.64, 632.64),
        "twofish": (16_110_756, 264_058, 520, 105.14, 60.87, 105.2, 0, 1217.4, 1217.4),
    }),
    # Table 16 Pipelined Summary (section 7.1, 128-bit key).
    "Table 16": _summary({
        "mars": (1_332_658_283, 20_661_116, 520, 2189.16, 3712, 3712, 0, 1987.98, 1987.98),
        "aes": (419_886_025, 4_292_749, 520, 5745.06, 0, 226.87, 0, 222.8, 247),
        "rc6": (453_248_223, 7_536_366, 520, 2196.67, 3728.5, 3728.5, 0, 1165.4, 1165.4),
        "serpent": (438_561_500, 5_741_469, 520, 8030.11, 18.98, 212.55, 0, 510, 510),
        "twofish": (225_298_323, 3_783_973, 520, 2273.53, 0, 0, 0, 1126, 1126),
    }),
}
NSA_SUMMARY_INFO: dict[str, tuple[str, str, str]] = {  # table -> (section, cores, architecture)
    "Table 11": ("6.1", "3-in-1", "iterative"), "Table 12": ("6.1", "3-in-1", "pipelined"),
    "Table 15": ("7.1", "128-bit", "iterative"), "Table 16": ("7.1", "128-bit", "pipelined"),
}


@dataclass(frozen=True)
class ThroughputPerArea:
    """A row of NSA Tables 13/14/17/18: throughput per unit area at speed grades 1 (fastest,
    largest) to 5 (slowest, smallest), in bits/s per um^2, and the printed %Change (high-low)."""

    table: str
    section: str
    cores: str
    architecture: str
    row: str  # as printed: "RIJNDAEL128"
    cipher: str
    key_bits: int | None
    speeds: tuple[float, float, float, float, float]
    percent_change: float


def _tpa(table: str, section: str, cores: str, architecture: str,
         rows: Iterable[tuple[str, tuple[float, float, float, float, float], float]]
         ) -> tuple[ThroughputPerArea, ...]:
    out = []
    for name, speeds, change in rows:
        suffix = name[-3:]
        key = int(suffix) if suffix in ("128", "192", "256") else None
        out.append(ThroughputPerArea(table, section, cores, architecture, name,
                                     project_cipher(name), key, speeds, change))
    return tuple(out)


NSA_THROUGHPUT_PER_AREA: tuple[ThroughputPerArea, ...] = (
    # Table 13 - 3-in-1 Throughput Bits per Unit Area (section 6.2.3, iterative).
    *_tpa("Table 13", "6.2.3", "3-in-1", "iterative", (
        ("MARS", (0.45, 0.38, 0.37, 0.38, 0.55), 52),
        ("RC6", (4.49, 4.58, 4.16, 3.39, 3.55), 35),
        ("RIJNDAEL128", (15.89, 14.60, 11.41, 10.98, 8.16), 95),
        ("RIJNDAEL192", (13.24, 12.17, 9.51, 9.15, 6.80), 95),
        ("RIJNDAEL256", (11.35, 10.43, 8.15, 7.85, 5.83), 95),
        ("SERPENT", (6.80, 7.15, 7.52, 6.48, 5.89), 28),
        ("TWOFISH128", (4.98, 4.52, 4.51, 4.09, 3.86), 29),
        ("TWOFISH192", (4.33, 4.02, 4.06, 3.77, 3.60), 20),
        ("TWOFISH256", (3.83, 3.63, 3.70, 3.49, 3.38), 13),
    )),
    # Table 14 - 3-in-1 Throughput Bits Per Unit Area (section 6.2.10, pipelined).
    *_tpa("Table 14", "6.2.10", "3-in-1", "pipelined", (
        ("MARS", (10.75, 11.24, 10.24, 8.72, 8.73), 29),
        ("RC6", (19.08, 22.51, 21.40, 18.56, 17.15), 31),
        ("RIJNDAEL", (21.14, 28.60, 27.12, 24.93, 26.36), 35),
        ("SERPENT", (37.52, 37.24, 34.19, 35.36, 52.59), 54),
        ("TWOFISH128", (17.30, 14.72, 15.57, 17.37, 14.04), 24),
        ("TWOFISH192", (14.48, 12.77, 13.79, 15.58, 12.95), 22),
        ("TWOFISH256", (12.47, 11.28, 12.39, 14.13, 12.02), 25),
    )),
    # Table 17 - 128 Bit Key Throughput Per Unit Area (section 7.2.3, iterative).
    *_tpa("Table 17", "7.2.3", "128-bit", "iterative", (
        ("MARS", (0.446, 0.379, 0.365, 0.385, 0.554), 52),
        ("RC6", (5.760, 5.428, 4.893, 4.552, 3.693), 56),
        ("RIJNDAEL", (17.895, 17.283, 20.358, 18.076, 14.947), 36),
        ("SERPENT", (6.804, 7.151, 7.525, 6.482, 5.892), 28),
        ("TWOFISH", (4.978, 4.517, 4.510, 4.086, 3.857), 29),
    )),
    # Table 18 - 128 Bit Key Throughput Per Unit Area (section 7.2.10, pipelined).
    *_tpa("Table 18", "7.2.10", "128-bit", "pipelined", (
        ("MARS", (10.754, 11.236, 10.235, 8.717, 8.728), 29),
        ("RC6", (19.289, 18.550, 18.363, 18.632, 17.053), 13),
        ("RIJNDAEL", (33.371, 43.988, 42.239, 36.060, 38.529), 32),
        ("SERPENT", (37.523, 37.243, 34.185, 35.356, 52.587), 54),
        ("TWOFISH", (14.535, 14.298, 15.299, 17.076, 16.050), 19),
    )),
)


def nsa_columns(cipher: str, arch: str | None = None,
                three_in_one: bool = True) -> tuple[PublishedColumn, ...]:
    """The NSA table's Min./Max. columns for a finalist (project or NSA name).

    ``arch``: ``iterative``, ``pipelined`` or None for both. Strictly what is printed: SERPENT
    has no 128-bit table, so ``three_in_one=False`` gives () for it (see :func:`nsa_columns_for`).
    """
    name = project_cipher(cipher)
    table = NSA_TABLES.get((name, "3-in-1" if three_in_one else "128-bit"), ())
    return tuple(c for c in table if arch is None or c.architecture == arch)



def nsa_columns_for(design: str,
                    key_sizes: tuple[int, ...] | list[int]) -> tuple[PublishedColumn, ...]:
    """The NSA columns to show next to ``design``: any of the five finalists.

    Cores that take only 128-bit keys are compared with the finalist's 128-bit table, all others
    with its 3-in-1 table; an iterative or pipelined design gets only the matching
    architecture's columns. SERPENT 128-bit cores get Table 8 (the NSA's only SERPENT table),
    with a note saying so.
    """
    cipher = design_cipher(design)
    if cipher not in NSA_CIPHERS:
        return ()
    arch = architecture_of(design)
    if arch is None:
        return ()
    if set(key_sizes) <= {128}:
        columns = nsa_columns(cipher, arch, three_in_one=False)
        if columns:
            return columns
        return tuple(replace(c, note=_join(c.note, SERPENT_128_NOTE))
                     for c in nsa_columns(cipher, arch, three_in_one=True))
    return nsa_columns(cipher, arch, three_in_one=True)


def columns_for(design: str, key_sizes: tuple[int, ...] | list[int]) -> tuple[PublishedColumn, ...]:
    """AES-only form of :func:`nsa_columns_for` (the original API): () unless ``design`` is AES."""
    return nsa_columns_for(design, key_sizes) if is_aes(design) else ()


def _join(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


_COLUMN_METRICS: tuple[tuple[str, str], ...] = (
    ("throughput_mbps", "Mbps"), ("key_setup_encrypt_ns", "ns"), ("key_agility_encrypt_ns", "ns"),
    ("key_setup_decrypt_ns", "ns"), ("key_agility_decrypt_ns", "ns"),
    ("time_to_encrypt_ns", "ns"), ("time_to_decrypt_ns", "ns"),
)


def _column_figures(col: PublishedColumn) -> Iterator[PublishedFigure]:
    def fig(metric: str, value: Value, unit: str, key: int | None) -> PublishedFigure:
        return PublishedFigure(SEED, col.table, col.section, col.cipher, col.architecture,
                               col.cores, col.bound, key, metric, value, unit, col.note)

    yield fig("area_um2", col.area_um2, "um2", None)
    yield fig("transistors", col.transistors, "transistors", None)
    yield fig("io_count", col.io_count, "pins", None)
    yield fig("algorithm_setup_ns", col.algorithm_setup_ns, "ns", None)
    for metric, unit in _COLUMN_METRICS:
        values: dict[int, float] = getattr(col, metric)
        if not values:
            continue
        if col.by_key_size:
            for key in sorted(values):
                yield fig(metric, values[key], unit, key)
        else:
            yield fig(metric, values[128], unit, None)


def records() -> Iterator[PublishedFigure]:
    for table in NSA_TABLES.values():
        for col in table:
            yield from _column_figures(col)
    for variant, values in TABLE_7.items():
        for metric, value in values.items():
            yield PublishedFigure(SEED, "Table 7", "5.4.1.6", "serpent", "pipelined", variant,
                                  "best case", None, metric, value,
                                  "ns" if metric.endswith("_ns") else "um2")
    units = {"area_um2": "um2", "transistors": "transistors", "io_count": "pins",
             "throughput_mbps": "Mbps"}
    for name, by_cipher in NSA_SUMMARIES.items():
        section, cores, arch = NSA_SUMMARY_INFO[name]
        for cipher, values in by_cipher.items():
            for metric, value in values.items():
                yield PublishedFigure(SEED, name, section, cipher, arch, cores, "summary", None,
                                      metric, value, units.get(metric, "ns"))
    for row in NSA_THROUGHPUT_PER_AREA:
        for grade, value in enumerate(row.speeds, start=1):
            yield PublishedFigure(SEED, row.table, row.section, row.cipher, row.architecture,
                                  row.cores, f"speed {grade}", row.key_bits,
                                  "throughput_per_area", value, "bps/um2", f"row {row.row}")
        yield PublishedFigure(SEED, row.table, row.section, row.cipher, row.architecture,
                              row.cores, "%change (high-low)", row.key_bits, "percent_change",
                              row.percent_change, "%", f"row {row.row}")
