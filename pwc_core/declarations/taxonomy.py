"""The taxonomy commands: task, method, conference, organization, framework (and their lists)."""

from __future__ import annotations

from pwc_core.declarations import shared
from pwc_core.declare import HOSTED_ROWS, Command, Param
from pwc_core.values import IntRange


def _hosted_page() -> tuple[Param, Param]:
    """A page and page size the tool offers over a list the catalog answers whole."""
    return shared.tool_count("page", "", 100, 1), shared.tool_count(
        "limit", "", HOSTED_ROWS, HOSTED_ROWS
    )


DECLARED = (
    Command(
        "task",
        "Task page: hierarchy, benchmarks, methods, papers.",
        (
            shared.name("task", "exact task name, slug, or ID"),
            shared.json(),
            shared.tool_count("benchmark_limit", "most benchmarks to return", 10, 10),
        ),
        (
            "pwc task --name image-classification",
            "pwc task image-classification",
            "pwc task list --search detection",
        ),
        tool="get_task",
        entity=True,
    ),
    Command(
        "task list",
        "Tasks, grouped by area or flat.",
        (
            shared.page(),
            shared.page_size(50),
            shared.text("search", "task name terms (flat output)"),
            *shared.grouping(),
            shared.text("area", "case-insensitive exact area name or area ID"),
            Param("level", "task hierarchy level", ("--level",), IntRange("--level", 0, None)),
            shared.switch("visible_only", "only visible tasks"),
            *shared.order(["name", "created_at", "level", "paper_count"], "name", "asc"),
            shared.json(),
        ),
        ("pwc task list --search detection --limit 10", "pwc task list --group-by-area"),
        tool="list_tasks",
    ),
    Command(
        "method",
        "Method details.",
        (shared.name("method", "exact method name, full name, slug, or ID"), shared.json()),
        ("pwc method transformer", "pwc method list --area Vision"),
        tool="get_method",
        entity=True,
    ),
    Command(
        "method list",
        "Methods.",
        (
            shared.page(),
            shared.page_size(50, maximum=500),
            shared.text("search", "method name terms"),
            shared.text("area", "case-insensitive exact area name or area ID"),
            Param(
                "introduced_year",
                "year the method was introduced",
                ("--introduced-year",),
                IntRange("--introduced-year", 1, 9999),
            ),
            *shared.order(
                ["name", "full_name", "introduced_year", "created_at", "paper_count"], "name", "asc"
            ),
            shared.json(),
        ),
        ("pwc method list --area Vision", "pwc method list --introduced-year 2017"),
        tool="list_methods",
    ),
    Command(
        "conference",
        "Conference details.",
        (shared.name("conference", "exact conference name, slug, or ID"), shared.json()),
        ("pwc conference neurips-2017", "pwc conference list --year 2017"),
        tool="get_conference",
        entity=True,
    ),
    Command(
        "conference list",
        "Conferences.",
        (
            Param("year", "only this year", ("--year",), IntRange("--year", 1, 9999)),
            shared.json(),
            *_hosted_page(),
        ),
        ("pwc conference list --year 2017", "pwc conference list --json"),
        tool="list_conferences",
    ),
    Command(
        "organization",
        "Organization details.",
        (shared.name("organization", "exact organization name, slug, or ID"), shared.json()),
        ("pwc organization google", "pwc organization list --featured-only"),
        tool="get_organization",
        entity=True,
    ),
    Command(
        "organization list",
        "Organizations.",
        (
            shared.switch("featured_only", "only featured organizations"),
            shared.json(),
            *_hosted_page(),
        ),
        ("pwc organization list --featured-only", "pwc organization list --json"),
        tool="list_organizations",
    ),
    Command(
        "framework",
        "Framework details.",
        (shared.name("framework", "exact framework name, slug, or ID"), shared.json()),
        ("pwc framework pytorch", "pwc framework list --platform gpu"),
        tool="get_framework",
        entity=True,
    ),
    Command(
        "framework list",
        "Frameworks.",
        (
            shared.text("domain", "exact domain name or slug"),
            shared.text("category", "exact category name or slug"),
            shared.text("platform", "exact platform name"),
            shared.json(),
            *_hosted_page(),
        ),
        (
            "pwc framework list --domain deep-learning --platform gpu",
            "pwc framework list --json",
        ),
        tool="list_frameworks",
    ),
)
