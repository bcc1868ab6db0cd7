"""Compile a one-file C++ program against Crypto++ into the cache, once per source digest.

Used by the software baseline (``cryptopp_bench.cpp``) and by the tests' Crypto++ oracle. A missing
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

from ..cache import cache_root
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
