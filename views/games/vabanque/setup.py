"""Vabanque's setup form: the shared form's players and house rules are all it asks."""

from __future__ import annotations

from views.games import no_setup_fields as setup_fields
from views.games import no_setup_load as setup_load
from views.games import no_setup_values as setup_values

__all__ = ["setup_fields", "setup_load", "setup_values"]
