"""The NIST CAVP GCM response files, as the PyPI ``cryptography-vectors`` package ships them.

``cryptography_vectors`` holds them under ``ciphers/AES/GCM/``: ``gcmEncryptExtIV{128,192,256}.rsp``
and ``gcmDecrypt{128,192,256}.rsp`` (CAVS 14.0). A file is sections opened by bracketed parameters
(``[Keylen = 128]``, ``[IVlen = 96]``, ``[PTlen = ..]``, ``[AADlen = ..]``, ``[Taglen = ..]``, lengths
in bits) and records of ``Count``, ``Key``, ``IV``, ``PT``, ``AAD``, ``CT``, ``Tag``; a decryption
record whose tag does not verify has a bare ``FAIL`` line instead of ``PT``. ``Count`` restarts in
every section.

``cavp_gcm_files()`` lists the files; ``read_cavp_gcm(path)`` gives :class:`GcmVector` records (with
their section's parameters and line); malformed input is a one-line ``FILE:LINE: ...`` error. The
package is a runtime dependency (``cipherbench verify`` of GCM engines); a missing one is a one-line
error naming the pip command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cipherbench.errors import CipherbenchError

GCM_FOLDER = ("ciphers", "AES", "GCM")
_SECTION = re.compile(r"^\[\s*(\w+)\s*=\s*(\d+)\s*\]$")
_FIELD = re.compile(r"^(\w+)\s*=\s*(.*?)\s*$")
_FIELDS = ("Key", "IV", "PT", "AAD", "CT", "Tag")


@dataclass(frozen=True)
class GcmVector:
    """One CAVP GCM record. ``pt`` None: a FAIL record (the tag must not verify)."""

    encrypt: bool
    count: int
    key: bytes
    iv: bytes
    ad: bytes
    pt: bytes | None
    ct: bytes
    tag: bytes
    params: tuple[tuple[str, int], ...]  # the section's [Name = value] lines
    source: str  # FILE:LINE of the record

    @property
    def failed(self) -> bool:
        return self.pt is None

    def param(self, name: str) -> int:
        return dict(self.params)[name]


def vectors_root() -> Path:
    """The ``cryptography_vectors`` package folder."""
    try:
        import cryptography_vectors
    except ImportError:
        raise CipherbenchError("the CAVP GCM files come from the cryptography-vectors package: pip "
                               "install cryptography-vectors") from None
    return Path(cryptography_vectors.__file__).parent


def cavp_gcm_files() -> dict[str, Path]:
    """The GCM response files by name (``gcmDecrypt128.rsp`` -> its path)."""
    folder = vectors_root().joinpath(*GCM_FOLDER)
    files = {path.name: path for path in sorted(folder.glob("gcm*.rsp"))}
    if not files:
        raise CipherbenchError(f"{folder}: no gcm*.rsp files; reinstall cryptography-vectors")
    return files


def cavp_gcm_file(name: str) -> Path:
    files = cavp_gcm_files()
    if name not in files:
        raise CipherbenchError(f"no CAVP GCM file {name!r}; the package has {', '.join(files)}")
    return files[name]


def _hex(source: str, name: str, text: str) -> bytes:
    if len(text) % 2 or not re.fullmatch(r"[0-9A-Fa-f]*", text):
        raise CipherbenchError(f"{source}: {name} = {text[:40]!r} is not an even number of hex digits")
    return bytes.fromhex(text)


def parse_cavp_gcm(text: str, source: str, encrypt: bool) -> list[GcmVector]:
    """The records of a GCM response file's text (``encrypt``: an encryption file, where every
    record has PT; decryption files have PT or FAIL)."""
    vectors: list[GcmVector] = []
    params: dict[str, int] = {}
    in_header = False  # a run of [..] lines starts a new section
    record: dict[str, object] = {}
    start = 0
    seen: set[int] = set()

    def finish() -> None:
        if not record:
            return
        where = f"{source}:{start}"
        if "Count" not in record:
            raise CipherbenchError(f"{where}: record does not start with 'Count = n'")
        missing = [n for n in _FIELDS if n not in record and not (n == "PT" and "FAIL" in record)]
        if missing:
            raise CipherbenchError(f"{where}: record Count = {record['Count']} has no "
                                   f"{', '.join(missing)}")
        if encrypt and "FAIL" in record:
            raise CipherbenchError(f"{where}: FAIL in an encryption file")
        count = record["Count"]
        if count in seen:
            raise CipherbenchError(f"{where}: duplicate Count = {count} in one section")
        seen.add(count)  # type: ignore[arg-type]
        value: dict = record
        vectors.append(GcmVector(encrypt, count, value["Key"], value["IV"], value["AAD"],
                                 None if "FAIL" in record else value["PT"], value["CT"],
                                 value["Tag"], tuple(params.items()), where))
        record.clear()

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            finish()
            continue
        section = _SECTION.match(line)
        if section:
            finish()
            if not in_header:
                params, seen = {}, set()
                in_header = True
            params[section.group(1)] = int(section.group(2))
            continue
        in_header = False
        if line == "FAIL":
            if "FAIL" in record or "PT" in record:
                raise CipherbenchError(f"{source}:{number}: FAIL with PT or twice in one record")
            record["FAIL"] = True
            continue
        match = _FIELD.match(line)
        if not match:
            raise CipherbenchError(f"{source}:{number}: expected [Name = n], 'Name = hex' or FAIL, "
                                   f"got {line[:40]!r}")
        name, value = match.groups()
        if name == "Count":
            finish()
            if not value.isdigit():
                raise CipherbenchError(f"{source}:{number}: Count {value!r} is not a decimal number")
            record["Count"], start = int(value), number
            continue
        if name not in _FIELDS:
            raise CipherbenchError(f"{source}:{number}: unknown field {name!r}; expected "
                                   f"{', '.join(_FIELDS)}")
        if not record:
            raise CipherbenchError(f"{source}:{number}: {name} before 'Count = n'")
        if name in record or (name == "PT" and "FAIL" in record):
            raise CipherbenchError(f"{source}:{number}: {name} repeated in one record")
        record[name] = _hex(f"{source}:{number}", name, value)
    finish()
    return vectors


def read_cavp_gcm(path: str | Path) -> list[GcmVector]:
    """The records of one GCM response file (encryption or decryption from its name)."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as err:
        raise CipherbenchError(f"{path}: cannot read ({err.strerror})") from None
    return parse_cavp_gcm(text, str(path), encrypt="Encrypt" in path.name)
