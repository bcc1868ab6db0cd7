"""The project's own Python reference models as a software source: correctness code, timed as is."""

from __future__ import annotations

import time

from ..ciphers.registry import ciphers as registry
from .common import Figure, bench_key_bits, mbps_of

# At least a few hundred blocks, so that the first call's key setup and cache misses are a small
# part of the figure; then blocks until the time is up, as for the other sources.
MIN_BLOCKS = 300


def measure(cipher: str, seconds: float) -> Figure:
    """Encrypt distinct blocks under one key: at least MIN_BLOCKS, then until ``seconds`` pass.

    The model API is ``encrypt(key, block)``, so whatever key handling a model does per call
    is part of its figure; that is the cost a user of the model pays.
    """
    model = registry()[cipher].model()
    key_bits = bench_key_bits(cipher)
    key = bytes(range(1, key_bits // 8 + 1))
    block_bytes = model.block_bits // 8
    done = 0
    start = time.perf_counter()
    elapsed = 0.0
    while done < MIN_BLOCKS or elapsed < seconds:
        block = done.to_bytes(block_bytes, "big")
        model.encrypt(key, block)
        done += 1
        elapsed = time.perf_counter() - start
    total = done * block_bytes
    return Figure(cipher, "model", f"cipherbench.ciphers.{cipher}", key_bits,
                  mbps_of(total, elapsed), bytes_done=total, seconds=elapsed,
                  note=f"{done} blocks")


def measure_all(ciphers: list[str], seconds: float) -> list[Figure]:
    return [measure(c, seconds) for c in ciphers]
