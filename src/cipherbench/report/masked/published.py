"""Published masked AES cores, the figures issue 31 sets beside ours.

Each figure is typed as issue 31 states it, with the source it names; a figure the issue does not
give is None (not filled in from elsewhere). docs/published.md ("Masked cores") says what was
and was not re-read in the sources themselves.

* De Cnudde, Reparaz, Bilgin, Nikova, Nikov, Rijmen, "Masking AES with d+1 Shares in Hardware",
  CHES 2016 (IACR ePrint 2016/631): the first-order core with d + 1 = 2 shares, 6,685 GE on
  NanGate45, 276 cycles per block, 54 random bits.
* Gross, Mangard, Korak, domain-oriented masking (DOM) of AES: the first-order core, about
  7.1 kGE, 18 random bits (the DOM S-box's fresh bits at first order).
* SMAesH, SIMPLE-Crypto's masked AES in hardware (github.com/simple-crypto/SMAesH): 2 shares,
  29.4 kGE on NanGate45 synthesized with Yosys, 86 cycles per AES-128 block.
* OpenTitan's AES unit (lowRISC), masked: DOM S-boxes, 56 cycles per block.
"""

from __future__ import annotations

from dataclasses import dataclass

DE_CNUDDE_2016 = "De Cnudde et al., Masking AES with d+1 shares in hardware, CHES 2016"
GROSS_DOM = "Gross, Mangard, Korak, domain-oriented masking (DOM) AES"
SMAESH = "SMAesH (SIMPLE-Crypto), masked AES in hardware"
OPENTITAN = "OpenTitan AES unit, masked (lowRISC)"


@dataclass(frozen=True)
class PublishedMaskedCore:
    """One published masked AES-128 core. ``order``: the protection order d (d + 1 =
    ``shares``); ``random_bits``: fresh random bits as the source counts them (``random_unit``
    says per what); ``width``: our masked AES datapath width it is compared with (the closest
    architecture we build: 8-bit serial, or the 128-bit round)."""

    source: str
    scheme: str
    order: int
    shares: int | None
    gates: float | None
    library: str | None
    node_um: float | None
    cycles: int | None
    random_bits: int | None
    random_unit: str
    width: int
    note: str

    @property
    def ge_text(self) -> str:
        if self.gates is None:
            return "-"
        return f"{self.gates:,.0f}" + (f" ({self.library})" if self.library else "")


CORES: tuple[PublishedMaskedCore, ...] = (
    PublishedMaskedCore(DE_CNUDDE_2016, "TI-style sharing with d+1 shares", 1, 2, 6_685,
                        "NanGate45", 0.045, 276, 54, "per S-box evaluation", 8,
                        "8-bit serial datapath"),
    PublishedMaskedCore(GROSS_DOM, "DOM-indep", 1, 2, 7_100, None, None, None, 18,
                        "per S-box evaluation", 8,
                        "about 7.1 kGE as stated; node and cycles not given here"),
    PublishedMaskedCore(SMAESH, "HPC gadgets", 1, 2, 29_400, "NanGate45, Yosys", 0.045, 86, None,
                        "-", 64, "cycles per AES-128 block; a 32-bit datapath, beside our "
                        "64-bit core (the nearest in cycles)"),
    PublishedMaskedCore(OPENTITAN, "DOM S-boxes", 1, 2, None, None, None, 56, None, "-", 128,
                        "area not given here"),
)


def cores() -> tuple[PublishedMaskedCore, ...]:
    return CORES
