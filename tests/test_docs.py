"""The docs against the code: the generated regions (cipherbench.docgen) agree with the registries
and a real generation, nothing in the project cites a file outside it, every seed paper the text
names has its glossary line in the README, and the test tiers name tests that exist."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cipherbench import docgen
from cipherbench.arch.registry import ARCHITECTURES
from cipherbench.ciphers.registry import Param, ciphers
from cipherbench.cli import main as cli_main
from cipherbench.targets import TARGET_NAMES

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def _copy_docs(to: Path) -> Path:
    """The documents docgen reads, copied under ``to`` (a checkout of the docs alone)."""
    for pattern in docgen.DOC_FILES:
        for path in ROOT.glob(pattern):
            target = to / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return to


# --- generated regions ------------------------------------------------------------------------


def test_the_generated_regions_agree_with_the_code() -> None:
    assert docgen.check() == []


def test_an_undocumented_architecture_parameter_fails_the_check(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A parameter added to the registry and not to the docs: both tables that list it differ;
    --write brings them back in line."""
    manifest = docgen._manifest()  # generated before the parameter exists (no core takes it)
    monkeypatch.setattr(docgen, "_manifest", lambda: manifest)
    monkeypatch.setitem(ARCHITECTURES["iterative"].params, "dummy",
                        Param(("a", "b"), "a", "a parameter nobody documented"))
    problems = docgen.check()
    assert any("docs/spec.md: spec-parameters: differs" in p for p in problems), problems
    assert any("docs/architectures.md: architectures-table: differs" in p for p in problems)
    docs = _copy_docs(tmp_path)
    docgen.check(root=docs, write=True)
    assert docgen.check(root=docs) == []
    assert "| `dummy` | `iterative` | `a`, `b` | `a` | a parameter nobody documented |" in (
        docs / "docs" / "spec.md").read_text()


def test_an_undocumented_cipher_parameter_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cipher's own parameter is documented on the cipher's page, generated from its folder."""
    monkeypatch.setitem(ciphers()["des"].params, "dummy", Param(("x", "y"), "x", "undocumented"))
    problems = docgen.check()
    assert any("docs/ciphers/des.md: cipher-des: differs" in p for p in problems), problems


def test_a_cipher_without_its_page_fails_the_check(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    """Adding a cipher means adding its folder, its tests and its page: a built-in cipher with no
    docs/ciphers/NAME.md region is named, and nothing else in the docs lists the ciphers."""
    docs = _copy_docs(tmp_path)
    (docs / "docs" / "ciphers" / "des.md").unlink()
    problems = docgen.check(root=docs)
    assert problems == ["region cipher-des is in no document (add its markers where it "
                        "belongs: docs/ciphers/des.md)"], problems


def test_a_changed_manifest_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    real = docgen._manifest

    def renamed() -> dict:
        return {**real(), "top": "cipherbench_core"}

    monkeypatch.setattr(docgen, "_manifest", renamed)
    assert docgen.check() == ["docs/interface.md: interface-manifest: differs from the code "
                              "(python -m cipherbench.docgen --write)"]


def test_the_manifest_example_is_a_real_generation_but_for_the_source_digest() -> None:
    text = (ROOT / "docs" / "interface.md").read_text()
    shown = text.split("```json\n", 1)[1].split("\n```", 1)[0]
    manifest = docgen._manifest()
    assert '"digest": "..."' in shown and manifest["generator"]["digest"] not in shown
    manifest["generator"]["digest"] = "..."
    import json

    assert json.loads(shown) == manifest


def test_markers_without_an_end_or_without_a_generator_are_refused(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    begin = "<!-- generated: {} (python -m cipherbench.docgen --write) -->\n"
    (tmp_path / "README.md").write_text(begin.format("nothing-like-this") +
                                        "<!-- end generated: nothing-like-this -->\n")
    problems = docgen.check(root=tmp_path, regions={"spec-grammar": docgen.spec_grammar})
    assert problems == ["region spec-grammar is in no document (add its markers where it belongs)",
                        "README.md: nothing-like-this: no such generated region"]
    (tmp_path / "README.md").write_text(begin.format("spec-grammar") + "text\n")
    with pytest.raises(docgen.DocsError, match="has no end marker"):
        docgen.check(root=tmp_path)


def test_a_package_without_a_layout_line_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(docgen.PACKAGES, "store")
    with pytest.raises(docgen.DocsError, match="describe package store/"):
        docgen.readme_layout()


def test_the_command_checks_and_writes(tmp_path: Path) -> None:
    docs = _copy_docs(tmp_path)
    spec = docs / "docs" / "spec.md"
    spec.write_text(spec.read_text().replace("| `ops` | every design |", "| `ops` | some |"))
    assert docgen.check(root=docs) == ["docs/spec.md: spec-parameters: differs from the code "
                                       "(python -m cipherbench.docgen --write)"]
    proc = subprocess.run([sys.executable, "-m", "cipherbench.docgen", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_narrow_parameter_table_has_the_registrys_values() -> None:
    """docs/narrow.md's table, written for AES: its values and defaults are the registry's."""
    text = (ROOT / "docs" / "narrow.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| ((?:`[^`]+`(?:, )?)+) \| `([^`]+)` \|", text, re.M)
    params = ARCHITECTURES["narrow"].params
    assert {name for name, _, _ in rows} == set(params)
    for name, values, default in rows:
        assert tuple(re.findall(r"`([^`]+)`", values)) == params[name].choices, name
        assert default == params[name].default, name


# --- what the docs may cite ---------------------------------------------------------------------

# Text that points outside the repository: the sibling folder of shared files (Liberty, vector
# files, seed texts), and design notes that were never part of it.
OUTSIDE = re.compile(r"\.\./shared|/work/shared|\bshared/(?:kat|pdk|seeds)|DESIGN\.md|STYLE\.md|"
                     r"design notes", re.I)
# Where it may stand: tests and the scripts that set up a test or CI environment look for the
# shared folder beside the checkout; scripts/run.sh adds its NanGate45 Liberty the same way;
# stored results record the Liberty file they were measured with.
MAY_POINT_OUTSIDE = ("tests/*", ".ci/*", "scripts/*.sh", "benchmarks/results/*")
# Files that still do (glob patterns), each with why and who fixes it: the entry goes with the fix.
STILL_POINTING_OUTSIDE: dict[str, str] = {}


def project_files(root: Path = ROOT) -> list[str]:
    """The project's files: git's tracked and untracked-not-ignored ones; outside a git checkout
    (a source archive), every file but the virtual environment's and caches'."""
    proc = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                          cwd=root, capture_output=True, text=True)
    if proc.returncode == 0:
        names = proc.stdout.splitlines()
    else:
        outputs = {".git", ".venv", "results", "report"}   # top-level folders of runs
        names = [str(p.relative_to(root)) for p in root.rglob("*")
                 if p.relative_to(root).parts[0] not in outputs and "__pycache__" not in p.parts]
    return sorted({name for name in names if (root / name).is_file()})


def citations_outside(root: Path, files: list[str]) -> dict[str, list[str]]:
    """file -> its lines that point outside the project (those allowed to left out)."""
    found: dict[str, list[str]] = {}
    for name in files:
        if any(Path(name).match(p) or name.startswith(p.rstrip("*")) for p in MAY_POINT_OUTSIDE):
            continue
        try:
            text = (root / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        lines = [f"{n}: {line.strip()[:120]}" for n, line in enumerate(text.splitlines(), 1)
                 if OUTSIDE.search(line)]
        if lines:
            found[name] = lines
    return found


def test_nothing_cites_files_outside_the_project() -> None:
    found = citations_outside(ROOT, project_files())
    unexpected = {f: lines for f, lines in found.items()
                  if not any(fnmatch.fnmatchcase(f, known) for known in STILL_POINTING_OUTSIDE)}
    assert unexpected == {}


def test_a_citation_outside_is_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("As the design notes say (DESIGN.md section 4).\n")
    (tmp_path / "docs" / "b.md").write_text("Vectors from `../shared/kat/aes`.\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text("KAT = '../shared/kat'\n")
    found = citations_outside(tmp_path, ["docs/a.md", "docs/b.md", "tests/t.py"])
    assert sorted(found) == ["docs/a.md", "docs/b.md"]


# --- seed papers --------------------------------------------------------------------------------

SEED_WORD = re.compile(r"\bseeds? (\d{3})\b", re.I)
GLOSSARY_LINE = re.compile(r"^- \*\*seed (\d{3})\*\*: (.+(?:\n  .+)*)$", re.M)


def seeds_named(root: Path, files: list[str]) -> dict[str, str]:
    """Seed number -> a file that names it."""
    named: dict[str, str] = {}
    for name in files:
        try:
            text = (root / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number in SEED_WORD.findall(text):
            named.setdefault(number, name)
    return named


def glossary(readme: str) -> dict[str, str]:
    """Seed number -> its glossary entry (a list item, continued on indented lines)."""
    return {n: " ".join(entry.split()) for n, entry in GLOSSARY_LINE.findall(readme)}


def test_every_seed_named_has_a_glossary_line_naming_the_paper() -> None:
    entries = glossary((ROOT / "README.md").read_text())
    named = seeds_named(ROOT, project_files())
    assert {n: f for n, f in named.items() if n not in entries} == {}
    assert sorted(entries) == ["000", "001", "002", "003", "004"]
    for number, line in entries.items():
        assert re.search(r'"[^"]+"', line) and re.search(r"\b(19|20)\d\d\b", line), (
            f"seed {number}: the glossary line names authors, \"title\" and year")


def test_a_seed_without_a_glossary_line_is_found(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("- **seed 000**: Someone, \"A paper\", 2000.\n")
    unknown = "007"
    (tmp_path / "doc.md").write_text(f"As seed 000 and seed {unknown} say.\n")
    named = seeds_named(tmp_path, ["README.md", "doc.md"])
    entries = glossary((tmp_path / "README.md").read_text())
    assert [n for n in named if n not in entries] == [unknown]


# --- the rest ------------------------------------------------------------------------------------


def test_run_target_help_names_every_target() -> None:
    result = CliRunner().invoke(cli_main, ["run", "--help"], terminal_width=400)
    assert result.exit_code == 0
    help_text = " ".join(result.output.split())
    assert [t for t in TARGET_NAMES if t not in help_text] == []


WALL_CLOCK = re.compile(r"\btime\.(?:monotonic|perf_counter|time|process_time)(?:_ns)?\(|"
                        r"^\s*(?:import time\b|from time import)", re.M)


def wall_clock_readers(folder: Path) -> list[str]:
    """Test modules that read the clock: speed belongs in benchmarks/, not in a test."""
    return sorted(p.name for p in folder.glob("*.py") if WALL_CLOCK.search(p.read_text()))


def test_no_test_reads_the_wall_clock(tmp_path: Path) -> None:
    assert wall_clock_readers(TESTS) == []
    clock = "time." + "monotonic"   # not spelled out here, or this file would be found
    (tmp_path / "test_quick.py").write_text(f"import time\nt0 = {clock}()\n")
    (tmp_path / "test_fine.py").write_text("timeout = 5  # seconds\n")
    assert wall_clock_readers(tmp_path) == ["test_quick.py"]


def test_the_license_is_the_one_pyproject_names() -> None:
    assert 'license = "Apache-2.0"' in (ROOT / "pyproject.toml").read_text()
    text = (ROOT / "LICENSE").read_text()
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "END OF TERMS AND CONDITIONS" in text


def test_every_fast_tier_entry_names_tests_that_exist() -> None:
    from conftest import FAST

    missing = []
    for entry in FAST:
        file, _, test = entry.partition("::")
        files = sorted(TESTS.glob(file))
        if not files:
            missing.append(entry)
            continue
        if not test:
            continue
        name, _, param = test.partition("[")
        text = files[0].read_text()
        if f"def {name}(" not in text or (param and param.rstrip("]") not in text):
            missing.append(entry)
    assert missing == []


def test_the_fast_tier_selects_files_tests_and_parameters() -> None:
    from conftest import in_fast_tier

    entries = ("test_model_*.py", "test_a.py::test_one", "test_b.py::test_two[x/y]")
    assert in_fast_tier(Path("tests/test_model_des.py"), "test_any", "test_any", entries)
    assert in_fast_tier(Path("tests/test_a.py"), "test_one[p]", "test_one", entries)
    assert not in_fast_tier(Path("tests/test_a.py"), "test_other", "test_other", entries)
    assert in_fast_tier(Path("tests/test_b.py"), "test_two[x/y]", "test_two", entries)
    assert not in_fast_tier(Path("tests/test_b.py"), "test_two[x/z]", "test_two", entries)
    assert not in_fast_tier(Path("tests/test_hw_des.py"), "test_any", "test_any", entries)


def test_every_cipher_field_is_documented() -> None:
    """docs/architecture.md's table of what a cipher's folder declares names every CipherInfo
    field but the ones discovery sets (folder, origin) and the identity ones (name, title, sizes)."""
    import dataclasses
    import re

    from cipherbench.ciphers.registry import CipherInfo

    text = (ROOT / "docs" / "architecture.md").read_text()
    table = text[text.index("## What a cipher's folder declares"):]
    documented = set(re.findall(r"`(\w+)`", "\n".join(
        line.split("|")[1] for line in table.splitlines() if line.startswith("| `"))))
    fields = {f.name for f in dataclasses.fields(CipherInfo)}
    missing = fields - documented - {"name", "title", "block_bits", "key_sizes", "folder", "origin"}
    assert not missing, f"CipherInfo fields without a row in docs/architecture.md: {missing}"


# --- the README's command list -------------------------------------------------------------------


def readme_commands(text: str) -> set[str]:
    """The commands the README's "Using it" block shows (``cipherbench NAME ...`` lines)."""
    block = text.split("## Using it", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return {line.split()[1] for line in block.splitlines()
            if line.startswith("cipherbench ") and len(line.split()) > 1}


def test_the_readme_shows_every_command() -> None:
    shown = readme_commands((ROOT / "README.md").read_text())
    assert set(cli_main.commands) - shown == set()
    # A block without one of them is found.
    text = "## Using it\n\n```sh\ncipherbench list\ncipherbench report -o r\n```\n"
    assert set(cli_main.commands) - readme_commands(text) >= {"leakage", "run"}
