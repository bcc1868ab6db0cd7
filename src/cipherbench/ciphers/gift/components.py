"""GIFT's components for the catalog (cipherbench characterize) and their equivalence proofs
(cipherbench prove): the 4-bit S-box GS and GS^-1 (components/sbox4.py) as a table, as its
algebraic normal form and as the designers' bitsliced instruction sequence, and GIFT-128's
PermBits and its inverse (components/permutations.py), pure wiring.

The proofs' references come from this folder's model, typed from the paper independently of the
component library: the S-box tables and the destinations P(j) of PermBits, one assignment per bit
(verify/equivalence.py: MovedBits)."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.masked.sbox4 import MaskedSbox4
from ...components.permutations import spn_permutation
from ...components.sbox4 import GIFT_INV_SBOX, GIFT_SBOX, Sbox4
from ...verify.equivalence import MovedBits, Pair
from ...verify.equivalence import masked_sbox_pair
from ..present.components import masked_pairs
from .masked import MaskedGiftBitsliced

UNARY = ("i",), ("o",)
KINDS = {"table": "16-entry table", "anf": "algebraic normal form (ANDs and XORs)",
         "bitsliced": "the designers' bitsliced sequence (AND/OR/XOR/NOT)"}


def catalog_entries() -> list[CatalogEntry]:
    entries = [CatalogEntry(f"{name}-{kind}", f"GIFT 4-bit S-box {text}, {how}",
                            lambda t=table, k=kind: Sbox4(t, k), *UNARY, {"kind": kind})
               for name, table, text in (("gift-sbox", GIFT_SBOX, "GS"),
                                         ("gift-inv-sbox", GIFT_INV_SBOX, "GS^-1"))
               for kind, how in KINDS.items()]
    entries += [
        CatalogEntry("gift128-permbits", "GIFT-128 PermBits on 128 bits (wiring, no logic)",
                     lambda: spn_permutation("gift128-permbits"), *UNARY, {"inverse": False}),
        CatalogEntry("gift128-permbits-inv", "GIFT-128 PermBits^-1 on 128 bits (wiring, "
                     "no logic)", lambda: spn_permutation("gift128-permbits", inverse=True),
                     *UNARY, {"inverse": True}),
    ]
    entries += [CatalogEntry(f"{name}-dom{shares}", f"GIFT 4-bit S-box {text}, DOM-masked "
                             f"ANF in two AND layers, {shares} shares (order {shares - 1}), "
                             "2 clocks", lambda t=table, s=shares: MaskedSbox4(t, s), ("i", "r"),
                             ("o",), {"shares": shares}, latency=2)
                for name, table, text, counts in (("gift-sbox", GIFT_SBOX, "GS", (2, 3)),
                                                  ("gift-inv-sbox", GIFT_INV_SBOX, "GS^-1", (2,)))
                for shares in counts]
    entries += [CatalogEntry(f"gift-sbox-dom{shares}-bitsliced", "GIFT 4-bit S-box GS, "
                             f"DOM-masked bitsliced sequence gate by gate, {shares} shares "
                             f"(order {shares - 1}), 6 clocks",
                             lambda s=shares: MaskedGiftBitsliced(s), ("i", "r"), ("o",),
                             {"shares": shares}, latency=6)
                for shares in (2, 3)]
    return entries


def proof_pairs() -> list[Pair]:
    from .model import INVERSE_SBOX, PERMUTATION, SBOX

    out = [Pair(component, f"{kind} = table", lambda t=model_table: Sbox4(t, "table"),
                lambda t=table, k=kind: Sbox4(t, k), *UNARY)
           for component, model_table, table in (("gift-sbox", SBOX, GIFT_SBOX),
                                                 ("gift-inv-sbox", INVERSE_SBOX, GIFT_INV_SBOX))
           for kind in ("anf", "bitsliced")]
    out += masked_pairs("gift-sbox-masked", SBOX)
    table = tuple(SBOX)
    out += [masked_sbox_pair("gift-sbox-masked", f"bitsliced dom {shares} shares = table",
                             lambda: Sbox4(table, "table"),
                             lambda s=shares: MaskedGiftBitsliced(s, transparent=True), 4, shares,
                             4 * shares * (shares - 1) // 2, engine)
            for shares, engine in ((2, "sat"), (3, "abc"))]
    for inverse in (False, True):
        out.append(Pair("gift128-permbits-inv" if inverse else "gift128-permbits",
                        "wiring = P(j) of the paper",
                        lambda inv=inverse: MovedBits(PERMUTATION.__getitem__, 128, inv),
                        lambda inv=inverse: spn_permutation("gift128-permbits", inv), *UNARY))
    return out
