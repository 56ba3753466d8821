"""Work-arounds for flet-web 1.0.5, applied once by the server at start-up.

`FletApp.handle` awaits its send loop before it disconnects the session. When a client goes away
while a frame is being sent, the send loop raises, `disconnect_session` is never reached: the page
never gets `on_disconnect` (its seat stays "connected" on the board) and the session is never
expired (it keeps receiving renders). Measured with protocol clients closing together: 2 stuck
seats out of 6 before, 0 after. The loop's only job left at that point is to stop, so its error
is logged and swallowed.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)
_applied = False


def apply() -> None:
    global _applied
    if _applied:
        return
    from flet_web.fastapi.flet_app import FletApp

    original = FletApp._FletApp__send_loop  # type: ignore[attr-defined]

    async def send_loop(self: FletApp) -> None:
        try:
            await original(self)
        except Exception as exc:  # the socket closed under us
            log.debug("send loop ended with %r; disconnecting the session anyway", exc)

    FletApp._FletApp__send_loop = send_loop  # type: ignore[attr-defined]
    _applied = True
