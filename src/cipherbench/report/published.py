"""Published RIJNDAEL (AES) figures of the NSA's Round 2 hardware study, for side-by-side columns.

Source: B. Weeks, M. Bean, T. Rozylowicz, C. Ficke (National Security Agency), "Hardware
Performance Simulations of Round 2 Advanced Encryption Standard Algorithms": VHDL synthesized
with Synopsys Design Compiler 1999.10 to a 0.5 um MOSIS CMOS library, pre-layout. Section 5.3.2,
Table 5 (3-in-1 cores, key sizes 128/192/256) and section 5.3.3, Table 6 (128-bit key cores).

"Min." and "Max." are the extremes of each row over the NSA's sweep of synthesis constraints,
not two designs: the smallest area and the shortest time come from different points of the sweep
(e.g. Table 5, iterative: min throughput 190.05 Mbps = 128 bits / max time 673.5 ns).
The NSA reports one throughput (non-feedback); feedback throughput and gate equivalents are not
published. Pipelined encryption key setup is given as "key setup / key agility" (e.g. 0/29.28).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SOURCE = (
    "Weeks, Bean, Rozylowicz, Ficke (NSA), Hardware Performance Simulations of Round 2 AES "
    "Algorithms; 0.5 um MOSIS CMOS, Synopsys 1999.10, pre-layout"
)
GROUP_LABEL = "published (NSA, 0.5 um)"
KEY_AGILITY_NOTE = (
    "NSA: both key setup / key agility times given for pipelined encryption, "
    "as they differ for this algorithm"
)
RANGE_NOTE = "NSA Min./Max. are per-row extremes of a synthesis sweep, not single designs"


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


# Table 5: RIJNDAEL 3-in-1 Summary (section 5.3.2).
_T5 = {"table": "Table 5", "section": "5.3.2", "cores": "3-in-1", "io_count": 520,
       "algorithm_setup_ns": 0.0}
TABLE_5: tuple[PublishedColumn, ...] = (
    PublishedColumn(
        **_T5, architecture="iterative", bound="min",
        area_um2=24_158_661, transistors=481_002,
        throughput_mbps=_by_size(190.05, 158.38, 135.75),
        key_setup_encrypt_ns=_same(0.0),
        key_setup_decrypt_ns=_by_size(286, 343.2, 400.4),
        time_to_encrypt_ns=_by_size(286, 343.2, 400.4),
        time_to_decrypt_ns=_by_size(286, 343.2, 400.4),
    ),
    PublishedColumn(
        **_T5, architecture="iterative", bound="max",
        area_um2=46_362_850, transistors=1_029_054,
        throughput_mbps=_by_size(447.55, 372.96, 319.68),
        key_setup_encrypt_ns=_same(0.0),
        key_setup_decrypt_ns=_by_size(673.5, 808.2, 942.9),
        time_to_encrypt_ns=_by_size(673.5, 808.2, 942.9),
        time_to_decrypt_ns=_by_size(673.5, 808.2, 942.9),
    ),
    PublishedColumn(
        **_T5, architecture="pipelined", bound="min",
        area_um2=307_129_513, transistors=4_190_611,
        throughput_mbps=_same(4026.42),
        key_setup_encrypt_ns=_same(0.0),
        key_agility_encrypt_ns=_same(29.28),
        key_setup_decrypt_ns=_by_size(233.99, 262.83, 277.25),
        time_to_encrypt_ns=_by_size(239.8, 287.76, 335.72),
        time_to_decrypt_ns=_by_size(239.8, 287.76, 335.72),
    ),
    PublishedColumn(
        **_T5, architecture="pipelined", bound="max",
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
_T6 = {"table": "Table 6", "section": "5.3.3", "cores": "128-bit", "io_count": 520,
       "algorithm_setup_ns": 0.0}
TABLE_6: tuple[PublishedColumn, ...] = (
    PublishedColumn(
        **_T6, architecture="iterative", bound="min",
        area_um2=20_739_239, transistors=275_485,
        throughput_mbps={128: 271.13},
        key_setup_encrypt_ns={128: 0.0},
        key_setup_decrypt_ns={128: 211.30},
        time_to_encrypt_ns={128: 211.3},
        time_to_decrypt_ns={128: 211.3},
    ),
    PublishedColumn(
        **_T6, architecture="iterative", bound="max",
        area_um2=33_851_050, transistors=641_681,
        throughput_mbps={128: 605.77},
        key_setup_encrypt_ns={128: 0.0},
        key_setup_decrypt_ns={128: 472.10},
        time_to_encrypt_ns={128: 472.1},
        time_to_decrypt_ns={128: 472.1},
    ),
    PublishedColumn(
        **_T6, architecture="pipelined", bound="min",
        area_um2=262_721_033, transistors=3_660_325,
        throughput_mbps={128: 4200.85},
        key_setup_encrypt_ns={128: 0.0},
        key_agility_encrypt_ns={128: 26.6},
        key_setup_decrypt_ns={128: 226.87},
        time_to_encrypt_ns={128: 222.8},
        time_to_decrypt_ns={128: 222.8},
    ),
    PublishedColumn(
        **_T6, architecture="pipelined", bound="max",
        area_um2=419_886_025, transistors=4_292_749,
        throughput_mbps={128: 5745.06},
        key_setup_encrypt_ns={128: 0.0},
        key_agility_encrypt_ns={128: 33.96},
        key_setup_decrypt_ns={128: 333.26},
        time_to_encrypt_ns={128: 304.7},
        time_to_decrypt_ns={128: 304.7},
    ),
)

# Architecture words of design specs that correspond to the NSA's two architectures.
_ITERATIVE_WORDS = ("iterative", "iterated", "loop")
_PIPELINED_WORDS = ("pipelined", "pipeline", "unrolled")


def is_aes(design: str) -> bool:
    """RIJNDAEL/AES designs (by the cipher part of the spec): the NSA figures apply to them."""
    cipher = design.split("/", 1)[0].lower()
    return cipher.startswith("aes") or cipher.startswith("rijndael")


def _architecture(design: str) -> str | None:
    arch = design.split("/", 1)[1].lower() if "/" in design else ""
    if arch.startswith(_ITERATIVE_WORDS):
        return "iterative"
    if arch.startswith(_PIPELINED_WORDS):
        return "pipelined"
    return None


def columns_for(design: str, key_sizes: tuple[int, ...] | list[int]) -> tuple[PublishedColumn, ...]:
    """The published columns to show next to ``design``: none unless it is an AES design.

    Cores that take only 128-bit keys are compared with Table 6, all others with the 3-in-1
    Table 5; an iterative or pipelined design gets only the matching architecture's columns.
    """
    if not is_aes(design):
        return ()
    table = TABLE_6 if set(key_sizes) <= {128} else TABLE_5
    arch = _architecture(design)
    return tuple(c for c in table if arch is None or c.architecture == arch)
