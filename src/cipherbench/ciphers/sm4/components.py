"""SM4's components for the catalog (cipherbench characterize) and their equivalence proofs
(cipherbench prove): the linear transforms L (round function) and L' (key schedule)
(components/rotxor.py), as rotations and XORs (the definition) and with Paar-shared XORs.

The proofs' reference is this folder's model: the matrix of its ``linear`` / ``linear_key``
read off their images of the 32 unit vectors (verify/equivalence.py: ModelLinearMap); every
structure (rotations, per-bit XOR tree, shared) is proven equal to it."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.rotxor import SM4_TRANSFORMS, sm4_linear
from ...verify.equivalence import ModelLinearMap, Pair

UNARY = ("i",), ("o",)
SYMBOLS = {"l": "L", "l-prime": "L'"}
TITLES = {"l": "L = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24",
          "l-prime": "L' = B ^ B<<<13 ^ B<<<23"}


def catalog_entries() -> list[CatalogEntry]:
    from .masked import MaskedSm4Sbox

    masked = [CatalogEntry(f"sm4-sbox-dom{shares}", f"SM4 S-box, DOM-masked tower field "
                           f"(the masked AES inverter), {shares} shares (order {shares - 1}), "
                           "pipelined, 7 clocks", lambda s=shares: MaskedSm4Sbox(s), ("i", "r"),
                           ("o",), {"shares": shares}, latency=7)
              for shares in (2, 3)]
    return masked + [CatalogEntry(f"sm4-{which}{suffix}", f"SM4 {TITLES[which]} on 32 bits, {how}",
                         lambda w=which, s=structure: sm4_linear(w, s), *UNARY,
                         {"structure": structure})
            for which in SM4_TRANSFORMS
            for structure, suffix, how in (("rotations", "", "XOR of rotations"),
                                           ("shared", "-shared", "Paar-shared XORs"))]


def proof_pairs() -> list[Pair]:
    from . import model

    functions = {"l": model.linear, "l-prime": model.linear_key}
    return [Pair(f"sm4-{which}", f"{structure} = model's {SYMBOLS[which]}",
                 lambda w=which: ModelLinearMap(functions[w], 32),
                 lambda w=which, s=structure: sm4_linear(w, s), *UNARY)
            for which in SM4_TRANSFORMS for structure in ("rotations", "tree", "shared")]
