"""Kinds of design (kinds/): every part of cipherbench asks a design's kind, never its type or its
name's shape, so a third kind is one more module and not a branch in eleven places."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cipherbench.digest import PACKAGE_ROOT
from cipherbench.errors import CipherbenchError
from cipherbench.kinds.described import DESCRIBED
from cipherbench.kinds.generated import GENERATED
from cipherbench.kinds.registry import KINDS, design_of, kind_named, kind_of, kind_of_name
from cipherbench.spec import parse

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CORE = EXAMPLES / "present80-stream" / "core.toml"

# What a branch on the kind of design looked like before kinds/ (and would look like again).
KIND_BRANCHES = re.compile(
    r"is_external(_name)?\(|isinstance\([^)]*ExternalSpec|getattr\(\w+, [\"']description[\"']"
    r"|\.get\([\"']external[\"']\)|\[[\"']external[\"']\]|re\.compile\(.*external")


def kind_branches(text: str) -> list[str]:
    """The lines of ``text`` that branch on the kind of design by hand."""
    return [line.strip() for line in text.splitlines()
            if KIND_BRANCHES.search(line) and not line.strip().startswith("#")]


def test_no_branch_on_the_kind_of_design_outside_the_kinds() -> None:
    found = {}
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        rel = path.relative_to(PACKAGE_ROOT)
        if rel.parts[0] in ("kinds", "external"):  # the kinds themselves, and the described one's home
            continue
        if lines := kind_branches(path.read_text()):
            found[str(rel)] = lines
    assert found == {}


def test_the_branch_check_finds_a_branch() -> None:
    # The check above, shown able to fail: each old form of the branch is found.
    for line in ('if is_external(spec):', 'if manifest.get("external"):',
                 "f\"{getattr(spec, 'description', '') or spec}\"",
                 'return isinstance(spec, ExternalSpec)', 'not is_external_name(r.design)',
                 '_EXTERNAL_RE = re.compile(r"^[a-z0-9]+(?:-[0-9]+)?/external:")'):
        assert kind_branches(line) == [line]
    assert kind_branches("# is_external(spec) in a comment") == []


def test_specs_name_their_kind() -> None:
    assert kind_of(parse("aes-128/iterative")) is GENERATED
    assert kind_of(design_of(str(CORE))) is DESCRIBED
    assert {kind.name for kind in KINDS} == {"generated", "described", "engine"}
    with pytest.raises(CipherbenchError, match="unknown kind of design 'woven'; valid: "):
        kind_named("woven")


def test_stored_names_have_one_kind() -> None:
    core = DESCRIBED.spec(str(CORE))
    for name in (str(core), core.canonical()):
        assert kind_of_name(name) is DESCRIBED
    for name in ("aes-128/iterative", "des-64/iterative", "aes/pipelined:inner=1",
                 parse("present-80/narrow:width=4").canonical()):
        assert kind_of_name(name) is GENERATED
    assert all(sum(kind.names(name) for kind in KINDS) == 1
               for name in ("aes-128/iterative", str(core)))
    with pytest.raises(CipherbenchError, match="names no kind of design"):
        kind_of_name("aes-128/woven")


def test_design_arguments() -> None:
    assert design_of("aes-128/iterative") == parse("aes-128/iterative")
    assert design_of(str(CORE)).argument == str(CORE.resolve())
    assert parse("aes-128/iterative").argument == "aes-128/iterative"
    # Neither a spec nor a description: the spec grammar's own error.
    with pytest.raises(CipherbenchError, match="malformed design spec"):
        design_of("aes128")


def test_kinds_rank_and_verify_as_their_designs_need() -> None:
    assert GENERATED.reference and not DESCRIBED.reference
    assert DESCRIBED.verified_before_run and not GENERATED.verified_before_run


def test_a_generated_design_refused_when_read(tmp_path: Path) -> None:
    spec = parse("twofish-128/narrow:width=16") if _offered("twofish-128/narrow:width=16") else None
    if spec is None:
        pytest.skip("twofish has no narrow width parameter of 16 in this registry")
    with pytest.raises(CipherbenchError, match="study.toml: design .* cannot be built"):
        GENERATED.buildable(spec, "study.toml")


def _offered(design: str) -> bool:
    try:
        parse(design)
    except CipherbenchError:
        return False
    return True


def test_provenance_and_reproduction(tmp_path: Path) -> None:
    spec = parse("des/iterative")
    assert GENERATED.provenance({"top": "cb_des_iterative"}) == {}
    assert GENERATED.from_provenance({"design": spec.canonical()}) == spec
    core = DESCRIBED.spec(str(CORE))
    external = {"name": "present80-stream", "description": str(CORE.resolve())}
    assert DESCRIBED.provenance({"external": external}) == {"external": external}
    assert DESCRIBED.from_provenance({"design": core.canonical(), "external": external}) == core
    with pytest.raises(CipherbenchError, match="changed since the result was stored"):
        DESCRIBED.from_provenance({"design": core.canonical() + "0", "external": external})


def test_ranking_by_stored_name() -> None:
    from cipherbench.kinds.registry import known_kind_of_name, ranks

    core = str(DESCRIBED.spec(str(CORE)))
    assert ranks("aes-128/iterative", reference=True) and not ranks(core, reference=True)
    assert ranks(core, reference=False) and not ranks("aes-128/iterative", reference=False)
    # A results file may hold any name (the report escapes it): of no kind, it ranks nowhere.
    hostile = "<script>alert(1)</script>/iterative"
    assert known_kind_of_name(hostile) is None
    assert not ranks(hostile, reference=True) and not ranks(hostile, reference=False)


def _missing(kind: object) -> list[str]:
    from cipherbench.kinds import DesignKind

    members = [*DesignKind.__annotations__,
               *(name for name in vars(DesignKind) if not name.startswith("_"))]
    return [name for name in members if not hasattr(kind, name)]


def test_every_kind_answers_the_whole_protocol() -> None:
    assert {kind.name: _missing(kind) for kind in KINDS} == {"described": [], "engine": [],
                                                            "generated": []}
    # Shown able to fail: an object that is no kind lacks the members.
    assert {"name", "write", "family", "from_provenance"} <= set(_missing(object()))
