"""Cache keys hash exactly the sources a design depends on (digest.py), found from the code: the
closure of imports from the code that writes and measures a design of its kind (kinds/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench.digest import PACKAGE_ROOT, import_closure, module_files
from cipherbench.generate import generator_digest
from cipherbench.jobs.provenance import measurement_digest
from cipherbench.kinds.described import DESCRIBED
from cipherbench.kinds.generated import GENERATED
from cipherbench.spec import parse

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _names(paths: tuple[Path, ...] | list[Path]) -> set[str]:
    return {str(p.relative_to(PACKAGE_ROOT)) for p in paths}


def _generated(design: str) -> set[str]:
    return _names(GENERATED.sources(parse(design)))


def test_a_design_depends_on_its_cipher_architecture_and_what_they_import() -> None:
    aes = _generated("aes-128/iterative")
    assert {"ciphers/aes/hw.py", "components/aes_sbox_composite.py", "arch/iterative.py",
            "verify/tb/tb.cpp", "interface.py", "generate.py", "kinds/generated.py",
            "verify/measure.py", "verify/sim.py"} <= aes
    assert not any(name.startswith(("ciphers/twofish", "ciphers/des", "flows/", "report/"))
                   for name in aes)
    # Imports across cipher folders and inside functions are followed.
    assert "ciphers/des/hw.py" in _generated("tdea/iterative")
    assert "components/aes_sbox_composite.py" in _generated("camellia-128/iterative")
    assert "components/mds.py" in _generated("twofish-128/iterative")
    assert "components/mds.py" not in _generated("serpent-128/iterative")


def test_the_kinds_registry_is_a_boundary_between_kinds() -> None:
    # generate.py reaches every kind through the registry; a generated design depends on none
    # of the code that wraps a designer's core, and a described core on no cipher's hardware.
    aes = _generated("aes-128/iterative")
    assert "kinds/registry.py" in aes
    assert not any(name.startswith(("external/", "kinds/described")) for name in aes)
    described = _names(DESCRIBED.sources(parse("aes-128/iterative")))
    assert {"external/harness.py", "external/design.py", "kinds/described.py",
            "generate.py", "verify/sim.py", "verify/tb/tb.cpp"} <= described
    # (The architectures are there: a described core's spec is a DesignSpec, whose parser
    # reads the architecture registry.)
    assert not any(name.startswith(("ciphers/aes/", "components/", "kinds/generated"))
                   for name in described)


def test_measurement_sources_are_what_a_job_measures_with() -> None:
    measuring = _names(import_closure(module_files("cipherbench.jobs.measure",
                                                   "cipherbench.flows")))
    assert {"flows/asic/synthesis.py", "flows/fpga.py", "metrics.py", "power.py",
            "verify/record.py", "verify/netlist.py", "verify/netlist_proof.py",
            "jobs/netlist_check.py", "verify/tb/tb.cpp"} <= measuring
    assert not any(name.startswith("report/") for name in measuring)
    assert len(measurement_digest()) == 16


def test_every_step_a_job_measures_with_is_in_the_measurement_sources() -> None:
    """The digest follows jobs/measure.py's imports: a step imported inside ``measure`` (out of
    the module's reach at module level) would be missed, so none may be."""
    import ast

    source = (PACKAGE_ROOT / "jobs" / "measure.py").read_text()
    measure = next(node for node in ast.walk(ast.parse(source))
                   if isinstance(node, ast.FunctionDef) and node.name == "measure")
    inner = [node.module for node in ast.walk(measure) if isinstance(node, ast.ImportFrom)]
    assert inner in ([], ["store"]), inner  # the store is where results go, not how they are made


def test_a_module_name_that_is_no_module_is_refused() -> None:
    assert module_files("cipherbench.generate")[0].name == "generate.py"
    with pytest.raises(ValueError, match="no module of cipherbench"):
        module_files("cipherbench.generator")


def test_data_files_beside_a_module_are_hashed() -> None:
    assert "verify/tb/tb.cpp" in _names(import_closure(module_files("cipherbench.verify.sim")))


def test_digests_are_stable_and_differ_between_unrelated_designs() -> None:
    aes, twofish = parse("aes-128/iterative"), parse("twofish-128/iterative")
    assert GENERATED.digest(aes) == GENERATED.digest(aes) == generator_digest(aes)
    assert GENERATED.digest(aes) != GENERATED.digest(twofish)
    assert len(generator_digest(aes)) == 16
    core = DESCRIBED.spec(str(EXAMPLES / "present80-stream" / "core.toml"))
    assert generator_digest(core) == DESCRIBED.digest(core) and len(generator_digest(core)) == 20
