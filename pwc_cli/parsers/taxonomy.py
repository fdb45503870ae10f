"""The taxonomy commands: task, method, conference, organization, framework (and their lists)."""

from __future__ import annotations

from typing import Any

from pwc_cli import flags
from pwc_cli.parsers import Builder
from pwc_core.values import IntRange


def add(b: Builder, top: Any) -> None:
    _, tlist = b.entity(
        top,
        "task",
        "Task page: hierarchy, benchmarks, methods, papers.",
        "exact task name, slug, or ID",
        list_help="Tasks, grouped by area or flat.",
        tool="get_task",
        list_tool="list_tasks",
        examples=(
            "pwc task --name image-classification",
            "pwc task image-classification",
            "pwc task list --search detection",
        ),
        list_examples=(
            "pwc task list --search detection --limit 10",
            "pwc task list --group-by-area",
        ),
    )
    flags.page(tlist)
    flags.page_size(tlist, 50)
    tlist.add_argument("--search", help="task name terms (flat output)")
    flags.grouping(tlist)
    tlist.add_argument("--area", help="case-insensitive exact area name or area ID")
    tlist.add_argument("--level", type=IntRange("--level", 0, None), help="task hierarchy level")
    tlist.add_argument("--visible-only", action="store_true", help="only visible tasks")
    flags.order(tlist, ["name", "created_at", "level", "paper_count"], "name", "asc")
    flags.json(tlist)

    _, mlist = b.entity(
        top,
        "method",
        "Method details.",
        "exact method name, full name, slug, or ID",
        list_help="Methods.",
        tool="get_method",
        list_tool="list_methods",
        examples=("pwc method transformer", "pwc method list --area Vision"),
        list_examples=("pwc method list --area Vision", "pwc method list --introduced-year 2017"),
    )
    flags.page(mlist)
    flags.page_size(mlist, 50, maximum=500)
    mlist.add_argument("--search", help="method name terms")
    mlist.add_argument("--area", help="case-insensitive exact area name or area ID")
    mlist.add_argument(
        "--introduced-year",
        type=IntRange("--introduced-year", 1, 9999),
        help="year the method was introduced",
    )
    flags.order(
        mlist, ["name", "full_name", "introduced_year", "created_at", "paper_count"], "name", "asc"
    )
    flags.json(mlist)

    _, clist = b.entity(
        top,
        "conference",
        "Conference details.",
        "exact conference name, slug, or ID",
        list_help="Conferences.",
        tool="get_conference",
        list_tool="list_conferences",
        examples=("pwc conference neurips-2017", "pwc conference list --year 2017"),
        list_examples=("pwc conference list --year 2017", "pwc conference list --json"),
    )
    clist.add_argument("--year", type=IntRange("--year", 1, 9999), help="only this year")
    flags.json(clist)

    _, olist = b.entity(
        top,
        "organization",
        "Organization details.",
        "exact organization name, slug, or ID",
        list_help="Organizations.",
        tool="get_organization",
        list_tool="list_organizations",
        examples=("pwc organization google", "pwc organization list --featured-only"),
        list_examples=("pwc organization list --featured-only", "pwc organization list --json"),
    )
    olist.add_argument("--featured-only", action="store_true", help="only featured organizations")
    flags.json(olist)

    _, flist = b.entity(
        top,
        "framework",
        "Framework details.",
        "exact framework name, slug, or ID",
        list_help="Frameworks.",
        tool="get_framework",
        list_tool="list_frameworks",
        examples=("pwc framework pytorch", "pwc framework list --platform gpu"),
        list_examples=(
            "pwc framework list --domain deep-learning --platform gpu",
            "pwc framework list --json",
        ),
    )
    flist.add_argument("--domain", help="exact domain name or slug")
    flist.add_argument("--category", help="exact category name or slug")
    flist.add_argument("--platform", help="exact platform name")
    flags.json(flist)
