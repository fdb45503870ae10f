"""A second Ctrl+C forces uvicorn's exit, which skips the app's lifespan shutdown; the server
still ends the app's lifespan (briefly), so a deliberate stop closes the app's resources and
prints no traceback. Deterministic: the forced exit is set, not raced with signals."""

from __future__ import annotations

import asyncio
import logging

import pytest
import uvicorn
from starlette.types import Receive, Scope, Send

from pwc_mcp.serving.localserver import AnnouncingServer, bind


def test_a_forced_exit_still_ends_the_apps_lifespan(caplog: pytest.LogCaptureFixture) -> None:
    ended: list[str] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        assert scope["type"] == "lifespan"
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                ended.append("shutdown")
                await send({"type": "lifespan.shutdown.complete"})
                return

    sock = bind("127.0.0.1", 0, listen=False)

    def stop_at_once() -> None:  # as two Ctrl+C do: should_exit, then force_exit
        server.should_exit = True
        server.force_exit = True

    server = AnnouncingServer(uvicorn.Config(app, lifespan="on"), on_serving=stop_at_once)
    with caplog.at_level(logging.ERROR):
        asyncio.run(server.serve(sockets=[sock]))
    sock.close()
    assert ended == ["shutdown"]
    assert "Exception in 'lifespan' protocol" not in caplog.text
