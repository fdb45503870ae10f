"""Parameters that several commands declare, each built by one function."""

from __future__ import annotations

from collections.abc import Iterable

from pwc_core.declare import CLI, TOOL, Param
from pwc_core.values import IntRange, iso_date, metric_threshold, yes_no


def page(default: int = 1) -> Param:
    return Param(
        "page",
        "page number (1-100)",
        ("--page",),
        IntRange("--page", 1, 100),
        default,
        tool_help="",
    )


def page_size(default: int, maximum: int = 100) -> Param:
    """A page size that the CLI spells `--limit` (or `--page-size`) and the tool `limit`."""
    return Param(
        "page_size",
        f"rows per page (1-{maximum}, default {default})",
        ("--limit", "--page-size"),
        IntRange("--limit", 1, maximum),
        default,
        tool_name="limit",
        tool_help="",
    )


def limit(default: int, maximum: int, what: str, *, paged: bool = False) -> Param:
    """`--limit` (dest `limit`); a page size also answers to `--page-size`."""
    return Param(
        "limit",
        f"{what} (1-{maximum}, default {default})",
        ("--limit", *(["--page-size"] if paged else [])),
        IntRange("--limit", 1, maximum),
        default,
        tool_help="",
    )


def dates() -> tuple[Param, Param]:
    return (
        Param(
            "start_date",
            "published on or after",
            ("--start-date",),
            iso_date,
            metavar="YYYY-MM-DD",
            tool_name="published_after",
            tool_help="",
        ),
        Param(
            "end_date",
            "published on or before",
            ("--end-date",),
            iso_date,
            metavar="YYYY-MM-DD",
            tool_name="published_before",
            tool_help="",
        ),
    )


def switch(dest: str, help_text: str, **kw: object) -> Param:
    """A switch spelled like its dest (`include_resources` is `--include-resources`)."""
    return Param(dest, help_text, ("--" + dest.replace("_", "-"),), switch=True, **kw)  # type: ignore[arg-type]


def official() -> Param:
    return switch(
        "has_official_implementation",
        "only papers with official code (confirmed by the API)",
        tool_help="only papers with official code",  # the tools' descriptions say they fail
    )


def coverage() -> Param:
    return switch(
        "implementation_coverage",
        "add official_implementation and code_repositories columns",
        where=CLI,
    )


def json() -> Param:
    return switch("json", 'print {"schema_version": "v1", "data": ...}', where=CLI)


def paper() -> Param:
    return Param(
        "paper",
        "arXiv ID (modern or legacy), numeric catalog ID, arXiv/Hugging Face/Papers With "
        "Code URL, exact title, or the unique short name before a title's colon",
        metavar="PAPER",
        # one line shared by five tools' schemas: the short form
        tool_help="arXiv or catalog ID, arXiv/Hugging Face/PwC URL, exact title, or short name "
        '("BERT")',
    )


def order(fields: Iterable[str], default: str | None, direction: str) -> tuple[Param, Param]:
    return (
        Param(
            "order_by",
            f"sort field (default {default or 'trending with --task, name otherwise'})",
            ("--order-by",),
            choices=tuple(fields),
            default=default,
            tool_help="",
        ),
        Param(
            "order_dir",
            f"sort direction (default {direction})",
            ("--order-dir",),
            choices=("asc", "desc"),
            default=direction,
            tool_name="order_direction",
            tool_help="",
        ),
    )


def is_open(what: str) -> Param:
    """`--is-open true|false` in the CLI, a boolean in the tool."""
    return Param(
        "is_open",
        f"only {what} of open (true) or closed (false) models",
        ("--is-open",),
        yes_no,
        choices=("true", "false"),
    )


def grouping() -> tuple[Param, Param]:
    return (
        switch("group_by_area", "group the results by area", exclusive="grouping"),
        switch("flat", "always print the flat table", exclusive="grouping", where=CLI),
    )


def name(command: str, what: str) -> Param:
    """An entity's name: `--name` (or the first word) in the CLI, the tool's `<command>`."""
    return Param("name", what, ("--name",), tool_name=command, tool_required=True)


def text(dest: str, help_text: str) -> Param:
    """A text flag spelled like its dest (`--search`)."""
    return Param(dest, help_text, ("--" + dest.replace("_", "-"),))


def threshold(flag: str, dest: str, relation: str, bound: str) -> Param:
    """`--min`/`--max METRIC=VALUE`, repeatable; the tool's {metric: value} object."""
    return Param(
        dest,
        f"metric {relation} VALUE; repeatable",
        (flag,),
        metric_threshold,
        default=[],
        metavar="METRIC=VALUE",
        repeat=True,
        tool_help=f"{{metric name: {bound} value}}",  # get_benchmark says how names match
    )


def tool_count(dest: str, help_text: str, maximum: int, default: int) -> Param:
    """A count only the tool takes (how much of an answer to return); `help_text` "" for none."""
    return Param(
        dest,
        help_text,
        kind=IntRange(dest, 1, maximum),
        default=default,
        where=TOOL,
        tool_help=help_text if help_text else "",
    )
