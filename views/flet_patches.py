"""Work-arounds for flet-web 1.0.5, applied once by the server at start-up.

1. Disconnects that never reach the page (below).
2. A debug string built for every message sent (see `send_message`).

`FletApp.handle` awaits its send loop before it disconnects the session. When a client goes away
while a frame is being sent, the send loop raises, `disconnect_session` is never reached: the page
never gets `on_disconnect` (its seat stays "connected" on the board) and the session is never
expired (it keeps receiving renders). Measured with protocol clients closing together: 2 stuck
seats out of 6 before, 0 after. The loop's only job left at that point is to stop, so its error
is logged and swallowed.
"""

from __future__ import annotations

import logging
from typing import Any

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

    # `send_message` formats every outgoing message for a debug log line even when debug
    # logging is off: a repr of whole control trees, measured at 4-5% of the server's CPU.
    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    def send_message(self: FletApp, message: Any) -> None:
        body = msgpack.packb([message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl))
        self._FletApp__send_queue.put_nowait(b"\x00" + body)  # type: ignore[attr-defined]

    FletApp.send_message = send_message  # type: ignore[method-assign]
    _applied = True
