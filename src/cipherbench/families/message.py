"""The message family: whole messages, behind the NIST LWC hardware API.

An authenticated-encryption (and, later, hash) engine of this family has the LWC API's ports
(``message/ports.py``: pdi/sdi/do streams with valid/ready and do_last, at w = 8, 16, 32 and the
widened 128) and protocol (instructions, segment headers, status: ``message/lwc.py``):

- testbench: ``verify/lwc_tb/tb_lwc.cpp``, driving pdi/sdi and checking every do word, the status
  and do_last, with random stalls on request (``verify/message_sim.py``);
- model: ``AeadModel`` below (``encrypt(key, npub, ad, pt) -> (ct, tag)``, ``decrypt``);
- measured: cycles per message, from the instruction taken to the status word taken, for the LWC
  benchmarking's message sizes (16, 64 and 1,536 bytes, and 4 and 5 blocks for long messages)
  with associated data only, message only and both, encryption and decryption; each case run
  twice with other random data, and a case whose cycles differ is refused (cycles depend on the
  lengths only);
- derived: the throughput of each case (its input bytes, AD and message, over its time) and the
  long-message throughput from the difference between 5 and 4 blocks (one block's bits over the
  cycles it adds), the convention the LWC hardware benchmarking used; time per message.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Protocol

from ..errors import CipherbenchError
from ..message.lwc import Params, decrypt_operation, encrypt_operation
from ..message.ports import LwcShape, LwcSignature
from ..metrics import checked_number, cycles_to_ns, gate_equivalents_of, kbps_per_ge
from ..verify.message_sim import TESTBENCH, MessageSimulator, testbench_source
from . import Figure

if TYPE_CHECKING:
    from ..spec import DesignSpec


class AeadModel(Protocol):
    """A bit-exact authenticated cipher at the message level; bytes in the standard's order."""

    name: str
    key_bytes: int
    npub_bytes: int
    tag_bytes: int
    block_bytes: int  # the rate: what one more block of a long message is

    def encrypt(self, key: bytes, npub: bytes, ad: bytes, pt: bytes) -> tuple[bytes, bytes]: ...

    def decrypt(self, key: bytes, npub: bytes, ad: bytes, ct: bytes,
                tag: bytes) -> bytes | None: ...


# The LWC benchmarking's message sizes in bytes (short messages); long messages are 4 and 5 of
# the algorithm's blocks.
SIZES = (16, 64, 1536)
LONG_BLOCKS = (4, 5)
# The steady state: the largest size and one block more. Four and five blocks fit inside a deep
# pipeline's latency (a 30-stage AES pipeline hashes five AD blocks while J0 goes through it),
# where their difference says nothing of a stream; past 1,536 bytes it does.
STREAM_BYTES = 1536
OPS = ("enc", "dec")
INPUTS = ("ad", "msg", "both")  # associated data only, message only, both of the size
# Where a manifest keeps the counts: per key size (in bits), per case.
BY_KEY_SIZE = "cycles_per_message"
# The clocks a new key adds to the message after it (GCM: H = E_K(0)).
KEY_SETUP = "key_setup"


@dataclass(frozen=True)
class Case:
    """One measured message: encryption or decryption, of ``ad`` and ``msg`` bytes."""

    op: str
    inputs: str
    size: int  # bytes of each input the case has
    long: bool = False  # a long-message case (named by its blocks)

    @property
    def name(self) -> str:
        return f"{self.op}_{self.inputs}_{self.size}"

    @property
    def ad_bytes(self) -> int:
        return self.size if self.inputs in ("ad", "both") else 0

    @property
    def msg_bytes(self) -> int:
        return self.size if self.inputs in ("msg", "both") else 0


def cases(block_bytes: int) -> list[Case]:
    """The measured messages of an algorithm with ``block_bytes`` blocks, short then long."""
    long = [blocks * block_bytes for blocks in LONG_BLOCKS] + \
        [STREAM_BYTES, STREAM_BYTES + block_bytes]
    # A size both lists have (64 bytes: 4 blocks of 16) is measured once and serves both.
    sizes = list(dict.fromkeys([*SIZES, *long]))
    return [Case(op, inputs, size, size in long) for op in OPS for inputs in INPUTS
            for size in sizes]


# The messages before the cases: three empty encryptions, the first and the third loading a key
# (the key setup is what the third takes beyond the second, status to status; no case includes
# it).
KEY_MESSAGES = 3


def _operations(model: AeadModel, params: Params, seed: int) -> list:
    """Three empty encryptions, the first and the third loading a new key, then every case once
    under the last key, with random data of ``seed``."""
    rng = random.Random(seed)
    operations = []
    key = b""
    for msg_id in range(KEY_MESSAGES):
        load = rng.randbytes(model.key_bytes) if msg_id != 1 else None
        key = load or key
        npub = rng.randbytes(model.npub_bytes)
        operations.append(encrypt_operation(npub, b"", b"", b"",
                                            model.encrypt(key, npub, b"", b"")[1],
                                            key=load, params=params, msg_id=msg_id))
    for index, case in enumerate(cases(model.block_bytes), KEY_MESSAGES):
        npub = rng.randbytes(model.npub_bytes)
        ad, msg = rng.randbytes(case.ad_bytes), rng.randbytes(case.msg_bytes)
        ct, tag = model.encrypt(key, npub, ad, msg)
        if case.op == "enc":
            operations.append(encrypt_operation(npub, ad, msg, ct, tag, params=params,
                                                msg_id=index))
        else:
            operations.append(decrypt_operation(npub, ad, ct, tag, msg, params=params,
                                                msg_id=index))
    return operations


def _counts(simulator: MessageSimulator, model: AeadModel, params: Params,
            seed: int) -> dict[str, int]:
    run = simulator.run(_operations(model, params, seed), timeout_cycles=100_000,
                        isolate=True).check()
    counts = {case.name: result.cycles
              for case, result in zip(cases(model.block_bytes), run.messages[KEY_MESSAGES:])}
    first, same, new = (m.status_cycle for m in run.messages[:KEY_MESSAGES])
    counts[KEY_SETUP] = (new - same) - (same - first)
    return counts


class MessageFamily:
    """The message family (module docstring). Its one instance is ``MESSAGE``."""

    name = "message"
    title = ("whole messages behind the NIST LWC hardware API (pdi/sdi/do); cycles per message "
             "for the LWC benchmarking's message sizes")
    testbench = TESTBENCH
    model_protocol: type = AeadModel
    # None yet: the workload is written (``activity``: long encryptions back to back,
    # verify/activity.py's message_activity), but OpenSTA 2.0.17's report_power gives NaN on
    # two cells of a GCM engine's osu018 netlist (a NAND2X1 and the NOR2X1 driving it, no
    # combinational loop among the netlist's cells), so the job would fail; until that is
    # understood an engine gets no power figure.
    power_workloads: tuple[str, ...] = ()

    def activity(self, spec: DesignSpec, design_dir: Path, manifest: Mapping[str, Any],
                 sim_netlist: Path, work: Path, workload: str, model: AeadModel) -> Any:
        from ..verify.activity import message_activity

        return message_activity(design_dir, sim_netlist, work, model)

    @property
    def manifest_fields(self) -> tuple[str, ...]:
        return (BY_KEY_SIZE,)

    @property
    def figures(self) -> tuple[Figure, ...]:
        return FIGURES

    def signature(self, shape: LwcShape) -> LwcSignature:
        """The engine's ports at ``shape``'s widths (``LwcShape(w, sw)``)."""
        return LwcSignature(shape)

    def testbench_source(self) -> str:
        return testbench_source()

    def simulator(self, design_dir: Path, build_root: Path | None = None,
                  trace: bool = False) -> MessageSimulator:
        return MessageSimulator(design_dir, build_root)

    def measure_cycles(self, design_dir: Path, spec: DesignSpec | None, model: AeadModel,
                       build_root: Path | None = None) -> dict[str, dict[str, int | None]]:
        """Cycles per message of every case, keyed by the key size in bits; each case checked
        against ``model`` twice with other data, and refused if its cycles differ."""
        simulator = self.simulator(design_dir, build_root)
        params = Params(w=simulator.shape.w, sw=simulator.shape.key_width,
                        block_bytes=model.block_bytes)
        first = _counts(simulator, model, params, seed=2026)
        again = _counts(simulator, model, params, seed=2027)
        varies = [name for name in first if first[name] != again[name]]
        if varies:
            raise CipherbenchError(f"{design_dir.name}: cycles per message depend on the data, "
                                   f"not only the lengths ({varies[0]}: {first[varies[0]]} and "
                                   f"{again[varies[0]]}); not constant time")
        return {str(8 * model.key_bytes): dict(first)}

    def simulate_vectors(self, design_dir: Path, spec: DesignSpec, model: AeadModel, op: str,
                         vectors: Path) -> tuple[str, str]:
        """A NIST LWC KAT file in and out: encryption writes CT = ciphertext || tag per record,
        decryption PT, or FAIL where the engine's status is FAILURE. Records the engine cannot
        take (another key or nonce length) are refused in one line."""
        from ..message.aead import do_results, kat_operations
        from ..message.kat import aead_records, format_kat, read_kat
        from ..message.lwc import parse_do

        records = aead_records(read_kat(vectors), str(vectors))
        for r in records:
            for name, value, wanted in (("Key", r.key, model.key_bytes),
                                        ("Nonce", r.nonce, model.npub_bytes)):
                if len(value) != wanted:
                    raise CipherbenchError(
                        f"{vectors}: record Count = {r.count}: {name} has {len(value)} bytes; "
                        f"{spec} takes {8 * wanted}-bit {name.lower()}s only")
        sim = MessageSimulator(design_dir)
        params = Params(w=sim.shape.w, sw=sim.shape.key_width, block_bytes=model.block_bytes)
        run = sim.run(kat_operations(records, model, op, params), timeout_cycles=1_000_000)
        words = [word for message in run.messages for word, _last in message.got]
        outputs = do_results(records, parse_do(words, sim.shape.w), op, 8 * model.tag_bytes)
        differ = len(run.failures())
        note = f"; {differ} differ from the model" if differ else ""
        return (format_kat(outputs, decryption=op == "decrypt"),
                f"{len(records)} records {op}ed by {spec}{note}")

    def manifest_entries(self, measured: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        return {BY_KEY_SIZE: dict(measured)}

    def measured(self, manifest: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        try:
            return dict(manifest[BY_KEY_SIZE])
        except KeyError:
            raise CipherbenchError(f"manifest of {manifest.get('design', 'a design')} has no "
                                   f"measured cycles per message ({BY_KEY_SIZE}): generate it "
                                   "with measurement") from None

    def metrics(self, design: Mapping[str, Any], measured: Mapping[Any, Mapping[str, Any]],
                clock_mhz: float | None,
                flow_figures: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
        """Per key size: each case's throughput (Mbps) and time (ns), and the long-message
        throughput of each operation and input; ``design["block_bytes"]`` the rate."""
        block_bytes = int(design["block_bytes"])
        return {str(bits): _derived(counts, block_bytes, clock_mhz, flow_figures)
                for bits, counts in sorted(measured.items(), key=lambda item: int(item[0]))}


def _derived(counts: Mapping[str, Any], block_bytes: int, clock_mhz: float | None,
             flow_figures: Mapping[str, Any]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for case in cases(block_bytes):
        cycles = checked_number(counts.get(case.name), case.name, positive=True)
        known = cycles is not None and clock_mhz is not None
        bits = 8 * (case.ad_bytes + case.msg_bytes)
        out[f"throughput_mbps_{case.name}"] = bits * clock_mhz / cycles if known else None
        out[f"time_ns_{case.name}"] = cycles_to_ns(cycles, clock_mhz) if known else None
    power = checked_number(flow_figures.get("power_mw"), "power_mw", positive=False)
    power_clock = checked_number(flow_figures.get("power_clock_mhz"), "power_clock_mhz",
                                 positive=True) or clock_mhz
    setup = checked_number(counts.get(KEY_SETUP), KEY_SETUP, positive=False)
    out["key_setup_ns"] = cycles_to_ns(setup, clock_mhz) if setup is not None and clock_mhz \
        else None
    ge = gate_equivalents_of(flow_figures)
    for op in OPS:
        for inputs in INPUTS:
            stream = _long_throughput(counts, op, inputs, block_bytes, clock_mhz,
                                      (STREAM_BYTES, STREAM_BYTES + block_bytes))
            if (op, inputs) == ("enc", "msg"):
                # the power's workload is this one (long encryptions without AD), at its clock
                at_power = _long_throughput(counts, op, inputs, block_bytes, power_clock,
                                            (STREAM_BYTES, STREAM_BYTES + block_bytes))
                out["energy_per_bit_pj"] = (power * 1000.0 / at_power
                                            if power is not None and at_power else None)
            out[f"throughput_mbps_{op}_{inputs}_stream"] = stream
            out[f"kbps_per_ge_{op}_{inputs}_stream"] = (kbps_per_ge(stream, ge)
                                                        if stream is not None and ge else None)
            long = _long_throughput(counts, op, inputs, block_bytes, clock_mhz)
            out[f"throughput_mbps_{op}_{inputs}_long"] = long
            out[f"kbps_per_ge_{op}_{inputs}_long"] = (kbps_per_ge(long, ge)
                                                      if long is not None and ge else None)
    return out


def _long_throughput(counts: Mapping[str, Any], op: str, inputs: str, block_bytes: int,
                     clock_mhz: float | None,
                     sizes: tuple[int, int] | None = None) -> float | None:
    """One block's bits (of each input the case has) over the cycles a fifth block adds to four
    (``sizes``: other sizes in bytes, one block apart): what a long message gets, the
    per-message overhead taken out."""
    four, five = (counts.get(f"{op}_{inputs}_{size}") for size in
                  (sizes or tuple(blocks * block_bytes for blocks in LONG_BLOCKS)))
    if four is None or five is None or clock_mhz is None or five <= four:
        return None
    bits = 8 * block_bytes * (2 if inputs == "both" else 1)
    return bits * clock_mhz / (five - four)


def _figures() -> tuple[Figure, ...]:
    found = [Figure(BY_KEY_SIZE, "cycles",
                    "per key size and case (`enc`/`dec`, `ad`/`msg`/`both`, bytes of each): "
                    "from the edge the ENC/DEC instruction is taken on pdi to the edge the "
                    "status word is taken on do, the key loaded before, `do_ready` and the "
                    "inputs' valid held high, each message alone in the design (its first pdi "
                    "word offered once the status before it is taken)")]
    found += [Figure(KEY_SETUP, "cycles",
                     "in the same counts: the clocks an empty encryption that loads a new key "
                     "(ACTKEY and the key on sdi) adds to the time between two status words, "
                     "beyond an empty encryption under the loaded key; GCM: H = E_K(0)"),
              Figure("key_setup_ns", "ns", "`key_setup` / clock")]
    found += [Figure("throughput_mbps_CASE", "Mbps",
                     "the case's AD and message bits x clock / its cycles"),
              Figure("time_ns_CASE", "ns", "the case's cycles / clock"),
              Figure("throughput_mbps_OP_INPUTS_long", "Mbps",
                     "a block's bits (of each input) x clock / (cycles of 5 blocks - cycles of 4 "
                     "blocks): long messages"),
              Figure("kbps_per_ge_OP_INPUTS_long", "Kbps/GE",
                     "the long-message throughput / gate equivalents (ASIC)"),
              Figure("throughput_mbps_OP_INPUTS_stream", "Mbps",
                     "a block's bits (of each input) x clock / (cycles of 1,536 bytes and a "
                     "block - cycles of 1,536 bytes): the steady state, past any pipeline's "
                     "latency, which five blocks may not be"),
              Figure("kbps_per_ge_OP_INPUTS_stream", "Kbps/GE",
                     "the steady-state throughput / gate equivalents (ASIC)"),
              Figure("energy_per_bit_pj", "pJ/bit",
                     "power (long encryptions without AD back to back, ASIC) / their "
                     "steady-state throughput, both at the power's clock")]
    return tuple(found)


FIGURES = _figures()
MESSAGE = MessageFamily()
