"""The operations a de-synchronized core is measured on: a key, then blocks offered back to back.

Both the timing (measure.py) and the power (power.py) of a core are read from streams of this
form, each with a seed of its own, so that a figure can be reproduced from the seed alone.
"""

from __future__ import annotations

import random
from typing import Any

from ...verify.sim import BlockOp, KeyOp, Op


def stream_ops(spec: Any, block_bytes: int, blocks: int, seed: int = 2030) -> list[Op]:
    """A random key of the design's largest size, then ``blocks`` random blocks (decrypted where
    the design only decrypts)."""
    rng = random.Random(seed)
    decrypt = spec.param_dict.get("ops") == "decrypt"
    ops: list[Op] = [KeyOp(rng.randbytes(max(spec.key_sizes) // 8))]
    ops += [BlockOp(rng.randbytes(block_bytes), decrypt=decrypt) for _ in range(blocks)]
    return ops
