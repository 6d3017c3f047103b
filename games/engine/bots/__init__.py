"""Computer opponents at three strengths, deciding only from what their seat may see.

`easy` is a noisy greedy search, `medium` the best whole turn by points plus potentials, `hard`
a wider search whose best plans are compared over sampled futures within a time budget.
"""

from .players import Bot, EasyBot, HardBot, MediumBot
from .sampling import sample_state

__all__ = ["Bot", "EasyBot", "HardBot", "MediumBot", "sample_state"]
