"""AES's components for the catalog (cipherbench characterize) and their equivalence proofs
(cipherbench prove): the S-box in each implementation, MixColumns and InvMixColumns."""

from __future__ import annotations

from amaranth.hdl import Elaboratable, Module, Signal

from ...components.aes_sbox import AesSbox
from ...components.aes_sbox_bram import AesSboxBram
from ...components.catalog import CatalogEntry
from ...components.masked.tower import LATENCY as MASKED_LATENCY
from ...components.masked.tower import MaskedAesSbox
from ...components.mds import AesMixColumns
from ...verify.equivalence import BehavioralMatrixMul, Pair, masked_sbox_pair

SBOX = ("i",), ("o",)


def catalog_entries() -> list[CatalogEntry]:
    return [
        CatalogEntry("aes-sbox-table", "AES S-box, 256-entry table (case statement)",
                     lambda: AesSbox("table", "encrypt"), *SBOX,
                     {"kind": "table", "directions": "encrypt"}),
        CatalogEntry("aes-sbox-composite", "AES S-box, tower-field GF(((2^2)^2)^2) inversion",
                     lambda: AesSbox("composite", "encrypt"), *SBOX,
                     {"kind": "composite", "directions": "encrypt"}),
        CatalogEntry("aes-sbox-gf-inv", "AES S-box, GF(2^8) inverse table + affine map",
                     lambda: AesSbox("gf-inv", "encrypt"), *SBOX,
                     {"kind": "gf-inv", "directions": "encrypt"}),
        CatalogEntry("aes-inv-sbox-table", "AES inverse S-box, 256-entry table",
                     lambda: AesSbox("table", "decrypt"), *SBOX,
                     {"kind": "table", "directions": "decrypt"}),
        CatalogEntry("aes-sbox-both-composite",
                     "AES S-box and inverse sharing one tower-field inverter (decrypt select)",
                     lambda: AesSbox("composite", "both"), ("i", "decrypt"), ("o",),
                     {"kind": "composite", "directions": "both"}),
        CatalogEntry("aes-sbox-bram", "AES S-box as a synchronous-read ROM (block RAM on FPGAs)",
                     lambda: AesSboxBram("encrypt"), *SBOX, {"directions": "encrypt"}, latency=1),
        CatalogEntry("aes-mixcolumns", "AES MixColumns on the 128-bit state (XOR trees)",
                     lambda: AesMixColumns(False), *SBOX, {"inverse": False, "structure": "tree"}),
        CatalogEntry("aes-invmixcolumns", "AES InvMixColumns on the 128-bit state (XOR trees)",
                     lambda: AesMixColumns(True), *SBOX, {"inverse": True, "structure": "tree"}),
        *masked_entries(),
    ]


def masked_entries() -> list[CatalogEntry]:
    """The DOM-masked S-box and inverse S-box (components/masked/tower.py), first and second
    order: ports i, r -> o, 7 clocks."""
    return [CatalogEntry(f"{name}-dom{shares}",
                         f"AES {what}, DOM-masked tower field, {shares} shares (order "
                         f"{shares - 1}), pipelined, {MASKED_LATENCY} clocks",
                         lambda d=directions, s=shares: MaskedAesSbox(d, s), ("i", "r"), ("o",),
                         {"directions": directions, "shares": shares}, latency=MASKED_LATENCY)
            for name, what, directions in (("aes-sbox", "S-box", "encrypt"),
                                           ("aes-inv-sbox", "inverse S-box", "decrypt"))
            for shares in (2, 3)] + [
        CatalogEntry("aes-sbox-both-dom2", "AES S-box and inverse (decrypt select), DOM-masked "
                     f"tower field, 2 shares (order 1), pipelined, {MASKED_LATENCY} clocks",
                     lambda: MaskedAesSbox("both", 2), ("i", "decrypt", "r"), ("o",),
                     {"directions": "both", "shares": 2}, latency=MASKED_LATENCY)]


class BehavioralMixColumns(Elaboratable):
    """Reference for components.mds.AesMixColumns: four behavioural columns (ports ``i``, ``o``)."""

    def __init__(self, inverse: bool = False) -> None:
        self.inverse = inverse
        self.i = Signal(128)
        self.o = Signal(128)

    def elaborate(self, platform: object) -> Module:
        from ...components.gf256 import AES_POLY
        from ...components.mds import AES_INV_MDS, AES_MDS

        m = Module()
        for c in range(4):
            column = BehavioralMatrixMul(AES_INV_MDS if self.inverse else AES_MDS, AES_POLY)
            m.submodules[f"col{c}"] = column
            lsb = 32 * (3 - c)
            m.d.comb += [column.i.eq(self.i[lsb:lsb + 32]), self.o[lsb:lsb + 32].eq(column.o)]
        return m


def proof_pairs() -> list[Pair]:
    """Each S-box implementation against the table, each MixColumns structure against xtime."""
    out: list[Pair] = []
    for component, directions, inputs in (("aes-sbox", "encrypt", ("i",)),
                                          ("aes-inv-sbox", "decrypt", ("i",)),
                                          ("aes-sbox-both", "both", ("i", "decrypt"))):
        for kind in ("composite", "gf-inv"):
            out.append(Pair(component, f"{kind} = table",
                            lambda d=directions: AesSbox("table", d),
                            lambda k=kind, d=directions: AesSbox(k, d), inputs, ("o",)))
    for inverse in (False, True):
        component = "aes-invmixcolumns" if inverse else "aes-mixcolumns"
        for structure in ("tree", "shared"):
            out.append(Pair(component, f"{structure} = xtime",
                            lambda inv=inverse: BehavioralMixColumns(inv),
                            lambda inv=inverse, s=structure: AesMixColumns(inv, s), *SBOX,
                            engine="abc"))
    return out
