"""Headless Chromium driven over the Chrome DevTools Protocol, with `websockets` only.

`chromium(binary, tmp_path)` starts Debian's /usr/bin/chromium isolated in its own profile under the
test's temporary directory and always kills it; `Devtools` sends commands (flat sessions) and
waits for events. Timeouts here only turn a hang into a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

HANG = 20.0  # seconds: no single step of a test may take longer
LISTENING = re.compile(r"DevTools listening on (ws://\S+)")


@contextlib.contextmanager
def chromium(binary: str, tmp_path: Path) -> Iterator[str]:
    """Start headless Chromium; yield its browser websocket URL; kill it at the end."""
    profile = tmp_path / "chromium-profile"
    command = [
        binary,
        "--headless=new",
        f"--user-data-dir={profile}",
        "--remote-debugging-port=0",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-dev-shm-usage",
        "--mute-audio",
        "--window-size=1100,900",
        "about:blank",
    ]
    if os.geteuid() == 0:  # Chromium refuses to run as root inside its sandbox
        command.insert(2, "--no-sandbox")
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    found: list[str] = []
    ready = threading.Event()

    def drain() -> None:  # read stderr to the end, so Chromium never blocks on a full pipe
        assert process.stderr is not None
        for raw in process.stderr:
            match = LISTENING.search(raw.decode("utf-8", "replace"))
            if match and not found:
                found.append(match.group(1))
                ready.set()
        ready.set()

    reader = threading.Thread(target=drain, name="chromium-stderr", daemon=True)
    reader.start()
    try:
        ready.wait(HANG)
        assert found, f"chromium did not start (exit code {process.poll()})"
        yield found[0]
    finally:
        process.kill()
        process.wait(timeout=HANG)
        reader.join(timeout=HANG)


class Devtools:
    """One browser connection: commands by id, events kept for `wait_for`."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.next_id = 0
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: list[dict[str, Any]] = []
        self.changed = asyncio.Condition()
        self.domains: tuple[str, ...] = ()
        self.tasks: set[asyncio.Task[None]] = set()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    @contextlib.asynccontextmanager
    async def connect(cls, url: str) -> AsyncIterator[Devtools]:
        async with connect(url, max_size=None, ping_interval=None) as ws:
            devtools = cls(ws)
            try:
                yield devtools
            finally:
                devtools.reader.cancel()

    async def _read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if "id" in message:
                future = self.replies.pop(message["id"], None)
                if future and not future.done():
                    future.set_result(message)
                continue
            if message.get("method") == "Target.attachedToTarget":
                task = asyncio.get_running_loop().create_task(self._adopt(message["params"]))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            async with self.changed:
                self.events.append(message)
                self.changed.notify_all()

    async def open_page(self, domains: tuple[str, ...]) -> str:
        """A new tab's session with `domains` enabled, in it and in every frame that gets its
        own process (out-of-process iframes attach paused, get the same domains, then run)."""
        self.domains = domains
        target = (await self.send("Target.createTarget", {"url": "about:blank"}))["targetId"]
        attached = await self.send("Target.attachToTarget", {"targetId": target, "flatten": True})
        session: str = attached["sessionId"]
        for domain in domains:
            await self.send(f"{domain}.enable", session=session)
        await self.send(
            "Target.setAutoAttach",
            {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True},
            session=session,
        )
        return session

    async def _adopt(self, attached: dict[str, Any]) -> None:
        if not attached.get("waitingForDebugger"):
            return  # the tab itself, attached by open_page
        session = attached["sessionId"]
        for domain in self.domains:
            await self.send(f"{domain}.enable", session=session)
        await self.send("Runtime.runIfWaitingForDebugger", session=session)

    async def send(self, method: str, params: dict[str, Any] | None = None, **kw: Any) -> Any:
        """Run one command (in `session` if given); its result, or AssertionError on error."""
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if kw.get("session"):
            message["sessionId"] = kw["session"]
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[self.next_id] = future
        await self.ws.send(json.dumps(message))
        reply = await asyncio.wait_for(future, HANG)
        assert "error" not in reply, (method, reply["error"])
        return reply.get("result", {})

    async def wait_for(
        self, method: str, where: Callable[[dict[str, Any]], bool] = lambda _: True
    ) -> dict[str, Any]:
        """The first event (seen so far or still to come) named `method` that `where` accepts."""

        def match() -> dict[str, Any] | None:
            return next((e for e in self.events if e.get("method") == method and where(e)), None)

        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(match), HANG)
            found = match()
            assert found is not None
            return found

    def frame_session(self, url_part: str) -> str:
        """The session of the attached out-of-process frame whose URL contains `url_part`."""
        urls: dict[str, str] = {}  # target -> its latest URL (it attaches before it navigates)
        for event in self.seen("Target.attachedToTarget") + self.seen("Target.targetInfoChanged"):
            info = event["params"]["targetInfo"]
            urls[info["targetId"]] = info["url"]
        for event in self.seen("Target.attachedToTarget"):
            info = event["params"]["targetInfo"]
            if info["type"] == "iframe" and url_part in urls[info["targetId"]]:
                return str(event["params"]["sessionId"])
        raise AssertionError(f"no out-of-process frame loaded {url_part}")

    def seen(self, method: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("method") == method]

    async def evaluate(self, expression: str, session: str) -> Any:
        """The JSON value of `expression` (awaited if it is a promise) in a session's page."""
        result = await self.send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
            session=session,
        )
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")
