"""Independent GCM implementations, to check :class:`~cipherbench.message.gcm.GcmModel` (and the
engines) over the registry's ciphers. Which library knows GCM over a cipher, and under what name,
is the cipher's own declaration (``CipherInfo.gcm_oracles``); this module runs them:

- ``cryptography``: PyPI ``cryptography`` (OpenSSL) GCM over ``algorithms.<name>``;
- ``pycryptodome``: ``Crypto.Cipher.<name>`` in MODE_GCM;
- ``botan``: Botan's ``<name>/GCM(<tag bytes>)`` through the system Python's ``botan2`` (Debian
  ``python3-botan``), in one subprocess a batch.

A cipher that declares none gets a one-line error from :func:`gcm_oracles`: only the model's own
consistency can be checked for it.

``gcm_encrypt(oracle, cipher, rows)`` takes rows ``(key, iv, ad, pt, tag_bytes)`` and gives
``(ct, tag)`` for each; a missing package raises :class:`~cipherbench.verify.oracles.OracleUnavailable`
naming what to install.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence

from cipherbench.ciphers.registry import OracleRef
from cipherbench.errors import CipherbenchError
from cipherbench.verify.oracles import SYSTEM_PYTHON, OracleUnavailable

Row = tuple[bytes, bytes, bytes, bytes, int]  # key, iv, ad, pt, tag bytes

_BOTAN_BATCH = r"""
import json, sys
import botan2
out = []
for name, key, iv, ad, pt, tag_bytes in json.load(sys.stdin):
    c = botan2.SymmetricCipher(f"{name}/GCM({tag_bytes})", encrypt=True)
    c.set_key(bytes.fromhex(key))
    c.set_assoc_data(bytes.fromhex(ad))
    c.start(bytes.fromhex(iv))
    out.append(c.finish(bytes.fromhex(pt)).hex())
json.dump(out, sys.stdout)
"""


def declared(cipher: str) -> tuple[OracleRef, ...]:
    """The GCM oracles ``cipher``'s registry entry declares."""
    from cipherbench.ciphers.registry import ciphers

    return ciphers()[cipher].gcm_oracles


def gcm_oracles(cipher: str) -> tuple[str, ...]:
    """The libraries that know GCM over ``cipher``; a one-line error when there is none."""
    names = tuple(ref.library for ref in declared(cipher))
    if not names:
        raise CipherbenchError(f"no independent GCM implementation known for {cipher} (its "
                               "registry entry declares no gcm_oracles); only the model's own "
                               "consistency is checked")
    return names


def _cryptography(name: str, rows: Sequence[Row]) -> list[tuple[bytes, bytes]]:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    algorithm = getattr(algorithms, name)
    out = []
    for key, iv, ad, pt, tag_bytes in rows:
        enc = Cipher(algorithm(key), modes.GCM(iv, min_tag_length=4)).encryptor()
        enc.authenticate_additional_data(ad)
        ct = enc.update(pt) + enc.finalize()
        out.append((ct, enc.tag[:tag_bytes]))
    return out


def _pycryptodome(name: str, rows: Sequence[Row]) -> list[tuple[bytes, bytes]]:
    import importlib

    try:
        module = importlib.import_module(f"Crypto.Cipher.{name}")
    except ImportError:
        raise OracleUnavailable("pycryptodome is not installed (pip install pycryptodome)") from None
    out = []
    for key, iv, ad, pt, tag_bytes in rows:
        enc = module.new(key, module.MODE_GCM, nonce=iv, mac_len=tag_bytes)
        enc.update(ad)
        out.append(enc.encrypt_and_digest(pt))
    return out


def _botan(name: str, rows: Sequence[Row]) -> list[tuple[bytes, bytes]]:
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import botan2"], capture_output=True, text=True)
    if probe.returncode:
        raise OracleUnavailable("Botan's Python binding is missing (apt-get install -y python3-botan)")
    names = [name.format(bits=8 * len(key)) for key, *_ in rows]
    # Botan takes tags of 8 to 16 bytes; a shorter GCM tag is the full one's leftmost bytes
    payload = [[name, key.hex(), iv.hex(), ad.hex(), pt.hex(), 16]
               for name, (key, iv, ad, pt, tag_bytes) in zip(names, rows)]
    done = subprocess.run([SYSTEM_PYTHON, "-c", _BOTAN_BATCH], input=json.dumps(payload),
                          capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise CipherbenchError(f"Botan GCM oracle failed: {done.stderr.strip()[-300:]}")
    out = []
    for (key, iv, ad, pt, tag_bytes), sealed in zip(rows, json.loads(done.stdout)):
        raw = bytes.fromhex(sealed)
        out.append((raw[:len(pt)], raw[len(pt):len(pt) + tag_bytes]))
    return out


_RUN = {"cryptography": _cryptography, "pycryptodome": _pycryptodome, "botan": _botan}


def gcm_encrypt(oracle: str, cipher: str, rows: Sequence[Row]) -> list[tuple[bytes, bytes]]:
    """(ciphertext, tag) of every row by ``oracle``'s GCM over ``cipher``."""
    if oracle not in _RUN:
        raise CipherbenchError(f"unknown GCM oracle {oracle!r}; known: {', '.join(_RUN)}")
    refs = [ref for ref in declared(cipher) if ref.library == oracle]
    if not refs:
        raise CipherbenchError(f"{cipher} declares no {oracle} GCM oracle; it declares "
                               f"{', '.join(gcm_oracles(cipher))}")
    return _RUN[oracle](refs[0].name, list(rows)) if rows else []
