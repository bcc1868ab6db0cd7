"""Serialized PRESENT (arch/narrow.py): ``present/narrow:width=W``, W = 4, 8, 16 or 32 bits per
clock, the serialized S-box layer of Rolfes, Poschmann, Leander and Paar (CARDIS 2008, one S-box,
the state shifted nibble by nibble) generalized to L = W/4 S-box lanes.

- **State: one 64-bit shift register.** A pass takes n = 64/W clocks: each clock the L lanes read
  the low W bits, XOR the round-key slice of this clock and substitute; the state shifts right by
  W and the lanes' outputs enter at the top. After n clocks every nibble is substituted and back in
  place, so the pass needs no nibble multiplexer on the state. pLayer (pLayer^-1) then runs on the
  whole state in one clock (wiring and the state's multiplexer).
- **Round key on the fly, the key register updated in one clock.** The round key is the top 64
  bits of the key register, which stays still during a pass; a multiplexer picks the W-bit slice
  of the clock. The clock of pLayer is also the key clock: the lanes, idle, compute the update's
  S-box on the key's top nibble (encryption: S; decryption: S^-1 for the update undone; lanes 0
  and 1 for a 128-bit key's two nibbles, with a key S-box of its own only where a 4-bit core has
  one lane), and the key register takes the update (rotation: wiring) in the same clock.
- **Rounds.** Encryption, 32 rounds of n + 1 clocks: round r = 0..30 is the pass S(x ^ K_{r+1})
  and the pLayer/key clock (update with counter r + 1); round 31 is the final addRoundKey as a
  pass with the S-boxes bypassed (x ^ K_32) and no pLayer clock. Decryption mirrors it: round 0 is
  the bypassed pass x ^ K_32, then pLayer^-1 with the key update undone (counter 31 - r); rounds
  r = 1..31 pass S^-1(x) ^ K_{32-r}. Both take 32 (n + 1) - 1 clocks: 543 at 4 bits.
- ``keys=rewind`` (default): the key register is the only key storage. Decryption needs the key
  state after the 31 updates (K_32 on top); PRESENT's schedule has S-boxes in it, so that state
  is not wiring of the key: it is run up, one update per clock on the lanes (31 clocks, ``pre``),
  and decryption walks the register back to the key. Encryption walks it forward to that state
  and back while the result waits (``post``, 31 clocks). ``keys=stored``: the key and the run-up's
  end are kept beside the register (+80 or +128 bits each) and reload it when a block starts; the
  run-up runs once per key (``setup``).

Counts, width 4 (n = 16): latency 1 + 543 = 544 clocks (Rolfes et al. report 547 for their
serialized PRESENT-80, which loads plaintext and key itself); with ``keys=rewind`` the block
interval is 544 + 31 = 575 (the key kept across blocks must be walked back) and a decryption
takes 1 + 31 + 543 = 575.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import select_by_key_len
from ...arch.narrow import NarrowDatapath, Program, Segment
from ...errors import CipherbenchError
from ...interface import CoreShape
from .hw import BLOCK_BITS, ROUND_KEY_BITS, PresentHardware, permute, sbox_nibble
from .model import INVERSE_PERMUTATION, INVERSE_SBOX, PERMUTATION, ROUNDS, SBOX

WIDTHS = (32, 16, 8, 4)
CRYPT, RUNUP, REWIND = "crypt", "key-runup", "key-rewind"
PASSES = ROUNDS + 1          # 31 S-box passes and the final addRoundKey pass
KEY_UPDATES = ROUNDS         # key states 0 .. 31


def crypt_segment(width: int, sizes: tuple[int, ...]) -> Segment:
    """32 rounds of n pass clocks and one pLayer/key clock; the last round has no pLayer clock."""
    n = BLOCK_BITS // width
    return Segment(CRYPT, {k: PASSES for k in sizes}, n + 1, last_step=n - 1)


def key_segment(name: str, sizes: tuple[int, ...]) -> Segment:
    """The run-up or the rewind: one key update (or its inverse) per clock."""
    return Segment(name, {k: KEY_UPDATES for k in sizes}, 1)


def _named(m: Module, value: Value, name: str) -> Signal:
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


def _key_select(sizes: tuple[int, ...]) -> dict[int, int]:
    """The key_len code (bytes) of each key size."""
    return {bits: bits // 8 for bits in sizes}


def _key_nibbles(register: Value, bits: int, backward: bool) -> list[Value]:
    """The nibbles of a ``bits``-bit key register the update's S-boxes read (top first): forward
    those that rotate to the top (the rotation by 61 is wiring), backward the top ones."""
    if backward:
        offsets = (bits - 4, 120) if bits == 128 else (bits - 4,)
    else:
        # rotate_left(61): bit i of the rotated register is bit (i - 61) mod bits.
        offsets = tuple((o - 61) % bits for o in ((bits - 4, 120) if bits == 128 else (bits - 4,)))
    return [register[o:o + 4] for o in offsets]


def _forward(register: Value, counter: Value, bits: int, boxed: list[Value]) -> Value:
    """The paper's update with the S-box outputs given (top nibble first)."""
    rotated = register.rotate_left(61)
    if bits == 128:
        return Cat(rotated[:62], rotated[62:67] ^ counter, rotated[67:120], boxed[1], boxed[0])
    return Cat(rotated[:15], rotated[15:20] ^ counter, rotated[20:76], boxed[0])


def _backward(register: Value, counter: Value, bits: int, boxed: list[Value]) -> Value:
    """The update undone, with the inverse S-box outputs given (top nibble first)."""
    if bits == 128:
        before = Cat(register[:62], register[62:67] ^ counter, register[67:120], boxed[1],
                     boxed[0])
    else:
        before = Cat(register[:15], register[15:20] ^ counter, register[20:76], boxed[0])
    return before.rotate_right(61)


@dataclass(frozen=True, eq=False)
class _Control:
    """The controller's named wires that the datapath and the key register read."""

    dec: Value          # decrypting (a constant in a one-direction core)
    key_clock: Value    # the pLayer/key clock after a pass
    passing: Value      # a pass clock: the lanes substitute the state's low W bits
    runup: Value        # the key run-up runs (0 where the program has none)
    forward: Value      # the key register takes the update this clock
    backward: Value     # the key register takes the update undone this clock
    counter: Value      # the round counter the update (or its undoing) XORs in
    bypass: Value       # the final addRoundKey pass: S-boxes bypassed


class _Lanes:
    """L S-box lanes of one table; a key clock borrows lanes 0 and 1 (a dedicated key S-box where
    the core has fewer lanes than the key needs)."""

    def __init__(self, m: Module, table: tuple[int, ...], count: int, prefix: str) -> None:
        self.m, self.table, self.prefix = m, table, prefix
        self.inputs = [Signal(4, name=f"{prefix}{j}_x") for j in range(count)]
        self.outputs = [sbox_nibble(m, x, table, f"{prefix}{j}") for j, x in
                        enumerate(self.inputs)]
        self.extra = 0

    def drive(self, data: list[Value], key: list[Value], key_clock: Value) -> list[Value]:
        """Lane inputs: ``data`` in a pass, ``key`` in a key clock; returns the key outputs."""
        for j, x in enumerate(self.inputs):
            if j < len(key):
                self.m.d.comb += x.eq(Mux(key_clock, key[j], data[j]))
            else:
                self.m.d.comb += x.eq(data[j])
        out = []
        for j, nibble in enumerate(key):
            if j < len(self.inputs):
                out.append(self.outputs[j])
            else:
                out.append(sbox_nibble(self.m, nibble, self.table, f"{self.prefix}key{j}"))
                self.extra += 1
        return out


class PresentSerial(NarrowDatapath):
    """Serialized PRESENT at ``width`` bits per clock (module docstring)."""

    def __init__(self, hw: PresentHardware, width: int, keys: str) -> None:
        shape = CoreShape(BLOCK_BITS, tuple(sorted(hw.options.key_sizes)))
        super().__init__(width=width, block_bits=BLOCK_BITS, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.hw = hw
        self.sizes = shape.key_sizes
        self.kbits = max(self.sizes)
        self.has_enc, self.has_dec = hw.options.has_encrypt, hw.options.has_decrypt
        self.stored = keys == "stored"
        self.lanes = width // 4
        self.clocks = BLOCK_BITS // width
        self.key_sboxes = {"forward": 0, "backward": 0}

    # --- programs ---------------------------------------------------------------------------

    def programs(self) -> dict[bool, Program]:
        crypt = crypt_segment(self.width, self.sizes)
        runup, rewind = key_segment(RUNUP, self.sizes), key_segment(REWIND, self.sizes)
        out: dict[bool, Program] = {}
        if self.has_enc:
            out[False] = Program(main=(crypt,)) if self.stored else Program(main=(crypt,),
                                                                          post=(rewind,))
        if self.has_dec:
            out[True] = (Program(main=(crypt,), setup=(runup,)) if self.stored
                         else Program(main=(crypt,), pre=(runup,)))
        return out

    def describe(self) -> dict[str, object]:
        per_key = 2 if 128 in self.sizes else 1
        # Key S-boxes of their own: where the lanes cannot serve the key (fewer lanes than the key
        # needs, or the key walks in a direction whose lanes the core does not have).
        own = 0
        forward_needed = self.has_enc or self.has_dec   # run-up or encryption's update
        backward_needed = self.has_dec or not self.stored
        if forward_needed:
            own += per_key if not self.has_enc else max(0, per_key - self.lanes)
        if backward_needed:
            own += per_key if not self.has_dec else max(0, per_key - self.lanes)
        facts: dict[str, object] = {
            "sbox": "table", "sbox_lane_inputs": 4,
            "data_sbox_lanes": self.lanes * (self.has_enc + self.has_dec),
            "key_schedule_sbox_lanes": own, "clocks_per_round": self.clocks + 1,
            "key_registers": self.kbits * (1 + self.stored * (self.has_enc + self.has_dec)),
        }
        bits = self.sizes[-1]
        for decrypt, program in self.programs().items():
            name = "decrypt" if decrypt else "encrypt"
            facts[f"{name}_latency"] = program.latency(bits)
            facts[f"{name}_interval"] = program.interval(bits)
            facts[f"{name}_key_setup"] = program.key_setup(bits)
        return facts

    # --- hardware ---------------------------------------------------------------------------

    def _running(self, name: str) -> Value:
        return self.running(name) if name in self.codes() else Const(0, 1)

    def _dec(self) -> Value:
        if self.has_enc and self.has_dec:
            return self.decrypt
        return Const(int(self.has_dec), 1)

    def elaborate(self, platform: object) -> Module:
        # The Verilog text depends on the order signals are created and statements added: keep
        # this order (and the order inside the helpers) to keep the generated cores unchanged.
        m = Module()
        ctl = self._control(m)
        key = Signal(self.kbits, name="key", reset_less=True)
        rk_slice = self._round_key_slice(m, key)
        state = Signal(BLOCK_BITS, name="state", reset_less=True)
        key_len = self.key_len_reg(m)
        lane_out, boxed = self._sbox_lanes(m, ctl, state, rk_slice, key, key_len)
        self._state_register(m, ctl, state, lane_out)
        steps = self._key_updates(m, key, key_len, ctl.counter, boxed)
        if self.stored:
            self._stored_key_states(m, ctl, key, steps)
        self._key_register(m, ctl, key, steps)
        return m

    def _control(self, m: Module) -> _Control:
        """Which clock of the program this is: a pass clock, the pLayer/key clock, a run-up or
        rewind clock, and what the key update and the lanes do in it."""
        n = self.clocks
        dec = _named(m, self._dec(), "dec")
        crypt = _named(m, self.running(CRYPT), "crypting")
        key_clock = _named(m, crypt & (self.step == n), "key_clock")
        passing = _named(m, crypt & (self.step != n), "passing")
        runup, rewind = self._running(RUNUP), self._running(REWIND)
        forward = _named(m, key_clock & ~dec | runup, "key_forward")
        backward = _named(m, key_clock & dec | rewind, "key_backward")
        rnd = self.round[:5]
        # Encryption and the run-up: counter r + 1; decryption and the rewind: 31 - r.
        counter = _named(m, Mux(backward, ROUNDS - rnd, rnd + 1)[:5], "counter")
        # The final addRoundKey (encryption's last round, decryption's first): S-boxes bypassed.
        bypass = _named(m, Mux(dec, self.round == 0, self.last_round), "bypass")
        return _Control(dec=dec, key_clock=key_clock, passing=passing, runup=runup,
                        forward=forward, backward=backward, counter=counter, bypass=bypass)

    def _round_key_slice(self, m: Module, key: Signal) -> Signal:
        """The W bits of the round key (the key register's top 64 bits) that this pass clock
        adds: the register stays still during a pass, so a multiplexer picks the slice."""
        n, w = self.clocks, self.width
        rk = key[self.kbits - ROUND_KEY_BITS:]
        rk_slice = Signal(w, name="rk_slice")
        with m.Switch(self.step):
            for s in range(n):
                with m.Case(s):
                    m.d.comb += rk_slice.eq(rk[w * s:w * (s + 1)])
        return rk_slice

    def _key_sbox_inputs(self, key: Signal, key_len: Value, backwards: bool) -> list[Value]:
        """The key nibbles for the update's S-boxes, per key size, as one list (a 128-bit key
        needs two, so a core with both sizes pads the 80-bit key's one nibble)."""
        per_size = {bits: Cat(*_key_nibbles(key[self.kbits - bits:], bits, backwards))
                    for bits in self.sizes}
        count = 2 if 128 in self.sizes else 1
        chosen = {bits: Cat(v, Const(0, 4 * count - len(v))) if len(v) < 4 * count else v
                  for bits, v in per_size.items()}
        joined = select_by_key_len(key_len, chosen, _key_select(self.sizes))
        return [joined[4 * i:4 * i + 4] for i in range(count)]

    def _sbox_lanes(self, m: Module, ctl: _Control, state: Signal, rk_slice: Signal,
                    key: Signal, key_len: Value) -> tuple[list[Value], dict[bool, list[Value]]]:
        """The S-box lanes of each direction the core has, and the key update's S-boxes: the
        lanes' outputs of a pass clock, and per direction (False forward, True backward) the
        boxed key nibbles. A direction the key walks but the data does not (the rewind after
        encryption, the run-up before decryption) gets key S-boxes of its own."""
        x = [state[4 * j:4 * j + 4] for j in range(self.lanes)]
        k = [rk_slice[4 * j:4 * j + 4] for j in range(self.lanes)]
        lane_out: list[Value] | None = None
        boxed: dict[bool, list[Value]] = {}
        if self.has_enc:
            lanes = _Lanes(m, SBOX, self.lanes, "enc")
            boxed[False] = lanes.drive([a ^ b for a, b in zip(x, k)],
                                       self._key_sbox_inputs(key, key_len, False), ~ctl.passing)
            lane_out = [Mux(ctl.bypass, a ^ b, o) for a, b, o in zip(x, k, lanes.outputs)]
        else:
            boxed[False] = [sbox_nibble(m, v, SBOX, f"keyfwd{i}")
                            for i, v in enumerate(self._key_sbox_inputs(key, key_len, False))]
        if self.has_dec:
            lanes = _Lanes(m, INVERSE_SBOX, self.lanes, "dec")
            boxed[True] = lanes.drive(x, self._key_sbox_inputs(key, key_len, True),
                                      ~ctl.passing)
            dec_out = [Mux(ctl.bypass, a, o) ^ b for a, b, o in zip(x, k, lanes.outputs)]
            lane_out = dec_out if lane_out is None else [Mux(ctl.dec, d, e) for e, d in
                                                         zip(lane_out, dec_out)]
        elif not self.stored:
            boxed[True] = [sbox_nibble(m, v, INVERSE_SBOX, f"keybwd{i}")
                           for i, v in enumerate(self._key_sbox_inputs(key, key_len, True))]
        assert lane_out is not None
        return lane_out, boxed

    def _state_register(self, m: Module, ctl: _Control, state: Signal,
                        lane_out: list[Value]) -> None:
        """The state: load, pass (shift right by W, the lanes' outputs at the top), pLayer."""
        if self.has_enc and self.has_dec:
            permuted = Mux(ctl.dec, permute(state, INVERSE_PERMUTATION),
                           permute(state, PERMUTATION))
        elif self.has_enc:
            permuted = permute(state, PERMUTATION)
        else:
            permuted = permute(state, INVERSE_PERMUTATION)
        with m.If(self.load_block):
            m.d.sync += state.eq(self.block_in)
        with m.Elif(ctl.passing):
            m.d.sync += state.eq(Cat(state[self.width:], *lane_out))
        with m.Elif(ctl.key_clock):
            m.d.sync += state.eq(permuted)
        m.d.comb += self.block_out.eq(state)

    def _key_updates(self, m: Module, key: Signal, key_len: Value, counter: Value,
                     boxed: dict[bool, list[Value]]) -> dict[bool, Value]:
        """The key register's next value one update on (False) and one undone (True), for the
        directions that have S-boxes; a shorter key sits at the register's top."""
        steps: dict[bool, Value] = {}
        for backwards in (False, True):
            if backwards not in boxed:
                continue
            per_size = {}
            for bits in self.sizes:
                register = key[self.kbits - bits:]
                count = 2 if bits == 128 else 1
                fn = _backward if backwards else _forward
                value = fn(register, counter, bits, boxed[backwards][:count])
                per_size[bits] = (Cat(Const(0, self.kbits - bits), value)
                                  if bits < self.kbits else value)
            steps[backwards] = _named(
                m, select_by_key_len(key_len, per_size, _key_select(self.sizes)),
                f"key_{'back' if backwards else 'fwd'}")
        return steps

    def _stored_key_states(self, m: Module, ctl: _Control, key: Signal,
                           steps: dict[bool, Value]) -> None:
        """keys=stored: the key and the run-up's end kept beside the register, which takes the
        one its direction starts from when a block starts."""
        start = Signal(self.kbits, name="key_start", reset_less=True)
        end = Signal(self.kbits, name="key_end", reset_less=True)
        if self.has_enc:
            with m.If(self.load_key):
                m.d.sync += start.eq(self.key)
        if self.has_dec:
            with m.If(ctl.runup & self.segment_end):
                m.d.sync += end.eq(steps[False])
        begin = end if not self.has_enc else (start if not self.has_dec
                                              else Mux(ctl.dec, end, start))
        with m.If(self.load_block):
            m.d.sync += key.eq(begin)
        if self.has_enc:
            with m.Elif(self.start_setup):
                # After an encryption the register holds the end state: start from the key.
                m.d.sync += key.eq(start)

    def _key_register(self, m: Module, ctl: _Control, key: Signal,
                      steps: dict[bool, Value]) -> None:
        """The key register: load, update, update undone. Added after keys=stored's reload,
        so in a clock where both assign the register these take priority."""
        with m.If(self.load_key):
            m.d.sync += key.eq(self.key)
        with m.Elif(ctl.forward):
            m.d.sync += key.eq(steps[False])
        if True in steps:
            with m.Elif(ctl.backward):
                m.d.sync += key.eq(steps[True])

    def key_len_reg(self, m: Module) -> Value:
        """The stored key's length (bytes), registered here at the key transfer (the
        controller's is private to it); a constant in a core for one key size."""
        if len(self.sizes) == 1:
            return Const(self.sizes[0] // 8, len(self.key_len))
        register = Signal(len(self.key_len), name="key_len_reg", reset_less=True)
        with m.If(self.load_key):
            m.d.sync += register.eq(self.key_len)
        return register


class PresentNarrowHardware(PresentHardware):
    """PRESENT with serialized datapaths (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"present has no {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        return PresentSerial(self, width, keys)


HARDWARE = PresentNarrowHardware
