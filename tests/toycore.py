"""A toy 64-bit block cipher and two cores for it, to test the simulation harness without AES.

The cipher ("Toy64"): keys of 64 or 128 bits, R = 4 or 6 rounds. The key state s0 is the 128-bit
key, or a 64-bit key written twice; round i uses the constant rc_i = hi(s_i) ^ rotl(lo(s_i), 7) ^ i
with s_i = rotl128(s0, 13 i). A round is x -> rotl64(x, 3) ^ rc_i; decryption runs the inverse
rounds in reverse order, so it starts from the last round constant: an iterative core needs a
key run-up for decryption, like AES, which gives key_setup_decrypt > key_setup_encrypt.

Known cycle counts (docs/interface.md definitions):

    ToyIterative   latency = II = chained = R, key_setup_encrypt 0, key_setup_decrypt R - 1,
                   algorithm_setup 3 (a reset-time init counter)
    ToyPipelined   latency = chained = 6, II = 1, both key setups 0, algorithm_setup 0
"""

from __future__ import annotations

import json
from pathlib import Path

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from cipherbench.interface import CoreInterface, CoreShape
from cipherbench.rtl import to_verilog

SHAPE = CoreShape(block_bits=64, key_sizes=(64, 128))
ROUNDS = {64: 4, 128: 6}
MAX_ROUNDS = max(ROUNDS.values())
_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1

# Cycle counts each core must measure, by key size.
ITERATIVE_CYCLES = {
    bits: {
        "latency": r, "latency_decrypt": r, "initiation_interval": r,
        "cycles_per_chained_block": r, "key_setup_encrypt": 0, "key_setup_decrypt": r - 1,
        "algorithm_setup": 3,
    }
    for bits, r in ROUNDS.items()
}
PIPELINED_CYCLES = {
    bits: {
        "latency": MAX_ROUNDS, "latency_decrypt": MAX_ROUNDS, "initiation_interval": 1,
        "cycles_per_chained_block": MAX_ROUNDS, "key_setup_encrypt": 0,
        "key_setup_decrypt": 0, "algorithm_setup": 0,
    }
    for bits in ROUNDS
}


# ---------------------------------------------------------------- reference model


def _rotl(x: int, n: int, width: int) -> int:
    mask = (1 << width) - 1
    n %= width
    return ((x << n) | (x >> (width - n))) & mask


def _key_state(key: bytes) -> int:
    k = int.from_bytes(key, "big")
    return (k << 64) | k if len(key) == 8 else k


def _round_constant(s0: int, i: int) -> int:
    s = _rotl(s0, 13 * i, 128)
    return (s >> 64) ^ _rotl(s & _M64, 7, 64) ^ i


class ToyModel:
    """Bit-exact model of Toy64 (implements cipherbench.ciphers.base.CipherModel)."""

    name = "toy64"
    block_bits = 64
    key_sizes = (64, 128)

    def _constants(self, key: bytes) -> list[int]:
        if len(key) * 8 not in ROUNDS:
            raise ValueError(f"toy64 key must be 8 or 16 bytes, not {len(key)}")
        s0 = _key_state(key)
        return [_round_constant(s0, i) for i in range(ROUNDS[len(key) * 8])]

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        x = int.from_bytes(block, "big")
        for rc in self._constants(key):
            x = _rotl(x, 3, 64) ^ rc
        return x.to_bytes(8, "big")

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        x = int.from_bytes(block, "big")
        for rc in reversed(self._constants(key)):
            x = _rotl(x ^ rc, 64 - 3, 64)
        return x.to_bytes(8, "big")


# ---------------------------------------------------------------- hardware helpers


def _hw_key_state(sig: CoreInterface) -> Value:
    """s0 from the left-aligned key port: a 64-bit key sits in the top half and is doubled."""
    top = sig.key.data[64:128]
    return Mux(sig.key.len == 8, Cat(top, top), sig.key.data)


def _hw_rc(s: Value, index: Value) -> Value:
    """Round constant from a key state that has already been rotated to round `index`."""
    # Slice to 64 bits: `nr - 1` is signed in Amaranth and would widen (and sign) the XOR.
    return (s[64:128] ^ s[0:64].rotate_left(7) ^ index)[:64]


def _hw_round(x: Value, rc: Value, decrypt: Value) -> Value:
    return Mux(decrypt, (x ^ rc).rotate_right(3), x.rotate_left(3) ^ rc)


def _rounds_for(key_len: Value) -> Value:
    return Mux(key_len == 8, ROUNDS[64], ROUNDS[128])


# ---------------------------------------------------------------- iterative core


class ToyIterative(Elaboratable):
    """One round per clock.

    Broken variants for the harness's own tests: ``hang=True`` ties in_ready low; ``leak=True``
    spends one extra cycle on blocks whose last bit is 1 (not constant time, results still right).
    ``slow_ready=True`` does not let a block in on the edge the previous result leaves, so the
    testbench must hold a fed-back chain block for a cycle (II = chained = R + 1).
    """

    def __init__(self, hang: bool = False, leak: bool = False, slow_ready: bool = False) -> None:
        self.sig = SHAPE.signature().create()
        self.hang = hang
        self.leak = leak
        self.slow_ready = slow_ready

    def elaborate(self, platform: object) -> Module:
        m = Module()
        sig = self.sig
        init = Signal(2, init=3)        # reset-time setup, so algorithm_setup is non-zero
        s_enc = Signal(128)             # key state of round 0
        s_dec = Signal(128)             # runs up to the key state of round R-1
        runup = Signal(3)               # decryption run-up steps left
        nr = Signal(3, init=ROUNDS[128])
        ks = Signal(128)                # key state of the round in progress
        ri = Signal(3)                  # its round index
        left = Signal(3)                # rounds still to do
        busy = Signal()
        dec = Signal()
        state = Signal(64)
        out_valid = Signal()
        stall = Signal()                # leak variant: a wasted cycle before the rounds

        with m.If(init != 0):
            m.d.sync += init.eq(init - 1)

        m.d.comb += [
            sig.key.ready.eq((init == 0) & ~busy & ~out_valid),
            sig.out.valid.eq(out_valid),
            sig.out.block.eq(state),
        ]
        # The result register frees up on the edge the result leaves, so a new block (or the
        # chained feedback) can enter on that same edge.
        free = ~busy & (~out_valid if self.slow_ready else (~out_valid | sig.out.ready))
        dec_ok = runup == 0
        if self.hang:
            m.d.comb += sig.inp.ready.eq(0)
        else:
            m.d.comb += sig.inp.ready.eq(free & (init == 0) & (~sig.inp.decrypt | dec_ok))

        with m.If(sig.out.valid & sig.out.ready):
            m.d.sync += out_valid.eq(0)

        with m.If(runup != 0):
            m.d.sync += [s_dec.eq(s_dec.rotate_left(13)), runup.eq(runup - 1)]
        with m.If(sig.key.valid & sig.key.ready):
            r = _rounds_for(sig.key.len)
            m.d.sync += [s_enc.eq(_hw_key_state(sig)), s_dec.eq(_hw_key_state(sig)),
                         nr.eq(r), runup.eq(r - 1)]

        with m.If(sig.inp.valid & sig.inp.ready):
            # Round 0 is applied on the acceptance edge: latency = R.
            d = sig.inp.decrypt
            first_rc = Mux(d, _hw_rc(s_dec, nr - 1), _hw_rc(s_enc, 0))
            m.d.sync += [
                state.eq(_hw_round(sig.inp.block, first_rc, d)),
                dec.eq(d),
                ks.eq(Mux(d, s_dec.rotate_right(13), s_enc.rotate_left(13))),
                ri.eq(Mux(d, nr - 2, 1)[:3]),
                left.eq(nr - 1),
                busy.eq(1),
                stall.eq(sig.inp.block[0] if self.leak else 0),
            ]
        with m.Elif(busy & stall):
            m.d.sync += stall.eq(0)
        with m.Elif(busy):
            m.d.sync += [
                state.eq(_hw_round(state, _hw_rc(ks, ri), dec)),
                ks.eq(Mux(dec, ks.rotate_right(13), ks.rotate_left(13))),
                ri.eq(Mux(dec, ri - 1, ri + 1)[:3]),
                left.eq(left - 1),
            ]
            with m.If(left == 1):
                m.d.sync += [busy.eq(0), out_valid.eq(1)]
        return m


# ---------------------------------------------------------------- pipelined core


class ToyPipelined(Elaboratable):
    """Six round stages, one block per clock; with a 64-bit key the last two stages pass through."""

    def __init__(self) -> None:
        self.sig = SHAPE.signature().create()

    def elaborate(self, platform: object) -> Module:
        m = Module()
        sig = self.sig
        n = MAX_ROUNDS
        enc_rc = [Signal(64, name=f"enc_rc{i}") for i in range(n)]
        dec_rc = [Signal(64, name=f"dec_rc{i}") for i in range(n)]
        active = [Signal(name=f"active{i}") for i in range(n)]
        valid = [Signal(name=f"v{i}") for i in range(n)]
        decs = [Signal(name=f"d{i}") for i in range(n)]
        data = [Signal(64, name=f"x{i}") for i in range(n)]

        # All round constants are computed at key load (constant rotations are just wiring).
        with m.If(sig.key.valid & sig.key.ready):
            s0 = _hw_key_state(sig)
            short = sig.key.len == 8
            for i in range(n):
                rc = _round_constant_hw(s0, i)
                m.d.sync += [enc_rc[i].eq(rc), active[i].eq(Mux(short, i < ROUNDS[64], 1))]
                short_rc = _round_constant_hw(s0, ROUNDS[64] - 1 - i) if i < ROUNDS[64] else 0
                long_rc = _round_constant_hw(s0, ROUNDS[128] - 1 - i)
                m.d.sync += dec_rc[i].eq(Mux(short, short_rc, long_rc))

        advance = ~valid[-1] | sig.out.ready
        m.d.comb += [
            sig.inp.ready.eq(advance),
            sig.key.ready.eq(~Cat(*valid).any()),
            sig.out.valid.eq(valid[-1]),
            sig.out.block.eq(data[-1]),
        ]
        with m.If(advance):
            d_in = sig.inp.decrypt
            m.d.sync += [
                valid[0].eq(sig.inp.valid),
                decs[0].eq(d_in),
                data[0].eq(_hw_round(sig.inp.block, Mux(d_in, dec_rc[0], enc_rc[0]), d_in)),
            ]
            for i in range(1, n):
                rc = Mux(decs[i - 1], dec_rc[i], enc_rc[i])
                stepped = _hw_round(data[i - 1], rc, decs[i - 1])
                m.d.sync += [
                    valid[i].eq(valid[i - 1]),
                    decs[i].eq(decs[i - 1]),
                    data[i].eq(Mux(active[i], stepped, data[i - 1])),
                ]
        return m


def _round_constant_hw(s0: Value, i: int) -> Value:
    return _hw_rc(s0.rotate_left((13 * i) % 128), Const(i, 3))


# ---------------------------------------------------------------- wide-port core


class XorModel:
    """Block XOR the first bytes of the key (zero-padded): a trivial cipher of any width, to test
    wide and odd port widths and the key's left alignment."""

    name = "xor"

    def __init__(self, block_bits: int, key_sizes: tuple[int, ...]) -> None:
        self.block_bits = block_bits
        self.key_sizes = key_sizes

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        pad = (key + bytes(len(block)))[:len(block)]
        return bytes(a ^ b for a, b in zip(block, pad))

    decrypt = encrypt


class ToyXor(Elaboratable):
    """One register stage; the key register keeps only key_len bytes (the rest is don't-care)."""

    def __init__(self, block_bits: int, key_sizes: tuple[int, ...]) -> None:
        self.shape = CoreShape(block_bits, key_sizes)
        self.sig = self.shape.signature().create()

    def elaborate(self, platform: object) -> Module:
        m = Module()
        sig, kb, bb = self.sig, self.shape.key_bits, self.shape.block_bits
        key = Signal(kb)
        out_valid = Signal()
        out_block = Signal(bb)
        m.d.comb += [
            sig.key.ready.eq(~out_valid),
            sig.inp.ready.eq(~out_valid | sig.out.ready),
            sig.out.valid.eq(out_valid),
            sig.out.block.eq(out_block),
        ]
        with m.If(sig.key.valid & sig.key.ready):
            keep = ~(Const((1 << kb) - 1, kb) >> (sig.key.len * 8))
            m.d.sync += key.eq(sig.key.data & keep)
        with m.If(sig.inp.valid & sig.inp.ready):
            m.d.sync += [out_block.eq(sig.inp.block ^ key[kb - bb:]), out_valid.eq(1)]
        with m.Elif(sig.out.ready):
            m.d.sync += out_valid.eq(0)
        return m


# ---------------------------------------------------------------- design folders


def write_design(core: ToyIterative | ToyPipelined | ToyXor, out_dir: Path,
                 top: str = "toy_core") -> Path:
    """Write Verilog and a manifest.json like `cipherbench generate` would; return out_dir."""
    shape = core.shape if isinstance(core, ToyXor) else SHAPE
    v_path = to_verilog(core, core.sig.port_list(), top, out_dir)
    (out_dir / "rtl_yosys.log").unlink(missing_ok=True)
    manifest = {
        "design": f"toy/{type(core).__name__}",
        "top": top,
        "clock": "clk",
        "reset": "rst",
        "verilog": [v_path.name],
        "ports": shape.ports(),
        "io_count": shape.io_count(),
        "block_bits": shape.block_bits,
        "key_sizes": list(shape.key_sizes),
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return out_dir
