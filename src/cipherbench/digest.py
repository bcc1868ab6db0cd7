"""Source digests: which source files decide a generated design, hashed for cache keys.

A design's Verilog and cycle counts depend on the code that writes and measures it (its kind's
module, kinds/, and generate.py), on its architecture and on its cipher's folder, and on whatever
those import inside the package (Camellia's composite S-box imports AES components, TDEA imports
DES). The digest of a design hashes exactly that: the closure of imports from those modules, found
statically with ``ast`` (imports inside functions included), with the data files (a testbench's
C++, a Verilog testbench) that sit beside a module of the closure. No list of sources is kept by
hand: what a module imports is what it depends on. Editing Twofish then leaves every cached AES
result valid, and editing a component invalidates only the designs that use it.

The kinds' registry (kinds/registry.py) is a boundary: it is hashed, but its imports, which reach
every kind, are not followed, so a generated design does not depend on the code that wraps a
designer's core.
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

from . import __version__

PACKAGE_ROOT = Path(__file__).parent
PACKAGE = PACKAGE_ROOT.name  # "cipherbench"
_HASHED_SUFFIXES = (".py", ".cpp", ".txt", ".v")
# Modules whose imports are not followed (see the module's docstring).
BOUNDARY = (PACKAGE_ROOT / "kinds" / "registry.py",)


def _files(part: str) -> list[Path]:
    base = PACKAGE_ROOT / part
    paths = sorted(base.rglob("*")) if base.is_dir() else [base]
    return [p for p in paths if p.is_file() and p.suffix in _HASHED_SUFFIXES
            and "__pycache__" not in p.parts]


def _module_file(dotted: list[str], root: Path = PACKAGE_ROOT) -> list[Path]:
    """The file(s) of a module under ``root``: ``[ciphers, aes, hw]`` -> ciphers/aes/hw.py,
    plus the ``__init__.py`` of every package on the way (importing runs them)."""
    found = []
    for depth in range(1, len(dotted) + 1):
        init = root.joinpath(*dotted[:depth], "__init__.py")
        if init.is_file():
            found.append(init)
    module = root.joinpath(*dotted[:-1], dotted[-1] + ".py") if dotted else None
    if module is not None and module.is_file():
        found.append(module)
    return found


@lru_cache(maxsize=None)  # `cipherbench list` asks for every cipher x architecture pair
def _imports(path: Path) -> list[Path]:
    """Package files imported by ``path`` (relative imports and ``cipherbench.`` ones)."""
    if path.suffix != ".py":
        return []
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return []
    # The package a relative import starts from: the folder of the file (for an __init__.py,
    # the package it defines, which is the same folder), under the root its imports resolve in.
    root = _import_root(path)
    package = list(path.relative_to(root).parent.parts)
    found: list[Path] = []
    for node in ast.walk(tree):
        targets: list[list[str]] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
            elif node.module and node.module.split(".")[0] == PACKAGE:
                base = []
            else:
                continue
            module = (node.module or "").split(".") if node.module else []
            if not node.level and module:
                module = module[1:]  # drop "cipherbench"
            targets.append(base + module)
            # ``from . import hw`` / ``from ..components import aes_sbox``: names may be modules.
            targets += [base + module + [alias.name] for alias in node.names]
        elif isinstance(node, ast.Import):
            targets += [name.name.split(".")[1:] for name in node.names
                        if name.name.split(".")[0] == PACKAGE]
        for dotted in targets:
            local = bool(isinstance(node, ast.ImportFrom) and node.level)
            found += _module_file([part for part in dotted if part],
                                  root if local else PACKAGE_ROOT)
    return found


def _import_root(path: Path) -> Path:
    """The folder a file's relative imports resolve in: the package's own root, or for a cipher
    package from outside it ($CIPHERBENCH_CIPHERS) the folder above its top package."""
    if path.is_relative_to(PACKAGE_ROOT):
        return PACKAGE_ROOT
    top = path.parent
    while (top.parent / "__init__.py").is_file():
        top = top.parent
    return top.parent


def module_files(*modules: str) -> list[Path]:
    """The files of dotted module names (``cipherbench.generate``): the seeds of a closure. A
    name that is no module of the package is an error, so a renamed module cannot drop out of a
    digest unnoticed."""
    found = []
    for module in modules:
        parts = module.split(".")
        if parts[0] != PACKAGE or not (files := _module_file(parts[1:])):
            raise ValueError(f"{module!r} is no module of {PACKAGE}")
        found.append(files[-1])
    return found


def import_closure(seeds: list[Path]) -> list[Path]:
    """Every package file reachable from ``seeds`` through imports (the boundary's files are
    kept, their imports not followed), with the data files beside each, sorted."""
    seen: set[Path] = set()
    todo = list(seeds)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path not in BOUNDARY:
            todo += [p for p in _imports(path) if p not in seen]
    return sorted(seen | {data for path in seen for data in _data_beside(path)})


@lru_cache(maxsize=None)
def _data_beside(module: Path) -> tuple[Path, ...]:
    """The data files a module may read: the non-Python files of its folder and of the folders
    below it that are not packages (``verify/tb/tb.cpp`` beside ``verify/sim.py``)."""
    if module.suffix != ".py":
        return ()
    found: list[Path] = []
    todo = [module.parent]
    while todo:
        folder = todo.pop()
        for path in sorted(folder.iterdir()):
            if path.is_dir() and path.name != "__pycache__" and not (path / "__init__.py").exists():
                todo.append(path)
            elif path.is_file() and path.suffix in _HASHED_SUFFIXES and path.suffix != ".py":
                found.append(path)
    return tuple(found)


def hash_files(paths: list[Path]) -> str:
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(set(paths)):
        # A file from outside the package (a cipher of $CIPHERBENCH_CIPHERS) by its full path.
        name = path.relative_to(PACKAGE_ROOT) if path.is_relative_to(PACKAGE_ROOT) else path
        digest.update(str(name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=None)
def design_sources(common: tuple[Path, ...], cipher: str, arch: str) -> tuple[Path, ...]:
    """The files that decide a design of ``cipher`` built by architecture ``arch``: the
    ``common`` code that writes and measures every such design, the cipher's folder, the
    architecture's module, and what they import."""
    from .ciphers.registry import ciphers

    folder = ciphers()[cipher].folder
    assert folder is not None
    seeds = [*common, *_files(str(folder)), *_files(f"arch/{arch}.py")]
    return tuple(import_closure(seeds))
