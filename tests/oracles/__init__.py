"""Independent implementations the model tests compare against, and the random workload they share.

``cryptopp`` builds and runs the Crypto++ harness; :func:`random_workload` draws the random keys and
blocks (many blocks per key, because every implementation caches its key schedule) and records what
the model under test answers, so that each oracle is then compared on exactly the same blocks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RandomResult:
    """One random block: the model's encryption and decryption of ``block`` under ``key``."""

    key: bytes
    block: bytes
    encrypted: bytes
    decrypted: bytes


def random_workload(
    encrypt: Callable[[bytes, bytes], bytes],
    decrypt: Callable[[bytes, bytes], bytes],
    key_bits: int,
    blocks: int,
    seed: int,
    blocks_per_key: int = 10,
    block_bytes: int = 16,
) -> list[RandomResult]:
    """``blocks`` random blocks under ``blocks // blocks_per_key`` random keys of ``key_bits`` bits."""
    rng = random.Random(f"{seed}-{key_bits}")
    results = []
    key = b""
    for index in range(blocks):
        if index % blocks_per_key == 0:
            key = rng.randbytes(key_bits // 8)
        block = rng.randbytes(block_bytes)
        results.append(RandomResult(key, block, encrypt(key, block), decrypt(key, block)))
    return results


def mismatches(
    results: Sequence[RandomResult], encrypted: Sequence[bytes], decrypted: Sequence[bytes]
) -> list[str]:
    """Descriptions of the blocks where an oracle's answers differ from the model's (empty if none)."""
    found = []
    for result, enc, dec in zip(results, encrypted, decrypted, strict=True):
        where = f"key={result.key.hex()} block={result.block.hex()}"
        if result.encrypted != enc:
            found.append(f"encrypt {where}: model {result.encrypted.hex()}, oracle {enc.hex()}")
        if result.decrypted != dec:
            found.append(f"decrypt {where}: model {result.decrypted.hex()}, oracle {dec.hex()}")
    return found


def per_key(results: Sequence[RandomResult], make: Callable[[bytes], object], method: str) -> list[bytes]:
    """Run ``make(key).<method>(block)`` for every result, building the oracle object once per key."""
    outputs = []
    current_key, instance = None, None
    for result in results:
        if result.key != current_key:
            current_key, instance = result.key, make(result.key)
        outputs.append(getattr(instance, method)(result.block))
    return outputs
