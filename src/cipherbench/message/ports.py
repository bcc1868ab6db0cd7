"""The message level's ports, as Amaranth signatures: the LWC hardware API's top level and the
interface between the LWC front end (``lwc_io.py``) and an engine.

Top level (``LwcSignature``, seen from the design; the names are the Verilog ports)::

    clk, rst                       clock; synchronous active-high reset (Amaranth's sync domain)
    pdi_data[w]  pdi_valid -> pdi_ready     public data in
    sdi_data[sw] sdi_valid -> sdi_ready     secret data in (keys)
    do_data[w]   do_last  do_valid -> do_ready   data out; do_last high on the status word

``w`` is 8, 16, 32 (the API's) or 128 (cipherbench's block-a-clock widening, ``lwc.WIDE``);
``sw`` is one of the same. Handshakes as in docs/interface.md: a transfer on a rising edge where
valid and ready are both high; valid never waits for ready.

Engine side (``EngineSignature``, seen from the engine; the front end holds the flipped one):

* ``key`` (In): ``data[sw]``, ``last``: the words of a newly activated key, most significant first,
  ``last`` on its final word. Sent between operations, when ``ACTKEY`` precedes one.
* ``bdi`` (In): one word of input data a transfer, with what the front end read from its header:
  ``type`` (the segment type, ``lwc.Segment``), ``bytes`` (valid bytes, the most significant ones;
  0 for the single word an empty segment gives), ``eot``/``eoi``/``last`` (the segment's flags, high
  on its final word only), ``eob`` (the final word of a data block of ``block_bytes``, or of the
  segment), ``decrypt`` and ``hash`` (the operation; steady through it). Every segment gives at
  least one word, so the engine sees every flag. Data bytes past ``bytes`` are zero.
* ``bdo`` (Out): ``data[w]``, output words in order: CT/PT words as the input words that carried
  them (one output word per non-empty input word), then the tag (encryption) or digest (hash). The
  front end writes the headers and clears bytes past a segment's length.
* ``status`` (Out): ``fail``, once per operation after its last output word (FAILURE for a
  decryption whose tag did not verify).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from amaranth.lib.wiring import In, Out, Signature

from cipherbench.interface import Channel, PortedInterface

from .lwc import check_width


@dataclass(frozen=True)
class LwcShape:
    """Widths of an LWC design: ``w`` (pdi, do) and ``sw`` (sdi)."""

    w: int = 32
    sw: int | None = None

    def __post_init__(self) -> None:
        check_width(self.w)
        check_width(self.key_width)

    @property
    def key_width(self) -> int:
        return self.w if self.sw is None else self.sw

    @property
    def bytes_bits(self) -> int:
        """Width of a valid-bytes count (0 to w/8)."""
        return (self.w // 8).bit_length()

    def signature(self) -> "LwcSignature":
        return LwcSignature(self)

    def ports(self) -> list[dict[str, object]]:
        """The top level's ports in order, as the manifest records them."""
        return self.signature().create().ports()


class LwcSignature(Signature):
    """The LWC API's top level, seen from the design: pdi and sdi In, do Out."""

    def __init__(self, shape: LwcShape) -> None:
        self.shape = shape
        super().__init__({
            "pdi": In(Channel("pdi", {"data": shape.w})),
            "sdi": In(Channel("sdi", {"data": shape.key_width})),
            "do": Out(Channel("do", {"data": shape.w, "last": 1})),
        })

    def create(self, *, path: Any = None, src_loc_at: int = 0) -> "LwcInterface":
        return LwcInterface(self)


class LwcInterface(PortedInterface):
    """An LWC design's top-level interface object, its Signals named as the Verilog ports."""

    signature: LwcSignature


def bdi_channel(shape: LwcShape) -> Channel:
    return Channel("bdi", {"data": shape.w, "type": 4, "bytes": shape.bytes_bits, "eot": 1,
                           "eoi": 1, "last": 1, "eob": 1, "decrypt": 1, "hash": 1})


class EngineSignature(Signature):
    """An engine behind the LWC front end, seen from the engine: key and bdi In, bdo and status
    Out."""

    def __init__(self, shape: LwcShape) -> None:
        self.shape = shape
        super().__init__({
            "key": In(Channel("key", {"data": shape.key_width, "last": 1}, bare="data")),
            "bdi": In(bdi_channel(shape)),
            "bdo": Out(Channel("bdo", {"data": shape.w})),
            "status": Out(Channel("status", {"fail": 1})),
        })
