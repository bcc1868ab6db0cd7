"""Fischer (seed 004) regenerated: the finalists' basic parameters (Table 1), computed from the
project's cipher descriptions, and the fast, fair and minimum configurations (Tables 4-6) beside
our cores of the same data width on FPGA targets.

Fischer's configurations differ in the data width a round processes per clock (section 3.3):
fast = 128 bits (one round per clock), fair = 64, minimum = 16. Ours are the iterative core (or
one pipelined round unit) for 128 and the narrow datapath (``narrow:width=w``) for the others,
for encryption, decryption and both (``ops=``). AES with ``sbox=bram`` keeps its S-boxes in block
RAM as Fischer's Altera EABs did; it exists only as a pipelined round unit
(``pipelined:stages=1,inner=1``), whose register after SubBytes a synchronous block RAM needs.
The other S-box kinds are logic. Fischer's FLEX10K130E logic elements and our ECP5/iCE40 LUTs are
both 4-input LUTs (plus a flip-flop per LE on Altera), but devices and tools differ, so the
comparison is of cycles per block, block RAM use and the shape of the trade-off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...ciphers.registry import ciphers
from ...spec import DesignSpec
from ...store import Result
from ..names import shape_of
from .published import (
    FISCHER_CLOCK_PERIODS,
    FISCHER_DATA_WIDTH_BITS,
    FISCHER_TABLE_1,
    FischerConfig,
    fischer_configurations,
)
from ..tables import design_spec, MISSING, Table, cycle_count, figure, fmt, key_figure

TABLE1_CIPHERS = tuple(FISCHER_TABLE_1)  # Fischer's order: MARS, RC6, Rijndael, Serpent, Twofish
CONFIG_CIPHERS = ("aes", "serpent", "twofish")  # the three Tables 4-6 realize
CONFIGURATIONS = (("fast", "Table 4"), ("fair", "Table 5"), ("minimum", "Table 6"))
MODES = {"encrypt": "E", "decrypt": "D", "both": "B"}
KEY = "128"
PUBLISHED_SOURCE = "Fischer (FLEX10K130E)"
OURS_SOURCE = "cipherbench"

EXPLANATION = (
    "Table 1: each finalist's parameters computed from the project's reference models (the round "
    "keys a 128-bit key expands to, the S-box tables of encryption) beside Fischer's. Tables 4-6: "
    "Fischer's fast, fair and minimum configurations process 128, 64 and 16 data bits per clock; "
    "ours are the iterative core or one pipelined round unit (128) and the narrow datapath at 64 "
    "and 16 bits, for encryption (E), decryption (D) and both (B), with AES's S-boxes in block RAM "
    "(sbox=bram, Fischer's EABs; the round unit only) or in logic. Devices and tools differ: "
    "compare cycles per block, memory use and the trend."
)


# --- Table 1: parameters from the cipher descriptions --------------------------------------


@dataclass(frozen=True)
class Params:
    """Table 1's quantities for one cipher and a 128-bit key, computed."""

    cipher: str
    block_bits: int
    key_sizes: tuple[int, ...]
    rounds: str
    subkeys: int
    subkey_bits: int
    sboxes: int
    sbox_shape: str | None  # "256 x 8" (entries x output bits) when all tables have one shape
    sbox_bits: int | None  # bits of one table
    rom_bits: int | None  # None: no S-boxes (Fischer prints none)

    @property
    def ram_bits(self) -> int:
        return self.subkeys * self.subkey_bits


def _table_shape(table: Sequence[int]) -> tuple[int, int]:
    return len(table), max(1, max(table).bit_length())


def computed_params(cipher: str) -> Params:
    """Table 1 for ``cipher`` from its registry entry and the structure its folder computes from
    its reference model (CipherInfo.structure)."""
    info = ciphers()[cipher]
    if info.structure is None:
        raise ValueError(f"cipher {cipher} declares no structure (CipherInfo.structure)")
    found = info.structure()
    shapes = {_table_shape(t) for t in found.sboxes}
    shape = next(iter(shapes)) if len(shapes) == 1 else None
    return Params(
        cipher=cipher, block_bits=info.block_bits, key_sizes=info.key_sizes,
        rounds=found.rounds, subkeys=found.subkeys, subkey_bits=found.subkey_bits,
        sboxes=len(found.sboxes), sbox_shape=f"{shape[0]} x {shape[1]}" if shape else None,
        sbox_bits=shape[0] * shape[1] if shape else None,
        rom_bits=(sum(n * w for n, w in (_table_shape(t) for t in found.sboxes))
                  if found.sboxes else None),
    )


_TABLE1_ROWS: tuple[tuple[str, Callable[[Params], Any], Callable[[Any], Any]], ...] = (
    # (label, ours, Fischer's from a FischerParams)
    ("Block size (bits)", lambda p: p.block_bits, lambda f: 128),
    ("Key sizes (bits)", lambda p: "/".join(str(k) for k in p.key_sizes), lambda f: MISSING),
    ("Rounds", lambda p: p.rounds, lambda f: f.rounds),
    ("Operations", lambda p: None, lambda f: f.operations),
    ("Number of subkeys", lambda p: p.subkeys, lambda f: f.subkeys),
    ("Size of subkeys (bits)", lambda p: p.subkey_bits, lambda f: f.subkey_bits),
    ("RAM for subkeys (bits)", lambda p: p.ram_bits, lambda f: f.ram_bits),
    ("Number of S-boxes", lambda p: p.sboxes, lambda f: f.sboxes),
    ("S-box organisation", lambda p: p.sbox_shape, lambda f: f.sbox_shape),
    ("Size of one S-box (bits)", lambda p: p.sbox_bits, lambda f: f.sbox_bits),
    ("ROM for S-boxes (bits)", lambda p: p.rom_bits,
     lambda f: f"{fmt(f.rom_bits)}*" if f.rom_only_if_lookup else f.rom_bits),
)


def table1() -> Table:
    """Fischer Table 1, parameters down, per cipher our computed value then Fischer's."""
    computed = {c: computed_params(c) for c in TABLE1_CIPHERS}
    headers = ["Parameter"]
    for cipher in TABLE1_CIPHERS:
        headers += [f"{cipher} (computed)", f"{cipher} (Fischer)"]
    rows = []
    for label, ours, theirs in _TABLE1_ROWS:
        row = [label]
        for cipher in TABLE1_CIPHERS:
            row += [fmt(ours(computed[cipher])), fmt(theirs(FISCHER_TABLE_1[cipher]))]
        rows.append(row)
    table = Table("Fischer Table 1: basic parameters of the finalists (128-bit key)", headers,
                  rows, notes=[
                      ("Fischer: Table 1, section 2.7. Computed: block and key sizes from the "
                      "cipher registry; subkeys = the round-key units the reference model's key "
                      "schedule expands a 128-bit key to (Twofish: K0..K39 and S0, S1); S-boxes = "
                      "the distinct tables of encryption in the reference model (MARS: S0 and S1 "
                      "halves of S; Twofish: the 4-bit tables t0..t3 of q0 and q1)."),
                      "* Fischer: only if the S-boxes are realized as lookup tables.",
                      ("MARS rounds: Fischer prints 2+16+2; the cipher has 8 forward mixing, 16 "
                      "core and 8 backward mixing rounds."),
                  ])
    table.groups = [("", 1), *[(c, 2) for c in TABLE1_CIPHERS]]
    return table


# --- Tables 4-6: configurations ------------------------------------------------------------



def configuration_of(spec: DesignSpec) -> str | None:
    """"fast" | "fair" | "minimum" by the data width of the core, or None."""
    if spec.cipher not in CONFIG_CIPHERS or 128 not in spec.key_sizes:
        return None
    shape = shape_of(spec)
    # One round unit with a register after SubBytes (pipelined, stages=1, inner >= 1) is still a
    # 128-bit round per clock; it is the only form in which AES takes block-RAM S-boxes
    # (sbox=bram), as Fischer's fast configuration kept its S-boxes in EABs.
    if shape.single_round_unit:
        width = 128
    elif shape.compact:
        width = shape.datapath_bits or 0
    else:
        return None
    for configuration, bits in FISCHER_DATA_WIDTH_BITS.items():
        if bits == width:
            return configuration
    return None


@dataclass(frozen=True)
class OurRow:
    cipher: str
    configuration: str
    mode: str
    result: Result
    spec: DesignSpec


def our_rows(results: Sequence[Result]) -> list[OurRow]:
    """Our ok FPGA results of AES, Serpent and Twofish in one of Fischer's configurations."""
    rows = []
    for r in results:
        if not r.ok or r.target_kind != "fpga":
            continue
        spec = design_spec(r.design)
        configuration = configuration_of(spec) if spec else None
        if spec is None or configuration is None:
            continue
        rows.append(OurRow(spec.cipher, configuration, spec.param_dict.get("ops", "both"), r,
                           spec))
    return sorted(rows, key=lambda o: (CONFIG_CIPHERS.index(o.cipher), list(MODES).index(o.mode),
                                       o.result.target, o.result.design))


def _published_cells(c: FischerConfig) -> list[str]:
    periods = FISCHER_CLOCK_PERIODS.get((c.cipher, c.configuration))
    return [c.cipher, PUBLISHED_SOURCE + f" {c.table}", MISSING, MODES[c.mode],
            "EAB" if c.eab_sboxes else "logic", fmt(c.eab_subkeys), fmt(c.eab_sboxes),
            fmt(c.eab_total), f"{fmt(c.logic_elements)} LEs", fmt(periods),
            fmt(c.throughput_mbps)]


def _our_cells(o: OurRow) -> list[str]:
    r = o.result
    sbox = o.spec.param_dict.get("sbox")
    memory = "block RAM" if sbox == "bram" else (f"logic ({sbox})" if sbox else "logic")
    return [o.cipher, OURS_SOURCE, f"{r.design} @ {r.target}", MODES[o.mode], memory, MISSING,
            MISSING, fmt(figure(r, "brams")), f"{fmt(figure(r, 'luts'))} LUTs",
            _cycles(r), fmt(key_figure(r, KEY, "throughput_mbps"))]


def _cycles(r: Result) -> str:
    """II, and the latency where it differs (a pipelined round unit holds two blocks)."""
    ii = cycle_count(r, KEY, "initiation_interval")
    latency = cycle_count(r, KEY, "latency")
    return fmt(ii) if latency in (None, ii) else f"{fmt(ii)} (latency {fmt(latency)})"


def configuration_table(configuration: str, table_name: str,
                        results: Sequence[Result]) -> Table:
    """One of Tables 4-6: Fischer's E/D/B rows per cipher, then ours of the same data width."""
    ours = [o for o in our_rows(results) if o.configuration == configuration]
    rows: list[list[str]] = []
    for cipher in CONFIG_CIPHERS:
        rows += [_published_cells(c) for c in fischer_configurations(cipher, configuration)]
        rows += [_our_cells(o) for o in ours if o.cipher == cipher]
    width = FISCHER_DATA_WIDTH_BITS[configuration]
    return Table(f"Fischer {table_name}: {configuration} configurations ({width}-bit data width)",
                 ["cipher", "source", "our design @ target", "mode", "S-boxes in",
                  "EAB subkeys", "EAB S-boxes", "EAB / block RAMs total", "logic",
                  "clock periods per block", "throughput (Mbps)"], rows, notes=[
                     (f"Fischer: {table_name}, section 4 (E = encryption, D = decryption, B = "
                     "both); clock periods from sections 3.3-3.5 (not printed for Twofish fair "
                     "and minimum). FLEX10K130EQC240-1, MaxPlus2; EABs are 4-kbit memory blocks."),
                     ("Ours: placed and routed; block RAMs as placed (ECP5 DP16KD, 18 kbit; iCE40 "
                     "4 kbit); round keys on the fly or in registers, not in memory; cycles per "
                     "block = II measured in simulation; 128-bit keys. AES takes block-RAM "
                     "S-boxes only in a pipelined round unit (stages=1, inner=1): the narrow "
                     "datapaths keep combinational S-boxes."),
                 ])


def relevant(results: Sequence[Result]) -> bool:
    return bool(our_rows(results))


def tables(results: Sequence[Result]) -> list[Table]:
    return [table1(), *[configuration_table(c, t, results) for c, t in CONFIGURATIONS]]
