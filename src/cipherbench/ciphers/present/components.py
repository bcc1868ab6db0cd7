"""PRESENT's components for the catalog (cipherbench characterize) and their equivalence proofs
(cipherbench prove): the 4-bit S-box S and S^-1 (components/sbox4.py) as a table and as its
algebraic normal form, and pLayer and its inverse (components/permutations.py), pure wiring.

The proofs' references come from this folder's model, typed from the paper independently of the
component library: the S-box tables (the alternatives must equal the model's table) and the
destinations P(i) of pLayer, one assignment per bit (verify/equivalence.py: MovedBits)."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.masked.sbox4 import MaskedSbox4, random_layout
from ...components.permutations import spn_permutation
from ...components.sbox4 import PRESENT_INV_SBOX, PRESENT_SBOX, Sbox4
from ...verify.equivalence import MovedBits, Pair, masked_sbox_pair

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
    entries += [CatalogEntry(f"{name}-dom{shares}", f"PRESENT 4-bit S-box {text}, DOM-masked "
                             f"ANF in two AND layers, {shares} shares (order {shares - 1}), "
                             "2 clocks", lambda t=table, s=shares: MaskedSbox4(t, s), ("i", "r"),
                             ("o",), {"shares": shares}, latency=2)
                for name, table, text, counts in (("present-sbox", PRESENT_SBOX, "S", (2, 3)),
                                                  ("present-inv-sbox", PRESENT_INV_SBOX,
                                                   "S^-1", (2,)))
                for shares in counts]
    return entries


def proof_pairs() -> list[Pair]:
    from .model import INVERSE_SBOX, PERMUTATION, SBOX

    out = [Pair(component, "anf = table", lambda t=model_table: Sbox4(t, "table"),
                lambda t=table: Sbox4(t, "anf"), *UNARY)
           for component, model_table, table in (("present-sbox", SBOX, PRESENT_SBOX),
                                                 ("present-inv-sbox", INVERSE_SBOX,
                                                  PRESENT_INV_SBOX))]
    out += masked_pairs("present-sbox-masked", SBOX)
    for inverse in (False, True):
        out.append(Pair("present-player-inv" if inverse else "present-player",
                        "wiring = P(i) = 16i mod 63",
                        lambda inv=inverse: MovedBits(PERMUTATION.__getitem__, 64, inv),
                        lambda inv=inverse: spn_permutation("present-player", inv), *UNARY))
    return out


def masked_pairs(component: str, model_table: tuple[int, ...]) -> list[Pair]:
    """The masked S-box (components/masked/sbox4.py) with its pipeline flattened, equal to the
    model's table for every input, sharing and randomness: 2 shares with the broken variants
    (they leak, they do not compute wrong) by SAT, 3 shares by ABC (a few seconds)."""
    table = tuple(model_table)
    out = []
    for shares, variant, engine in ((2, {}, "sat"), (2, {"register": False}, "sat"),
                                    (2, {"randomness": "reuse"}, "sat"), (3, {}, "abc")):
        bits = random_layout(table, shares, str(variant.get("randomness", "fresh"))).width
        label = ", ".join(f"{k}={v}" for k, v in variant.items())
        out.append(masked_sbox_pair(
            component, f"dom {shares} shares{', ' + label if label else ''} = table",
            lambda: Sbox4(table, "table"),
            lambda s=shares, v=variant: MaskedSbox4(table, s, transparent=True, **v),
            4, shares, bits, engine))
    return out
