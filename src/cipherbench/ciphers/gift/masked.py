"""GIFT's S-box GS masked gate by gate: the designers' bitsliced sequence (components/sbox4.py)

    S1 ^= S0 & S2;  S0 ^= S1 & S3;  S2 ^= S0 | S1;  S3 ^= S2;  S1 ^= S3;  S3 = ~S3;
    S2 ^= S0 & S1;  (S0, S1, S2, S3) <- (S3, S1, S2, S0)

with each AND a DOM-indep AND and the OR by De Morgan (components/masked/sbox4.py:
MaskedBitsliced4): 4 fresh bits per evaluation at first order (12 at second), against 6 (18) for
the two-layer ANF of MaskedSbox4, at 6 clocks instead of 2.

Where the compression registers go (:data:`REGISTERS`; a DOM AND's cross-domain term a_i b_j
sees, through glitches, every register in the combinational cones of a_i and b_j):
- the second AND (S1' & S3) follows the first without one: S1' = S1 ^ S0 S2 holds the first AND's
  domain-i terms (S0_i S2_i, and S0_i S2_j masked by its fresh bit) and S1_i, the other operand
  S3_j: shares of distinct input bits;
- S0' = S0 ^ S1' S3 is registered before the OR (S0' | S1'): uncompressed, its domain-i cone holds
  the inner term S1'_i S3_i, which with the OR's other operand S1'_j would give S1' away when
  S3_i = 1;
- S1'' = S1' ^ S3 ^ S2' is registered before the last AND (S0' & S1''): its cone holds the OR's
  domain-i terms (S0'_i, S1'_i) beside the other operand S0'_j.
"""

from __future__ import annotations

from ...components.masked.sbox4 import MaskedBitsliced4
from ...components.sbox4 import BITSLICED, GIFT_SBOX

# step index -> the state bits registered (compressed) before that step
REGISTERS: dict[int, tuple[int, ...]] = {2: (0,), 6: (1,)}
LATENCY = 6


class MaskedGiftBitsliced(MaskedBitsliced4):
    """GS masked gate by gate (see the module docstring): ports ``i``, ``r``, ``o`` as
    MaskedSbox4, 6 clocks, one fresh bit per AND/OR and pair of domains (4 at first order)."""

    def __init__(self, shares: int = 2, *, register: bool = True, transparent: bool = False
                 ) -> None:
        super().__init__(BITSLICED[GIFT_SBOX], REGISTERS, shares, register=register,
                         transparent=transparent)
        assert self.latency == LATENCY
