"""CLEFIA's components for the catalog (cipherbench characterize) and their proofs (cipherbench
prove): the diffusion matrices M0 and M1 over GF(2^8) with 0x11d (components/diffusion.py), an
XOR tree per bit and a form with Paar-shared XORs, each proven equal to the matrix multiplied
out with xtime."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.diffusion import CLEFIA_MATRICES, CLEFIA_POLY, clefia_matrix
from ...verify.equivalence import BehavioralMatrixMul, Pair

UNARY = ("i",), ("o",)
STRUCTURES = (("tree", "", "XOR tree per bit"), ("shared", "-shared", "Paar-shared XORs"))


def catalog_entries() -> list[CatalogEntry]:
    return [CatalogEntry(f"clefia-{which}{suffix}",
                         f"CLEFIA {which.upper()} (RFC 6114) 4x4 over GF(2^8)/0x11d on a 32-bit "
                         f"word, {text}",
                         lambda w=which, s=structure: clefia_matrix(w, s), *UNARY,
                         {"structure": structure})
            for which in ("m0", "m1") for structure, suffix, text in STRUCTURES]


def proof_pairs() -> list[Pair]:
    return [Pair(f"clefia-{which}", f"{structure} = xtime (0x11d)",
                 lambda mat=matrix: BehavioralMatrixMul(mat, CLEFIA_POLY, "big"),
                 lambda w=which, s=structure: clefia_matrix(w, s), ("i",), ("o",), engine="abc")
            for which, matrix in CLEFIA_MATRICES.items() for structure, _, _ in STRUCTURES]
