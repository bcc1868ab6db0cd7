"""How shared values and fresh randomness are laid out in the ports of the masked gadgets.

Shares. A w-bit value x held as d + 1 shares (protection order d) is one port of (d + 1) w bits:
share k occupies bits [k w, (k + 1) w), share 0 at the least significant end, and x is the XOR
of the shares. Share 0 is the one that carries constants (the affine constants, the NOTs of
De Morgan's OR): adding a constant to one share adds it to the value.

Randomness. A DOM multiplier over w-bit values needs one fresh w-bit random value per pair of
domains i < j: d (d + 1) / 2 values, w d (d + 1) / 2 bits. A gadget that holds several
multipliers reads all their bits from one port ``r``; :class:`RandomLayout` says which bits
each multiplier takes. Within a multiplier the pairs come in the order (0, 1), (0, 2), ...,
(0, d), (1, 2), ..., (d - 1, d), pair p on bits [p w, (p + 1) w) of the multiplier's slice.
The gadgets are pipelined: every multiplier reads its slice in every clock cycle, for the value
its pipeline stage holds, so ``r`` must carry fresh bits in every cycle; the bits per cycle equal
the bits per evaluation when a new input enters every cycle.

An alias makes one multiplier read another's slice (``RandomLayout(aliases={"b": "a"})``): the
randomness-reuse flaw the leakage assessment must find. The port then carries fewer bits.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from amaranth.hdl import Cat, Value


def domain_pairs(shares: int) -> list[tuple[int, int]]:
    """The pairs of domains i < j in the order the random bits are laid out."""
    return [(i, j) for i in range(shares) for j in range(i + 1, shares)]


def random_bits_per_product(width: int, shares: int) -> int:
    """Fresh bits one DOM-indep multiplication of w-bit values consumes: w d (d + 1) / 2."""
    return width * len(domain_pairs(shares))


def split_shares(port: Value, width: int, shares: int) -> list[Value]:
    """The shares of a port laid out as above (share 0 first)."""
    if len(port) != width * shares:
        raise ValueError(f"a {shares}-share {width}-bit port has {width * shares} bits, "
                         f"not {len(port)}")
    return [port[k * width:(k + 1) * width] for k in range(shares)]


def join_shares(parts: Sequence[Value]) -> Value:
    return Cat(*parts)


# ---- Python helpers (testbenches, models) -------------------------------------------------------


def share(value: int, width: int, shares: int, rng: random.Random) -> int:
    """A uniformly random sharing of ``value`` packed as a port value: shares 1..d random,
    share 0 the value XOR the others."""
    mask = (1 << width) - 1
    others = [rng.getrandbits(width) for _ in range(shares - 1)]
    first = value & mask
    for o in others:
        first ^= o
    return pack_shares([first, *others], width)


def pack_shares(parts: Sequence[int], width: int) -> int:
    return sum((p & ((1 << width) - 1)) << (k * width) for k, p in enumerate(parts))


def unpack_shares(port_value: int, width: int, shares: int) -> list[int]:
    mask = (1 << width) - 1
    return [(port_value >> (k * width)) & mask for k in range(shares)]


def unshare(port_value: int, width: int, shares: int) -> int:
    """The value a packed sharing holds: the XOR of its shares."""
    value = 0
    for part in unpack_shares(port_value, width, shares):
        value ^= part
    return value


class RandomLayout:
    """Where each multiplier of a gadget finds its fresh bits in the gadget's ``r`` port.

    ``multipliers``: (name, width) in port order; each takes ``width x pairs`` bits. ``aliases``
    maps a multiplier to another whose bits it reads instead of its own (a deliberate flaw)."""

    def __init__(self, shares: int, multipliers: Sequence[tuple[str, int]],
                 aliases: Mapping[str, str] | None = None) -> None:
        self.shares = shares
        self.widths = dict(multipliers)
        self.aliases = dict(aliases or {})
        unknown = [n for n in (*self.aliases, *self.aliases.values()) if n not in self.widths]
        if unknown:
            raise ValueError(f"alias names an unknown multiplier: {unknown[0]!r}")
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, width in multipliers:
            if name in self.aliases:
                continue
            self.offsets[name] = offset
            offset += random_bits_per_product(width, shares)
        self.width = offset
        for name, target in self.aliases.items():
            if self.widths[name] != self.widths[target] or target in self.aliases:
                raise ValueError(f"{name!r} cannot read {target!r}'s random bits")
            self.offsets[name] = self.offsets[target]

    def indices(self, name: str) -> list[int]:
        """The port bits multiplier ``name`` reads, pair by pair."""
        start = self.offsets[name]
        return list(range(start, start + random_bits_per_product(self.widths[name], self.shares)))

    def slices(self) -> list[tuple[str, int, int]]:
        """(multiplier, first bit, bit count) per multiplier, in port order (aliases included)."""
        return sorted(((n, self.offsets[n], random_bits_per_product(w, self.shares))
                       for n, w in self.widths.items()), key=lambda s: (s[1], s[0]))
