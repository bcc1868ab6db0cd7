"""Known answers typed from RFC 3713, and a reader for NTT's Camellia test-vector file.

Typed here: RFC 3713 Appendix A, one example per key size (the same plaintext under 128-, 192- and
256-bit keys). The RFC's text, where provided, is ``$CIPHERBENCH_KAT/camellia/rfc3713.txt``.

NTT's ``t_camellia.txt`` (in PyPI ``cryptography_vectors`` split per key size as
``ciphers/Camellia/camellia-{128,192,256}-ecb.txt``) lists ``K No.nnn : hex bytes`` lines, each followed
by many ``P No.nnn`` / ``C No.nnn`` pairs under that key; ``read_ntt`` turns it into VectorCases.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cipherbench.errors import CipherbenchError
from cipherbench.verify.vectors import VectorCase, cryptography_vectors_dir, kat_root


@dataclass(frozen=True)
class Example:
    name: str
    key: bytes
    plaintext: bytes
    ciphertext: bytes


_PLAINTEXT = bytes.fromhex("0123456789abcdeffedcba9876543210")

RFC3713_A: tuple[Example, ...] = (
    Example("RFC 3713 App. A (128-bit key)", bytes.fromhex("0123456789abcdeffedcba9876543210"),
            _PLAINTEXT, bytes.fromhex("67673138549669730857065648eabe43")),
    Example("RFC 3713 App. A (192-bit key)",
            bytes.fromhex("0123456789abcdeffedcba9876543210" "0011223344556677"),
            _PLAINTEXT, bytes.fromhex("b4993401b3e996f84ee5cee7d79b09b9")),
    Example("RFC 3713 App. A (256-bit key)",
            bytes.fromhex("0123456789abcdeffedcba9876543210" "00112233445566778899aabbccddeeff"),
            _PLAINTEXT, bytes.fromhex("9acc237dff16d76c20ef7c919e3a7509")),
)  # fmt: skip


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) of RFC 3713 Appendix A: 128-, 192- then 256-bit key."""
    for example in RFC3713_A:
        yield example.key, example.plaintext, example.ciphertext


# --- NTT t_camellia.txt ------------------------------------------------------------------------------------

_NTT_LINE = re.compile(r"([KPC])\s+No\.\s*(\d+)\s*:\s*((?:[0-9A-Fa-f]{2}\s*)+)$")


def read_ntt(path: str | os.PathLike[str]) -> list[VectorCase]:
    """Encryption cases (P -> C) in file order, then the same pairs as decryption cases (C -> P)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        raise CipherbenchError(f"{path}: cannot read the NTT Camellia vector file ({exc})") from exc
    key: bytes | None = None
    plain: tuple[int, bytes] | None = None
    pairs: list[tuple[bytes, bytes, bytes, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.strip()
        if not content or content.startswith("#"):
            continue
        match = _NTT_LINE.match(content)
        if match is None:
            expected = "'K No.nnn : hex bytes' (or P, C)"
            raise CipherbenchError(f"{path}:{number}: cannot read {content[:40]!r}; expected {expected}")
        kind, value = match.group(1), bytes.fromhex(match.group(3))
        if kind == "K":
            key = value
        elif kind == "P":
            plain = (number, value)
        else:
            if key is None or plain is None:
                problem = "ciphertext without a key and plaintext"
                raise CipherbenchError(f"{path}:{number}: {problem}; expected K, then P, then C lines")
            pairs.append((key, plain[1], value, f"{path.name}:{plain[0]}"))
            plain = None
    if not pairs:
        raise CipherbenchError(f"{path}: no test vectors found; expected 'K No.', 'P No.', 'C No.' lines")
    cases = [VectorCase(k, p, c, False, src) for k, p, c, src in pairs]
    cases += [VectorCase(k, c, p, True, src) for k, p, c, src in pairs]
    return cases


def ntt_file(key_bits: int) -> Path | None:
    """camellia-<bits>-ecb.txt from cryptography_vectors, else from the shared kat folder, else None."""
    name = f"camellia-{key_bits}-ecb.txt"
    root = kat_root()
    for folder in (cryptography_vectors_dir("ciphers", "Camellia"), root / "camellia" if root else None):
        if folder is not None and (folder / name).is_file():
            return folder / name
    return None
