"""One independent oracle per cipher, answering a batch of (key, block, decrypt) rows at once.

The hardware differential test (tests/test_differential.py) checks cores against these, not against
cipherbench's own models, so a model bug cannot hide a core bug of the same shape:

- AES, Camellia, SEED, TDEA: PyPI ``cryptography`` (TDEA and SEED under ``hazmat.decrepit``);
- DES, CAST-128: ``pycryptodome`` (its CAST applies the RFC 2144 12-round rule to short keys);
- MISTY1: Botan (Debian ``python3-botan``, installed for the system Python, so run in a subprocess);
- Serpent, Twofish, RC6, MARS: Crypto++ (Debian ``libcrypto++-dev``, tests/oracles/cryptopp.py).

``oracle_or_skip(cipher)`` returns (oracle name, answer function) or skips the test with the package
to install.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence

import pytest

Row = tuple[bytes, bytes, bool]  # key, block, decrypt
Answer = Callable[[Sequence[Row]], list[bytes]]

SYSTEM_PYTHON = "/usr/bin/python3"
_BOTAN_BATCH = r"""
import sys
import botan2
for line in sys.stdin:
    name, key, block = line.split()
    cipher = botan2.BlockCipher(name)
    cipher.set_key(bytes.fromhex(key))
    data = bytes.fromhex(block)
    print(cipher.encrypt(data).raw.hex(), cipher.decrypt(data).raw.hex())
"""
_BOTAN_TIMEOUT_S = 1200


def botan_batch(rows: Sequence[tuple[str, bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """(encryption, decryption) by Botan of each (cipher name, key, block); skips if Botan is missing."""
    if shutil.which(SYSTEM_PYTHON) is None:
        pytest.skip(f"{SYSTEM_PYTHON} is missing (Botan oracle: apt-get install -y python3-botan)")
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import botan2"], capture_output=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip("Botan's Python binding is missing (apt-get install -y python3-botan)")
    text = "".join(f"{name} {key.hex()} {block.hex()}\n" for name, key, block in rows)
    done = subprocess.run([SYSTEM_PYTHON, "-c", _BOTAN_BATCH], input=text, capture_output=True,
                          text=True, timeout=_BOTAN_TIMEOUT_S, check=True)
    pairs = [line.split() for line in done.stdout.splitlines()]
    assert len(pairs) == len(rows), done.stderr
    return [(bytes.fromhex(e), bytes.fromhex(d)) for e, d in pairs]


def _per_key(make: Callable[[bytes], object]) -> Answer:
    """An answer function from a factory of objects with encrypt/decrypt methods, one per key."""

    def answer(rows: Sequence[Row]) -> list[bytes]:
        out: list[bytes] = []
        current, instance = None, None
        for key, block, decrypt in rows:
            if key != current:
                current, instance = key, make(key)
            out.append(getattr(instance, "decrypt" if decrypt else "encrypt")(block))
        return out

    return answer


class _PycaEcb:
    """cryptography's ECB contexts behind encrypt/decrypt methods."""

    def __init__(self, algorithm: object) -> None:
        from cryptography.hazmat.primitives.ciphers import Cipher, modes

        self.cipher = Cipher(algorithm, modes.ECB())  # type: ignore[arg-type]

    def encrypt(self, block: bytes) -> bytes:
        return self.cipher.encryptor().update(block)

    def decrypt(self, block: bytes) -> bytes:
        return self.cipher.decryptor().update(block)


def _pyca(name: str, decrepit: bool, key_of: Callable[[bytes], bytes] = bytes) -> Answer:
    module = ("cryptography.hazmat.decrepit.ciphers.algorithms" if decrepit
              else "cryptography.hazmat.primitives.ciphers.algorithms")
    algorithms = pytest.importorskip(module, reason="cryptography is not installed")
    return _per_key(lambda key: _PycaEcb(getattr(algorithms, name)(key_of(key))))


def _three_keys(key: bytes) -> bytes:
    """A 2-key TDEA key K1 K2 as the 3-key K1 K2 K1 (cryptography deprecates 16-byte keys)."""
    return key + key[:8] if len(key) == 16 else key


def _pycryptodome(name: str) -> Answer:
    module = pytest.importorskip(f"Crypto.Cipher.{name}", reason="pycryptodome is not installed")
    return _per_key(lambda key: module.new(key, module.MODE_ECB))


def _cryptopp(name: str) -> Answer:
    from .cryptopp import cryptopp_or_skip

    oracle = cryptopp_or_skip()

    def answer(rows: Sequence[Row]) -> list[bytes]:
        out: list[bytes | None] = [None] * len(rows)
        for decrypt in (False, True):
            indices = [i for i, row in enumerate(rows) if row[2] == decrypt]
            pairs = [(rows[i][0], rows[i][1]) for i in indices]
            for i, result in zip(indices, oracle.run(name, "dec" if decrypt else "enc", pairs)):
                out[i] = result
        return [o for o in out if o is not None]

    return answer


def _botan(name: str) -> Answer:
    def answer(rows: Sequence[Row]) -> list[bytes]:
        both = botan_batch([(name, key, block) for key, block, _ in rows])
        return [dec if decrypt else enc for (enc, dec), (_, _, decrypt) in zip(both, rows)]

    return answer


ORACLES: dict[str, tuple[str, Callable[[], Answer]]] = {
    "aes": ("cryptography AES", lambda: _pyca("AES", False)),
    "camellia": ("cryptography Camellia", lambda: _pyca("Camellia", True)),
    "seed": ("cryptography SEED", lambda: _pyca("SEED", True)),
    "tdea": ("cryptography TripleDES", lambda: _pyca("TripleDES", True, _three_keys)),
    "des": ("pycryptodome DES", lambda: _pycryptodome("DES")),
    "cast128": ("pycryptodome CAST", lambda: _pycryptodome("CAST")),
    "misty1": ("Botan MISTY1", lambda: _botan("MISTY1")),
    "serpent": ("Crypto++ Serpent", lambda: _cryptopp("serpent")),
    "twofish": ("Crypto++ Twofish", lambda: _cryptopp("twofish")),
    "rc6": ("Crypto++ RC6", lambda: _cryptopp("rc6")),
    "mars": ("Crypto++ MARS", lambda: _cryptopp("mars")),
}


def oracle_or_skip(cipher: str) -> tuple[str, Answer]:
    """(name, answer function) of ``cipher``'s oracle; skips if its package is missing."""
    name, make = ORACLES[cipher]
    return name, make()
