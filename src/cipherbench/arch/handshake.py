"""The handshakes of a core that works on one block at a time (iterative, unrolled).

Shared by their controllers: key, input and output channels as docs/interface.md defines them,
and the trigger of the once-per-key decryption run-up (started by the first decryption block, so
encryption has key setup 0). The controller keeps its own round or pass counting.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Module, Signal, Value

from ..interface import CoreSignals
from .base import CipherHardware


@dataclass
class OneBlockControl:
    """Controller state the handshakes depend on, and what they decide this cycle."""

    busy: Signal        # a block is being computed
    runup: Signal       # the decryption run-up is going
    done: Signal        # a result waits in the state register (out_valid)
    have_key: Signal
    dec_ready: Signal   # the decryption start state of the current key is stored
    want_dec: Value     # the offered block is a decryption (the core's only direction if one)
    key_fire: Value
    in_fire: Value
    out_fire: Value
    begin_runup: Value


def one_block_handshakes(m: Module, io: CoreSignals, hw: CipherHardware,
                         setup: Value | None = None) -> OneBlockControl:
    """Drive key_ready, in_ready and out_valid; keep have_key and dec_ready per key. ``setup``:
    a once-per-key fill is running (arch/keytables.py), so neither a block nor a key is taken."""
    has_dec, has_enc = hw.options.has_decrypt, hw.options.has_encrypt
    busy, runup, done, have_key, dec_ready = (Signal(name=n) for n in (
        "busy", "runup", "done", "have_key", "dec_ready"))
    # A one-direction core ignores in_decrypt.
    want_dec = io.in_decrypt if (has_enc and has_dec) else Signal(init=int(has_dec))
    idle = ~busy & ~runup
    if setup is not None:
        idle = idle & ~setup
    key_fire = io.key_valid & io.key_ready
    m.d.comb += io.key_ready.eq(idle & ~done)
    accept_ok = idle & have_key & ~key_fire & (~done | io.out_ready)
    if has_dec:
        accept_ok = accept_ok & (~want_dec | dec_ready)
    m.d.comb += [io.in_ready.eq(accept_ok), io.out_valid.eq(done)]
    begin_runup: Value = (idle & have_key & ~key_fire & io.in_valid & want_dec & ~dec_ready
                          if has_dec else Signal())
    with m.If(key_fire):
        m.d.sync += [have_key.eq(1), dec_ready.eq(0)]
    return OneBlockControl(busy, runup, done, have_key, dec_ready, want_dec, key_fire,
                           io.in_valid & io.in_ready, io.out_valid & io.out_ready, begin_runup)
