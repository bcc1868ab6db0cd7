"""Kinds of design: the one interface through which cipherbench writes, digests, checks,
verifies, measures, gives provenance to and reproduces a design, whatever made it.

Three kinds exist: ``generated`` (kinds/generated.py: a cipher's hardware built by an architecture
generator), ``described`` (kinds/described.py: a designer's own core read from its TOML
description, external/) and ``engine`` (kinds/engine.py: a message-level engine of a mode, GCM,
over a generated block core, behind the LWC API). A design spec names its kind (``DesignSpec.kind``); everything else
asks the kind, never the spec's type or name (kinds/registry.py finds the kind of a stored design
name or of a design argument). A new kind of design is one more module here and one more entry
in the registry's list.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from ..families import InterfaceFamily
    from ..spec import DesignSpec

Progress = Callable[[str], None] | None


class DesignKind(Protocol):
    """What every kind of design answers. ``spec`` is a design of this kind."""

    name: str
    # Whether designs of this kind are what the others are ranked against (the report's
    # standing table, ``cipherbench measure``): the generated cores are; a designer's is not.
    reference: bool
    # Whether a run verifies designs of this kind before it opens its results store, so that
    # one that fails stops the run and nothing of it is stored (a designer's core); otherwise
    # each job verifies its design before its flow runs.
    verified_before_run: bool

    def names(self, design: str) -> bool:
        """Whether ``design``, a design name as a result stores it, is of this kind."""
        ...

    def takes(self, text: str) -> bool:
        """Whether a design argument (command line, study file) names a design of this kind."""
        ...

    def spec(self, text: str) -> DesignSpec:
        """The design a design argument of this kind names (it ``takes`` it)."""
        ...

    def family(self, spec: DesignSpec) -> InterfaceFamily:
        """The interface family the design has (families/): its ports, testbench, model and
        figures."""
        ...

    def model(self, spec: DesignSpec) -> Any:
        """The reference model the design is checked against: the family's model protocol (a
        block core: the cipher's ``CipherModel``; an engine: an ``AeadModel``)."""
        ...

    def verify(self, spec: DesignSpec, design_dir: Path, *, netlist: bool = False,
               trace: bool = False) -> Any:
        """Run the design's verification (a ``verify.designs.VerifyReport``): a run's whole
        procedure, or with ``netlist`` the smaller one a synthesized netlist gets (``trace``:
        the simulator records a VCD, for power)."""
        ...

    def sources(self, spec: DesignSpec) -> tuple[Path, ...]:
        """The files that decide the design's folder (its HDL and its cycle counts)."""
        ...

    def digest(self, spec: DesignSpec) -> str:
        """Hash of what decides the design's folder: part of every cache key of it."""
        ...

    def buildable(self, spec: DesignSpec, where: str) -> DesignSpec:
        """The design, refused in one line (naming ``where``) if it cannot be written."""
        ...

    def write(self, spec: DesignSpec, out_dir: Path, digest: str) -> dict[str, Any]:
        """Write the design's HDL and its manifest (no cycle counts yet); return the manifest."""
        ...

    def check_written(self, spec: DesignSpec, folder: Path, progress: Progress) -> None:
        """What must pass in a written folder before its cycles are measured."""
        ...

    def provenance(self, manifest: dict[str, Any]) -> dict[str, Any]:
        """What a result's provenance records of the design besides its name."""
        ...

    def from_provenance(self, provenance: dict[str, Any]) -> DesignSpec:
        """The design a stored result was measured on, to measure it again."""
        ...
