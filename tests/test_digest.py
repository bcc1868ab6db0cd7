"""Cache keys hash exactly the sources a design depends on (digest.py)."""

from __future__ import annotations

from cipherbench.digest import PACKAGE_ROOT, design_digest, design_sources
from cipherbench.generate import generator_digest
from cipherbench.spec import parse


def _names(cipher: str, arch: str) -> set[str]:
    return {str(p.relative_to(PACKAGE_ROOT)) for p in design_sources(cipher, arch)}


def test_a_design_depends_on_its_cipher_architecture_and_what_they_import() -> None:
    aes = _names("aes", "iterative")
    assert {"ciphers/aes/hw.py", "components/aes_sbox_composite.py", "arch/iterative.py",
            "verify/tb/tb.cpp", "interface.py"} <= aes
    assert not any(name.startswith(("ciphers/twofish", "ciphers/des", "flows/", "report/"))
                   for name in aes)
    # Imports across cipher folders and inside functions are followed.
    assert "ciphers/des/hw.py" in _names("tdea", "iterative")
    assert "components/aes_sbox_composite.py" in _names("camellia", "iterative")
    assert "components/mds.py" in _names("twofish", "iterative")
    assert "components/mds.py" not in _names("serpent", "iterative")


def test_digests_are_stable_and_differ_between_unrelated_designs() -> None:
    assert design_digest("aes", "iterative") == design_digest("aes", "iterative")
    assert design_digest("aes", "iterative") != design_digest("twofish", "iterative")
    spec = parse("aes-128/iterative")
    assert generator_digest(spec) == design_digest("aes", "iterative")
    assert len(generator_digest()) == 16 and generator_digest() != generator_digest(spec)
