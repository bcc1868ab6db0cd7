"""From KAT records to LWC operations and back: the plumbing of the message-level testbench and of
``cipherbench simulate DESIGN --op encrypt|decrypt``.

A message-level model is anything with ``encrypt(key, nonce, ad, pt) -> (ct, tag)``,
``decrypt(key, nonce, ad, ct, tag) -> pt | None`` and ``tag_bits`` (:class:`~.gcm.GcmModel` is one);
``decrypt_unverified(key, nonce, ct)``, when it has one, gives the plaintext an engine releases
before a failed verdict (otherwise the expected do holds don't-care data there).

* ``model_results(records, model, op)``: the KAT output the model gives (``op`` ``encrypt``: records
  with CT = ciphertext || tag; ``decrypt``: records with PT, or FAIL).
* ``kat_operations(records, model, op, params)``: the LWC operations (pdi, sdi and the expected do)
  of the records, a key loaded (LDKEY on sdi, ACTKEY on pdi) whenever it differs from the one before;
  written to pdi/sdi/do.txt by :func:`~.tvfiles.write_tv_files`, driven into an engine by the
  harness.
* ``do_results(records, outputs, op, tag_bits)``: the KAT output of an engine, from its do stream
  parsed into operations (:func:`~.lwc.parse_do`).
"""

from __future__ import annotations

from typing import Protocol, Sequence

from cipherbench.errors import CipherbenchError

from .kat import AeadRecord
from .lwc import Field, Operation, Params, Status, decrypt_operation, encrypt_operation, output_of

OPS = ("encrypt", "decrypt")


class AeadModel(Protocol):
    name: str
    tag_bits: int

    def encrypt(self, key: bytes, nonce: bytes, ad: bytes, pt: bytes) -> tuple[bytes, bytes]: ...

    def decrypt(self, key: bytes, nonce: bytes, ad: bytes, ct: bytes,
                tag: bytes) -> bytes | None: ...


def _check_op(op: str) -> None:
    if op not in OPS:
        raise CipherbenchError(f"--op must be encrypt or decrypt, got {op!r}")


def model_results(records: Sequence[AeadRecord], model: AeadModel, op: str) -> list[AeadRecord]:
    """What ``model`` writes for ``records``: encryption of their PT, or decryption of their CT."""
    _check_op(op)
    out = []
    for r in records:
        if op == "encrypt":
            if r.pt is None:
                raise CipherbenchError(f"KAT record Count = {r.count} has FAIL, no PT to encrypt")
            ct, tag = model.encrypt(r.key, r.nonce, r.ad, r.pt)
            out.append(AeadRecord(r.count, r.key, r.nonce, r.ad, r.pt, ct + tag))
        else:
            ct, tag = r.split_ct(model.tag_bits // 8)
            out.append(AeadRecord(r.count, r.key, r.nonce, r.ad,
                                  model.decrypt(r.key, r.nonce, r.ad, ct, tag), r.ct))
    return out


def kat_operations(records: Sequence[AeadRecord], model: AeadModel, op: str,
                   params: Params) -> list[Operation]:
    """The LWC operations of ``records`` with the do streams ``model`` expects."""
    _check_op(op)
    operations: list[Operation] = []
    current: bytes | None = None
    key_id = 0
    for msg_id, (r, result) in enumerate(zip(records, model_results(records, model, op)), 1):
        load = r.key if r.key != current else None
        if load is not None:
            current, key_id = r.key, key_id + 1
        tag_bytes = model.tag_bits // 8
        ct, tag = result.split_ct(tag_bytes)
        if op == "encrypt":
            operations.append(encrypt_operation(r.nonce, r.ad, r.pt or b"", ct, tag, key=load,
                                                params=params, msg_id=msg_id, key_id=key_id))
            continue
        pt = result.pt
        success = pt is not None
        if not success and hasattr(model, "decrypt_unverified"):
            pt = model.decrypt_unverified(r.key, r.nonce, ct)  # type: ignore[attr-defined]
        operations.append(decrypt_operation(r.nonce, r.ad, ct, tag, pt, success=success, key=load,
                                            params=params, msg_id=msg_id, key_id=key_id))
    return operations


def do_results(records: Sequence[AeadRecord], outputs: Sequence[Sequence[Field]], op: str,
               tag_bits: int) -> list[AeadRecord]:
    """The KAT output of an engine: its do operations (one per record, in order) read as CT || tag
    (encryption) or PT / FAIL (decryption); a wrong count or a failed encryption is an error."""
    _check_op(op)
    if len(outputs) != len(records):
        raise CipherbenchError(f"the engine gave {len(outputs)} outputs for {len(records)} records")
    out = []
    for r, operation in zip(records, outputs):
        data, status = output_of(operation)
        if op == "encrypt":
            if status != Status.SUCCESS:
                raise CipherbenchError(f"encryption of record Count = {r.count} ended with "
                                       f"{status.name}")
            if len(data) != len(r.pt or b"") + tag_bits // 8:
                raise CipherbenchError(f"encryption of record Count = {r.count} gave {len(data)} "
                                       f"bytes; expected {len(r.pt or b'')} + {tag_bits // 8}")
            out.append(AeadRecord(r.count, r.key, r.nonce, r.ad, r.pt, data))
        else:
            out.append(AeadRecord(r.count, r.key, r.nonce, r.ad,
                                  data if status == Status.SUCCESS else None, r.ct))
    return out
