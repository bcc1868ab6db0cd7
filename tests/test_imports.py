"""No import circle among cipherbench's modules, counting imports inside functions (which only
hide a circle from the interpreter, not from a reader) and leaving out those under
``TYPE_CHECKING`` (which never run)."""

from __future__ import annotations

import ast
from pathlib import Path

from cipherbench.digest import PACKAGE, PACKAGE_ROOT


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports at run time."""
    tree = ast.parse(path.read_text())
    typing_only = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(branch.test) for node in ast.walk(branch)}
    me = module_name(path, root)
    package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + (node.module.split(".") if node.module else []))
            for alias in node.names:
                name = f"{target}.{alias.name}"
                found.add(name if name in modules else target)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    # A module importing its own package (or a package its parent) is not a circle of two.
    return {m for m in found & modules if m != me and not me.startswith(m + ".")}


def import_circles(root: Path) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    paths = {module_name(p, root): p for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    graph = {m: imported_modules(p, root, set(paths)) for m, p in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                circles.append(sorted(group))

    for module in graph:
        if module not in index:
            visit(module)
    return circles


def test_no_import_circle() -> None:
    assert import_circles(PACKAGE_ROOT) == []


def test_an_import_circle_is_found(tmp_path: Path) -> None:
    root = tmp_path / PACKAGE
    (root / "verify").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "verify" / "__init__.py").write_text("")
    (root / "cache.py").write_text("def f():\n    from .verify import record\n")
    (root / "verify" / "record.py").write_text("from ..cache import f\n")
    (root / "leaf.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from .cache import f\n")
    assert import_circles(root) == [[f"{PACKAGE}.cache", f"{PACKAGE}.verify.record"]]
