"""Independent GCM implementations, to check :class:`~cipherbench.message.gcm.GcmModel` (and later the
engines) over the registry's ciphers.

=========== ======================================= ============================================
oracle      ciphers                                 what runs
=========== ======================================= ============================================
cryptography aes, sm4                               PyPI ``cryptography`` (OpenSSL) GCM
pycryptodome aes                                    ``Crypto.Cipher.AES`` MODE_GCM
botan       aes, aria, camellia, seed, serpent,     Botan's ``<cipher>/GCM(<tag bytes>)``, through
            sm4, twofish                            the system Python's ``botan2`` (Debian
                                                    ``python3-botan``), in one subprocess a batch
=========== ======================================= ============================================

No oracle is known here for GCM over clefia, gift, lea, mars or rc6 (pycryptodome's GCM is AES's
only; OpenSSL's has no Camellia or ARIA GCM through ``cryptography``): for them only the model's
own consistency can be checked, and :func:`gcm_oracles` says so in one line.

``gcm_encrypt(oracle, cipher, rows)`` takes rows ``(key, iv, ad, pt, tag_bytes)`` and gives
``(ct, tag)`` for each; a missing package raises :class:`~cipherbench.verify.oracles.OracleUnavailable`
naming what to install.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence

from cipherbench.errors import CipherbenchError
from cipherbench.verify.oracles import SYSTEM_PYTHON, OracleUnavailable

Row = tuple[bytes, bytes, bytes, bytes, int]  # key, iv, ad, pt, tag bytes

ORACLES: dict[str, tuple[str, ...]] = {
    "cryptography": ("aes", "sm4"),
    "pycryptodome": ("aes",),
    "botan": ("aes", "aria", "camellia", "seed", "serpent", "sm4", "twofish"),
}

_BOTAN_NAMES = {"aes": "AES-{bits}", "aria": "ARIA-{bits}", "camellia": "Camellia-{bits}",
                "seed": "SEED", "serpent": "Serpent", "sm4": "SM4", "twofish": "Twofish"}

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


def gcm_oracles(cipher: str) -> tuple[str, ...]:
    """The oracles that know GCM over ``cipher``; a one-line error when there is none."""
    names = tuple(name for name, known in ORACLES.items() if cipher in known)
    if not names:
        raise CipherbenchError(f"no independent GCM implementation known for {cipher} (oracles: "
                               "cryptography aes/sm4, pycryptodome aes, botan aes/aria/camellia/seed/"
                               "serpent/sm4/twofish); only the model's own consistency is checked")
    return names


def _cryptography(cipher: str, rows: Sequence[Row]) -> list[tuple[bytes, bytes]]:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    algorithm = {"aes": algorithms.AES, "sm4": algorithms.SM4}[cipher]
    out = []
    for key, iv, ad, pt, tag_bytes in rows:
        enc = Cipher(algorithm(key), modes.GCM(iv, min_tag_length=4)).encryptor()
        enc.authenticate_additional_data(ad)
        ct = enc.update(pt) + enc.finalize()
        out.append((ct, enc.tag[:tag_bytes]))
    return out


def _pycryptodome(cipher: str, rows: Sequence[Row]) -> list[tuple[bytes, bytes]]:
    try:
        from Crypto.Cipher import AES
    except ImportError:
        raise OracleUnavailable("pycryptodome is not installed (pip install pycryptodome)") from None
    out = []
    for key, iv, ad, pt, tag_bytes in rows:
        enc = AES.new(key, AES.MODE_GCM, nonce=iv, mac_len=tag_bytes)
        enc.update(ad)
        out.append(enc.encrypt_and_digest(pt))
    return out


def _botan(cipher: str, rows: Sequence[Row]) -> list[tuple[bytes, bytes]]:
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import botan2"], capture_output=True, text=True)
    if probe.returncode:
        raise OracleUnavailable("Botan's Python binding is missing (apt-get install -y python3-botan)")
    names = [_BOTAN_NAMES[cipher].format(bits=8 * len(key)) for key, *_ in rows]
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
    if oracle not in ORACLES:
        raise CipherbenchError(f"unknown GCM oracle {oracle!r}; known: {', '.join(ORACLES)}")
    if cipher not in ORACLES[oracle]:
        raise CipherbenchError(f"the {oracle} GCM oracle has no {cipher}; it has "
                               f"{', '.join(ORACLES[oracle])}")
    return _RUN[oracle](cipher, list(rows)) if rows else []
