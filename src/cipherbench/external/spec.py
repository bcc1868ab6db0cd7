"""A described core as a design: it goes wherever a generated design goes (studies, jobs, the
cache, verification, every flow, the store), named ``CIPHER[-BITS]/external:NAME``.

Its canonical form, which cache keys hash, carries the digest of the description and of every
HDL file, so an edited core is a new design with new results; its short form is the name the
report shows. Its kind (kinds/described.py) is what the rest of cipherbench asks of it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from ..errors import CipherbenchError
from ..spec import DesignSpec
from .description import CoreDescription, load_description

ARCH = "external"
DESCRIPTION_SUFFIX = ".toml"


@dataclass(frozen=True)
class ExternalSpec(DesignSpec):
    kind: ClassVar[str] = "described"  # kinds/described.py

    core: str = ""          # the description's name
    description: str = ""   # the description file's absolute path
    digest: str = ""        # of the description and its HDL files

    def _format(self, all_params: bool) -> str:
        head = self.cipher + (f"-{self.key_sizes[0]}" if self.single_key_size else "")
        ops = self.param_dict.get("ops", "both")
        tail = f",ops={ops}" if all_params or ops != "both" else ""
        stamp = f"@{self.digest[:16]}" if all_params else ""
        return f"{head}/{ARCH}:{self.core}{tail}{stamp}"

    @property
    def argument(self) -> str:
        return self.description

    def load(self) -> CoreDescription:
        """The description again, checked to be the one this spec was made from."""
        found = load_description(self.description)
        if found.digest != self.digest:
            raise CipherbenchError(f"{self.description} or one of its HDL files changed since "
                                   f"this run began: start it again")
        return found


def external_spec(path: str | Path) -> ExternalSpec:
    """The design of the core described in ``path``."""
    d = load_description(path)
    return ExternalSpec(d.cipher, d.key_sizes, len(d.key_sizes) == 1, ARCH, (("ops", d.ops),),
                        core=d.name, description=str(d.path), digest=d.digest)
