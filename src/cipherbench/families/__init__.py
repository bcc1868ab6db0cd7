"""Interface families: the contract between a design and everything that drives and measures it.

A family is what a design's ports mean and how it is exercised: its ports as an Amaranth signature,
the testbench that drives them and how the simulator is built for it, the reference model the
results are checked against, the figures measured in simulation (written into the manifest) and
the figures derived from them and a flow's clock and area. A design chooses its family; the code
that generates, verifies, measures and reports a design asks the family instead of assuming one.

``block`` (families/block.py, ``BLOCK``): one block in, one block out, under a loaded key; cycles
per block and key size; ``CipherModel.encrypt(key, block)``. Every cipher core is a block design.
``message`` (families/message.py, ``MESSAGE``): AEAD engines behind the NIST LWC hardware API
(pdi/sdi/do streams), measured per message; ``AeadModel.encrypt(key, npub, ad, pt)``. It sits
beside the block family as one more module and one more entry in ``registry.FAMILIES``, without
touching the block family's users.

This module declares the protocol and ``Figure`` only, so that the machinery a family runs
(verify/sim.py, verify/measure.py, metrics.py) may declare its figures with ``Figure`` while the
family (families/block.py) imports that machinery: the family is the top of its own graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Protocol, runtime_checkable


if TYPE_CHECKING:
    from amaranth.lib.wiring import Signature

    from ..spec import DesignSpec


@dataclass(frozen=True)
class Figure:
    """One figure a family reports: its name (the key in manifests and results), its unit, and
    what it means (docs/interface.md's tables are written from these)."""

    name: str
    unit: str
    meaning: str


@runtime_checkable  # isinstance() checks that a family has every member (tests/test_families.py)
class InterfaceFamily(Protocol):
    """What every interface family answers. Attributes are read-only."""

    @property
    def name(self) -> str:
        """The family's name, as ``family(name)`` finds it: "block"."""
        ...

    @property
    def title(self) -> str:
        """One line for the docs: what a design of this family does."""
        ...

    @property
    def testbench(self) -> str:
        """The testbench's source, as a path inside the package: "verify/tb/tb.cpp"."""
        ...

    @property
    def model_protocol(self) -> type:
        """The protocol of the reference model a design of this family is checked against."""
        ...

    @property
    def power_workloads(self) -> tuple[str, ...]:
        """The workloads a netlist's switching activity is simulated under for power
        (verify/activity.py); none: the family's designs get no power figure yet."""
        ...

    def activity(self, spec: DesignSpec, design_dir: Path, manifest: Mapping[str, Any],
                 sim_netlist: Path, work: Path, workload: str, model: Any) -> Any:
        """The switching activity (``verify.activity.Activity``) of the design's netlist
        ``sim_netlist`` under ``workload`` (one of ``power_workloads``)."""
        ...

    @property
    def manifest_fields(self) -> tuple[str, ...]:
        """The measured figures a manifest carries, in the order ``measure_cycles`` gives them."""
        ...

    @property
    def figures(self) -> tuple[Figure, ...]:
        """Everything the family reports: the measured ``manifest_fields`` first, then the
        figures ``metrics`` derives, each with its unit."""
        ...

    def signature(self, shape: Any) -> Signature:
        """The ports of a design of this ``shape`` (the family's own shape type), seen from the
        design."""
        ...

    def testbench_source(self) -> str:
        """The testbench's text: what a simulator build compiles and hashes."""
        ...

    def simulator(self, design_dir: Path, build_root: Path | None = None,
                  trace: bool = False) -> Any:
        """A simulator of the design in ``design_dir`` built around the family's testbench."""
        ...

    def measure_cycles(self, design_dir: Path, spec: DesignSpec, model: Any,
                       build_root: Path | None = None) -> dict[str, dict[str, int | None]]:
        """The ``manifest_fields`` measured in simulation, checked against ``model``, per
        measured case (the block family: per key size, keyed by its decimal string);
        ``build_root``: where simulators are built (default: the user's cache)."""
        ...

    def simulate_vectors(self, design_dir: Path, spec: DesignSpec, model: Any, op: str,
                         vectors: Path) -> tuple[str, str]:
        """``cipherbench simulate``: the vector file ``vectors`` (the family's format: a block
        design's ``KEYHEX DATAHEX`` lines, an engine's NIST LWC KAT file) run through the
        design's RTL for ``op`` (encrypt, decrypt); the output file's text (the same format) and
        one line saying what was run. Bad vectors get a one-line error naming the fix."""
        ...

    def manifest_entries(self, measured: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        """What ``measure_cycles``'s result adds to a manifest, in the manifest's order."""
        ...

    def measured(self, manifest: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The measured figures a manifest holds, as ``measure_cycles`` gave them."""
        ...

    def metrics(self, design: Mapping[str, Any], measured: Mapping[Any, Mapping[str, Any]],
                clock_mhz: float | None,
                flow_figures: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
        """The derived figures of a measured design: ``design``, the design's facts (a manifest
        or metrics.derive's record); ``measured``, as ``measured`` returns it; the clock and the
        flow's figures (area, gate equivalents, LUTs, power)."""
        ...
