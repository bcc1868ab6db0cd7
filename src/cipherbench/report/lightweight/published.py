"""Published hardware figures of the block ciphers standardized since the seeds.

Only figures read in a source are typed here, each with where it is printed; a figure the source
does not give is None (not filled from elsewhere). ``docs/published.md`` lists them and what could
not be confirmed (LEA and GIFT-128 ASIC figures, a round-based SM4 one, ARIA's cycles;
PRESENT-80's node and cycle count, HIGHT's cycle count). Where a source was reachable only by its
abstract, only what the abstract prints is typed.

* Bogdanov, Knudsen, Leander, Paar, Poschmann, Robshaw, Seurin, Vikkelsoe, "PRESENT: An
  Ultra-Lightweight Block Cipher", CHES 2007: the abstract gives 1,570 GE. Its node and cycles per
  block were not confirmed here; issue 29 gives 0.18 um and 32 cycles, so the target check
  (:data:`PRESENT_TARGET`) is the issue's, judged at 0.18 um.
* Hong et al., "HIGHT: A New Block Cipher Suitable for Low-Resource Device", CHES 2006: the abstract
  gives 3,048 gates on 0.25 um technology.
* Sony Corporation, "The 128-bit Blockcipher CLEFIA: Implementation of CLEFIA" (the designers'
  page, www.sony.net/Products/cryptography/clefia/about/feature.html): Table 1, hardware results on
  a 0.09 um standard cell library; Table 2, compact results on a 0.13 um standard cell library.
* Akishita, Hiwatari, "Very Compact Hardware Implementations of the Blockcipher CLEFIA": the
  abstract gives 2,488 GE for the smallest core on a 0.13 um standard cell library and 116 GE more
  for decryption (Sony's Table 2 rows of 2,488 and 2,604 gates).
* Sugawara, Homma, Aoki, Satoh, "High-performance ASIC Implementations of the 128-bit Block Cipher
  CLEFIA", ISCAS 2008: the abstract gives the highest hardware efficiency of their five
  architectures (two loop structures, three F-functions) on a 90 nm CMOS standard cell library,
  400.96 Kbps/gate; which architecture, its gates and cycles are not given there.
* Koo, Ryu, Chang, Lee, "Design and Implementation of Unified Hardware for 128-Bit Block Ciphers
  ARIA and AES", ETRI Journal (letter), 2007: the abstract gives 19,056 logic gates for one
  processor of both ciphers on a 0.25 um CMOS standard cell library, ARIA at 720 Mbps (key size,
  cycles and clock not given there).
* Kim, Shin, "An Efficient Hardware Implementation of ARIA Block Cipher Algorithm Supporting Four
  Modes of Operation and Three Master Key Lengths", J. of the Korea Institute of Information and
  Communication Engineering, 2012: the abstract gives 46,100 gates on a 0.13 um CMOS cell library
  and an estimated throughput of about 1.28 Gbps at 200 MHz (1.2 V), the round function shared
  by encryption, decryption and the key initialization, 128/192/256-bit keys and four modes.
* Zhang, Xiang, Zhang, Zeng, Song, "Optimized SM4 Hardware Implementations for Low Area
  Consumption", IET Information Security, 2024: the abstract gives a 1-bit-serial SM4 encryption
  circuit of 1,771 GE with a latency of 2,336 cycles, and one of 1,861 GE with 1,344 cycles (a
  round in 32 clocks); the node is not given there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..record import PublishedFigure

SEED = "lightweight"  # not one of the five seeds: anchors of issue 29's ciphers
SOURCE = ("published ASIC figures of PRESENT, HIGHT, CLEFIA, ARIA and SM4 "
          "(see report/lightweight/published.py)")

BOGDANOV_2007 = "Bogdanov et al., PRESENT, CHES 2007"
HONG_2006 = "Hong et al., HIGHT, CHES 2006"
SONY_CLEFIA = "Sony, CLEFIA implementation page"
AKISHITA_HIWATARI = "Akishita & Hiwatari, very compact CLEFIA"
SUGAWARA_2008 = "Sugawara et al., CLEFIA ASIC, ISCAS 2008"
KOO_2007 = "Koo et al., unified ARIA/AES, ETRI J. 2007"
KIM_SHIN_2012 = "Kim & Shin, ARIA processor, JKIICE 2012"
ZHANG_2024 = "Zhang et al., optimized SM4, IET Inf. Sec. 2024"


@dataclass(frozen=True)
class Anchor:
    """One published hardware figure set: a core of one cipher on one node.

    ``architecture`` is "round-based" (one round per clock), "compact" (a round over several
    clocks) or "?" where the source read does not say; ``ops`` "encrypt", "both" or "?" where
    the source does not say. ``gates`` are 2-input NAND gate equivalents as printed (None where
    the source gives only a ratio such as Kbps/gate). ``node_um``
    is None where the source read does not give the node, ``key_bits`` None where it does not
    give the key size (a core of several key sizes quoting one throughput).
    """

    cipher: str
    key_bits: int | None
    source: str
    table: str
    node_um: float | None
    library: str
    architecture: str
    ops: str
    cycles: int | None
    gates: float | None
    optimize: str | None = None
    freq_mhz: float | None = None
    throughput_mbps: float | None = None
    kbps_per_gate: float | None = None
    kbps_at_100khz: float | None = None
    key_setup_cycles: int | None = None
    note: str = ""

    @property
    def label(self) -> str:
        parts = [self.source, self.table]
        if self.optimize:
            parts.append(f"{self.optimize}-optimized")
        return ", ".join(parts)


_PRESENT_NOTE = (
    "the abstract gives the area only; node, library, architecture and cycles per block not "
    "confirmed from the paper here (issue 29: round-based, 32 cycles, 0.18 um)"
)
_HIGHT_NOTE = (
    "the abstract gives gates and node only; library, architecture and cycles not confirmed "
    "from the paper here"
)
_SONY_T1 = "0.09 um standard cell library; column 'Enc/Dec (cycles)'"
_SONY_T2 = "0.13 um standard cell library; speed printed at 100 kHz"

_ANCHORS: tuple[Anchor, ...] = (
    Anchor("present", 80, BOGDANOV_2007, "abstract", None, "not stated in the abstract", "?",
           "?", None, 1570.0, note=_PRESENT_NOTE),
    Anchor("hight", 128, HONG_2006, "abstract", 0.25, "0.25 um technology (library not named)",
           "?", "?", None, 3048.0, note=_HIGHT_NOTE),
    # Sony Table 1 (0.09 um): 18 cycles = one round per clock for CLEFIA-128's 18 rounds, 36 = a
    # round over two clocks; 22 and 26 = one round per clock for 192- and 256-bit keys.
    Anchor("clefia", 128, SONY_CLEFIA, "Table 1", 0.09, "0.09 um standard cell library",
           "round-based", "both", 18, 5979.0, "area", 225.83, 1605.94, 268.63,
           key_setup_cycles=12, note=_SONY_T1),
    Anchor("clefia", 128, SONY_CLEFIA, "Table 1", 0.09, "0.09 um standard cell library",
           "round-based", "both", 18, 12009.0, "speed", 422.29, 3003.00, 250.06,
           key_setup_cycles=12, note=_SONY_T1),
    Anchor("clefia", 128, SONY_CLEFIA, "Table 1", 0.09, "0.09 um standard cell library",
           "compact", "both", 36, 4950.0, "area", 201.28, 715.69, 144.59,
           key_setup_cycles=24, note=_SONY_T1 + "; two clocks per round"),
    Anchor("clefia", 128, SONY_CLEFIA, "Table 1", 0.09, "0.09 um standard cell library",
           "compact", "both", 36, 9377.0, "speed", 389.55, 1385.10, 147.71,
           key_setup_cycles=24, note=_SONY_T1 + "; two clocks per round"),
    Anchor("clefia", 192, SONY_CLEFIA, "Table 1", 0.09, "0.09 um standard cell library",
           "round-based", "both", 22, 8536.0, "area", 206.56, 1201.85, 140.81,
           key_setup_cycles=20, note=_SONY_T1),
    Anchor("clefia", 256, SONY_CLEFIA, "Table 1", 0.09, "0.09 um standard cell library",
           "round-based", "both", 26, 8482.0, "area", 206.56, 1016.95, 119.89,
           key_setup_cycles=20, note=_SONY_T1),
    # Sony Table 2 (0.13 um), the serialized cores of Akishita & Hiwatari
    Anchor("clefia", 128, SONY_CLEFIA, "Table 2", 0.13, "0.13 um standard cell library",
           "compact", "encrypt", 176, 2678.0, kbps_at_100khz=73.0, key_setup_cycles=128,
           note=_SONY_T2),
    Anchor("clefia", 128, SONY_CLEFIA, "Table 2", 0.13, "0.13 um standard cell library",
           "compact", "both", 176, 2781.0, kbps_at_100khz=73.0, key_setup_cycles=128,
           note=_SONY_T2),
    Anchor("clefia", 128, SONY_CLEFIA, "Table 2", 0.13, "0.13 um standard cell library",
           "compact", "encrypt", 328, 2488.0, kbps_at_100khz=39.0, key_setup_cycles=224,
           note=_SONY_T2 + "; Akishita & Hiwatari's abstract: 2,488 GE, the smallest"),
    Anchor("clefia", 128, SONY_CLEFIA, "Table 2", 0.13, "0.13 um standard cell library",
           "compact", "both", 328, 2604.0, kbps_at_100khz=39.0, key_setup_cycles=224,
           note=_SONY_T2 + "; decryption 320 cycles, 40 Kbps; Akishita & Hiwatari's abstract: "
           "116 GE more for decryption"),
    # The highest efficiency of Sugawara et al.'s five CLEFIA cores (the abstract's only figure).
    Anchor("clefia", None, SUGAWARA_2008, "abstract", 0.09, "90 nm CMOS standard cell library",
           "?", "?", None, None, kbps_per_gate=400.96,
           note="the highest of five architectures (two loop structures, three F-functions); "
           "which one, its key size, gates and cycles not given in the abstract"),
    # ARIA: two abstracts; neither gives the cycles, and the first's gates are a processor of
    # ARIA and AES together.
    Anchor("aria", None, KOO_2007, "abstract", 0.25, "0.25 um CMOS standard cell library", "?",
           "?", None, 19056.0, throughput_mbps=720.0,
           note="one processor of ARIA and AES (shared S-box and diffusion layers); ARIA's "
           "throughput; key size, cycles and clock not given in the abstract"),
    Anchor("aria", None, KIM_SHIN_2012, "abstract", 0.13, "0.13 um CMOS cell library", "?",
           "both", None, 46100.0, freq_mhz=200.0, throughput_mbps=1280.0,
           note="'about 1.28 Gbps at 200 MHz' (estimated); 128/192/256-bit keys, ECB/CBC/OFB/CTR, "
           "the round function shared with the key initialization; cycles not given"),
    # SM4: bit-serial encryption cores; the abstract gives no node.
    Anchor("sm4", 128, ZHANG_2024, "abstract", None, "not stated in the abstract", "compact",
           "encrypt", 2336, 1771.0, note="1-bit datapath; latency 2,336 cycles"),
    Anchor("sm4", 128, ZHANG_2024, "abstract", None, "not stated in the abstract", "compact",
           "encrypt", 1344, 1861.0, note="'off-peak and stagger': a round in 32 clocks; latency "
           "1,344 cycles"),
)

# What the published figures do not give (or could not be confirmed from a source read): listed
# in the report's notes and in docs/published.md.
NOT_CONFIRMED: tuple[tuple[str, str], ...] = (
    ("present", "node, library and 32 cycles per block of the 1,570 GE core (issue 29's figures); "
     "the paper's hardware section was not reachable here, only its abstract"),
    ("hight", "cycles per block (34 in the brief) and the library of the 3,048-gate core"),
    ("lea", "an ASIC figure with its node (Hong et al., WISA 2013, whose abstract gives none; "
     "Lee et al., Sensors 2014, whose tables were not reachable)"),
    ("gift", "the round-based GIFT-128 figures of Banik et al., CHES 2017 (STM 90 nm; seen only "
     "quoted second-hand, docs/published.md)"),
    ("sm4", "a round-based ASIC figure with its node (Bu et al., 2019: SMIC 0.18 um, 0.057 mm2, "
     "no gate count in the abstract)"),
    ("aria", "cycles per block of the two ARIA processors typed"),
)

# Issue 29's target for PRESENT-80: a round-based core at or below 1,570 GE at 0.18 um.
PRESENT_TARGET = ("present", 80, 1570.0, 0.18)


def anchors() -> tuple[Anchor, ...]:
    """Every published row, in the order above (cipher, then source)."""
    return _ANCHORS


def records() -> Iterator[PublishedFigure]:
    """The anchors as :class:`PublishedFigure` records (not among the five seeds' figures)."""
    for a in _ANCHORS:
        variant = f"{a.cycles} cycles" if a.cycles else "cycles not given"
        for metric, value, unit in (("cycles", a.cycles, "cycles"),
                                    ("area_gates", a.gates, "gates"),
                                    ("fmax_mhz", a.freq_mhz, "MHz"),
                                    ("throughput_mbps", a.throughput_mbps, "Mbps"),
                                    ("kbps_per_gate", a.kbps_per_gate, "Kbps/gate"),
                                    ("kbps_at_100khz", a.kbps_at_100khz, "Kbps")):
            if value is not None:
                yield PublishedFigure(SEED, a.table, a.source, a.cipher, a.architecture, variant,
                                      a.optimize or "", a.key_bits, metric, value, unit, a.note)
