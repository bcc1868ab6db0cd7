"""ARIA's components for the catalog (cipherbench characterize) and their proofs (cipherbench
prove): the diffusion layer A (components/diffusion.py), an XOR tree per bit and a form with
Paar-shared XORs, each proven equal to the RFC 5794 byte matrix."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.diffusion import ARIA_A, ARIA_POLY, aria_diffusion
from ...verify.equivalence import BehavioralMatrixMul, Pair

UNARY = ("i",), ("o",)
STRUCTURES = (("tree", "", "XOR tree per bit"), ("shared", "-shared", "Paar-shared XORs"))


def catalog_entries() -> list[CatalogEntry]:
    return [CatalogEntry(f"aria-diffusion{suffix}",
                         f"ARIA diffusion A (RFC 5794), 16x16 binary matrix on 128 bits, {text}",
                         lambda s=structure: aria_diffusion(s), *UNARY, {"structure": structure})
            for structure, suffix, text in STRUCTURES]


def proof_pairs() -> list[Pair]:
    return [Pair("aria-diffusion", f"{structure} = RFC 5794 byte matrix",
                 lambda: BehavioralMatrixMul(ARIA_A, ARIA_POLY, "big"),
                 lambda s=structure: aria_diffusion(s), ("i",), ("o",), engine="abc")
            for structure, _, _ in STRUCTURES]
