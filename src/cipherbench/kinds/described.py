"""The described kind: a designer's own core (external/), read from its TOML description, wrapped
in a harness that presents the common interface, verified and measured like a generated one.

Its folder depends on the description and its HDL files (their digest is part of the spec's
canonical name) and on the code that reads, wraps and measures it: the external package, this
module and generate.py with what they import.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..digest import PACKAGE, hash_files, import_closure, module_files
from ..errors import CipherbenchError
from ..families.block import BLOCK
from ..external.spec import ARCH, DESCRIPTION_SUFFIX, ExternalSpec, external_spec

if TYPE_CHECKING:
    from ..families import InterfaceFamily
    from ..spec import DesignSpec
    from . import Progress

# A stored design name of a described core: ``aes-128/external:NAME``.
_NAME_RE = re.compile(rf"^[a-z0-9]+(?:-[0-9]+)?/{ARCH}:")


def _described(spec: DesignSpec) -> ExternalSpec:
    assert isinstance(spec, ExternalSpec), f"{spec} is not a described core"
    return spec


class DescribedKind:
    name = "described"
    reference = False
    # A core that fails stops the run with its first failing case before the store is opened,
    # and nothing of it is stored (docs/your-core.md).
    verified_before_run = True

    def names(self, design: str) -> bool:
        return bool(_NAME_RE.match(design))

    def takes(self, text: str) -> bool:
        return text.strip().lower().endswith(DESCRIPTION_SUFFIX)

    def spec(self, text: str) -> DesignSpec:
        return external_spec(text)

    def family(self, spec: DesignSpec) -> InterfaceFamily:
        return BLOCK  # every cipher core is a block design

    def model(self, spec: DesignSpec) -> Any:
        from ..ciphers.registry import ciphers

        return ciphers()[spec.cipher].model()

    def verify(self, spec: DesignSpec, design_dir: Path, *, netlist: bool = False,
               trace: bool = False) -> Any:
        from ..verify.record import verify_block_design

        return verify_block_design(spec, design_dir, netlist=netlist, trace=trace)

    def sources(self, spec: DesignSpec) -> tuple[Path, ...]:
        """The code that reads, wraps and measures a described core (its own files are in the
        spec's digest)."""
        return tuple(import_closure(module_files(__name__, f"{PACKAGE}.generate")))

    def digest(self, spec: DesignSpec) -> str:
        code = hash_files(list(self.sources(spec)))
        return hashlib.sha256(f"{_described(spec).digest}|{code}".encode()).hexdigest()[:20]

    def buildable(self, spec: DesignSpec, where: str) -> DesignSpec:
        """The description was checked when it was read; its ports are checked when written."""
        return spec

    def write(self, spec: DesignSpec, out_dir: Path, digest: str) -> dict[str, Any]:
        from ..external.design import write_external_design

        return write_external_design(_described(spec), out_dir, digest)

    def check_written(self, spec: DesignSpec, folder: Path, progress: Progress) -> None:
        """A designer's core is verified before its cycles are measured, so a wrong one is told
        its first failing cases (verify/record.py), not the measurement's mismatch."""
        from ..verify.record import ensure_verified

        ensure_verified(spec, folder, progress=progress, verify=self.verify)

    def provenance(self, manifest: dict[str, Any]) -> dict[str, Any]:
        # The description and files, hashed: what reproducing the result needs again.
        return {"external": manifest["external"]}

    def from_provenance(self, provenance: dict[str, Any]) -> DesignSpec:
        """The core read again from its description, which must still hash as it did."""
        described = provenance["external"]["description"]
        spec = external_spec(described)
        if spec.canonical() != provenance["design"]:
            raise CipherbenchError(f"{described} or its HDL files changed since the result was "
                                   f"stored ({provenance['design']}); restore them to reproduce "
                                   "it")
        return spec


DESCRIBED = DescribedKind()
