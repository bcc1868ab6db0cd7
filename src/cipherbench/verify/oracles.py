"""Independent oracles: another implementation of each cipher, answering batches of blocks.

Verification compares every core with the reference model (random blocks) and, where the oracle is
installed, with one of these (``random-vs-oracle``), so a model bug cannot hide a core bug of the
same shape. The models themselves are compared with the same oracles on >= 10,000 blocks each in
the model tests; tests/test_differential.py runs the cores against them on 100,000 blocks.

- AES, Camellia, SEED, TDEA: PyPI ``cryptography`` (Camellia, SEED, TDEA under ``hazmat.decrepit``);
- DES, CAST-128: ``pycryptodome`` (its CAST applies the RFC 2144 12-round rule to short keys);
- MISTY1: Botan (Debian ``python3-botan``, installed for the system Python: run in a subprocess);
- Serpent, Twofish, RC6, MARS: Crypto++ (Debian ``libcrypto++-dev``), through
  ``cryptopp_oracle.cpp``, compiled once into the cache.

A missing package is :class:`OracleUnavailable` (verification notes it and goes on); an oracle that
is installed and fails is an error.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import CipherbenchError

Row = tuple[bytes, bytes, bool]  # key, block, decrypt
Answer = Callable[[Sequence[Row]], list[bytes]]

CRYPTOPP_SOURCE = Path(__file__).with_name("cryptopp_oracle.cpp")
CRYPTOPP_CIPHERS = ("aes", "camellia", "cast128", "des", "des-ede2", "des-ede3", "mars", "rc6",
                    "seed", "serpent", "twofish")
SYSTEM_PYTHON = "/usr/bin/python3"
_RUN_TIMEOUT_S = 1200
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


class OracleUnavailable(Exception):
    """The oracle's package is not installed here; the message says what to install."""


@dataclass(frozen=True)
class Oracle:
    name: str
    answer: Answer


# --- Crypto++ ---------------------------------------------------------------------------------


class CryptoppOracle:
    """The built harness: one process per (cipher, direction) call, one line per block."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary

    def run(self, cipher: str, direction: str, pairs: Sequence[tuple[bytes, bytes]]) -> list[bytes]:
        """Each block of ``pairs`` encrypted (``"enc"``) or decrypted (``"dec"``) under its key."""
        if cipher not in CRYPTOPP_CIPHERS or direction not in ("enc", "dec"):
            raise ValueError(f"unknown cipher {cipher!r} or direction {direction!r}")
        if not pairs:
            return []
        text = "".join(f"{key.hex()} {block.hex()}\n" for key, block in pairs)
        result = subprocess.run([str(self.binary), cipher, direction], input=text,
                                capture_output=True, text=True, timeout=_RUN_TIMEOUT_S,
                                check=False)
        if result.returncode != 0:
            raise CipherbenchError(f"Crypto++ oracle failed: {result.stderr.strip()[:300]}")
        lines = result.stdout.split()
        if len(lines) != len(pairs):
            raise CipherbenchError(f"Crypto++ oracle answered {len(lines)} lines for "
                                   f"{len(pairs)} blocks")
        return [bytes.fromhex(line) for line in lines]

    def encrypt(self, cipher: str, pairs: Sequence[tuple[bytes, bytes]]) -> list[bytes]:
        return self.run(cipher, "enc", pairs)

    def decrypt(self, cipher: str, pairs: Sequence[tuple[bytes, bytes]]) -> list[bytes]:
        return self.run(cipher, "dec", pairs)


@lru_cache(maxsize=1)
def _cryptopp() -> CryptoppOracle | str:
    from ..software import cppbuild
    from ..software.common import SourceUnavailable

    try:
        return CryptoppOracle(cppbuild.build(CRYPTOPP_SOURCE, "oracles", "cryptopp_oracle"))
    except SourceUnavailable as why:
        return str(why)


def cryptopp_oracle() -> CryptoppOracle:
    """The harness, compiled now unless cached; OracleUnavailable without g++ or Crypto++ (a
    compile error of the source is a real failure and propagates)."""
    oracle = _cryptopp()
    if isinstance(oracle, str):
        raise OracleUnavailable(f"Crypto++ oracle unavailable: {oracle}")
    return oracle


def _cryptopp_answer(name: str) -> Answer:
    oracle = cryptopp_oracle()

    def answer(rows: Sequence[Row]) -> list[bytes]:
        out: dict[int, bytes] = {}
        for decrypt in (False, True):
            indices = [i for i, row in enumerate(rows) if row[2] == decrypt]
            pairs = [(rows[i][0], rows[i][1]) for i in indices]
            out.update(zip(indices, oracle.run(name, "dec" if decrypt else "enc", pairs)))
        return [out[i] for i in range(len(rows))]

    return answer


# --- Botan (system Python) -----------------------------------------------------------------------


def botan_batch(rows: Sequence[tuple[str, bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """(encryption, decryption) by Botan of each (cipher name, key, block)."""
    if shutil.which(SYSTEM_PYTHON) is None:
        raise OracleUnavailable(f"{SYSTEM_PYTHON} is missing (Botan oracle: apt-get install -y "
                                "python3-botan)")
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import botan2"], capture_output=True,
                           timeout=60, check=False)
    if probe.returncode != 0:
        raise OracleUnavailable("Botan's Python binding is missing (apt-get install -y "
                                "python3-botan)")
    text = "".join(f"{name} {key.hex()} {block.hex()}\n" for name, key, block in rows)
    done = subprocess.run([SYSTEM_PYTHON, "-c", _BOTAN_BATCH], input=text, capture_output=True,
                          text=True, timeout=_RUN_TIMEOUT_S, check=False)
    pairs = [line.split() for line in done.stdout.splitlines()]
    if done.returncode != 0 or len(pairs) != len(rows):
        raise CipherbenchError(f"Botan oracle failed: {done.stderr.strip()[-300:]}")
    return [(bytes.fromhex(e), bytes.fromhex(d)) for e, d in pairs]


def _botan_answer(name: str) -> Answer:
    def answer(rows: Sequence[Row]) -> list[bytes]:
        both = botan_batch([(name, key, block) for key, block, _ in rows])
        return [dec if decrypt else enc for (enc, dec), (_, _, decrypt) in zip(both, rows)]

    return answer


# --- Python packages ------------------------------------------------------------------------------


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


class PycaEcb:
    """cryptography's ECB contexts behind encrypt/decrypt methods."""

    def __init__(self, algorithm: object) -> None:
        from cryptography.hazmat.primitives.ciphers import Cipher, modes

        self.cipher = Cipher(algorithm, modes.ECB())  # type: ignore[arg-type]

    def encrypt(self, block: bytes) -> bytes:
        return self.cipher.encryptor().update(block)

    def decrypt(self, block: bytes) -> bytes:
        return self.cipher.decryptor().update(block)


def _pyca_answer(name: str, decrepit: bool, key_of: Callable[[bytes], bytes] = bytes) -> Answer:
    try:
        if decrepit:
            from cryptography.hazmat.decrepit.ciphers import algorithms
        else:
            from cryptography.hazmat.primitives.ciphers import algorithms  # type: ignore[no-redef]
    except ImportError as why:
        raise OracleUnavailable(f"cryptography is not installed (pip install cryptography): "
                                f"{why}") from why
    return _per_key(lambda key: PycaEcb(getattr(algorithms, name)(key_of(key))))


def _three_keys(key: bytes) -> bytes:
    """A 2-key TDEA key K1 K2 as the 3-key K1 K2 K1 (cryptography deprecates 16-byte keys)."""
    return key + key[:8] if len(key) == 16 else key


def _pycryptodome_answer(name: str) -> Answer:
    import importlib

    try:
        module = importlib.import_module(f"Crypto.Cipher.{name}")
    except ImportError as why:
        raise OracleUnavailable("pycryptodome is not installed (pip install pycryptodome)") from why
    return _per_key(lambda key: module.new(key, module.MODE_ECB))


ORACLES: dict[str, tuple[str, Callable[[], Answer]]] = {
    "aes": ("cryptography AES", lambda: _pyca_answer("AES", False)),
    "camellia": ("cryptography Camellia", lambda: _pyca_answer("Camellia", True)),
    "seed": ("cryptography SEED", lambda: _pyca_answer("SEED", True)),
    "tdea": ("cryptography TripleDES", lambda: _pyca_answer("TripleDES", True, _three_keys)),
    "des": ("pycryptodome DES", lambda: _pycryptodome_answer("DES")),
    "cast128": ("pycryptodome CAST", lambda: _pycryptodome_answer("CAST")),
    "misty1": ("Botan MISTY1", lambda: _botan_answer("MISTY1")),
    "serpent": ("Crypto++ Serpent", lambda: _cryptopp_answer("serpent")),
    "twofish": ("Crypto++ Twofish", lambda: _cryptopp_answer("twofish")),
    "rc6": ("Crypto++ RC6", lambda: _cryptopp_answer("rc6")),
    "mars": ("Crypto++ MARS", lambda: _cryptopp_answer("mars")),
}


def oracle_for(cipher: str) -> Oracle:
    """The oracle of ``cipher``; OracleUnavailable if it has none or its package is missing."""
    if cipher not in ORACLES:
        raise OracleUnavailable(f"no independent implementation of {cipher} is known")
    name, make = ORACLES[cipher]
    return Oracle(name, make())
