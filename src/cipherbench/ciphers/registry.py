"""The ciphers cipherbench knows: one package per cipher, found by discovery.

Each cipher package exports ``CIPHER``, a :class:`CipherInfo`: everything the rest of the project
needs to know about the cipher (its model, hardware, vectors, oracle, Monte Carlo test, software
names, component proofs, the names papers give it). Adding a cipher means adding its folder;
nothing else in the project changes.

Built-in ciphers are the packages under ``cipherbench/ciphers``. More come from the folders named
by ``$CIPHERBENCH_CIPHERS`` (separated like ``PATH``): every sub-folder of such a folder that is a
Python package exporting ``CIPHER`` is a cipher, imported under the module name
``cipherbench_ciphers_<folder name>`` (so its own relative imports work and subprocesses find it
again from the same variable). Its ``origin`` is the folder it came from (``built-in`` for the
project's own).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from ..arch.base import CipherHardware, CoreOptions
from ..errors import CipherbenchError
from .base import CipherModel

CIPHERS_ENV_VAR = "CIPHERBENCH_CIPHERS"
EXTERNAL_PREFIX = "cipherbench_ciphers_"
BUILT_IN = "built-in"


@dataclass(frozen=True)
class Param:
    """A design parameter: its valid values, default and meaning."""

    choices: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True)
class CryptoppClass:
    """A Crypto++ class implementing the cipher (the software baseline times it; the Crypto++
    oracle runs it). The harnesses are generated from these (software/cppbuild.py)."""

    name: str    # the class in namespace CryptoPP, e.g. "CAST128"
    header: str  # the header declaring it, e.g. "cast.h"
    title: str   # Crypto++'s own name for the algorithm, e.g. "CAST-128"


@dataclass(frozen=True)
class OracleRef:
    """The independent implementation verification compares the cores with (verify/oracles.py).

    ``library``: ``cryptography`` (``hazmat.primitives``), ``cryptography-decrepit``,
    ``pycryptodome`` (``Crypto.Cipher.<name>``), ``botan`` (the system Python's binding) or
    ``cryptopp`` (``name`` one of the cipher's ``CryptoppClass`` names). ``key`` maps the
    project's key to the one the library takes, if they differ.
    """

    library: str
    name: str
    key: Callable[[bytes], bytes] | None = None


@dataclass(frozen=True)
class CipherStructure:
    """What a parameter table counts (Fischer Table 1), computed from the cipher's reference model
    for a 128-bit key: nothing typed in."""

    rounds: str  # "20", or "8+16+8" for MARS's mixing and core rounds
    subkeys: int  # the round-key units a 128-bit key expands to
    subkey_bits: int  # the bits of one
    sboxes: tuple[tuple[int, ...], ...]  # the distinct S-box tables of encryption


@dataclass(frozen=True)
class CipherInfo:
    name: str
    title: str
    block_bits: int
    key_sizes: tuple[int, ...]
    model: Callable[[], CipherModel]
    hardware: Callable[[CoreOptions], CipherHardware] | None
    params: dict[str, Param] = field(default_factory=dict)
    # Named known-answer sets for the given key sizes: (name, cases) with cases as
    # cipherbench.verify.vectors.VectorCase. Typed-in sets come first; file sets follow when found.
    vector_sets: Callable[[tuple[int, ...]], Iterable[tuple[str, list[Any]]]] | None = None
    # Architecture or common parameters this cipher restricts, e.g. {"keys": ("stored",)} for a key
    # schedule that cannot run backward: only these values are valid, the first is the default.
    # A key "arch:param" restricts the parameter on that architecture only (applied after the
    # general one), e.g. {"pipelined:keys": ("stored",)}.
    restricts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The architectures this cipher's hardware description supports (empty: all of them).
    architectures: tuple[str, ...] = ()
    # A hardware description for one architecture where it differs from ``hardware``, e.g.
    # {"narrow": ...} for a subclass that adds narrow datapaths (ciphers/<c>/narrow.py).
    arch_hardware: dict[str, Callable[[CoreOptions], CipherHardware]] = field(default_factory=dict)
    # The independent implementation verification compares with; None: there is none, and
    # verification and the trust table say so.
    oracle: OracleRef | None = None
    # Independent implementations of GCM over this cipher (message/gcm_oracles.py): ``library``
    # cryptography (``hazmat`` ``algorithms.<name>``), pycryptodome (``Crypto.Cipher.<name>``) or
    # botan (the algorithm's name, ``{bits}`` standing for the key size); none: only the GCM
    # model's own consistency is checked.
    gcm_oracles: tuple[OracleRef, ...] = ()
    # Known-answer files of GCM over this cipher: the NIST CAVP response files (in PyPI's
    # cryptography-vectors) by name, ``{bits}`` standing for the key size, encryption files
    # (``gcmEncryptExtIV{bits}.rsp``) and decryption files with FAIL records
    # (``gcmDecrypt{bits}.rsp``); a GCM engine is verified against their 96-bit-IV, 128-bit-tag
    # records (verify/message_verify.py).
    gcm_known_answers: tuple[str, ...] = ()
    # The cipher's Monte Carlo test: monte_carlo(chain, key_sizes, directions, outer, reference)
    # yields verify.mct.MctOutcome per key size and direction (verify/mct.py: cipher_mct).
    monte_carlo: Callable[..., Iterable[Any]] | None = None
    # Other names for the cipher in papers and tables ("Rijndael", "Triple DES"), matched without
    # case by report/names.py's project_cipher.
    aliases: tuple[str, ...] = ()
    # Software baseline (software/): the key size timed (default: 128 bits if the cipher has it,
    # else its largest), OpenSSL's EVP name for ECB at that size, the Crypto++ classes.
    software_key_bits: int | None = None
    openssl: str | None = None
    cryptopp: tuple[CryptoppClass, ...] = ()
    # Component alternatives this cipher brings: characterizable components
    # (components.catalog.CatalogEntry) and their equivalence proofs (verify.equivalence.Pair).
    components: Callable[[], Iterable[Any]] | None = None
    proofs: Callable[[], Iterable[Any]] | None = None
    # Its rounds, round keys and S-box tables as a parameter table counts them
    # (report/fischer/section.py); None: not declared.
    structure: Callable[[], CipherStructure] | None = None
    # Set by discovery: the cipher's folder and where it came from (BUILT_IN or the folder of
    # $CIPHERBENCH_CIPHERS that holds it).
    folder: Path | None = field(default=None, compare=False)
    origin: str = field(default=BUILT_IN, compare=False)

    def hardware_for(self, arch: str) -> Callable[[CoreOptions], CipherHardware] | None:
        """The hardware description the architecture ``arch`` builds from."""
        return self.arch_hardware.get(arch, self.hardware)

    @property
    def bench_key_bits(self) -> int:
        """The key size the software baseline times."""
        if self.software_key_bits is not None:
            return self.software_key_bits
        return 128 if 128 in self.key_sizes else max(self.key_sizes)


def external_folders() -> list[Path]:
    """The folders named by $CIPHERBENCH_CIPHERS; one that is not a folder is an error."""
    folders = []
    for part in os.environ.get(CIPHERS_ENV_VAR, "").split(os.pathsep):
        if not part.strip():
            continue
        folder = Path(part.strip()).expanduser().resolve()
        if not folder.is_dir():
            raise CipherbenchError(f"{CIPHERS_ENV_VAR}: {part} is not a folder")
        folders.append(folder)
    return folders


def _import_external(package: Path) -> Any:
    """The cipher package in folder ``package`` (an ``__init__.py`` there), imported once."""
    name = EXTERNAL_PREFIX + package.name
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, package / "__init__.py",
                                                  submodule_search_locations=[str(package)])
    if spec is None or spec.loader is None:
        raise CipherbenchError(f"{package}: not a Python package")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _discovered() -> Iterable[tuple[Any, Path, str]]:
    """(module, folder, origin) of every candidate cipher package, built-in ones first."""
    package = importlib.import_module("cipherbench.ciphers")
    for module in pkgutil.iter_modules(package.__path__):
        if module.ispkg:
            yield (importlib.import_module(f"cipherbench.ciphers.{module.name}"),
                   Path(package.__path__[0]) / module.name, BUILT_IN)
    for root in external_folders():
        for child in sorted(root.iterdir()):
            if (child / "__init__.py").is_file():
                yield _import_external(child), child, str(root)


@lru_cache(maxsize=None)
def ciphers() -> dict[str, CipherInfo]:
    """Every cipher package that exports CIPHER: the built-in ones and those of
    $CIPHERBENCH_CIPHERS (see the module docstring), by name."""
    found: dict[str, CipherInfo] = {}
    for module, folder, origin in _discovered():
        info = getattr(module, "CIPHER", None)
        if not isinstance(info, CipherInfo):
            continue
        if info.name in found:
            raise CipherbenchError(f"cipher {info.name!r} of {folder} is also in "
                                   f"{found[info.name].folder}; cipher names must be unique")
        # Where it came from, set on the package's own CIPHER (so ``ciphers()[name] is CIPHER``).
        object.__setattr__(info, "folder", folder)
        object.__setattr__(info, "origin", origin)
        found[info.name] = info
    return dict(sorted(found.items()))

