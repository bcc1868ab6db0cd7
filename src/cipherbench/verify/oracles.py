"""Independent oracles: another implementation of each cipher, answering batches of blocks.

Verification compares every core with the reference model (random blocks) and, where the oracle is
installed, with one of these (``random-vs-oracle``), so a model bug cannot hide a core bug of the
same shape. The models themselves are compared with the same oracles on >= 10,000 blocks each in
the model tests; tests/test_differential.py runs the cores against them on 100,000 blocks.

Each cipher names its oracle in its folder (``CipherInfo.oracle``, a registry.OracleRef); the
libraries it may name:

- ``cryptography`` / ``cryptography-decrepit``: PyPI ``cryptography`` (``hazmat.primitives`` or
  ``hazmat.decrepit``);
- ``pycryptodome``: ``Crypto.Cipher.<name>``;
- ``botan``: Botan (Debian ``python3-botan``, installed for the system Python: run in a subprocess);
- ``cryptopp``: Crypto++ (Debian ``libcrypto++-dev``), through ``cryptopp_oracle.cpp``, generated
  from the Crypto++ classes the ciphers declare and compiled once into the cache.

A cipher without an oracle (``oracle=None``) is checked against its model only, and verification
says so. A missing package is :class:`OracleUnavailable` (verification notes it and goes on); an
oracle that is installed and fails is an error.
"""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..ciphers.registry import OracleRef
from ..errors import CipherbenchError

Row = tuple[bytes, bytes, bool]  # key, block, decrypt
Answer = Callable[[Sequence[Row]], list[bytes]]

CRYPTOPP_SOURCE = Path(__file__).with_name("cryptopp_oracle.cpp")  # a template (cppbuild.render)
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
        """Each block of ``pairs`` encrypted (``"enc"``) or decrypted (``"dec"``) under its key.
        ``cipher``: a registered cipher (its first Crypto++ class) or a Crypto++ class name."""
        name = cryptopp_class(cipher)
        if direction not in ("enc", "dec"):
            raise ValueError(f"unknown direction {direction!r}")
        if not pairs:
            return []
        text = "".join(f"{key.hex()} {block.hex()}\n" for key, block in pairs)
        result = subprocess.run([str(self.binary), name, direction], input=text,
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


def cryptopp_class(cipher: str) -> str:
    """The Crypto++ class name for a registered cipher (its first declared class) or a class
    name itself; ValueError for anything else."""
    from ..ciphers.registry import ciphers
    from ..software.cppbuild import declared_classes

    info = ciphers().get(cipher)
    if info is not None and info.cryptopp:
        return info.cryptopp[0].name
    known = [c.name for c in declared_classes()]
    if cipher not in known:
        raise ValueError(f"no Crypto++ class for {cipher!r}; valid: {', '.join(known)}")
    return cipher


@lru_cache(maxsize=1)
def _cryptopp() -> CryptoppOracle | str:
    from ..software import cppbuild
    from ..software.common import SourceUnavailable

    try:
        return CryptoppOracle(cppbuild.build_generated(CRYPTOPP_SOURCE, "oracles",
                                                       "cryptopp_oracle"))
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


def _pyca_answer(name: str, decrepit: bool) -> Answer:
    try:
        if decrepit:
            from cryptography.hazmat.decrepit.ciphers import algorithms
        else:
            from cryptography.hazmat.primitives.ciphers import algorithms  # type: ignore[no-redef]
    except ImportError as why:
        raise OracleUnavailable(f"cryptography is not installed (pip install cryptography): "
                                f"{why}") from why
    return _per_key(lambda key: PycaEcb(getattr(algorithms, name)(key)))


def _pycryptodome_answer(name: str) -> Answer:
    import importlib

    try:
        module = importlib.import_module(f"Crypto.Cipher.{name}")
    except ImportError as why:
        raise OracleUnavailable("pycryptodome is not installed (pip install pycryptodome)") from why
    return _per_key(lambda key: module.new(key, module.MODE_ECB))


# library of an OracleRef -> (the name an oracle's title starts with, its answer function)
LIBRARIES: dict[str, tuple[str, Callable[[OracleRef], Answer]]] = {
    "cryptography": ("cryptography", lambda ref: _pyca_answer(ref.name, False)),
    "cryptography-decrepit": ("cryptography", lambda ref: _pyca_answer(ref.name, True)),
    "pycryptodome": ("pycryptodome", lambda ref: _pycryptodome_answer(ref.name)),
    "botan": ("Botan", lambda ref: _botan_answer(ref.name)),
    "cryptopp": ("Crypto++", lambda ref: _cryptopp_answer(ref.name)),
}


def _keyed(answer: Answer, key_of: Callable[[bytes], bytes] | None) -> Answer:
    """``answer`` with each row's key mapped as the library takes it."""
    if key_of is None:
        return answer
    return lambda rows: answer([(key_of(key), block, decrypt) for key, block, decrypt in rows])


def oracle_for(cipher: str) -> Oracle:
    """The oracle of ``cipher`` (its CipherInfo.oracle); OracleUnavailable if it has none or its
    package is missing."""
    from ..ciphers.registry import ciphers

    info = ciphers().get(cipher)
    ref = info.oracle if info is not None else None
    if ref is None:
        raise OracleUnavailable(f"no independent implementation of {cipher} is known")
    if ref.library not in LIBRARIES:
        raise CipherbenchError(f"{cipher}: unknown oracle library {ref.library!r}; valid: "
                               f"{', '.join(LIBRARIES)}")
    title, make = LIBRARIES[ref.library]
    return Oracle(f"{title} {ref.name}", _keyed(make(ref), ref.key))
