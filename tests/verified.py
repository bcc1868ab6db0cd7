"""A design verified as `cipherbench verify` does, once per test process: the passed count of every
vector set, the first failures in the message when any failed. The hardware tests share it."""

from __future__ import annotations

from functools import cache

from cipherbench.cache import ensure_design
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design


@cache
def verified_counts(design: str, random_blocks: int) -> dict[str, int]:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=random_blocks)
    assert report.failed == 0, [s.first_failures for s in report.sets if s.failed]
    return {s.name: s.passed for s in report.sets}
