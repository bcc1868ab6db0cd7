"""The parts of the docs that are generated from the code, so that they cannot drift from it.

Each is a marked region of a Markdown file (README.md, docs/*.md)::

    <!-- generated: NAME (python -m cipherbench.docgen --write) -->
    ...
    <!-- end generated: NAME -->

``python -m cipherbench.docgen --check`` exits 1 naming every region whose text differs from what
the code gives (and every region missing or unknown); ``--write`` rewrites them in place. The
tables come from the registries (``arch/registry.py``, ``ciphers/registry.py``), each interface
family's contract and figures from its family object (``families/``), the grammar and examples
from ``spec.py``, the manifest example from a real generation of ``aes-128/iterative``,
the source layout from the package itself. ``tests/test_docs.py`` runs the check.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import spec as spec_module
from .arch.registry import ARCHITECTURES, COMMON_PARAMS, offered
from .ciphers.registry import Param, ciphers

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parents[1]   # the checkout: src/cipherbench/docgen.py
DOC_FILES = ("README.md", "docs/*.md", "docs/ciphers/*.md")

_BEGIN = re.compile(r"^<!-- generated: (?P<name>[a-z0-9-]+) \(python -m cipherbench\.docgen "
                    r"--write\) -->\n", re.M)
_END = "<!-- end generated: {name} -->\n"

# The design of the manifest example, and the fields left out of it because they change with
# every edit of the generator's sources (shown as "...").
MANIFEST_DESIGN = "aes-128/iterative"
MANIFEST_VOLATILE = {("generator", "digest")}

# The spec examples of docs/spec.md, each parsed to show its canonical form.
EXAMPLES = ("aes-128/iterative", "aes/iterative", "aes-256/iterative:ops=encrypt,sbox=gf-inv",
            "des/pipelined:stages=2", "serpent-128/narrow:width=16", "rc6/iterative")

# What each sub-package of cipherbench is for (README's layout block). A package missing here, or
# an entry for a package that is gone, fails the check.
PACKAGES = {
    "arch": "architecture generators, generic over ciphers: iterative, unrolled, pipelined, "
            "narrow, masked (with its harness); round-key memories (stored, loaded) and key "
            "tables",
    "ciphers": "one folder per cipher: reference model, hardware description, parameters, "
               "vector sets (CipherInfo)",
    "components": "S-boxes (table, shared-inverse, composite field), GF(2^8), adders, "
                  "multipliers, rotators, ...",
    "external": "a designer's own core: its TOML description, port checks, the harness of "
                "each protocol, `cipherbench measure`",
    "families": "interface families a design chooses: ports, testbench, reference model, "
                "measured and derived figures (block: one block in, one block out)",
    "flows": "generic gates, ASIC (Liberty, STA, power), FPGA (nextpnr), layout (qflow)",
    "jobs": "one design on one target: its key, measurement, netlist check, provenance",
    "kinds": "kinds of design, each written, digested, checked, verified and reproduced its own "
             "way: generated (arch/ over ciphers/), described (a designer's core, external/)",
    "message": "the message level: the NIST LWC hardware API (its words, streams and ports, a "
               "front end in hardware), cryptotvgen's pdi/sdi/do files, the LWC KAT format, GCM "
               "over any 128-bit cipher (model, CAVP files, oracles, the GCM layer over a core)",
    "leakage": "side-channel leakage in simulation of a gate netlist: bit-parallel simulator "
               "(numpy, generated C), fixed-vs-random t-test, glitch-extended probing; the "
               "masked cores' assessment (`cipherbench leakage`)",
    "report": "Markdown, CSV, HTML and plots from the store; each seed's section and published "
              "figures",
    "software": "the software baseline measured on the host (OpenSSL, Crypto++, the models)",
    "store": "results store: SQLite or PostgreSQL, migrations, export/import",
    "study": "a study file read and checked, planned into jobs, run",
    "verify": "Verilator testbench and harness, vector readers, oracles, cycle measurement, "
              "netlist proofs",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _values(p: Param) -> str:
    return ", ".join(f"`{c}`" for c in p.choices)


def spec_grammar() -> str:
    """The grammar block of spec.py's docstring (the literal block after "Grammar")."""
    doc = spec_module.__doc__ or ""
    match = re.search(r"^Grammar[^\n]*::\n\n((?:    [^\n]*\n)+)", doc, re.M)
    if match is None:
        raise DocsError("spec.py's docstring has no grammar block (a 'Grammar ...::' paragraph)")
    lines = [line[4:] for line in match[1].splitlines()]
    return "```\n" + "\n".join(lines) + "\n```\n"


def spec_examples() -> str:
    """Each example parsed: the short form cipherbench prints and the canonical form it stores."""
    rows = ["| spec | key sizes | canonical form (cache keys, provenance) |", "| --- | --- | --- |"]
    for text in EXAMPLES:
        design = spec_module.parse(text)
        sizes = ", ".join(map(str, design.key_sizes))
        rows.append(f"| `{text}` | {sizes} | `{design.canonical()}` |")
    return "\n".join(rows) + "\n"


def spec_parameters() -> str:
    """Every common and architecture parameter (a cipher's own are on its page: cipher_facts)."""
    rows = ["| parameter | applies to | values | default | meaning |",
            "| --- | --- | --- | --- | --- |"]
    for name, p in COMMON_PARAMS.items():
        rows.append(f"| `{name}` | every design | {_values(p)} | `{p.default}` | {_cell(p.help)} |")
    for arch in ARCHITECTURES.values():
        for name, p in arch.params.items():
            rows.append(f"| `{name}` | `{arch.name}` | {_values(p)} | `{p.default}` | "
                        f"{_cell(p.help)} |")
    return "\n".join(rows) + "\n"


def _architectures_of(cipher: Any) -> list[str]:
    return [name for name, arch in ARCHITECTURES.items() if offered(cipher, arch)]


def _restricted(cipher: Any) -> list[str]:
    """Where the cipher takes fewer values than a common or architecture parameter has."""
    restricted = []
    for arch_name in _architectures_of(cipher):
        arch = ARCHITECTURES[arch_name]
        full = {**COMMON_PARAMS, **arch.params}
        defs = spec_module.all_param_defs(cipher, arch)
        for name, p in full.items():
            if defs[name].choices != p.choices:
                restricted.append(f"{arch_name} `{name}`: "
                                  + ", ".join(f"`{c}`" for c in defs[name].choices))
    return restricted


def cipher_facts(name: str) -> str:
    """A cipher's page (docs/ciphers/NAME.md, region ``cipher-NAME``): its sizes, architectures,
    the values it restricts and its own parameters, from its CipherInfo."""
    cipher = ciphers()[name]
    hardware = ", ".join(f"`{a}`" for a in _architectures_of(cipher))
    if cipher.hardware is None:
        hardware = "(model only)"
    rows = ["| | |", "| --- | --- |",
            f"| cipher | `{cipher.name}`: {_cell(cipher.title)} |",
            f"| block | {cipher.block_bits} bits |",
            f"| key sizes | {', '.join(map(str, cipher.key_sizes))} bits |",
            f"| architectures | {hardware} |",
            f"| values it restricts | {'; '.join(_restricted(cipher)) or '-'} |"]
    for param, p in cipher.params.items():
        rows.append(f"| parameter `{param}` | {_values(p)}, default `{p.default}`: "
                    f"{_cell(p.help)} |")
    return "\n".join(rows) + "\n"


def architectures_table() -> str:
    rows = ["| spec | what | parameters (default first) |", "| --- | --- | --- |"]
    for arch in ARCHITECTURES.values():
        params = []
        for name, p in arch.params.items():
            values = [p.default, *(c for c in p.choices if c != p.default)]
            params.append(f"`{name}=" + "\\|".join(values) + "`")
        rows.append(f"| `{arch.name}` | {_cell(arch.title)} | {', '.join(params) or '-'} |")
    return "\n".join(rows) + "\n"


def _manifest() -> dict[str, Any]:
    from .cache import ensure_design

    folder = ensure_design(spec_module.parse(MANIFEST_DESIGN))
    return json.loads((folder / "manifest.json").read_text())


def _inline(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "))


def _render(value: Any, indent: int, head: str, tail: str, width: int) -> list[str]:
    """``value`` as JSON after ``head`` (the key, or nothing): on one line when it fits in
    ``width``, else a list or dict with one element per line, each rendered the same way."""
    pad = " " * indent
    line = f"{pad}{head}{_inline(value)}{tail}"
    if len(line) <= width or not isinstance(value, (list, dict)) or not value:
        return [line]
    items = (list(value.items()) if isinstance(value, dict)
             else [(None, v) for v in value])
    lines = [f"{pad}{head}{'{' if isinstance(value, dict) else '['}"]
    for n, (key, element) in enumerate(items):
        inner_head = "" if key is None else f"{json.dumps(key)}: "
        lines += _render(element, indent + 2, inner_head, "," if n < len(items) - 1 else "",
                         width)
    lines.append(f"{pad}{'}' if isinstance(value, dict) else ']'}{tail}")
    return lines


def render_manifest(manifest: dict[str, Any], width: int = 100) -> str:
    """The manifest as JSON, each value on one line where it fits, else one line per element."""
    manifest = json.loads(json.dumps(manifest))   # a copy
    for outer, inner in MANIFEST_VOLATILE:
        if isinstance(manifest.get(outer), dict) and inner in manifest[outer]:
            manifest[outer][inner] = "..."
    return "\n".join(_render(manifest, 0, "", "", width))


def interface_manifest() -> str:
    return f"```json\n{render_manifest(_manifest())}\n```\n"


def _code_name(obj: type) -> str:
    """A class as the docs name it: `Name` (`module.path`)."""
    return f"`{obj.__qualname__}` (`{obj.__module__}`)"


def family_facts(name: str) -> str:
    """An interface family's contract (region ``family-NAME``), read off the family object: its
    ports' signature class, testbench, reference model and the fields its manifests carry."""
    import typing

    from .families.registry import family

    fam = family(name)
    signature = typing.get_type_hints(fam.signature)["return"]
    fields = ", ".join(f"`{field}`" for field in fam.manifest_fields)
    rows = ["| | |", "| --- | --- |",
            f"| family | `{fam.name}`: {_cell(fam.title)} |",
            f"| ports | {_code_name(signature)} |",
            f"| testbench | `src/cipherbench/{fam.testbench}` |",
            f"| reference model | {_code_name(fam.model_protocol)} |",
            f"| manifest fields | {fields} |"]
    return "\n".join(rows) + "\n"


def family_figures(name: str) -> str:
    """Every figure an interface family reports (region ``family-NAME-figures``): the measured
    ones its manifests carry, then the derived ones, each with its unit and definition."""
    from .families.registry import family

    fam = family(name)
    rows = ["| figure | unit | how | definition |", "| --- | --- | --- | --- |"]
    for figure in fam.figures:
        how = "measured" if figure.name in fam.manifest_fields else "derived"
        rows.append(f"| `{figure.name}` | {figure.unit} | {how} | {_cell(figure.meaning)} |")
    return "\n".join(rows) + "\n"


def readme_layout() -> str:
    modules = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    packages = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
    missing = [p for p in packages if p not in PACKAGES]
    gone = [p for p in PACKAGES if p not in packages]
    if missing or gone:
        raise DocsError("cipherbench.docgen.PACKAGES: "
                        + "; ".join([*(f"describe package {p}/" for p in missing),
                                     *(f"package {p}/ is gone" for p in gone)]))
    lines = ["```", "src/cipherbench/"]
    line = " "
    for name in modules:   # the top-level modules, wrapped at 100 columns
        if len(line) + 1 + len(name) > 100:
            lines.append(line)
            line = " "
        line += " " + name
    lines.append(line)
    for name in packages:
        head = f"  {name + '/':<13}"
        words, line = PACKAGES[name].split(), head
        for word in words:
            if len(line) + 1 + len(word) > 100:
                lines.append(line)
                line = " " * len(head)
            line += " " + word
        lines.append(line)
    lines += ["tests/ benchmarks/ docs/ scripts/ studies/", "```"]
    return "\n".join(lines) + "\n"


ENGINE_EXAMPLES = ("aes-128-gcm/iterative:ghash=serial16", "aes-128-gcm/pipelined:inner=2,w=128",
                   "sm4-gcm/iterative")


def engine_parameters() -> str:
    """The modes' parameters (message/gcm_mode.py) and examples of engines with their canonical
    forms."""
    from .kinds.engine import parse_engine
    from .message.gcm_mode import MODES, offered_ciphers

    rows = ["| parameter | mode | values | default | meaning |",
            "| --- | --- | --- | --- | --- |"]
    for mode in MODES.values():
        for name, p in mode.params.items():
            rows.append(f"| `{name}` | `{mode.name}` | {_values(p)} | `{p.default}` | "
                        f"{_cell(p.help)} |")
    rows += ["", "| engine | canonical form (cache keys, provenance) |", "| --- | --- |"]
    rows += [f"| `{text}` | `{parse_engine(text).canonical()}` |" for text in ENGINE_EXAMPLES]
    for mode in MODES.values():
        rows += ["", f"`{mode.name}` is offered over {', '.join(offered_ciphers())} "
                 f"(architectures: {', '.join(mode.architectures)})."]
    return "\n".join(rows) + "\n"


REGIONS: dict[str, Callable[[], str]] = {
    "spec-grammar": spec_grammar,
    "engine-parameters": engine_parameters,
    "spec-examples": spec_examples,
    "spec-parameters": spec_parameters,
    "architectures-table": architectures_table,
    "interface-manifest": interface_manifest,
    "readme-layout": readme_layout,
}


def all_regions() -> dict[str, Callable[[], str]]:
    """The fixed regions, one per built-in cipher (``cipher-NAME``, on docs/ciphers/NAME.md) and
    two per interface family (``family-NAME``, ``family-NAME-figures``; the block family's on
    docs/interface.md): a cipher or family added without its page fails the check."""
    from functools import partial

    from .ciphers.registry import BUILT_IN
    from .families.registry import FAMILIES

    found = dict(REGIONS)
    for name in FAMILIES:
        found[f"family-{name}"] = partial(family_facts, name)
        found[f"family-{name}-figures"] = partial(family_figures, name)
    for name, cipher in ciphers().items():
        if cipher.origin == BUILT_IN:
            found[f"cipher-{name}"] = partial(cipher_facts, name)
    return found


class DocsError(Exception):
    pass


@dataclass
class Region:
    file: Path
    name: str
    start: int   # the text's offsets in the file, between the markers
    end: int


def find_regions(root: Path = ROOT) -> list[Region]:
    regions = []
    files = sorted({p for pattern in DOC_FILES for p in root.glob(pattern)})
    for path in files:
        text = path.read_text()
        for match in _BEGIN.finditer(text):
            name = match["name"]
            end = text.find(_END.format(name=name), match.end())
            if end < 0:
                raise DocsError(f"{path.relative_to(root)}: region {name} has no end marker "
                                f"{_END.format(name=name).strip()!r}")
            regions.append(Region(path, name, match.end(), end))
    return regions


def check(root: Path = ROOT, regions: dict[str, Callable[[], str]] | None = None,
          write: bool = False) -> list[str]:
    """The problems (empty: the docs agree with the code); with ``write``, fix the texts."""
    regions = all_regions() if regions is None else regions
    problems = []
    found = find_regions(root)
    placed = {r.name for r in found}
    problems += [f"region {name} is in no document (add its markers where it belongs"
                 + (f": docs/ciphers/{name.removeprefix('cipher-')}.md" if name.startswith("cipher-")
                    else "") + ")"
                 for name in regions if name not in placed]
    texts: dict[str, str] = {}
    edits: dict[Path, list[tuple[Region, str]]] = {}
    for region in found:
        where = f"{region.file.relative_to(root)}: {region.name}"
        if region.name not in regions:
            problems.append(f"{where}: no such generated region")
            continue
        if region.name not in texts:
            texts[region.name] = regions[region.name]()
        current = region.file.read_text()[region.start:region.end]
        if current != texts[region.name]:
            problems.append(f"{where}: differs from the code "
                            "(python -m cipherbench.docgen --write)")
            edits.setdefault(region.file, []).append((region, texts[region.name]))
    if write:
        for path, changes in edits.items():
            text = path.read_text()
            for region, new in sorted(changes, key=lambda c: c[0].start, reverse=True):
                text = text[:region.start] + new + text[region.end:]
            path.write_text(text)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cipherbench.docgen", description=__doc__.split(
        "\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 if a region differs")
    mode.add_argument("--write", action="store_true", help="rewrite the regions that differ")
    args = parser.parse_args(argv)
    try:
        problems = check(write=args.write)
    except DocsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(("rewrote " if args.write and "differs" in problem else "") + problem)
    if args.write:
        return 1 if any("differs" not in p for p in problems) else 0
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
