"""The start-up line for a catalog that fails the first readiness probe (issue #27): said once,
with the URL and a content-free reason, never the upstream's own words."""

from __future__ import annotations

import logging

import httpx
import pytest

from pwc_core.errors import (
    CatalogUnreachable,
    HTTPStatusError,
    UpstreamShapeError,
    UpstreamTimeout,
)
from pwc_mcp.first_probe import failure, reporting_first_failure

URL = "https://user:secret@catalog.example/api/v1?token=t"


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def lines() -> Lines:
    return Lines()


def logger(handler: Lines) -> logging.Logger:
    log = logging.getLogger("tests.first_probe")
    log.handlers = [handler]
    log.propagate = False
    return log


def test_a_failing_first_probe_is_one_line_however_often_it_fails(lines: Lines) -> None:
    def down() -> bool:
        raise CatalogUnreachable("[Errno 111] Connection refused", URL)

    probe = reporting_first_failure(down, URL, logger(lines))
    for _ in range(3):
        with pytest.raises(CatalogUnreachable):
            probe()
    assert len(lines.lines) == 1, lines.lines
    line = lines.lines[0]
    assert "https://catalog.example/api/v1 " in line and "[Errno 111] Connection refused" in line
    assert "make demo" in line and "PWC_API_URL" in line
    assert "secret" not in line and "token" not in line, "configuration, not credentials"


def test_a_healthy_first_probe_says_nothing(lines: Lines) -> None:
    answers = iter([True, False])
    probe = reporting_first_failure(lambda: next(answers), URL, logger(lines))
    assert probe() is True and probe() is False
    assert lines.lines == [], "only the first probe speaks; /health tells the rest"


def test_an_answer_that_is_not_a_catalog_is_said_too(lines: Lines) -> None:
    reporting_first_failure(lambda: False, URL, logger(lines))()
    assert len(lines.lines) == 1 and "not a task list" in lines.lines[0]


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (HTTPStatusError(502, "<html>proxy at 10.0.0.7 says no</html>"), "HTTP 502"),
        (UpstreamTimeout(), "timed out"),
        (UpstreamShapeError("API returned invalid JSON"), "UpstreamShapeError"),
        (CatalogUnreachable("[Errno -2] Name or\nservice not known", URL), "[Errno -2] Name or"),
        (httpx.RemoteProtocolError("illegal status line: b'secret'"), "RemoteProtocolError"),
    ],
)
def test_the_reason_never_carries_upstream_content(error: Exception, said: str) -> None:
    reason = failure(error)
    assert reason.startswith(said) and "\n" not in reason
    assert "10.0.0.7" not in reason and "secret" not in reason
