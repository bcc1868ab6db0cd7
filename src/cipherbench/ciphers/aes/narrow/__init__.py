"""AES narrow datapaths for arch/narrow.py: 8 bits per clock (one S-box shared by the data and
the key schedule), 16 bits per clock (two S-boxes, two bytes of one row per clock), 32 and 64 bits
per clock (four or eight S-boxes, one or two columns per clock, shared with the key schedule's
SubWord). AES-128; the design, cycle counts and areas are in docs/narrow.md.

Both keep the state and the key as four row rings: row i of the state holds s[i, 0..3], row i of
the key holds byte i of the four key words w0..w3. A ring rotates left (position c takes c+1, the
tail position 3 takes a new byte), so a register loads from one neighbour, the interface (parallel
load) or itself (hold); the tails' inputs and the 32-bit core's ShiftRows are the only other
paths.

With keys=rewind the key ring is the only key storage. It rests at K0; encryption walks it forward
to K10 while the block is processed and walks it back to K0 afterwards ("rewind", while the result
waits); decryption first walks it forward to K10 ("run-up") and processes the block walking back,
ending at K0. With keys=stored, K0 and K10 are kept beside the ring and reloaded per block.

Key ring forms: "aligned", position c holds word c; "rotated", one step later after T was
injected, the positions hold w1, w2, w3, w0' (the new first word at the tail). The forward chain
from the rotated form is tail <- head ^ tail (w1' = w1 ^ w0', ...); the backward chain needs the
previous head, kept in ``prev``. T (SubWord(RotWord(w3)) ^ Rcon) is injected by rotating a row
once with tail <- head ^ T_i.

One module per datapath: byte_serial.py (8 bits), row_pairs.py (16), column_serial.py (32, 64);
common.py holds what they share. ``AesNarrowHardware`` picks one by width (CipherInfo.arch_hardware
gives it to the narrow architecture).
"""

from __future__ import annotations

from ....arch.narrow import NarrowDatapath
from ....errors import CipherbenchError
from ..hw import BRAM, AesHardware
from .byte_serial import AesByteSerial
from .column_serial import AesColumnPairs, AesColumnSerial
from .common import WIDTHS
from .row_pairs import AesRowPairs

__all__ = ["HARDWARE", "WIDTHS", "AesByteSerial", "AesColumnPairs", "AesColumnSerial",
           "AesNarrowHardware", "AesRowPairs"]


class AesNarrowHardware(AesHardware):
    """AES with narrow datapaths (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"aes has no {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        if self.sbox == BRAM:
            raise CipherbenchError("the narrow AES datapaths use combinational S-boxes; sbox=bram "
                                   "needs a registered SubBytes: use aes-128/pipelined:inner=1,"
                                   "sbox=bram")
        if tuple(self.options.key_sizes) != (128,):
            raise CipherbenchError(f"the narrow AES datapaths take 128-bit keys only; use "
                                   f"aes-128/narrow:width={width}")
        if width == 8:
            return AesByteSerial(self.options, self.sbox, keys)
        if width == 32:
            return AesColumnSerial(self.options, self.sbox, keys)
        if width == 16:
            return AesRowPairs(self.options, self.sbox, keys)
        return AesColumnPairs(self.options, self.sbox, keys)

    def describe(self) -> dict[str, object]:
        return {"sbox": self.sbox}


HARDWARE = AesNarrowHardware
