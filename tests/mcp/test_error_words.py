"""Errors in the tool's words (issue #26, item 5): every tool walked through its error cases
with a real MCP client against the sample catalog. Each message starts with a stable prefix,
holds no CLI flag (`--`), names the parameter it is about, keeps the user's spelling where it
says a value back, and gives the did-you-mean or the candidates (with what tells them apart)
where there are some. A tool without cases in the table fails the walk."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from fastmcp import Client

from pwc_core.errors import UsageError
from pwc_core.timeline import timeline_metric
from pwc_mcp.answers.tool_errors import tool_error
from tests.helpers.mcp import Answers, error_of

pytestmark = pytest.mark.anyio
PREFIXES = ("invalid_argument", "not_found", "ambiguous", "upstream_error")  # stable ones
NAS = "Neural Architecture Search with Reinforcement Learning"  # two catalog papers
NAS_CANDIDATES = ('paper: "1611.01578" (2016, ICLR 2017)', 'paper: "907341" (2019)')
IMAGENET = {"benchmark": "ImageNet"}
GROUPED = {"group_by_area": True}


@dataclass(frozen=True)
class Case:
    arguments: dict[str, Any]
    prefix: str
    names: tuple[str, ...]  # the parameters the message must name
    says: tuple[str, ...] = ()  # what it must say: the value as typed, did-you-mean, candidates


def meant(name: str) -> str:
    return f"did you mean {name}?"


CASES: dict[str, list[Case]] = {
    "search_papers": [
        Case(
            {"query": "x", "start_date": "2020-01-01"},
            "invalid_argument",
            ("start_date",),
            (meant("published_after"),),
        ),
        Case(
            {"query": "x", "published_after": "2024-01-01", "published_before": "2023-01-01"},
            "invalid_argument",
            ("published_after", "published_before"),
        ),
        Case({"query": "x", "limit": 99}, "invalid_argument", ("limit",)),
    ],
    "get_paper_info": [
        Case(
            {"paper": NAS.lower()}, "ambiguous", ("paper",), (f'"{NAS.lower()}"', *NAS_CANDIDATES)
        ),
        Case(
            {"paper": "1706.03762", "include_evals": True},
            "invalid_argument",
            ("include_evals",),
            (meant("include_evaluations"),),
        ),
        Case({"paper": "1706.03762", "cite": "apa"}, "invalid_argument", ("cite",)),
    ],
    "get_paper_evaluations": [
        Case({"paper": NAS}, "ambiguous", ("paper",), NAS_CANDIDATES),
        Case(
            {"paper": "1706.03762", "page_size": 5},
            "invalid_argument",
            ("page_size",),
            (meant("limit"),),
        ),
    ],
    "read_paper": [
        Case(
            {"paper": "1706.03762", "outline": True, "section": "x@0"},
            "invalid_argument",
            ("outline", "section"),
        ),
        Case(
            {"paper": "1706.03762", "section": "nothing@5"},
            "not_found",
            ("section",),
            ("'nothing@5'", "outline: true"),
        ),
        Case(
            {"paper": "1706.03762", "section": "Results"},
            "invalid_argument",
            ("section",),
            ("outline: true",),
        ),
    ],
    "list_papers": [
        Case(
            {"authors": ["jian sun"]},
            "ambiguous",
            ("authors",),
            (
                '"jian sun"',
                'authors: ["1187"] (3 papers)',
                'authors: ["40321"] (@jiansun-ml, 1 paper)',
            ),
        ),
        Case({"author": ["Jian Sun"]}, "invalid_argument", ("author",), (meant("authors"),)),
        Case(
            {"published_after": "2024-01-01", "published_before": "2023-01-01"},
            "invalid_argument",
            ("published_after", "published_before"),
        ),
        Case({"task": "No-Such-Task"}, "not_found", ("task",), ("No-Such-Task",)),
    ],
    "list_recent_papers": [
        Case({"count": 3}, "invalid_argument", ("count",), ("its parameters: limit",)),
        Case({"limit": 0}, "invalid_argument", ("limit",)),
    ],
    "list_trending_papers": [
        Case({"max_age": 30}, "invalid_argument", ("max_age",), (meant("max_age_days"),)),
        Case({"min_velocity": "inf"}, "invalid_argument", ("min_velocity",), ("'inf'",)),
    ],
    "get_related_papers": [
        Case({"paper": NAS}, "ambiguous", ("paper",), NAS_CANDIDATES),
        Case({"paper": "2999.00001"}, "not_found", ("paper",), ("2999.00001",)),
    ],
    "get_paper_lineage": [
        Case({"paper": NAS}, "ambiguous", ("paper",), NAS_CANDIDATES),
        Case(
            {"paper": "1706.03762", "depth": 2},
            "invalid_argument",
            ("depth",),
            ("its parameters: paper",),
        ),
    ],
    "get_task": [
        Case({"task": "Few Shot Lerning"}, "not_found", ("task",), ("Few Shot Lerning",)),
        Case(
            {"task": "image-classification", "benchmark_limits": 3},
            "invalid_argument",
            ("benchmark_limits",),
            (meant("benchmark_limit"),),
        ),
    ],
    "list_tasks": [
        Case(
            {**GROUPED, "page": 2},
            "invalid_argument",
            ("group_by_area",),
            ("group_by_area: false",),
        ),
        Case(
            {**GROUPED, "search": "detection"},
            "invalid_argument",
            ("group_by_area", "search"),
            ("group_by_area: false",),
        ),
        Case({**GROUPED, "area": "Nowhere"}, "not_found", ("area",), ("Nowhere",)),
    ],
    "get_method": [
        Case({"method": "transfomer"}, "not_found", ("method",), ("transfomer", "Transformer")),
        Case(
            {"name": "Transformer"},
            "invalid_argument",
            ("name",),
            (meant("method"), "method is required"),
        ),
    ],
    "list_methods": [
        Case({"year": 2017}, "invalid_argument", ("year",), (meant("introduced_year"),)),
        Case({"introduced_year": "x"}, "invalid_argument", ("introduced_year",)),
    ],
    "get_conference": [
        Case({"conference": "Nuerips 2019"}, "not_found", ("conference",), ("Nuerips 2019",)),
        Case({"name": "NeurIPS 2019"}, "invalid_argument", ("name",), (meant("conference"),)),
    ],
    "list_conferences": [
        Case({"years": 2019}, "invalid_argument", ("years",), (meant("year"),)),
    ],
    "get_organization": [
        Case(
            {"organization": "Google Deepmnd"}, "not_found", ("organization",), ("Google Deepmnd",)
        ),
        Case({"org": "Google"}, "invalid_argument", ("org",), (meant("organization"),)),
    ],
    "list_organizations": [
        Case({"featured": True}, "invalid_argument", ("featured",), (meant("featured_only"),)),
    ],
    "get_framework": [
        Case(
            {"framework": "Pytorch Imag Models"},
            "not_found",
            ("framework",),
            ("Pytorch Imag Models",),
        ),
    ],
    "list_frameworks": [
        Case({"domian": "vision"}, "invalid_argument", ("domian",), (meant("domain"),)),
    ],
    "get_benchmark": [
        Case(
            {**IMAGENET, "sort": "Top 1 Accuracy"},
            "invalid_argument",
            ("sort",),
            (meant("sort_metric"),),
        ),
        Case(
            {**IMAGENET, "min": {"GFLOPs": 1}},
            "invalid_argument",
            ("min",),
            (meant("minimum_metrics"),),
        ),
        Case(
            {**IMAGENET, "minimum_metrics": {"Latency": 1}},
            "invalid_argument",
            ("minimum_metrics",),
            ('"Latency"', "available metrics: GFLOPs"),
        ),
        Case(
            {**IMAGENET, "require_metrics": ["BLEU"]},
            "invalid_argument",
            ("require_metrics",),
            ('"BLEU"',),
        ),
        Case(
            {**IMAGENET, "pareto": ["MAP:higher", "Top 1 Accuracy:higher"]},
            "invalid_argument",
            ("pareto",),
            ('"MAP"',),
        ),
        Case(
            {**IMAGENET, "sort_metric": "Top"},
            "ambiguous",
            ("sort_metric",),
            ('"Top"', '"Top 1 Accuracy" or "Top 5 Accuracy"'),
        ),
        Case(
            {**IMAGENET, "pareto": ["Top:higher", "GFLOPs:lower"]},
            "ambiguous",
            ("pareto",),
            ('"Top 1 Accuracy" or "Top 5 Accuracy"',),
        ),
        Case(
            {**IMAGENET, "metric": "Top 1 Accuracy"},
            "invalid_argument",
            ("metric",),
            ("timeline: true",),
        ),
        Case(
            {**IMAGENET, "timeline": True, "sort_metric": "Top 1 Accuracy"},
            "invalid_argument",
            ("timeline", "sort_metric", "metric"),
        ),
        Case(
            {**IMAGENET, "timeline": True, "metric": "Latency"},
            "invalid_argument",
            ("metric",),
            ('"Latency"',),
        ),
    ],
    "list_benchmarks": [
        Case(
            {"order_by": "trending"},
            "invalid_argument",
            ("order_by", "task"),
            ('order_by: "trending"',),
        ),
        Case({"area": "Vision", "search": "x"}, "invalid_argument", ("area",)),
        Case(
            {"min_eval_count": 3},
            "invalid_argument",
            ("min_eval_count",),
            (meant("minimum_evaluations"),),
        ),
    ],
}


def named(name: str, text: str) -> bool:
    """`name` appears as a word (`Task not found` names `task`; `task_id` would not)."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE) is not None


def checked(text: str, case: Case) -> None:
    assert case.prefix in PREFIXES and text.startswith(f"{case.prefix}: "), text
    assert "--" not in text, text  # never a CLI flag
    for name in case.names:
        assert named(name, text), (name, text)
    for fragment in case.says:
        assert fragment in text, (fragment, text)


async def test_every_tool_has_error_cases(cached_client: Client) -> None:
    tools = {tool.name for tool in await cached_client.list_tools()}
    assert set(CASES) == tools
    assert all(CASES.values())


@pytest.mark.parametrize(
    ("tool", "case"),
    [
        pytest.param(tool, case, id=f"{tool}-{'-'.join(case.arguments)}")
        for tool, cases in CASES.items()
        for case in cases
    ],
)
async def test_an_error_is_said_in_the_tools_words(
    cached_client: Client, tool: str, case: Case
) -> None:
    checked(await error_of(cached_client, tool, **case.arguments), case)


# --- what only a catalog answering otherwise shows -----------------------------------------


async def test_an_unconfirmed_author_filter_names_the_parameter(
    hostile: tuple[Client, Answers],
) -> None:
    client, answers = hostile
    answers.by_path["papers/"] = (200, {"count": 1, "results": [{"id": "1", "title": "t"}]})
    text = await error_of(client, "list_papers", authors=["Ada Lovelace"])
    checked(text, Case({}, "upstream_error", ("authors",), ("before using authors",)))


async def test_ambiguous_authors_are_said_without_what_the_catalog_should_not_show(
    hostile: tuple[Client, Answers],
) -> None:
    """Candidates come from an error body: shown as clean short lines; the paper counts, asked
    for with the same failing route, are left out and the IDs still tell them apart."""
    client, answers = hostile
    candidates = [
        {"id": "7", "name": "Ada Lovelace", "hf_username": None},
        {"id": "8", "name": "Ada http://10.0.0.9/admin Lovelace", "hf_username": "ada\x1b[2J"},
    ]
    detail = {"code": "ambiguous_author", "reference": "Ada Lovelace", "candidates": candidates}
    answers.by_path["papers/"] = (409, {"detail": detail})
    text = await error_of(client, "list_papers", authors=["ada lovelace"])
    checked(
        text,
        Case({}, "ambiguous", ("authors",), ('"ada lovelace"', 'authors: ["7"] or authors: ["8"]')),
    )
    assert "10.0.0.9" not in text and "\x1b" not in text and "paper" not in text


def test_a_direction_to_state_is_said_as_the_settings_to_retry_with() -> None:
    """No sample board has a metric without a direction: the handler's error, said as the
    tool says it (the CLI's words are tests/cli/test_timeline_scan.py's)."""
    rows = [{"metrics": {"Elo": 1200, "Top 1 Accuracy": 80}}]
    with pytest.raises(UsageError) as refused:
        timeline_metric(rows, None, "elo")
    text = str(tool_error(refused.value, "benchmark"))
    checked(
        text,
        Case({}, "invalid_argument", ("metric",), ('metric: "Elo:higher" or metric: "Elo:lower"',)),
    )


def test_a_long_catalog_string_is_cleaned_only_as_far_as_it_is_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Attack: a candidate's title of a megabyte. The cleaning (regexes over the text) sees a
    bounded prefix, so its cost does not grow with what the catalog sends."""
    from pwc_mcp.answers import tool_words

    seen: list[int] = []
    clean = tool_words.without_internals
    monkeypatch.setattr(
        tool_words, "without_internals", lambda text: seen.append(len(text)) or clean(text)
    )
    line = tool_words.upstream_line("word " * 200_000 + "https://internal.example/x")
    assert seen == [tool_words.UPSTREAM_READ]
    assert len(line) <= tool_words.DETAIL_CHARS + 2 and "http" not in line


def test_addresses_go_and_long_words_stay() -> None:
    """The URL pattern now starts only where a scheme can start; what it removes is the same."""
    from pwc_core.scrub import without_internals

    word = "a" * 5_000
    assert without_internals(f"{word} https://x.y/z ahttp://q end") == f"{word} end"
