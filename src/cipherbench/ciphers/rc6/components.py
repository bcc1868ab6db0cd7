"""RC6's components for the catalog (cipherbench characterize) and their equivalence proofs
(cipherbench prove): f(x) = x(2x + 1) through a squarer."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.multipliers import Rc6F
from ...verify.equivalence import MULTIPLIER_WIDTH, Pair


def catalog_entries() -> list[CatalogEntry]:
    return [CatalogEntry("rc6-f", "RC6 f(x) = x(2x+1) mod 2^32 by squarer rows, Wallace + "
                         "Kogge-Stone", lambda: Rc6F(32, "squarer", "wallace", "kogge-stone"),
                         ("i",), ("o",), {"width": 32, "kind": "squarer", "reduction": "wallace",
                                          "final_adder": "kogge-stone"})]


def proof_pairs() -> list[Pair]:
    """The squarer with each reduction against x(2x+1) written with ``*``, at the multipliers'
    proof width (verify/equivalence.py)."""
    w = MULTIPLIER_WIDTH
    return [Pair(f"rc6-f{w}", f"squarer {reduction} = behavioral x(2x+1), {w}-bit",
                 lambda: Rc6F(w, "behavioral"), lambda r=reduction: Rc6F(w, "squarer", r),
                 ("i",), ("o",))
            for reduction in ("wallace", "array")]
