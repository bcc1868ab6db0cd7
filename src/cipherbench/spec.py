"""Design specs: parse, validate, print; the list of valid designs.

Grammar (docs/spec.md)::

    design  := cipher [ "-" keybits ] "/" arch [ ":" param { "," param } ]
    engine  := cipher [ "-" keybits ] "-" mode "/" arch [ ":" param { "," param } ]
    param   := name "=" value

``aes-128/iterative`` is an AES core for 128-bit keys only; ``aes/iterative`` (no key size) is the
core for every key size of the cipher (AES "3-in-1"). Parameters are the architecture's, the
common ones (``ops``) and the cipher's (``sbox``); omitted ones take their defaults. An
``engine`` (``aes-128-gcm/iterative:ghash=serial16``) is a mode over the block core the rest of
the name gives, behind the NIST LWC hardware API; its parameters are the core's and the mode's
(kinds/engine.py parses it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from typing import ClassVar

from .arch.registry import ARCHITECTURES, COMMON_PARAMS, ArchInfo, offered
from .ciphers.registry import CipherInfo, Param, ciphers
from .errors import CipherbenchError

_SPEC_RE = re.compile(r"^(?P<cipher>[a-z0-9]+?)(?:-(?P<bits>[0-9]+))?/(?P<arch>[a-z0-9_-]+)"
                      r"(?::(?P<params>.*))?$")


@dataclass(frozen=True)
class DesignSpec:
    # The kind of design (kinds/): what writes, verifies and reproduces it.
    kind: ClassVar[str] = "generated"

    cipher: str
    key_sizes: tuple[int, ...]
    single_key_size: bool
    arch: str
    params: tuple[tuple[str, str], ...]  # every parameter, defaults filled in, sorted by name

    @property
    def param_dict(self) -> dict[str, str]:
        return dict(self.params)

    def canonical(self) -> str:
        """Full form with every parameter (for cache keys)."""
        return self._format(all_params=True)

    def __str__(self) -> str:
        """Short form: only parameters that differ from their defaults."""
        return self._format(all_params=False)

    def _format(self, all_params: bool) -> str:
        head = self.cipher + (f"-{self.key_sizes[0]}" if self.single_key_size else "")
        defaults = all_param_defs(cipher_info(self.cipher), arch_info(self.arch))
        shown = [(k, v) for k, v in self.params if all_params or defaults[k].default != v]
        tail = ":" + ",".join(f"{k}={v}" for k, v in shown) if shown else ""
        return f"{head}/{self.arch}{tail}"

    @property
    def argument(self) -> str:
        """What names this design on the command line (``cipherbench verify ARGUMENT``)."""
        return str(self)

    @property
    def decrypt_flags(self) -> list[bool]:
        """The directions the core implements, as the testbench's decrypt flag."""
        ops = self.param_dict.get("ops", "both")
        return {"encrypt": [False], "decrypt": [True]}.get(ops, [False, True])

    @property
    def slug(self) -> str:
        """A file-name-safe form."""
        return re.sub(r"[^a-z0-9]+", "_", str(self).lower()).strip("_")


def arch_of_name(design: str) -> str | None:
    """The architecture a design name (``aes-128/iterative:ops=encrypt``) names; None if the name
    is not of the spec grammar."""
    match = _SPEC_RE.match(design)
    return match["arch"] if match else None


def cipher_info(name: str) -> CipherInfo:
    known = ciphers()
    if name not in known:
        raise CipherbenchError(f"unknown cipher {name!r}; valid: {', '.join(known)} "
                               "(see `cipherbench list`)")
    return known[name]


def arch_info(name: str) -> ArchInfo:
    if name not in ARCHITECTURES:
        raise CipherbenchError(f"unknown architecture {name!r}; valid: {', '.join(ARCHITECTURES)} "
                               "(see `cipherbench list`)")
    return ARCHITECTURES[name]


def all_param_defs(cipher: CipherInfo, arch: ArchInfo) -> dict[str, Param]:
    """Every parameter of a cipher on an architecture, with the cipher's restrictions applied."""
    defs = {**COMMON_PARAMS, **arch.params, **cipher.params}
    # "param" restricts it on every architecture; "arch:param" on that one only, after the
    # general restriction (a pipeline may need stored keys where the loop core takes any).
    general = [(n, a) for n, a in cipher.restricts.items() if ":" not in n]
    specific = [(n.split(":", 1)[1], a) for n, a in cipher.restricts.items()
                if n.split(":", 1)[0] == arch.name and ":" in n]
    for name, allowed in general + specific:
        if name in defs:
            p = defs[name]
            choices = tuple(c for c in p.choices if c in allowed)
            defs[name] = Param(choices, choices[0], f"{p.help} ({cipher.name}: "
                               f"{', '.join(choices)} only)")
    return defs


def parse(text: str) -> DesignSpec:
    """Parse and validate a design spec; errors name what is valid."""
    match = _SPEC_RE.match(text.strip().lower())
    if not match:
        raise CipherbenchError(f"malformed design spec {text!r}; expected CIPHER[-KEYBITS]/ARCH"
                               "[:NAME=VALUE,...], e.g. aes-128/iterative")
    cipher = cipher_info(match["cipher"])
    arch = arch_info(match["arch"])
    if not offered(cipher, arch):
        valid = [a for a in ARCHITECTURES.values() if offered(cipher, a)]
        raise CipherbenchError(f"{cipher.name} has no {arch.name} architecture; valid: "
                               f"{', '.join(a.name for a in valid)}")
    if match["bits"]:
        bits = _key_bits(match["bits"])
        if bits not in cipher.key_sizes:
            raise CipherbenchError(f"{cipher.name} has no {match['bits'][:12]}-bit key; valid: "
                                   f"{', '.join(map(str, cipher.key_sizes))}")
        key_sizes, single = (bits,), True
    else:
        key_sizes, single = cipher.key_sizes, len(cipher.key_sizes) == 1
    params = _parse_params(match["params"], all_param_defs(cipher, arch), text)
    if cipher.hardware is None:
        raise CipherbenchError(f"{cipher.name} has a reference model but no hardware yet")
    return DesignSpec(cipher.name, key_sizes, single, arch.name, params)


def _key_bits(digits: str) -> int | None:
    """The key size of ASCII ``digits``; None for numbers too long to be one (and for int()'s limit)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 9 else None


def _parse_params(text: str | None, defs: dict[str, Param], spec: str) -> tuple[tuple[str, str], ...]:
    values = {name: p.default for name, p in defs.items()}
    for item in filter(None, (text or "").split(",")):
        if "=" not in item:
            raise CipherbenchError(f"malformed parameter {item!r} in {spec!r}; expected NAME=VALUE")
        name, value = (part.strip() for part in item.split("=", 1))
        if name not in defs:
            raise CipherbenchError(f"unknown parameter {name!r} in {spec!r}; valid: "
                                   f"{', '.join(sorted(defs))}")
        if value not in defs[name].choices:
            raise CipherbenchError(f"invalid {name}={value!r} in {spec!r}; valid: "
                                   f"{', '.join(defs[name].choices)}")
        values[name] = value
    return tuple(sorted(values.items()))


def all_designs() -> list[DesignSpec]:
    """Every valid design: each cipher x key variant x architecture x parameter combination."""
    designs = []
    for cipher in ciphers().values():
        if cipher.hardware is None:
            continue
        variants = [str(k) for k in cipher.key_sizes]
        if len(cipher.key_sizes) > 1:
            variants.append("")
        for arch in ARCHITECTURES.values():
            if not offered(cipher, arch):
                continue
            defs = all_param_defs(cipher, arch)
            names = sorted(defs)
            for variant in variants:
                for combo in product(*(defs[n].choices for n in names)):
                    head = cipher.name + (f"-{variant}" if variant else "")
                    params = ",".join(f"{n}={v}" for n, v in zip(names, combo))
                    designs.append(parse(f"{head}/{arch.name}:{params}"))
    return designs
