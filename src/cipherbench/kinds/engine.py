"""The engine kind: a message-level engine of a mode (message/modes.py: GCM) over a block core that
a generator builds, behind the NIST LWC hardware API (the message family).

A design argument of this kind reads ``CIPHER[-KEYBITS]-MODE/ARCH[:NAME=VALUE,...]``
(``aes-128-gcm/pipelined:inner=2,ghash=karatsuba,w=128``): the block core's spec with the mode
after the key size, one parameter list holding the core's parameters and the mode's. The core is
the generator's with ``ops=encrypt``. Its folder depends on the generator's code for the core (as
the generated kind's), the mode's and the LWC front end's code, and what they import.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .. import __version__
from ..digest import PACKAGE, design_sources, hash_files, import_closure, module_files
from ..errors import CipherbenchError
from ..families.message import MESSAGE
from ..message.gcm_mode import MODES

if TYPE_CHECKING:
    from ..families import InterfaceFamily
    from ..families.message import AeadModel
    from ..spec import DesignSpec as BlockSpec
    from . import Progress

_NAME_RE = re.compile(r"^(?P<cipher>[a-z0-9]+?)(?:-(?P<bits>[0-9]+))?-(?P<mode>[a-z][a-z0-9]*)"
                      r"/(?P<arch>[a-z0-9_-]+)(?::(?P<params>.*))?$")
# What the mode fixes on its core: GCM runs the cipher forward only.
CORE_FIXED = {"ops": "encrypt"}


@dataclass(frozen=True)
class EngineSpec:
    """An engine: ``mode`` over the block ``core``, with the mode's ``params`` (every one,
    defaults filled in, sorted by name)."""

    kind: ClassVar[str] = "engine"

    core: BlockSpec
    mode: str
    params: tuple[tuple[str, str], ...]
    core_defaults: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def cipher(self) -> str:
        return self.core.cipher

    @property
    def arch(self) -> str:
        return self.core.arch

    @property
    def key_sizes(self) -> tuple[int, ...]:
        return self.core.key_sizes

    @property
    def key_bits(self) -> int:
        return self.core.key_sizes[0]

    @property
    def param_dict(self) -> dict[str, str]:
        return {**self.core.param_dict, **dict(self.params)}

    @property
    def mode_params(self) -> dict[str, str]:
        return dict(self.params)

    def _format(self, all_params: bool) -> str:
        defaults = {**dict(self.core_defaults), **{n: p.default
                                                   for n, p in MODES[self.mode].params.items()}}
        shown = sorted((k, v) for k, v in [*self.core.params, *self.params]
                       if k not in CORE_FIXED and (all_params or defaults.get(k) != v))
        tail = ":" + ",".join(f"{k}={v}" for k, v in shown) if shown else ""
        return f"{self.cipher}-{self.key_bits}-{self.mode}/{self.arch}{tail}"

    def canonical(self) -> str:
        return self._format(all_params=True)

    def __str__(self) -> str:
        return self._format(all_params=False)

    @property
    def argument(self) -> str:
        return str(self)

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "_", str(self).lower()).strip("_")


def parse_engine(text: str) -> EngineSpec:
    """An engine's name, checked: every refusal is one line naming what is valid."""
    from ..spec import all_param_defs, arch_info, cipher_info, parse

    match = _NAME_RE.match(text.strip().lower())
    if not match:
        raise CipherbenchError(f"malformed engine spec {text!r}; expected CIPHER[-KEYBITS]-MODE/"
                               "ARCH[:NAME=VALUE,...], e.g. aes-128-gcm/iterative")
    if match["mode"] not in MODES:
        raise CipherbenchError(f"unknown mode {match['mode']!r} in {text!r}; valid: "
                               f"{', '.join(MODES)}")
    mode = MODES[match["mode"]]
    cipher = cipher_info(match["cipher"])
    refusal = mode.refusal(cipher)
    if refusal:
        raise CipherbenchError(refusal)
    if match["arch"] not in mode.architectures:
        raise CipherbenchError(f"{mode.name.upper()} engines are built over the "
                               f"{', '.join(mode.architectures)} architectures, not "
                               f"{match['arch']!r}")
    bits = match["bits"]
    if bits is None and len(cipher.key_sizes) > 1:
        named = ", ".join(f"{cipher.name}-{k}-{mode.name}" for k in cipher.key_sizes)
        raise CipherbenchError(f"an engine loads one key size: name it ({named})")
    bits = bits or str(cipher.key_sizes[0])
    arch = arch_info(match["arch"])
    core_defs = all_param_defs(cipher, arch)
    core_items, mode_values = [], {n: p.default for n, p in mode.params.items()}
    for item in filter(None, (match["params"] or "").split(",")):
        name, _, value = (part.strip() for part in item.partition("="))
        if name in CORE_FIXED:
            raise CipherbenchError(f"{name} is fixed to {CORE_FIXED[name]} in a "
                                   f"{mode.name.upper()} engine's core; remove it from {text!r}")
        if name in mode.params:
            if value not in mode.params[name].choices:
                raise CipherbenchError(f"invalid {name}={value!r} in {text!r}; valid: "
                                       f"{', '.join(mode.params[name].choices)}")
            mode_values[name] = value
        elif name in core_defs or "=" not in item:
            core_items.append(item)
        else:
            valid = sorted({*core_defs, *mode.params} - set(CORE_FIXED))
            raise CipherbenchError(f"unknown parameter {name!r} in {text!r}; valid: "
                                   f"{', '.join(valid)}")
    fixed = [f"{k}={v}" for k, v in CORE_FIXED.items()]
    core = parse(f"{cipher.name}-{bits}/{arch.name}:{','.join([*core_items, *fixed])}")
    if core.param_dict.get("keys") == "loaded":
        raise CipherbenchError(f"a {mode.name.upper()} engine gives its core the key on the "
                               "common interface: keys=loaded is not offered")
    return EngineSpec(core, mode.name, tuple(sorted(mode_values.items())),
                      tuple((n, p.default) for n, p in core_defs.items()))


def _engine(spec: Any) -> EngineSpec:
    assert isinstance(spec, EngineSpec), f"{spec} is not an engine"
    return spec


class EngineKind:
    name = "engine"
    # Engines are ranked among engines (the report's authenticated-encryption section), not in
    # the block cores' tables.
    reference = False
    # An engine that fails stops the run before the store is opened: nothing of it is stored.
    verified_before_run = True

    def names(self, design: str) -> bool:
        match = _NAME_RE.match(design)
        return bool(match) and match["mode"] in MODES

    def takes(self, text: str) -> bool:
        match = _NAME_RE.match(text.strip().lower())
        return bool(match)

    def spec(self, text: str) -> EngineSpec:
        return parse_engine(text)

    def family(self, spec: Any) -> InterfaceFamily:
        return MESSAGE

    def model(self, spec: Any) -> AeadModel:
        engine = _engine(spec)
        return MODES[engine.mode].model(engine.cipher, engine.key_bits)

    def sources(self, spec: Any) -> tuple[Path, ...]:
        engine = _engine(spec)
        common = import_closure(module_files(__name__, f"{PACKAGE}.generate",
                                             f"{PACKAGE}.message.gcm_engine"))
        return design_sources(tuple(common), engine.cipher, engine.arch)

    def digest(self, spec: Any) -> str:
        return hash_files(list(self.sources(spec)))

    def buildable(self, spec: Any, where: str) -> Any:
        engine = _engine(spec)
        try:
            MODES[engine.mode].design(engine.core, engine.mode_params)
        except CipherbenchError as exc:
            raise CipherbenchError(f"{where}: engine {str(spec)!r} cannot be built: {exc}; "
                                   "remove it or change its parameters") from exc
        return spec

    def write(self, spec: Any, out_dir: Path, digest: str) -> dict[str, Any]:
        from ..message.lwc_io import write_lwc_design

        engine = _engine(spec)
        mode = MODES[engine.mode]
        design = mode.design(engine.core, engine.mode_params)
        manifest = write_lwc_design(design, out_dir, name=f"cb_{engine.slug}")
        model = mode.model(engine.cipher, engine.key_bits)
        manifest.update({
            "design": str(engine), "canonical": engine.canonical(), "family": MESSAGE.name,
            "cipher": engine.cipher, "architecture": engine.arch, "mode": engine.mode,
            "core": engine.core.canonical(),
            "io_count": sum(int(p["width"]) for p in manifest["ports"]),
            "block_bits": 8 * model.block_bytes, "block_bytes": model.block_bytes,
            "key_sizes": [engine.key_bits], "npub_bytes": model.npub_bytes,
            "tag_bytes": model.tag_bytes, "parameters": engine.param_dict,
            "generator": {"version": __version__, "digest": digest},
        })
        (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        return manifest

    def check_written(self, spec: Any, folder: Path, progress: Progress) -> None:
        """Verified before its cycles are measured, so that a wrong engine is told its first
        failing message in full (verify/record.py)."""
        from ..verify.record import ensure_verified

        ensure_verified(spec, folder, progress=progress, verify=self.verify)

    def verify(self, spec: Any, design_dir: Path, *, netlist: bool = False,
               trace: bool = False) -> Any:
        from ..verify.message_verify import verify_engine

        engine = _engine(spec)
        return verify_engine(engine, MODES[engine.mode], design_dir, self.model(spec),
                             netlist=netlist, trace=trace)

    def provenance(self, manifest: dict[str, Any]) -> dict[str, Any]:
        return {}  # the canonical name says it all

    def from_provenance(self, provenance: dict[str, Any]) -> EngineSpec:
        return parse_engine(provenance["design"])


ENGINE = EngineKind()
