"""Fixtures of every browser test: Debian's Chromium and the asyncio backend the CDP client needs."""

from __future__ import annotations

import pytest

from tests.helpers.ops import require_tool


@pytest.fixture(scope="module")
def browser_binary() -> str:
    return require_tool("chromium", "/usr/bin/chromium", hint="apt-get install chromium")


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"
