"""PRESENT's components for the catalog (cipherbench characterize) and their equivalence proofs
(cipherbench prove): the 4-bit S-box S and S^-1 (components/sbox4.py) as a table and as its
algebraic normal form, and pLayer and its inverse (components/permutations.py), pure wiring.

The proofs' references come from this folder's model, typed from the paper independently of the
component library: the S-box tables (the alternatives must equal the model's table) and the
destinations P(i) of pLayer, one assignment per bit (verify/equivalence.py: MovedBits)."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.permutations import spn_permutation
from ...components.sbox4 import PRESENT_INV_SBOX, PRESENT_SBOX, Sbox4
from ...verify.equivalence import MovedBits, Pair

UNARY = ("i",), ("o",)


def catalog_entries() -> list[CatalogEntry]:
    entries = []
    for name, table, text in (("present-sbox", PRESENT_SBOX, "S"),
                              ("present-inv-sbox", PRESENT_INV_SBOX, "S^-1")):
        entries += [
            CatalogEntry(f"{name}-table", f"PRESENT 4-bit S-box {text}, 16-entry table",
                         lambda t=table: Sbox4(t, "table"), *UNARY, {"kind": "table"}),
            CatalogEntry(f"{name}-anf", f"PRESENT 4-bit S-box {text}, algebraic normal form "
                         "(ANDs and XORs)", lambda t=table: Sbox4(t, "anf"), *UNARY,
                         {"kind": "anf"}),
        ]
    entries += [
        CatalogEntry("present-player", "PRESENT pLayer on 64 bits, P(i) = 16i mod 63 (wiring, "
                     "no logic)", lambda: spn_permutation("present-player"), *UNARY,
                     {"inverse": False}),
        CatalogEntry("present-player-inv", "PRESENT pLayer^-1 on 64 bits (wiring, no logic)",
                     lambda: spn_permutation("present-player", inverse=True), *UNARY,
                     {"inverse": True}),
    ]
    return entries


def proof_pairs() -> list[Pair]:
    from .model import INVERSE_SBOX, PERMUTATION, SBOX

    out = [Pair(component, "anf = table", lambda t=model_table: Sbox4(t, "table"),
                lambda t=table: Sbox4(t, "anf"), *UNARY)
           for component, model_table, table in (("present-sbox", SBOX, PRESENT_SBOX),
                                                 ("present-inv-sbox", INVERSE_SBOX,
                                                  PRESENT_INV_SBOX))]
    for inverse in (False, True):
        out.append(Pair("present-player-inv" if inverse else "present-player",
                        "wiring = P(i) = 16i mod 63",
                        lambda inv=inverse: MovedBits(PERMUTATION.__getitem__, 64, inv),
                        lambda inv=inverse: spn_permutation("present-player", inv), *UNARY))
    return out
