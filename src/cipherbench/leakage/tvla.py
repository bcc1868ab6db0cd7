"""Fixed-versus-random Welch t-test (TVLA), first order, accumulated online.

Each trace is in the fixed group (the secret at a fixed value) or the random group (a uniformly
random secret), chosen by a seeded coin per trace (leakage/driver.py). Per time sample (here one
per clock) the test compares the two groups' means with Welch's t:

    t = (mean_f - mean_r) / sqrt(var_f / n_f + var_r / n_r)

|t| > 4.5 at any sample is the usual verdict "leaks" (Goodwill et al., "A testing methodology for
side-channel resistance validation", 2011): under the null hypothesis t is close to normal, and
|t| > 4.5 has a probability of about 7e-6 per sample.

The moments are accumulated per batch without keeping the traces: each batch's count, mean and
sum of squared deviations (two-pass in float64, exact for integer samples of this size) are merged
into the running ones with Chan, Golub and LeVeque's pairwise update, which stays accurate over
millions of traces where raw sums of squares would cancel.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..errors import CipherbenchError

THRESHOLD = 4.5


class WelchAccumulator:
    """Running per-group count, mean and sum of squared deviations of ``samples`` samples."""

    def __init__(self, samples: int):
        self.samples = samples
        self.count = np.zeros(2, dtype=np.int64)          # [fixed, random]
        self.mean = np.zeros((2, samples), dtype=np.float64)
        self.m2 = np.zeros((2, samples), dtype=np.float64)

    def add(self, traces: np.ndarray, random_group: np.ndarray) -> None:
        """Add a batch: ``traces`` (n, samples), ``random_group`` (n,) bool."""
        traces = np.asarray(traces)
        if traces.ndim != 2 or traces.shape[1] != self.samples \
                or random_group.shape != (traces.shape[0],):
            raise CipherbenchError(f"a TVLA batch must be (traces, {self.samples}) with one "
                                   f"group flag per trace")
        for group, members in ((0, ~random_group), (1, random_group)):
            batch = traces[members].astype(np.float64)
            n_b = batch.shape[0]
            if n_b == 0:
                continue
            mean_b = batch.mean(axis=0)
            m2_b = ((batch - mean_b) ** 2).sum(axis=0)
            n_a = self.count[group]
            total = n_a + n_b
            delta = mean_b - self.mean[group]
            self.mean[group] += delta * (n_b / total)
            self.m2[group] += m2_b + delta ** 2 * (n_a * n_b / total)
            self.count[group] = total

    def t(self) -> np.ndarray:
        """Welch's t per sample. Where both groups have zero variance: 0 if the means are equal,
        else +-inf (a difference without noise)."""
        n_f, n_r = self.count
        if n_f < 2 or n_r < 2:
            return np.zeros(self.samples)
        variance = self.m2[0] / (n_f - 1) / n_f + self.m2[1] / (n_r - 1) / n_r
        difference = self.mean[0] - self.mean[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = difference / np.sqrt(variance)
        exact = variance == 0
        t[exact & (difference == 0)] = 0.0
        t[exact & (difference != 0)] = np.copysign(np.inf, difference[exact & (difference != 0)])
        return t


@dataclass
class TvlaResult:
    """The outcome of a fixed-versus-random t-test; JSON with to_json / from_json."""

    traces_fixed: int
    traces_random: int
    t: list[float]                  # per sample (clock)
    max_abs_t: float
    at_sample: int                  # where |t| is largest
    threshold: float = THRESHOLD
    # (traces so far, max |t| so far) after each batch: how fast the verdict came
    progress: list[tuple[int, float]] = field(default_factory=list)

    @property
    def traces(self) -> int:
        return self.traces_fixed + self.traces_random

    @property
    def leaks(self) -> bool:
        return self.max_abs_t > self.threshold

    def first_leak(self) -> int | None:
        """The traces after which |t| first exceeded the threshold (batch resolution)."""
        return next((n for n, t in self.progress if t > self.threshold), None)

    def summary(self) -> str:
        verdict = "LEAKS" if self.leaks else "passes"
        return (f"TVLA fixed vs random, first order: {verdict}: max |t| = {self.max_abs_t:.2f} "
                f"at sample {self.at_sample} (threshold {self.threshold}), {self.traces} traces "
                f"({self.traces_fixed} fixed, {self.traces_random} random)")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["t"] = [_finite(x) for x in self.t]
        data["max_abs_t"] = _finite(self.max_abs_t)
        data["progress"] = [[n, _finite(t)] for n, t in self.progress]
        data["leaks"] = self.leaks
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> TvlaResult:
        data = json.loads(text)
        data.pop("leaks", None)
        data["t"] = [float(x) for x in data["t"]]
        data["max_abs_t"] = float(data["max_abs_t"])
        data["progress"] = [(int(n), float(t)) for n, t in data["progress"]]
        return cls(**data)


def _finite(x: float) -> float | str:
    """JSON has no infinity: an infinite t is written as the string "inf" / "-inf"."""
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")


class Tvla:
    """The online test: ``add`` batches, ``result()`` at any time."""

    def __init__(self, samples: int, threshold: float = THRESHOLD):
        self.accumulator = WelchAccumulator(samples)
        self.threshold = threshold
        self.progress: list[tuple[int, float]] = []

    def add(self, traces: np.ndarray, random_group: np.ndarray) -> None:
        self.accumulator.add(traces, random_group)
        t = self.accumulator.t()
        self.progress.append((int(self.accumulator.count.sum()), float(np.max(np.abs(t)))))

    def result(self) -> TvlaResult:
        t = self.accumulator.t()
        at = int(np.argmax(np.abs(t)))
        return TvlaResult(
            traces_fixed=int(self.accumulator.count[0]),
            traces_random=int(self.accumulator.count[1]),
            t=[float(x) for x in t], max_abs_t=float(abs(t[at])), at_sample=at,
            threshold=self.threshold, progress=list(self.progress))
