"""The paired 95% interval every bot comparison prints (bench_bots.py and the tuning tools)."""

from __future__ import annotations

import math
import statistics


def interval(diffs: list[float]) -> tuple[float, float, float]:
    """Mean of paired differences and its 95% interval (normal approximation)."""
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return mean, mean - half, mean + half
