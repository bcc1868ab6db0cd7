"""TDEA hardware description (NIST SP 800-67): 48 DES rounds on one DES round block.

Sugawara et al. (seed 003, section 2.2, Fig. 7): one 32-bit round function block runs the 16-round
DES operation three times, 48 cycles per block, S-boxes as lookup tables. Here the whole E-D-E
chain is one 48-round loop on ``des.hw.DesRound``:

- Data: the state register holds FP(R || L) after every round (``des/hw.py``), so a DES operation
  ends with its output in the register and the next one reads it back through IP; between two
  operations IP^-1 and IP cancel and cost nothing. The round that begins an operation reads the
  halves without the swap: a layer-start bit beside the round key tells it so.
- Keys: the key state holds the DES keys after PC-1 as 56-bit C/D words, the active one in front.
  E operations rotate it left before each round, D operations use it and rotate right; at the end
  of each operation (C16 D16 = C0 D0 again) the words rotate one position so the next key is in
  front. 3-key: words K1 K2 K3 (168 bits), turning after every operation. 2-key (``tdea-128``):
  words K1 K2 (112 bits), used K1 K2 K1, turning after the first two operations only. Either way
  the words are back in place after 48 rounds (S_48 = S_0). The core for both key sizes keeps
  three words and loads K1 K2 K1 for a 16-byte key.
- Decryption runs the same 48 rounds with the keys in reverse (D_K3, E_K2, D_K1 is the E-D-E
  chain's Feistel inverse); the key state walks backward through the same states.

Loop cores: ``tdea*/iterative`` (the generic generator) and ``tdea*/narrow`` (width 64, one key
register: ``des.hw.DesLoop``).
"""

from __future__ import annotations

from amaranth.hdl import Mux, Value

from ...arch.base import CipherHardware, CoreOptions
from ...components.bytes import from_words
from ..des.hw import (
    CD_BITS,
    ROUND_KEY_BITS,
    DesKeyStep,
    DesLoop,
    DesRound,
    DesSchedule,
    Loader,
    narrow_loop,
    pc1,
)

LAYERS = ("E", "D", "E")


def key_words(key_sizes: tuple[int, ...]) -> int:
    """Key words the state keeps: two for a 2-key-only core, else three."""
    return 2 if key_sizes == (128,) else 3


def loader(key_sizes: tuple[int, ...]) -> Loader:
    """The loaded key state for the core's key sizes (the key port is left-aligned)."""
    words = key_words(key_sizes)
    top = max(key_sizes)

    def load(key: Value, key_len: Value) -> Value:
        k1, k2 = pc1(key[top - 64:top]), pc1(key[top - 128:top - 64])
        if words == 2:
            return from_words([k1, k2])
        k3 = pc1(key[:64]) if top == 192 else k1
        if key_sizes == (128, 192):
            k3 = Mux(key_len == 16, k1, k3)
        return from_words([k1, k2, k3])

    return load


class TdeaHardware(CipherHardware):
    name = "tdea"
    # keys=stored: Feistel schedule, decryption round r needs encryption round R+1-r's key, so
    # the round-key memory stores the backward walk's keys too (arch/keymem.py).
    stored_decryption = "walk"
    block_bits = 64
    round_key_bits = ROUND_KEY_BITS + 1  # + the layer-start bit

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.schedule = DesSchedule(keys=key_words(options.key_sizes), layers=LAYERS)
        self.key_state_bits = CD_BITS * self.schedule.keys

    def rounds(self, key_bits: int) -> int:
        return self.schedule.rounds

    def datapath(self) -> DesRound:
        return DesRound(layered=True)

    def key_step(self, key_len_bits: int, step_bits: int) -> DesKeyStep:
        return DesKeyStep(self.schedule, max(self.options.key_sizes), key_len_bits, step_bits,
                          self.options.has_decrypt, loader(self.options.key_sizes))

    def narrow_datapath(self, width: int, keys: str = "rewind") -> DesLoop:
        return narrow_loop(self, self.schedule, loader(self.options.key_sizes), width)

    def describe(self) -> dict[str, object]:
        return {"sbox": "table", "data_sboxes": 8, "des_operations": 3,
                "key_words": self.schedule.keys,
                "key_schedule": "C/D rotation on the fly, key words rotate per DES operation"}
