"""Twofish's components for the catalog (cipherbench characterize) and their equivalence proofs
(cipherbench prove): the MDS matrix."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.mds import TWOFISH_MDS, TWOFISH_POLY, twofish_mds
from ...verify.equivalence import BehavioralMatrixMul, Pair

SBOX = ("i",), ("o",)


def catalog_entries() -> list[CatalogEntry]:
    return [CatalogEntry("twofish-mds", "Twofish 4x4 MDS over GF(2^8)/0x169 on a 32-bit word",
                         lambda: twofish_mds(), *SBOX, {"structure": "tree"})]


def proof_pairs() -> list[Pair]:
    """Each MDS structure against the behavioural xtime matrix product."""
    return [Pair("twofish-mds", f"{structure} = xtime",
                 lambda: BehavioralMatrixMul(TWOFISH_MDS, TWOFISH_POLY, "little"),
                 lambda s=structure: twofish_mds(s), *SBOX, engine="abc")
            for structure in ("tree", "shared")]
