"""One exit-code rule for every command, through `main()` against the sample catalog on
loopback: 0 success, 2 usage (blank, unknown or ambiguous values the user can fix), 3 network or
server failure, 4 not found or an unusable answer; the message is one line in our own words."""

from __future__ import annotations

import shlex

import pytest

from tests.helpers.cli import run_cli

NOT_FOUND, USAGE = 4, 2
OUTSIDE = "Paper not in the catalog: 2501.12948 (DeepSeek-R1"

# (command line, exit code, start of the stderr message after "pwc: ")
CASES = [
    # not found: a catalog record, a paper, stored Markdown
    ('paper read "Mask R-CNN"', NOT_FOUND, "No Markdown is stored for this paper: 1703.06870"),
    ("paper read 2501.12948", NOT_FOUND, OUTSIDE),
    ("paper related 2501.12948", NOT_FOUND, OUTSIDE),
    ("paper evaluations 2501.12948", NOT_FOUND, OUTSIDE),
    ("paper lineage list 2501.12948", NOT_FOUND, OUTSIDE),
    ('paper info "A Title Nobody Ever Wrote"', NOT_FOUND, "Paper title not found: "),
    ("paper info 2999.00001", NOT_FOUND, "Paper not found: 2999.00001; identifier tried"),
    ("paper read 2999.00001", NOT_FOUND, "Paper not found: 2999.00001; identifier tried"),
    ("paper list --task no-such-task", NOT_FOUND, "No catalog record matches --task no-such-task"),
    ("task --name no-such-task", NOT_FOUND, "Task not found: no-such-task"),
    ("method --name no-such-method", NOT_FOUND, "Method not found: no-such-method"),
    ("conference --name no-such-conf", NOT_FOUND, "Conference not found: no-such-conf"),
    ("organization --name no-such-org", NOT_FOUND, "Organization not found: no-such-org"),
    ("framework --name no-such-framework", NOT_FOUND, "Framework not found: no-such-framework"),
    ("benchmark --name no-such-benchmark", NOT_FOUND, "Benchmark not found: no-such-benchmark"),
    ("task list --area Robotics", NOT_FOUND, "Area not found: Robotics"),
    ("method list --area Robotics", NOT_FOUND, "Area not found: Robotics"),
    ("benchmark list --area Robotics", NOT_FOUND, "Area not found: Robotics"),
    ("benchmark list --task no-such-task", NOT_FOUND, "No catalog record matches --task"),
    # ambiguous values are usage errors, like unknown ones
    (
        'paper info "Neural Architecture Search with Reinforcement Learning"',
        USAGE,
        "Paper title is ambiguous: ",
    ),
    ("benchmark --name ImageNet --sort Top", USAGE, "metric is ambiguous: Top"),
    ("benchmark --name ImageNet --sort latency", USAGE, "unknown metric(s): latency"),
    ("benchmark --name ImageNet --min Top=1", USAGE, "metric is ambiguous: Top"),
]

# Blank required values: usage errors found before any request.
BLANK = [
    'search ""',
    'search "  "',
    'paper info ""',
    'paper evaluations " "',
    'paper read ""',
    'paper related ""',
    'paper lineage list ""',
    'task --name ""',
    'method --name " "',
    'conference --name ""',
    'organization --name ""',
    'framework --name ""',
    'benchmark --name ""',
    "task",
    "benchmark",
]


def on_sample(sample, line: str) -> tuple[int, str, str]:
    result = run_cli(sample.url, shlex.split(line))
    return result.code, result.out, result.err


@pytest.mark.parametrize(("line", "code", "message"), CASES)
def test_exit_code_and_message(sample, line: str, code: int, message: str) -> None:
    got, out, err = on_sample(sample, line)
    assert (got, out) == (code, ""), err
    assert err.startswith(f"pwc: {message}"), err
    assert err.count("\n") == 1  # one line
    assert '{"detail"' not in err and "API request failed" not in err  # never raw upstream JSON


@pytest.mark.parametrize("line", BLANK)
def test_blank_required_value_is_usage_before_any_request(
    sample, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    sample.stats.reset()
    code, out, err = on_sample(sample, line)
    shown = err + capsys.readouterr().err
    assert (code, out) == (USAGE, ""), shown
    assert "must not be empty" in shown or "requires --name" in shown
    assert sample.stats.total() == 0


def test_rejected_value_is_a_usage_error_in_our_words(pwc, api) -> None:
    """A value the catalog itself refuses (400/422) is a usage error showing only its reason."""
    api.get("/papers/search").respond(422, json={"detail": "q is required"})
    result = pwc("search", "x")
    assert (result.code, result.err) == (
        2,
        "pwc: the catalog rejected the request: q is required\n",
    )
    api.get("/papers/search").respond(422, json={"detail": [{"loc": ["q"], "msg": "too long"}]})
    assert pwc("search", "x").err == "pwc: the catalog rejected the request: too long\n"


def test_server_failure_is_exit_3_without_raw_json(pwc, api) -> None:
    api.get("/papers/search").respond(503, json={"detail": "maintenance", "trace": "x"})
    result = pwc("search", "x")
    assert (result.code, result.err) == (3, "pwc: API request failed (503): maintenance\n")


def test_unreachable_catalog_is_exit_3(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli("http://127.0.0.1:9/api/v1", ["search", "x"])  # discard port: nothing listens
    assert result.code == 3 and result.err.startswith("pwc: API request failed")
