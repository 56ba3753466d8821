"""How many random games the property tests play. `REFEREE_PROPERTY_SCALE=N` multiplies them
(a long hunt for rare failures, run by hand: `REFEREE_PROPERTY_SCALE=30 uv run pytest tests/games
-k properties`); unset, each test plays its usual, CI-sized number."""

from __future__ import annotations

import os

SCALE = max(1, int(os.environ.get("REFEREE_PROPERTY_SCALE", "1")))


def examples(usual: int) -> int:
    """Hypothesis' max_examples for a test that usually tries `usual` examples."""
    return usual * SCALE


def seeds(usual: int) -> range:
    """The seeds of a loop over seeded random games that usually plays `usual` of them."""
    return range(usual * SCALE)
