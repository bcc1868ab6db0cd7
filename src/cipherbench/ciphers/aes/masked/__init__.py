"""Masked AES-128 datapaths for arch/masked.py: 8 bits per clock (byte_serial.py: one masked
S-box shared by the state and the key schedule), 64 and 128 (columns.py: two or four columns
per clock, the key schedule's SubWord on four of their S-boxes). Encryption only; the design, cycle counts and
areas are in docs/ciphers/aes.md and docs/architectures.md."""

from __future__ import annotations

from ....arch.masked import MaskedDatapath
from ....errors import CipherbenchError
from ..hw import AesHardware
from .byte_serial import AesMaskedByteSerial
from .columns import AesMaskedColumns

WIDTHS = (8, 64, 128)


class AesMaskedHardware(AesHardware):
    """AES with masked datapaths (CipherInfo.arch_hardware: masked)."""

    def masked_datapath(self, width: int, shares: int, flaw: str) -> MaskedDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"aes has no masked {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        if tuple(self.options.key_sizes) != (128,):
            raise CipherbenchError(f"the masked AES datapaths take 128-bit keys only; use "
                                   f"aes-128/masked:width={width}")
        if self.options.directions != "encrypt":
            raise CipherbenchError("the masked AES cores encrypt only (ops=encrypt)")
        if width == 8:
            return AesMaskedByteSerial(shares, flaw)
        return AesMaskedColumns(width, shares, flaw)

    def describe(self) -> dict[str, object]:
        return {}


HARDWARE = AesMaskedHardware
