"""``cipherbench measure``: a designer's core on every available target, beside the generated
cores of its cipher. Where the results store holds no generated core of that cipher yet, the
cipher's iterative core of the same key sizes and directions is measured with it, so the core
always has a generated one to stand beside."""

from __future__ import annotations

from typing import Sequence

from ..errors import CipherbenchError
from ..spec import DesignSpec, parse
from ..store import Result
from .spec import ExternalSpec


def reference_design(spec: ExternalSpec) -> DesignSpec | None:
    """The cipher's iterative core for the core's key sizes and directions; None if the cipher
    has none."""
    head = spec.cipher + (f"-{spec.key_sizes[0]}" if spec.single_key_size else "")
    ops = spec.param_dict.get("ops", "both")
    try:
        return parse(f"{head}/iterative" + (f":ops={ops}" if ops != "both" else ""))
    except CipherbenchError:
        return None


def has_generated(results: Sequence[Result], cipher: str) -> bool:
    from ..kinds.registry import ranks
    from ..report.names import design_cipher

    return any(r.ok and ranks(r.design, reference=True) and design_cipher(r.design) == cipher
               for r in results)


def measured_designs(spec: ExternalSpec, results: Sequence[Result]) -> tuple[DesignSpec, ...]:
    """The core, and its reference design where the store has no generated core to compare."""
    reference = None if has_generated(results, spec.cipher) else reference_design(spec)
    return (spec,) if reference is None else (spec, reference)
