"""Every shipped study file loads and names only valid designs and targets (cheap: no runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench.spec import parse
from cipherbench.study import load_study

STUDIES = sorted((Path(__file__).resolve().parent.parent / "studies").glob("*.toml"))


def test_the_seed_studies_are_shipped() -> None:
    names = {p.stem for p in STUDIES}
    assert {"nsa", "sugawara", "gaj", "fischer", "papaefstathiou"} <= names


@pytest.mark.parametrize("path", STUDIES, ids=lambda p: p.stem)
def test_study_loads_and_every_design_parses(path: Path) -> None:
    study = load_study(path)
    assert study.name == path.stem
    assert study.designs and study.targets
    for design in study.designs:
        assert parse(str(design)) == design  # the short form round-trips
    assert len({str(d) for d in study.designs}) == len(study.designs), "a design is listed twice"
