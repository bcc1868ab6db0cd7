"""Test options and tiers.

- ``--fast`` (``scripts/test.sh --fast``): the development tier, the tests listed in FAST below:
  reference models, units, spec and generation, stores and reports, and one small core per
  architecture simulated against an independent oracle. Everything else is deselected.
- no option: the default suite, CI's (``.ci/run``).
- ``--runslow``: also the tests marked ``slow`` (full iterated NESSIE sets, maintenance tests,
  long differential runs); without it they are skipped with that reason.

A new test file is in the default suite; add it to FAST when it is quick (tests/test_docs.py checks
that every FAST entry names tests that exist).
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

from cipherbench.verify.vectors import kat_root

# Whole files (glob patterns on the file name) and single tests ("file::test", every parameter of
# it, or "file::test[param]", that one).
FAST: tuple[str, ...] = (
    # reference models and their vectors
    "test_models.py", "test_model_*.py", "test_aes_model.py", "test_vectors.py",
    # units: components, the harness on toy cores, metrics, digests, equivalence of components
    "test_components.py", "test_aes_sbox.py", "test_sim.py", "test_metrics.py", "test_digest.py",
    "test_kinds.py", "test_imports.py", "test_families.py",
    "test_analysis.py", "test_leakage_*.py", "test_masked_sbox4.py",
    # specs, generation, the docs generated from the registries
    "test_spec.py", "test_docs.py", "test_aes_hw.py::test_manifest_has_the_stable_fields",
    "test_masked_cores.py::test_masked_is_offered_only_to_ciphers_that_declare_it",
    "test_masked_cores.py::test_ports_are_shares_and_randomness",
    "test_masked_cores.py::test_the_streaming_core_takes_and_gives_columns",
    "test_masked_cores.py::test_the_harness_prng",
    # stores, studies (planning), reports and the published figures
    "test_store.py", "test_store_migrations.py", "test_store_transfer.py", "test_studies.py",
    "test_report.py", "test_report_*.py", "test_published.py", "test_nsa_results.py",
    # the message level: the LWC API's formats and the GCM model
    "test_message_formats.py", "test_gcm_model.py",
    "test_engine_kind.py::test_engines_are_named_in_the_spec_grammar",
    "test_engine_kind.py::test_what_cannot_be_built_or_verified_is_refused_in_one_line",
    # one small core per architecture, against an independent oracle
    "test_differential.py::test_cores_agree_with_an_independent_oracle[des/iterative]",
    "test_differential.py::test_cores_agree_with_an_independent_oracle[des/pipelined]",
    "test_differential.py::test_cores_agree_with_an_independent_oracle[aes-128/unrolled:k=2]",
    "test_differential.py::test_cores_agree_with_an_independent_oracle[misty1/narrow]",
    "test_differential.py::test_cores_agree_with_an_independent_oracle[aes-128/masked]",
    "test_differential.py::test_the_short_run_covers_every_cipher_with_hardware",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False,
                     help="run the long checks (tests marked slow, full iterated vector sets)")
    parser.addoption("--fast", action="store_true", default=False,
                     help="only the development tier (FAST in tests/conftest.py): models, units, "
                          "generation, one small core per architecture")
    parser.addoption("--differential-blocks", type=int, default=150, metavar="N",
                     help="random blocks per core in tests/test_differential.py (the opt-in long "
                          "run: 100000 with --runslow)")


def in_fast_tier(path: Path, name: str, originalname: str, entries: tuple[str, ...] = FAST) -> bool:
    """Whether the test ``name`` (with its parameters; ``originalname`` without) of the file at
    ``path`` is in the fast tier ``entries``."""
    for entry in entries:
        file, _, test = entry.partition("::")
        if not fnmatch.fnmatchcase(path.name, file):
            continue
        if not test or test in (name, originalname):
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--fast"):
        kept, dropped = [], []
        for item in items:
            original = getattr(item, "originalname", item.name)
            (kept if in_fast_tier(item.path, item.name, original) else dropped).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="long check: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def kat_folder() -> Path:
    """The folder of official vector files; the test is skipped, saying so, when there is none
    (a test that checks the files' sets must not pass having checked fewer)."""
    root = kat_root()
    if root is None:
        pytest.skip("no official vector files: set CIPHERBENCH_KAT to their folder "
                    "(scripts/test.sh uses ../shared/kat when it is there)")
    return root
