"""What a cipher's hardware description gives the architecture generators.

A cipher describes one round of its datapath and one step of its key schedule, as combinational
Elaboratables; an architecture decides how many of them to instantiate and where the registers go.
Nothing here, nor in any generator, knows which cipher it is building.

Round keys are produced on the fly by a key schedule that is a register ("key state") updated by one
step per round, forward for encryption and backward for decryption (AES, Serpent, DES, Camellia...
have invertible schedules). Round r (1..R) of encryption uses the step from key state r-1 to r; round
r of decryption uses the backward step from key state R-r+1 to R-r. Whitening before round 1 uses the
round key of the starting key state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from amaranth.hdl import Elaboratable, Signal, Value


DIRECTIONS = ("both", "encrypt", "decrypt")


@dataclass(frozen=True)
class CoreOptions:
    """Cipher-level choices every architecture passes through to the cipher's description."""

    key_sizes: tuple[int, ...]
    directions: str = "both"
    extra: dict[str, str] = field(default_factory=dict)  # cipher-specific (e.g. sbox kind)

    @property
    def has_encrypt(self) -> bool:
        return self.directions in ("both", "encrypt")

    @property
    def has_decrypt(self) -> bool:
        return self.directions in ("both", "decrypt")


class RoundDatapath(Elaboratable):
    """One round, combinational. The architecture drives the inputs and registers ``state_out``.

    ``first``: the round input is the whitened ``block_in`` (whitening with ``rk_white``) instead of
    ``state_in``. ``last``: this is round R (ciphers drop or change steps there).
    """

    def __init__(self, block_bits: int, round_key_bits: int) -> None:
        self.block_in = Signal(block_bits)
        self.state_in = Signal(block_bits)
        self.first = Signal()
        self.last = Signal()
        self.decrypt = Signal()
        self.rk_white = Signal(round_key_bits)
        self.rk = Signal(round_key_bits)
        self.state_out = Signal(block_bits)


class KeyStep(Elaboratable):
    """Load and one step of the key schedule, combinational.

    ``loaded``: the key state for encryption, from the ``key`` port (left-aligned) and ``key_len``.
    ``state_out``: the key state after one step from ``state_in`` (``backward``: the step inverse),
    using step index ``step``. ``rk_in``/``rk_out``: round keys of ``state_in``/``state_out``.
    """

    def __init__(self, key_bits: int, key_len_bits: int, state_bits: int, round_key_bits: int,
                 step_bits: int) -> None:
        self.key = Signal(key_bits)
        self.key_len = Signal(key_len_bits)
        self.loaded = Signal(state_bits)
        self.state_in = Signal(state_bits)
        self.step = Signal(step_bits)
        self.backward = Signal()
        self.state_out = Signal(state_bits)
        self.rk_in = Signal(round_key_bits)
        self.rk_out = Signal(round_key_bits)


class CipherHardware(ABC):
    """A cipher's hardware description for a given set of core options."""

    name: str
    block_bits: int
    round_key_bits: int
    key_state_bits: int

    def __init__(self, options: CoreOptions) -> None:
        self.options = options

    @abstractmethod
    def rounds(self, key_bits: int) -> int:
        """Number of rounds R for a key size."""

    @abstractmethod
    def datapath(self) -> RoundDatapath:
        """A fresh round datapath instance."""

    @abstractmethod
    def key_step(self, key_len_bits: int, step_bits: int) -> KeyStep:
        """A fresh key-schedule step instance."""

    def key_len_code(self, key_bits: int) -> int:
        """The value of the ``key_len`` port for a key size: its length in bytes."""
        return key_bits // 8

    def describe(self) -> dict[str, object]:
        """Structural facts for the manifest (S-box kind, counts of components, ...)."""
        return {}


def bits_for(count: int) -> int:
    """Bits needed to count 0..count."""
    return max(1, count.bit_length())


def select_by_key_len(key_len: Value, options: dict[int, Value], code_of: dict[int, int]) -> Value:
    """A multiplexer on key_len over per-key-size values (the first size is the default)."""
    from amaranth.hdl import Mux

    sizes = sorted(options)
    result: Value = options[sizes[0]]
    for size in sizes[1:]:
        result = Mux(key_len == code_of[size], options[size], result)
    return result
