"""A finished game as a play for BG Stats, the score-keeping app many players already use.

BG Stats takes plays pushed from other apps as a link carrying the play as URL-encoded JSON
(published at https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
`https://app.bgstatsapp.com/addPlay.html?data=<json>` (`bgstats://app.bgstatsapp.com/...` works
too). Opening it on a phone with BG Stats shows its import dialog, where the game and players are
matched to the player's own records. The board shows the link as a QR code on its end screen.

Only the published fields are sent; the models forbid any other.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict

from companion.standings import Standing

ADD_PLAY_URL = "https://app.bgstatsapp.com/addPlay.html?data="
SOURCE_NAME = "Table referee"


class _Published(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BGStatsGame(_Published):
    name: str
    #: our id for the game, so BG Stats remembers the match for the next import
    sourceGameId: str
    highestWins: bool = True
    noPoints: bool = False
    #: BoardGameGeek's id of the game, if any (we send none: BG Stats then matches by name)
    bggId: int | None = None


class BGStatsPlayer(_Published):
    name: str
    sourcePlayerId: str
    score: float
    rank: int
    winner: bool
    startPlayer: bool
    role: str = ""


class BGStatsPlay(_Published):
    sourceName: str = SOURCE_NAME
    sourcePlayId: str
    #: local time, "YYYY-MM-DD HH:MM:SS"
    playDate: str
    durationMin: int
    game: BGStatsGame
    players: list[BGStatsPlayer]
    board: str = ""
    comments: str = ""
    #: where it was played (BG Stats otherwise names the app the play came from)
    location: str | None = None


def bgstats_play(
    *,
    play_id: str,
    game_id: str,
    game_name: str,
    names: Sequence[str],
    standings: Sequence[Standing],
    start_player: int | None,
    started: float,
    finished: float,
    comments: str = "",
) -> BGStatsPlay:
    """The play: every player with their final figure, rank and whether they won."""
    players = [
        BGStatsPlayer(
            name=names[row.seat],
            # the seat: the same seat in "Play again" is the same player
            sourcePlayerId=f"{game_id}-seat-{row.seat}",
            score=row.score,
            rank=row.rank,
            winner=row.winner,
            startPlayer=row.seat == start_player,
        )
        for row in sorted(standings, key=lambda r: r.seat)
    ]
    return BGStatsPlay(
        sourcePlayId=play_id,
        playDate=datetime.fromtimestamp(started).strftime("%Y-%m-%d %H:%M:%S"),
        durationMin=max(1, round((finished - started) / 60)),
        game=BGStatsGame(name=game_name, sourceGameId=game_id),
        players=players,
        comments=comments,
    )


def bgstats_link(play: BGStatsPlay) -> str:
    """The link BG Stats opens: the play as compact, URL-encoded JSON."""
    data = json.dumps(play.model_dump(mode="json", exclude_none=True), separators=(",", ":"), ensure_ascii=False)
    # ":" and "," may stand as they are in a query: a smaller QR code
    return ADD_PLAY_URL + quote(data, safe=":,")


def room_play(room: Any) -> BGStatsPlay | None:
    """The play of a finished room (companion.room.Room), None while it runs."""
    from companion.i18n import MESSAGES

    standings = room.game.standings(room.state)
    if standings is None:
        return None
    opening = room.history.states[0]
    order = getattr(opening, "order", None)
    start_player = order[0] if order else getattr(opening, "placer", None)
    return bgstats_play(
        play_id=f"{room.id}-{room.seed}",
        game_id=room.game_id,
        game_name=MESSAGES[f"game.{room.game_id}"],
        names=room.names,
        standings=standings,
        start_player=start_player,
        started=room.created,
        finished=room.log_entries[-1].at if room.log_entries else room.created,
    )
