"""Compile a one-file C++ program against Crypto++ into the cache, once per source digest.

Used by the software baseline (``cryptopp_bench.cpp``) and by the Crypto++ oracle
(``verify/cryptopp_oracle.cpp``), both templates filled in with the Crypto++ classes the ciphers
declare (:func:`build_generated`), so that no cipher is named here or in the C++. A missing
compiler, header or library is :class:`SourceUnavailable` (the caller notes or skips it); a
compile error of the source itself is :class:`BuildFailed` (a real failure).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from ..cachedir import cache_root
from .common import SourceUnavailable

HEADER_DIRS = (Path("/usr/include/crypto++"), Path("/usr/include/cryptopp"))
BUILD_TIMEOUT = 300
MISSING_LIBRARY = "the Crypto++ library is missing (Debian: apt-get install libcrypto++-dev)"


class BuildFailed(RuntimeError):
    """The compiler ran and rejected the source."""


def compiler() -> str:
    name = os.environ.get("CXX") or "g++"
    found = shutil.which(name)
    if not found:
        raise SourceUnavailable(f"{name} is not installed (Debian: apt-get install g++)")
    return found


def check_headers() -> None:
    if not any((folder / "cryptlib.h").is_file() for folder in HEADER_DIRS):
        raise SourceUnavailable("Crypto++ headers are missing "
                                "(Debian: apt-get install libcrypto++-dev)")


def binary_path(source: Path, folder: str, stem: str) -> Path:
    """``$CIPHERBENCH_CACHE/FOLDER/STEM-DIGEST``: named by the source's digest, so an edit
    rebuilds it."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    return cache_root() / folder / f"{stem}-{digest}"


def build(source: Path, folder: str, stem: str) -> Path:
    """The program's binary, compiled now unless a build of the same source is cached."""
    target = binary_path(source, folder, stem)
    if target.is_file() and os.access(target, os.X_OK):
        return target
    cxx = compiler()
    check_headers()
    target.parent.mkdir(parents=True, exist_ok=True)
    # nice: the machine may be shared, and a build must not slow someone's measurement.
    prefix = ["nice", "-n", "10"] if shutil.which("nice") else []
    # Compile to a temporary name, then rename: a concurrent run never sees a half-written binary.
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        output = Path(scratch) / target.name
        command = [*prefix, cxx, "-O2", "-std=c++17", str(source), "-o", str(output),
                   "-lcryptopp"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT,
                                check=False)
        if result.returncode != 0:
            if "cannot find -lcryptopp" in result.stderr:
                raise SourceUnavailable(MISSING_LIBRARY)
            raise BuildFailed(f"building {source.name} failed:\n{result.stderr[-2000:]}")
        os.replace(output, target)
    return target


# --- harnesses generated from the ciphers' declarations ------------------------------------------

INCLUDES_MARKER = "// @CRYPTOPP_INCLUDES "
CLASSES_MARKER = "// @CRYPTOPP_CLASSES@"


def declared_classes() -> list[Any]:
    """Every Crypto++ class the registered ciphers declare (CipherInfo.cryptopp), by name, once."""
    from ..ciphers.registry import ciphers

    found = {c.name: c for info in ciphers().values() for c in info.cryptopp}
    return [found[name] for name in sorted(found)]


def render(template: Path, classes: list[Any]) -> str:
    """The template's text with its markers filled in: each ``// @CRYPTOPP_INCLUDES DIR@`` line
    becomes one ``#include <DIR/header>`` per header, the ``// @CRYPTOPP_CLASSES@`` line one
    table entry ``{"Name", &make<CryptoPP::Name>}`` per class."""
    headers = sorted({c.header for c in classes})
    lines = []
    for line in template.read_text().splitlines():
        marker = line.strip()
        if marker.startswith(INCLUDES_MARKER) and marker.endswith("@"):
            folder = marker[len(INCLUDES_MARKER):-1]
            lines += [f"#include <{folder}/{header}>" for header in headers]
        elif marker == CLASSES_MARKER:
            indent = line[: len(line) - len(line.lstrip())]
            lines += [f'{indent}{{"{c.name}", &make<CryptoPP::{c.name}>}},' for c in classes]
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


def generated_source(template: Path, folder: str, stem: str) -> Path:
    """The template rendered for the declared classes, written once into the cache as
    ``FOLDER/STEM-DIGEST.cpp`` (named by its text's digest, so a new class rebuilds it)."""
    text = render(template, declared_classes())
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = cache_root() / folder / f"{stem}-{digest}.cpp"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_name(f".{path.name}.{os.getpid()}")
        scratch.write_text(text)
        os.replace(scratch, path)
    return path


def build_generated(template: Path, folder: str, stem: str) -> Path:
    """:func:`build` of the template rendered for the declared classes."""
    return build(generated_source(template, folder, stem), folder, stem)
