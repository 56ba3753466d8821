"""Player setup shared by every game: names and colours in clockwise seating order."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from companion.engine import Model
from companion.glyphs import undrawable

#: Colours of the physical boxes, each paired with a shape so colour-blind players can tell
#: them apart on the board.
Colour = Literal["red", "blue", "green", "yellow", "purple", "orange", "black", "white"]
COLOUR_SHAPES: dict[str, str] = {
    "red": "circle",
    "blue": "square",
    "green": "triangle",
    "yellow": "diamond",
    "purple": "star",
    "orange": "hexagon",
    "black": "cross",
    "white": "ring",
}


#: a player's name, at most this many characters (the setup form's field stops there)
NAME_LENGTH = 24


class Player(Model):
    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    colour: Colour

    @field_validator("name")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("a player needs a name")
        missing = undrawable(value)
        if missing:  # an emoji: an empty box on every screen (docs/decisions/names-the-font-draws.md)
            raise ValueError(f"the screens cannot show {missing}")
        return value


def check_players(players: tuple[Player, ...], low: int, high: int) -> tuple[Player, ...]:
    """Validate count, unique names and unique colours (messages shown on the setup screen)."""
    if not low <= len(players) <= high:
        raise ValueError(f"this game takes {low} to {high} players, not {len(players)}")
    names = [p.name.casefold() for p in players]
    if len(set(names)) != len(names):
        raise ValueError("two players have the same name")
    colours = [p.colour for p in players]
    if len(set(colours)) != len(colours):
        raise ValueError("two players have the same colour")
    return players
