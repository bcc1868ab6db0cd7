"""Rotations: by a constant (wiring) and by a data-dependent amount (a barrel rotator).

The barrel rotator has log2(n) stages of 2:1 multiplexers; stage k rotates by 2^k when bit k
of the amount is set. Every input takes the same path whatever the amount, so it runs in
constant time (RC6 and MARS rotate by data: an iterative shifter would leak the amount through
its cycle count). Stages compose additively mod n, so a width that is not a power of two
rotates by the amount mod n as well.

Right rotation reuses the left rotator: reversing the bit order turns a right rotation into a
left one (rotr(x, s) = rev(rotl(rev(x), s))); reversal is wiring, so a rotator for both
directions costs one multiplexer layer at each end instead of a second rotator or a negation
of the amount (RC6 and MARS need left only in encryption, right in decryption).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Elaboratable, Module, Mux, Signal, Value

DIRECTIONS = ("left", "right", "both")


def _check_direction(direction: str, valid: tuple[str, ...] = DIRECTIONS) -> None:
    if direction not in valid:
        raise ValueError(f"unknown rotation direction {direction!r}; valid: {', '.join(valid)}")


def rotl(x: int, n: int, width: int = 32) -> int:
    """An integer of ``width`` bits rotated left by ``n`` (mod ``width``): the reference models'
    rotation, beside the hardware's."""
    n %= width
    return ((x << n) | (x >> (width - n))) & ((1 << width) - 1)


def rotr(x: int, n: int, width: int = 32) -> int:
    """An integer of ``width`` bits rotated right by ``n`` (mod ``width``)."""
    return rotl(x, -n, width)


def rotate_fixed(value: Value, amount: int, direction: str = "left") -> Value:
    """value rotated by a constant amount: wiring, no logic."""
    _check_direction(direction, ("left", "right"))
    amount %= len(value)
    return value.rotate_left(amount) if direction == "left" else value.rotate_right(amount)


def amount_bits(width: int) -> int:
    """Width of the amount input: log2(width) rounded up (5 for 32-bit words)."""
    return max(1, (width - 1).bit_length())


def reverse_bits(value: Value) -> Value:
    return Cat(*[value[i] for i in reversed(range(len(value)))])


def barrel_rotate_left(m: Module, value: Value, amount: Value, prefix: str = "rot") -> Value:
    """value rotated left by ``amount`` (mod len(value)) through log2 stages of multiplexers."""
    current = value
    for k in range(len(amount)):
        stage = Signal(len(value), name=f"{prefix}_s{k}")
        m.d.comb += stage.eq(Mux(amount[k], current.rotate_left((1 << k) % len(value)), current))
        current = stage
    return current


def rotl(x: int, amount: int, width: int = 32) -> int:
    """Python reference: rotate left by amount mod width."""
    amount %= width
    mask = (1 << width) - 1
    return ((x << amount) | (x >> (width - amount))) & mask


def rotr(x: int, amount: int, width: int = 32) -> int:
    """Python reference: rotate right by amount mod width."""
    return rotl(x, -amount % width, width)


class FixedRotator(Elaboratable):
    """o = i rotated by a constant ``amount`` in ``direction`` ("left" or "right").

    Ports: ``i``, ``o`` (width). Pure wiring: characterizing it measures only the registers.
    """

    def __init__(self, width: int = 32, amount: int = 5, direction: str = "left") -> None:
        _check_direction(direction, ("left", "right"))
        self.width, self.amount, self.direction = width, amount, direction
        self.i = Signal(width)
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.o.eq(rotate_fixed(self.i, self.amount, self.direction))
        return m


class _VariableRotator(Elaboratable):
    """The ports every variable rotator has: ``i``, ``o`` (width), ``amount`` (amount_bits(width),
    e.g. 5 for 32), ``right`` (1; read only when direction="both": 1 rotates right).
    ``direction``: left, right or both."""

    def __init__(self, width: int = 32, direction: str = "left") -> None:
        _check_direction(direction)
        self.width, self.direction = width, direction
        self.i = Signal(width)
        self.amount = Signal(amount_bits(width))
        self.right = Signal()
        self.o = Signal(width)


class BarrelRotator(_VariableRotator):
    """o = i rotated by ``amount`` (mod width), combinational and constant-time: log2(width)
    stages of fixed rotations (ports: ``_VariableRotator``)."""

    def elaborate(self, platform: object) -> Module:
        m = Module()
        if self.direction == "left":
            m.d.comb += self.o.eq(barrel_rotate_left(m, self.i, self.amount))
        elif self.direction == "right":
            rotated = barrel_rotate_left(m, reverse_bits(self.i), self.amount)
            m.d.comb += self.o.eq(reverse_bits(rotated))
        else:
            # Reverse on the way in and out when rotating right (see the module docstring).
            into = Signal(self.width, name="rot_in")
            m.d.comb += into.eq(Mux(self.right, reverse_bits(self.i), self.i))
            rotated = barrel_rotate_left(m, into, self.amount)
            m.d.comb += self.o.eq(Mux(self.right, reverse_bits(rotated), rotated))
        return m


class BehavioralRotator(_VariableRotator):
    """The reference the barrel rotator is proven against (``cipherbench prove``), written from
    the definition with shifts: rotl(x, s) = bits [w, 2w) of (x:x) << s (ports:
    ``_VariableRotator``)."""

    def elaborate(self, platform: object) -> Module:
        m = Module()
        w = self.width
        doubled = Cat(self.i, self.i)
        amount = self.amount % w if w & (w - 1) else self.amount
        left = (doubled << amount)[w:2 * w]
        right = (doubled >> amount)[:w]
        if self.direction == "left":
            m.d.comb += self.o.eq(left)
        elif self.direction == "right":
            m.d.comb += self.o.eq(right)
        else:
            m.d.comb += self.o.eq(Mux(self.right, right, left))
        return m
