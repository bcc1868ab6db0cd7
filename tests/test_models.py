"""What every registered cipher's reference model must do, checked once for all of them: match its
CipherInfo, pass every known-answer set its folder declares, decrypt what it encrypts, refuse a
wrong key or block (one line naming the valid lengths) and keep its key-schedule caches bounded.
Each cipher's own tests (test_model_<cipher>.py, test_aes_model.py) check what is particular to it."""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Callable

import pytest

from cipherbench.ciphers.base import CipherModel
from cipherbench.ciphers.registry import CipherInfo, ciphers
from cipherbench.errors import CipherbenchError

CIPHERS = sorted(ciphers())


def _info(name: str) -> CipherInfo:
    return ciphers()[name]


def _wrong_lengths(valid: set[int], largest: int) -> list[int]:
    """Lengths in bytes around and between the valid ones, none of them valid."""
    candidates = {0, 1, *(n + d for n in valid for d in (-1, 1)), largest * 2}
    return sorted(n for n in candidates if n >= 0 and n not in valid)


def _operations(model: CipherModel) -> list[Callable[[bytes, bytes], bytes]]:
    return [model.encrypt, model.decrypt]


@pytest.mark.parametrize("cipher", CIPHERS)
def test_the_model_matches_its_registration(cipher: str) -> None:
    info = _info(cipher)
    model = info.model()
    assert (model.name, model.block_bits, tuple(model.key_sizes)) == (
        info.name, info.block_bits, tuple(info.key_sizes))
    assert info.folder is not None and (info.folder / "__init__.py").is_file()
    assert importlib.import_module(f"cipherbench.ciphers.{info.folder.name}").CIPHER is info


@pytest.mark.parametrize("cipher", CIPHERS)
def test_every_known_answer_set_passes_on_the_model(cipher: str) -> None:
    info = _info(cipher)
    assert info.vector_sets is not None, f"{cipher} declares no known answers"
    model = info.model()
    sets = list(info.vector_sets(info.key_sizes))
    assert sets and sets[0][1], "the typed-in set comes first and is not empty"
    for name, cases in sets:
        for case in cases:
            run = model.decrypt if case.decrypt else model.encrypt
            assert run(case.key, case.data) == case.expected, (name, case.source)
    smallest = min(info.key_sizes)
    assert all(len(case.key) * 8 == smallest
               for _, cases in info.vector_sets((smallest,)) for case in cases)


@pytest.mark.parametrize("cipher", CIPHERS)
def test_decryption_undoes_encryption(cipher: str) -> None:
    info = _info(cipher)
    model = info.model()
    rng = random.Random(cipher)
    for bits in info.key_sizes:
        for _ in range(20):
            key = rng.randbytes(bits // 8)
            block = rng.randbytes(info.block_bits // 8)
            assert model.decrypt(key, model.encrypt(key, block)) == block


def _one_line_error(run: Callable[[bytes, bytes], bytes], key: object, block: object) -> str:
    with pytest.raises(CipherbenchError) as error:
        run(key, block)  # type: ignore[arg-type]
    message = str(error.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("cipher", CIPHERS)
def test_wrong_key_length_is_a_one_line_error(cipher: str) -> None:
    info = _info(cipher)
    model = info.model()
    valid = {bits // 8 for bits in info.key_sizes}
    block = bytes(info.block_bits // 8)
    for length in _wrong_lengths(valid, max(valid)):
        for run in _operations(model):
            message = _one_line_error(run, bytes(length), block)
            assert "key must be" in message and f"got {length} bytes" in message
            assert f"{min(valid)}" in message and f"{max(valid)}" in message


@pytest.mark.parametrize("cipher", CIPHERS)
def test_wrong_block_length_is_a_one_line_error(cipher: str) -> None:
    info = _info(cipher)
    model = info.model()
    size = info.block_bits // 8
    key = bytes(max(info.key_sizes) // 8)
    for length in _wrong_lengths({size}, size):
        for run in _operations(model):
            message = _one_line_error(run, key, bytes(length))
            assert f"block must be {size} bytes" in message and f"got {length} bytes" in message


@pytest.mark.parametrize("cipher", CIPHERS)
def test_input_that_is_not_bytes_is_a_cipherbench_error(cipher: str) -> None:
    info = _info(cipher)
    model = info.model()
    key, block = bytes(max(info.key_sizes) // 8), bytes(info.block_bits // 8)
    for run in _operations(model):
        assert "key must be" in _one_line_error(run, key.hex(), block)
        assert "block must be" in _one_line_error(run, key, list(block))


@pytest.mark.parametrize("cipher", CIPHERS)
def test_key_schedule_caches_are_bounded(cipher: str) -> None:
    """A model may cache key schedules (functools.lru_cache), never without a bound."""
    module = sys.modules[type(_info(cipher).model()).__module__]
    caches = [value for value in vars(module).values() if hasattr(value, "cache_info")]
    for cache in caches:
        info = cache.cache_info()
        assert info.maxsize is not None and info.currsize <= info.maxsize, cache
