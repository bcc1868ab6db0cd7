"""Published figures of the five seed papers, as data with table and section references.

Every number here is typed from the seed texts (``/work/shared/seeds``, OCR/markdown conversions
of the papers) and cross-checked against them by ``tests/test_published.py``; ``docs/published.md``
lists what is recorded from each paper and what the texts lack.

Seeds (cipher names mapped to the project's by :func:`project_cipher`):

* ``000`` B. Weeks, M. Bean, T. Rozylowicz, C. Ficke (NSA), "Hardware Performance Simulations of
  Round 2 Advanced Encryption Standard Algorithms": VHDL synthesized with Synopsys Design Compiler
  1999.10 to a 0.5 um MOSIS CMOS library, pre-layout. Tables 1-10 (per finalist: 3-in-1 and
  128-bit key cores, iterative and pipelined, Min./Max.), Table 7 (SERPENT key setup reduction),
  Tables 11/12 and 15/16 (summaries), 13/14 and 17/18 (throughput per area by speed grade).
* ``001`` K. Gaj, P. Chodowiec, FPGA comparison of the AES finalists (Xilinx Virtex XCV1000 and
  XC4000XL; basic iterative architecture, 128-bit keys, round keys loaded from outside).
  Tables I-IV and the figures the text states (Fig. 10's numbers are only plotted).
* ``002`` I. Papaefstathiou, V. Papaefstathiou, C. Sotiriou, "Design-space exploration of the
  most widely used cryptography algorithms": DES and AES on Intel IXP network processors
  (Tables 1-7) and in 0.18 um VST-UMC standard cells, synthesis vs placed and routed
  (Tables 8-14).
* ``003`` T. Sugawara, N. Homma, T. Aoki, A. Satoh, "ASIC Performance Comparison for the ISO
  Standard Block Ciphers": 0.18 um CMOS, Synopsys DC 2005.09, worst case (Tables 1 and 2).
* ``004`` V. Fischer, "Realization of the Round 2 AES Candidates using Altera FPGA": FLEX10K130E
  (Table 1: cipher parameters; Tables 4-6: fast, fair and minimum configurations).

The NSA's summary tables are kept as :class:`PublishedColumn` objects, the form
``report.tables`` puts beside our results; every figure of every seed is also available as a flat
:class:`PublishedFigure` record (:func:`all_figures`, :func:`figures`).

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
from functools import lru_cache, partial

Value = float | int | str | bool | None

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

SEEDS: dict[str, str] = {
    "000": SOURCE,
    "001": "Gaj, Chodowiec, FPGA comparison of the AES finalists; Xilinx Virtex XCV1000BG560-6 "
           "and XC4000XL, basic architecture, 128-bit keys",
    "002": "Papaefstathiou, Papaefstathiou, Sotiriou, Design-space exploration of the most "
           "widely used cryptography algorithms; Intel IXP1200/IXP2400 software, 0.18 um "
           "VST-UMC standard cells (Synopsys, Cadence Silicon Ensemble)",
    "003": "Sugawara, Homma, Aoki, Satoh, ASIC Performance Comparison for the ISO Standard Block "
           "Ciphers; 0.18 um CMOS, Synopsys DC 2005.09, worst case",
    "004": "Fischer, Realization of the Round 2 AES Candidates using Altera FPGA; "
           "FLEX10K130EQC240-1, MaxPlus2 9.3",
}

# --- cipher names --------------------------------------------------------------------------

PROJECT_CIPHERS = ("aes", "serpent", "twofish", "rc6", "mars", "des", "tdea", "camellia", "seed",
                   "misty1", "cast128")
NSA_CIPHERS = ("mars", "rc6", "aes", "serpent", "twofish")  # the NSA's order (sections 5.1-5.5)

@lru_cache(maxsize=None)
def _cipher_names() -> dict[str, str]:
    """Every name a cipher goes by, lower case -> the project's name: its own and the aliases its
    folder declares (CipherInfo.aliases)."""
    from ..ciphers.registry import ciphers

    names: dict[str, str] = {}
    for info in ciphers().values():
        for name in (info.name, *info.aliases):
            names[name.lower()] = info.name
    return names


def project_cipher(name: str) -> str:
    """A seed's cipher name (``RIJNDAEL``, ``CAST-128``, ``Triple DES``) -> the project's. A key
    size run into the name (NSA rows ``RIJNDAEL128``, ``TWOFISH256``) is dropped when it is one
    of the cipher's key sizes."""
    from ..ciphers.registry import ciphers

    names = _cipher_names()
    key = name.strip().lower()
    if key not in names:
        for size in sorted({s for info in ciphers().values() for s in info.key_sizes}):
            stem = key.removesuffix(str(size))
            if stem != key and stem in names and size in ciphers()[names[stem]].key_sizes:
                key = stem
                break
    if key not in names:
        raise KeyError(f"unknown seed cipher name {name!r}")
    return names[key]


# --- one record per published figure -------------------------------------------------------


@dataclass(frozen=True)
class PublishedFigure:
    """One number (or cell) of a seed paper, with where it is printed.

    ``architecture`` is the paper's architecture class (``iterative``, ``pipelined``,
    ``basic``, ``software``, ``fast``...); ``variant`` the design or core the row/column
    names (``3-in-1``, ``AO Enc AES(FF)``, ``XC4085XL``); ``column`` the column within it
    (``min``/``max``, ``speed 1``, ``synthesis``, ``encrypt``). ``key_bits`` is None where the
    paper gives one value for every key size or does not say.
    """

    seed: str
    table: str  # "Table 5", "Table II"; "" for a figure stated only in running text
    section: str
    cipher: str
    architecture: str
    variant: str
    column: str
    key_bits: int | None
    metric: str
    value: Value
    unit: str
    note: str = ""


# --- seed 000: NSA ---------------------------------------------------------------------------


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


# Architecture words of design specs that correspond to the NSA's two architectures.
_ITERATIVE_WORDS = ("iterative", "iterated", "loop")
_PIPELINED_WORDS = ("pipelined", "pipeline", "unrolled")


def design_cipher(design: str) -> str | None:
    """The project cipher of a design spec (``aes-128/iterative`` -> ``aes``, by spec.parse), or
    of a seed's design name by its cipher part (``rijndael256/...``); None if unknown."""
    from ..errors import CipherbenchError
    from ..spec import parse

    try:
        return parse(design).cipher
    except CipherbenchError:
        pass
    name = design.split("/", 1)[0].lower().split("-", 1)[0]
    try:
        return project_cipher(name)
    except KeyError:
        return None


def is_aes(design: str) -> bool:
    """RIJNDAEL/AES designs (by the cipher part of the spec)."""
    cipher = design.split("/", 1)[0].lower()
    return cipher.startswith(("aes", "rijndael"))


def architecture_of(design: str) -> str | None:
    """The NSA architecture a design corresponds to: its basic iterative core (one round per
    clock) or its full pipeline (one block per clock); None for anything else (unrolled, partial
    pipelines, narrow datapaths), which get no NSA columns."""
    arch = design.split("/", 1)[1].lower() if "/" in design else ""
    name, _, params = arch.partition(":")
    if name.startswith(_ITERATIVE_WORDS):
        return "iterative"
    if name == "pipelined":
        return "pipelined" if "stages=" not in params or "stages=full" in params else None
    return None


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
        return PublishedFigure("000", col.table, col.section, col.cipher, col.architecture,
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


def _nsa_figures() -> Iterator[PublishedFigure]:
    for table in NSA_TABLES.values():
        for col in table:
            yield from _column_figures(col)
    for variant, values in TABLE_7.items():
        for metric, value in values.items():
            yield PublishedFigure("000", "Table 7", "5.4.1.6", "serpent", "pipelined", variant,
                                  "best case", None, metric, value,
                                  "ns" if metric.endswith("_ns") else "um2")
    units = {"area_um2": "um2", "transistors": "transistors", "io_count": "pins",
             "throughput_mbps": "Mbps"}
    for name, by_cipher in NSA_SUMMARIES.items():
        section, cores, arch = NSA_SUMMARY_INFO[name]
        for cipher, values in by_cipher.items():
            for metric, value in values.items():
                yield PublishedFigure("000", name, section, cipher, arch, cores, "summary", None,
                                      metric, value, units.get(metric, "ns"))
    for row in NSA_THROUGHPUT_PER_AREA:
        for grade, value in enumerate(row.speeds, start=1):
            yield PublishedFigure("000", row.table, row.section, row.cipher, row.architecture,
                                  row.cores, f"speed {grade}", row.key_bits,
                                  "throughput_per_area", value, "bps/um2", f"row {row.row}")
        yield PublishedFigure("000", row.table, row.section, row.cipher, row.architecture,
                              row.cores, "%change (high-low)", row.key_bits, "percent_change",
                              row.percent_change, "%", f"row {row.row}")


# --- seed 001: Gaj & Chodowiec ---------------------------------------------------------------

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


def _gaj_figures() -> Iterator[PublishedFigure]:
    def fig(table: str, section: str, cipher: str, variant: str, metric: str, value: Value,
            unit: str, note: str = "", column: str = "") -> PublishedFigure:
        return PublishedFigure("001", table, section, cipher, "basic", variant, column, 128,
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
        yield PublishedFigure("001", "", "5.7", cipher, "loop unrolling", "largest Virtex", "",
                              128, "max_unrolled_rounds", rounds, "rounds")
    for claim in GAJ_CLAIMS:
        yield PublishedFigure("001", "", "8", claim.cipher, "basic", f"vs {claim.other}", "",
                              128, f"{claim.metric}_ratio", claim.ratio, "ratio", claim.text)


# --- seed 002: Papaefstathiou et al. ---------------------------------------------------------


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


def _papa_figures() -> Iterator[PublishedFigure]:
    for s in PAPA_SOFTWARE:
        variant = f"{s.microengines}x {s.platform} microengine"
        for metric, value, unit in (("latency_ns", s.latency_ns, "ns"),
                                    ("instruction_count", s.instruction_count, "instructions"),
                                    ("throughput_mbps", s.throughput_mbps, "Mbps")):
            if value is not None:
                yield PublishedFigure("002", s.table, "3", s.cipher, "software", variant,
                                      f"{s.direction}, {s.step}", None, metric, value, unit)
    for engines, watts in PAPA_TABLE_7_POWER_W.items():
        for cipher in ("des", "aes"):
            yield PublishedFigure("002", "Table 7", "3", cipher, "software",
                                  f"{engines}x IXP1200 microengine", "core power", None,
                                  "power_w", watts, "W", "measured; same for DES and AES")
    for h in PAPA_HARDWARE:
        for metric, value, unit in (("latency_ns", h.latency_ns, "ns"),
                                    ("throughput_gbps", h.throughput_gbps, "Gbps"),
                                    ("power_mw", h.power_mw, "mW"),
                                    ("area_kum2", h.area_kum2, "K um2")):
            yield PublishedFigure("002", h.table, h.section, h.cipher, h.architecture, h.design,
                                  h.stage, None, metric, value, unit, h.note)
    for design, mw in PAPA_HALF_LOAD_POWER_MW.items():
        yield PublishedFigure("002", "", "4.2.2", "des", "iterative", design,
                              "50% throughput, placed and routed", None, "power_mw", mw, "mW")


# --- seed 003: Sugawara et al. ---------------------------------------------------------------


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


def _sugawara_figures() -> Iterator[PublishedFigure]:
    for row in _SUGAWARA_TABLE_1:
        column = " ".join(x for x in (row.sbox or "s-box ?", row.optimize or "optimize ?"))
        key = row.key_bits[0] if len(row.key_bits) == 1 else None
        for metric, value, unit in (("cycles", row.cycles, "cycles"),
                                    ("fmax_mhz", row.freq_mhz, "MHz"),
                                    ("throughput_mbps", row.throughput_mbps, "Mbps"),
                                    ("area_kgates", row.area_kgates, "Kgates"),
                                    ("kbps_per_gate", row.efficiency_kbps_per_gate,
                                     "Kbps/gate")):
            yield PublishedFigure("003", "Table 1", "3", row.cipher, row.architecture,
                                  f"{row.cycles} cycles", column, key, metric, value, unit,
                                  row.note)
    for cipher, mbps in SUGAWARA_TABLE_2.items():
        if mbps is not None:
            yield PublishedFigure("003", "Table 2", "3", cipher, "software", "Pentium 4 2.1 GHz",
                                  "", None, "throughput_mbps", mbps, "Mbps")
    for cipher, metric, value, unit in SUGAWARA_TEXT_ONLY:
        yield PublishedFigure("003", "", "3", cipher, "", "", "", 128, metric, value,
                              unit, "stated in the text, not a row of Table 1")


# --- seed 004: Fischer -----------------------------------------------------------------------


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


def _fischer_figures() -> Iterator[PublishedFigure]:
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
                yield PublishedFigure("004", "Table 1", "2.7", p.cipher, "", "", "", 128, metric,
                                      value, unit, note)
    for c in FISCHER_CONFIGS:
        for metric, value, unit in (("eab_subkeys", c.eab_subkeys, "EAB"),
                                    ("eab_sboxes", c.eab_sboxes, "EAB"),
                                    ("eab_total", c.eab_total, "EAB"),
                                    ("logic_elements", c.logic_elements, "LEs"),
                                    ("throughput_mbps", c.throughput_mbps, "Mbps")):
            if value is not None:
                yield PublishedFigure("004", c.table, "4", c.cipher, c.configuration,
                                      "FLEX10K130EQC240-1", c.mode, 128, metric, value, unit)
    for (cipher, configuration), periods in FISCHER_CLOCK_PERIODS.items():
        yield PublishedFigure("004", "", _FISCHER_SECTIONS[cipher], cipher, configuration,
                              "FLEX10K130EQC240-1", "", 128, "cycles", periods, "clock periods")
    yield PublishedFigure("004", "", "3.2", "", "interface", "FLEX10K", "", None,
                          "logic_elements", FISCHER_INTERFACE_LES, "LEs", "about 380")


# --- all seeds -------------------------------------------------------------------------------


def all_figures() -> tuple[PublishedFigure, ...]:
    """Every recorded figure of the five seeds, one record each."""
    return (*_nsa_figures(), *_gaj_figures(), *_papa_figures(), *_sugawara_figures(),
            *_fischer_figures())


def figures(seed: str | None = None, table: str | None = None, cipher: str | None = None,
            metric: str | None = None) -> tuple[PublishedFigure, ...]:
    """Recorded figures filtered by seed id ("000"), table ("Table 5"), cipher, metric."""
    name = project_cipher(cipher) if cipher else None
    return tuple(f for f in all_figures()
                 if (seed is None or f.seed == seed) and (table is None or f.table == table)
                 and (name is None or f.cipher == name) and (metric is None or f.metric == metric))
