"""What a seed's or a design's name says: the project's cipher and the NSA architecture.

A seed paper's cipher name (``RIJNDAEL``, ``CAST-128``, ``Triple DES``, ``TWOFISH256``) is mapped
to the project's by the names each cipher's folder declares (``CipherInfo.aliases``); a design's
cipher is read from its spec (``spec.parse``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..arch.registry import ArchShape
    from ..spec import DesignSpec

@lru_cache(maxsize=None)
def _cipher_names() -> dict[str, str]:
    """Every name a cipher goes by, lower case -> the project's name: its own and the aliases its
    folder declares (CipherInfo.aliases)."""
    from ..ciphers.registry import ciphers

    names: dict[str, str] = {}
    for info in ciphers().values():
        for name in (info.name, *info.aliases):
            names[name.lower()] = info.name
    return names


def project_cipher(name: str) -> str:
    """A seed's cipher name (``RIJNDAEL``, ``CAST-128``, ``Triple DES``) -> the project's. A key
    size run into the name (NSA rows ``RIJNDAEL128``, ``TWOFISH256``) is dropped when it is one
    of the cipher's key sizes."""
    from ..ciphers.registry import ciphers

    names = _cipher_names()
    key = name.strip().lower()
    if key not in names:
        for size in sorted({s for info in ciphers().values() for s in info.key_sizes}):
            stem = key.removesuffix(str(size))
            if stem != key and stem in names and size in ciphers()[names[stem]].key_sizes:
                key = stem
                break
    if key not in names:
        raise KeyError(f"unknown seed cipher name {name!r}")
    return names[key]


# Architecture words of design specs that correspond to the NSA's iterative architecture.
_ITERATIVE_WORDS = ("iterative", "iterated", "loop")


def design_cipher(design: str) -> str | None:
    """The project cipher of a design spec (``aes-128/iterative`` -> ``aes``, by spec.parse), or
    of a seed's design name by its cipher part (``rijndael256/...``); None if unknown."""
    from ..errors import CipherbenchError
    from ..spec import parse

    try:
        return parse(design).cipher
    except CipherbenchError:
        pass
    name = design.split("/", 1)[0].lower().split("-", 1)[0]
    try:
        return project_cipher(name)
    except KeyError:
        return None


def is_aes(design: str) -> bool:
    """RIJNDAEL/AES designs."""
    return design_cipher(design) == "aes"


def architecture_of(design: str) -> str | None:
    """The NSA architecture a design corresponds to: its basic iterative core (one round per
    clock) or its full pipeline (one block per clock); None for anything else (unrolled, partial
    pipelines, narrow datapaths), which get no NSA columns. A design spec is read by
    spec.parse; a seed's own design name (``rijndael/iterated``) by its architecture word."""
    from ..errors import CipherbenchError
    from ..spec import parse

    try:
        spec = parse(design)
    except CipherbenchError:
        arch = design.split("/", 1)[1].lower() if "/" in design else ""
        name, _, params = arch.partition(":")
        if name.startswith(_ITERATIVE_WORDS):
            return "iterative"
        if name == "pipelined":
            return "pipelined" if "stages=" not in params or "stages=full" in params else None
        return None
    return shape_of(spec).nsa_architecture


def shape_of(spec: DesignSpec) -> ArchShape:
    """What a design's architecture is for comparisons (loop, full pipeline, compact, ...), as
    the architecture declarations classify it (``arch.registry.classify``)."""
    from ..arch.registry import classify

    return classify(spec.arch, spec.param_dict)
