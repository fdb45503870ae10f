"""Example arguments for every tool, resource template and prompt: the one table.

Each runs against the bundled sample catalog. The tests call every one of them (the text
checks, the content-free log check and the route coverage iterate over this table; an argument
a test needs for a reason is an example here), and `make regen` (scripts/regen.py) writes the
README's tool table and scripts/interop_calls.json, the Inspector's plan, from them
(tests/test_regen.py fails while either is stale).
"""

from __future__ import annotations

import json
from typing import Any

# tool -> its examples; the first is the one the tests, the interop run and the README's
# text samples call.
TOOL_EXAMPLES: dict[str, tuple[dict[str, Any], ...]] = {
    "search_papers": (
        {"query": "diffusion models", "mode": "semantic", "published_after": "2022-01-01"},
    ),
    "get_paper_info": (
        {"paper": "1706.03762", "include_resources": True, "repo_limit": 3},
        {"paper": "BERT", "cite": "bibtex"},
        {"paper": "1706.03762", "include_evaluations": True},
        {"paper": "10.1038/nature16961"},  # a DOI outside the catalog: public metadata
    ),
    "get_paper_evaluations": (
        {"paper": "Attention Is All You Need", "page": 1, "limit": 10},
        {"paper": "1706.03762", "against_sota": True},
    ),
    "read_paper": (
        {"paper": "1706.03762"},
        {"paper": "1706.03762", "outline": True},
        {"paper": "1706.03762", "section": "4-results@1390"},
    ),
    "list_papers": (
        {"task": "image-classification", "authors": ["Kaiming He"], "order_by": "citation_count"},
    ),
    "list_recent_papers": ({"limit": 5}, {"limit": 25}),  # 25: a whole hosted page
    "list_trending_papers": ({"max_age_days": 30},),
    "get_related_papers": ({"paper": "2010.11929", "limit": 5},),
    "get_paper_lineage": ({"paper": "BERT"},),
    "get_task": ({"task": "image-classification", "benchmark_limit": 5},),
    "list_tasks": ({"search": "detection"}, {"group_by_area": True}),
    "get_method": ({"method": "transformer"},),
    "list_methods": ({"area": "Vision", "introduced_year": 2017},),
    "get_conference": ({"conference": "neurips-2017"},),
    "list_conferences": ({"year": 2017, "limit": 10},),
    "get_organization": ({"organization": "google"},),
    "list_organizations": ({"featured_only": True},),
    "get_framework": ({"framework": "pytorch"},),
    "list_frameworks": ({"domain": "deep-learning", "platform": "gpu"},),
    "get_benchmark": (
        {
            "benchmark": "ImageNet",
            "max_parameters": "1.5B",
            "minimum_metrics": {"Top 1 Accuracy": 85},
            "sort_metric": "Top 1 Accuracy",
        },
        {"benchmark": "Penn Treebank (Word Level)", "timeline": True},
    ),
    "list_benchmarks": ({"task": "image-classification"}, {"group_by_area": True}),
}

# URI template -> a URI that reads something (904512's Markdown fits one response).
RESOURCE_EXAMPLES: dict[str, str] = {
    "pwc://papers/{paper}": "pwc://papers/1706.03762",
    "pwc://papers/{paper}/markdown": "pwc://papers/904512/markdown",
    "pwc://tasks/{task}": "pwc://tasks/image-classification",
    "pwc://benchmarks/{benchmark}": "pwc://benchmarks/imagenet",
}

PROMPT_EXAMPLES: dict[str, dict[str, str]] = {
    "find_papers": {"topic": "vision transformers"},
    "compare_leaderboard": {"benchmark": "ImageNet"},
    "survey_task": {"task": "image-classification"},
}

# The cached calls `make bench` measures (bench/__main__.py): kept apart from the examples above
# because published ratios must stay comparable across runs (keyword search: the semantic
# limit must not shape a throughput figure; a thresholded, paged leaderboard).
MEASURED: dict[str, dict[str, Any]] = {
    "search_papers": {"query": "transformer"},
    "get_paper_info": {"paper": "1706.03762"},
    "get_benchmark": {
        "benchmark": "imagenet",
        "minimum_metrics": {"Top 1 Accuracy": 80},
        "limit": 10,
    },
}

INTEROP_COMMENT = (
    "Generated from pwc_mcp/site/examples.py by `make regen` (scripts/regen.py); do not edit. "
    "scripts/interop.sh calls every tool, reads every template and gets every prompt listed "
    "here, in both protocol eras, with the MCP Inspector CLI; a tool, template or prompt the "
    "server lists but this file lacks is a FAIL."
)


def first_examples() -> dict[str, dict[str, Any]]:
    """One call per tool: the first example of each."""
    return {tool: examples[0] for tool, examples in TOOL_EXAMPLES.items()}


def interop_calls_json() -> str:
    """The text of scripts/interop_calls.json: one line per call, so a review reads as a table."""
    sections: dict[str, dict[str, Any]] = {
        "tools": first_examples(),
        "resources": RESOURCE_EXAMPLES,
        "prompts": PROMPT_EXAMPLES,
    }
    lines = ["{", f'  "_comment": {_line(INTEROP_COMMENT)},']
    for index, (section, calls) in enumerate(sections.items()):
        entries = [f"    {_line(name)}: {_line(value)}" for name, value in calls.items()]
        closing = "}" if index == len(sections) - 1 else "},"
        lines += [f'  "{section}": {{', ",\n".join(entries), f"  {closing}"]
    return "\n".join([*lines, "}"]) + "\n"


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
