"""Design spec grammar: parse, print, validate, list."""

from __future__ import annotations

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.spec import all_designs, parse


def test_single_key_size_and_3_in_1() -> None:
    single = parse("aes-128/iterative")
    assert single.key_sizes == (128,) and single.single_key_size
    three = parse("aes/iterative")
    assert three.key_sizes == (128, 192, 256) and not three.single_key_size


def test_short_and_canonical_forms() -> None:
    spec = parse("AES-256/iterative:sbox=gf-inv")
    assert str(spec) == "aes-256/iterative:sbox=gf-inv"
    assert spec.canonical() == "aes-256/iterative:keys=fly,ops=both,sbox=gf-inv"
    assert parse(spec.canonical()) == spec
    assert str(parse("aes/iterative:ops=both")) == "aes/iterative"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("blowfish/iterative", "unknown cipher 'blowfish'"),
        ("aes-100/iterative", "no 100-bit key; valid: 128, 192, 256"),
        ("aes/unrolled9", "unknown architecture"),
        ("aes/iterative:colour=red", "unknown parameter 'colour'"),
        ("aes/iterative:sbox=magic", "valid: table, gf-inv"),
        ("aes/iterative:sbox", "expected NAME=VALUE"),
        ("aes128", "malformed design spec"),
        ("", "malformed design spec"),
    ],
)
def test_bad_specs_give_one_line(text: str, fragment: str) -> None:
    with pytest.raises(CipherbenchError) as info:
        parse(text)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_model_only_cipher_is_refused_for_hardware(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from cipherbench.ciphers import registry

    known = dict(registry.ciphers())
    known["des"] = dataclasses.replace(known["des"], hardware=None)
    monkeypatch.setattr("cipherbench.spec.ciphers", lambda: known)
    with pytest.raises(CipherbenchError, match="des has a reference model but no hardware yet"):
        parse("des/iterative")


def test_list_has_every_variant_once() -> None:
    designs = [str(d) for d in all_designs()]
    assert len(designs) == len(set(designs))
    for expected in ("aes-128/iterative", "aes/iterative", "aes-192/iterative:ops=encrypt",
                     "aes-256/iterative:ops=decrypt,sbox=gf-inv"):
        assert expected in designs


def test_architecture_specific_restrictions() -> None:
    # Camellia's loop core takes keys on the fly; its pipelines only stored round keys.
    assert parse("camellia-128/iterative").param_dict["keys"] == "fly"
    assert parse("camellia-128/pipelined").param_dict["keys"] == "stored"
    with pytest.raises(CipherbenchError, match="valid: stored"):
        parse("camellia-128/pipelined:keys=fly")
    assert parse("camellia-128/iterative:keys=stored").param_dict["keys"] == "stored"
