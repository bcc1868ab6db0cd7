"""Verification of a message-level engine (the message family): what passes before any figure of it
is stored, as ``verify_design`` is for a block core, with the same report (sets passed/failed,
``verify/record.py`` keeps it).

The sets, each run through the message-level testbench (verify/message_sim.py):

- the mode's known-answer files (GCM: the NIST CAVP files of the cipher, 96-bit IVs, 128-bit
  tags; decryption files with their FAIL records, which must end in the FAILURE status), each
  message's expected output taken from the file, not from a model;
- random messages against the model: AD and message of 0 to 300 bytes (lengths that are not
  whole blocks included), encryptions and decryptions in turn, a new key every third message,
  long inputs cut into segments of four blocks, one decryption whose tag has a bit flipped
  (FAILURE expected); once more with every stream stalling at random (valid and ready dropped);
- random messages against each independent implementation of the mode (``random-vs-oracle``):
  their ciphertexts and tags from the library, decrypted back; a library that is not installed is
  a note, not a pass;
- a new key before every message;
- constant time: the same lengths twice with other keys, nonces and data take the same clocks per
  message.

A failing message is told in full: the operation, key, nonce, AD, input, the expected and the got
words. A synthesized netlist gets the same sets, smaller (``netlist=True``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import CipherbenchError
from ..message.lwc import Operation, Params, decrypt_operation, encrypt_operation
from .designs import ORACLE_SET, SetOutcome, VerifyReport, spread
from .message_sim import MessageRun, MessageSimulator, describe_failure
from .oracles import OracleUnavailable

if TYPE_CHECKING:
    from ..families.message import AeadModel

MAX_BYTES = 300
# (full run, netlist) sizes of each set
RANDOM = (200, 24)
STALLED = (60, 8)
ORACLE = (100, 12)
NEW_KEY = (48, 8)
CONSTANT_TIME = (24, 8)
KNOWN_ANSWER_PER_SET = (None, 16)
SEGMENT_BLOCKS = 4
SEED = 2026
TIMEOUT_CYCLES = 200_000


@dataclass(frozen=True)
class Message:
    """One message: ``op`` ``encrypt`` (``text`` the PT; ``out`` the CT, ``tag`` the tag expected)
    or ``decrypt`` (``text`` the CT, ``tag`` the tag given; ``out`` the PT, or None: FAILURE,
    ``released`` the plaintext the engine gives before its verdict)."""

    op: str
    key: bytes
    npub: bytes
    ad: bytes
    text: bytes
    tag: bytes
    out: bytes | None
    released: bytes | None = None

    def describe(self) -> str:
        given = "PT" if self.op == "encrypt" else "CT"
        tag = "" if self.op == "encrypt" else f", tag {self.tag.hex()}"
        want = ("FAIL" if self.out is None else self.out.hex() or "(empty)") + \
            (f" tag {self.tag.hex()}" if self.op == "encrypt" else "")
        return (f"{self.op} key {self.key.hex()}, nonce {self.npub.hex()}, AD "
                f"{self.ad.hex() or '(empty)'}, {given} {self.text.hex() or '(empty)'}{tag}; "
                f"expected {'CT' if self.op == 'encrypt' else 'PT'} {want}")


def operations(messages: Sequence[Message], params: Params) -> list[Operation]:
    """The LWC operations of ``messages``, the key loaded whenever it changes."""
    ops: list[Operation] = []
    current: bytes | None = None
    key_id = 0
    for msg_id, m in enumerate(messages, 1):
        load = m.key if m.key != current else None
        if load is not None:
            current, key_id = m.key, key_id + 1
        if m.op == "encrypt":
            assert m.out is not None
            ops.append(encrypt_operation(m.npub, m.ad, m.text, m.out, m.tag, key=load,
                                         params=params, msg_id=msg_id, key_id=key_id))
        else:
            ops.append(decrypt_operation(m.npub, m.ad, m.text, m.tag,
                                         m.out if m.out is not None else m.released,
                                         success=m.out is not None, key=load, params=params,
                                         msg_id=msg_id, key_id=key_id))
    return ops


def run_set(sim: MessageSimulator, name: str, messages: Sequence[Message], params: Params,
            stall_seed: int | None = None) -> tuple[SetOutcome, MessageRun]:
    """The set's outcome (messages passed and failed; the first failure in full)."""
    run = sim.run(operations(messages, params), stall_seed=stall_seed,
                  timeout_cycles=TIMEOUT_CYCLES)
    bad = run.failures()
    first = [f"{messages[bad[0].index].describe()}; {describe_failure(bad[0], len(bad))}"] \
        if bad else []
    return SetOutcome(f"{name} ({len(messages)})", len(messages) - len(bad), len(bad), first), run


def _encrypted(model: AeadModel, key: bytes, npub: bytes, ad: bytes, pt: bytes) -> Message:
    ct, tag = model.encrypt(key, npub, ad, pt)
    return Message("encrypt", key, npub, ad, pt, tag, ct)


def _decrypted(model: AeadModel, key: bytes, npub: bytes, ad: bytes, pt: bytes,
               flip: bool = False) -> Message:
    ct, tag = model.encrypt(key, npub, ad, pt)
    if flip:
        tag = bytes([tag[0] ^ 0x01]) + tag[1:]
        released = model.decrypt_unverified(key, npub, ct)  # type: ignore[attr-defined]
        return Message("decrypt", key, npub, ad, ct, tag, None, released)
    return Message("decrypt", key, npub, ad, ct, tag, pt)


def random_length(rng: random.Random) -> int:
    """0 one time in eight, a whole number of blocks one in eight, else any up to MAX_BYTES."""
    draw = rng.random()
    if draw < 0.125:
        return 0
    if draw < 0.25:
        return 16 * rng.randint(1, MAX_BYTES // 16)
    return rng.randint(1, MAX_BYTES)


def random_messages(model: AeadModel, count: int, seed: int, *, key_every: int = 3,
                    wrong_tag_at: int | None = None,
                    lengths: Sequence[tuple[int, int]] | None = None) -> list[Message]:
    """``count`` messages from the model, encryptions and decryptions in turn, a new key every
    ``key_every`` messages; message ``wrong_tag_at`` a decryption with a flipped tag bit."""
    rng = random.Random(seed)
    messages: list[Message] = []
    key = b""
    for i in range(count):
        if i % key_every == 0:
            key = rng.randbytes(model.key_bytes)
        ad_len, pt_len = lengths[i] if lengths else (random_length(rng), random_length(rng))
        npub, ad, pt = rng.randbytes(model.npub_bytes), rng.randbytes(ad_len), rng.randbytes(pt_len)
        if i == wrong_tag_at:
            messages.append(_decrypted(model, key, npub, ad, pt, flip=True))
        elif i % 2:
            messages.append(_decrypted(model, key, npub, ad, pt))
        else:
            messages.append(_encrypted(model, key, npub, ad, pt))
    return messages


def known_answer_messages(records: Sequence[Any], op: str, model: AeadModel) -> list[Message]:
    """The records of a known-answer file as messages, expected output from the file."""
    messages = []
    for r in records:
        ct, tag = r.split_ct(model.tag_bytes)
        if op == "encrypt":
            messages.append(Message("encrypt", r.key, r.nonce, r.ad, r.pt, tag, ct))
        else:
            released = None if r.pt is not None else \
                model.decrypt_unverified(r.key, r.nonce, ct)  # type: ignore[attr-defined]
            messages.append(Message("decrypt", r.key, r.nonce, r.ad, ct, tag, r.pt, released))
    return messages


def oracle_messages(mode: Any, oracle: str, cipher: str, model: AeadModel, count: int,
                    seed: int) -> list[Message]:
    """Random messages whose ciphertexts and tags come from ``oracle``; every other one is
    decrypted back."""
    rng = random.Random(f"{seed}-{oracle}")
    rows = [(rng.randbytes(model.key_bytes), rng.randbytes(model.npub_bytes),
             rng.randbytes(random_length(rng)), rng.randbytes(random_length(rng)))
            for _ in range(count)]
    sealed = mode.oracle_encrypt(oracle, cipher, rows)
    messages = []
    for i, ((key, npub, ad, pt), (ct, tag)) in enumerate(zip(rows, sealed)):
        if i % 2:
            messages.append(Message("decrypt", key, npub, ad, ct, tag, pt))
        else:
            messages.append(Message("encrypt", key, npub, ad, pt, tag, ct))
    return messages


def constant_time(sim: MessageSimulator, model: AeadModel, params: Params, count: int,
                  seed: int) -> SetOutcome:
    """The same lengths twice with other keys, nonces and data: each message's clocks must be the
    same both times."""
    rng = random.Random(seed)
    lengths = [(random_length(rng), random_length(rng)) for _ in range(count)]
    name = f"constant time ({count} message lengths, twice)"
    try:
        runs = [sim.run(operations(random_messages(model, count, seed + n, lengths=lengths),
                                   params), timeout_cycles=TIMEOUT_CYCLES).check() for n in (1, 2)]
    except CipherbenchError as exc:
        return SetOutcome(name, 0, count, [str(exc)])
    varies = [(a, b) for a, b in zip(runs[0].messages, runs[1].messages) if a.cycles != b.cycles]
    first = [f"message {a.index + 1} (AD {lengths[a.index][0]} bytes, text "
             f"{lengths[a.index][1]} bytes): {a.cycles} then {b.cycles} clocks"
             for a, b in varies[:1]]
    return SetOutcome(name, count - len(varies), len(varies), first)


def verify_engine(spec: Any, mode: Any, design_dir: Path, model: AeadModel, *,
                  netlist: bool = False, seed: int = SEED, trace: bool = False) -> VerifyReport:
    """Every set of the module docstring over the engine in ``design_dir`` (``trace``: the
    simulator built with tracing, which the power measurement's activity then reuses)."""
    from ..ciphers.registry import ciphers

    pick = int(netlist)
    sim = MessageSimulator(design_dir, trace=trace)
    sim.build()
    base = Params(w=sim.shape.w, sw=sim.shape.key_width, block_bytes=model.block_bytes)
    split = Params(w=sim.shape.w, sw=sim.shape.key_width, block_bytes=model.block_bytes,
                   max_blocks_per_segment=SEGMENT_BLOCKS)
    sets: list[SetOutcome] = []
    notes: list[str] = []
    for name, op, records in mode.known_answers(ciphers()[spec.cipher], spec.key_bits):
        chosen = spread(list(records), KNOWN_ANSWER_PER_SET[pick])
        label = name if len(chosen) == len(records) else f"{name}, {len(chosen)} spread"
        sets.append(run_set(sim, label, known_answer_messages(chosen, op, model), base)[0])
    count = RANDOM[pick]
    sets.append(run_set(sim, "random-vs-model", random_messages(
        model, count, seed, wrong_tag_at=count // 2 + 1), split)[0])
    sets.append(run_set(sim, "random-vs-model, streams stalled at random",
                        random_messages(model, STALLED[pick], seed + 1), split,
                        stall_seed=seed)[0])
    for oracle in mode.oracles(spec.cipher):
        try:
            messages = oracle_messages(mode, oracle, spec.cipher, model, ORACLE[pick], seed)
        except OracleUnavailable as exc:
            notes.append(f"{ORACLE_SET} {oracle}: {exc}")
            continue
        sets.append(run_set(sim, f"{ORACLE_SET} {oracle}", messages, base)[0])
    sets.append(run_set(sim, "new key before every message",
                        random_messages(model, NEW_KEY[pick], seed + 2, key_every=1), base)[0])
    sets.append(constant_time(sim, model, base, CONSTANT_TIME[pick], seed + 3))
    if not any(s.name.startswith(ORACLE_SET) for s in sets) and not netlist:
        raise CipherbenchError(f"{spec}: no independent implementation could be run ("
                               f"{'; '.join(notes)}); install one to verify the engine")
    return VerifyReport(str(spec), sets, notes)
