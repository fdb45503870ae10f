"""Flags that several `pwc` commands share, declared once (pwc_cli.parser builds the tree)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from pwc_core.values import BoundedAppend, IntRange, iso_date, metric_threshold


def page(parser: argparse.ArgumentParser, *, default: int = 1) -> None:
    parser.add_argument(
        "--page", type=IntRange("--page", 1, 100), default=default, help="page number (1-100)"
    )


def page_size(parser: argparse.ArgumentParser, default: int, maximum: int = 100) -> None:
    parser.add_argument(
        "--limit",
        "--page-size",
        dest="page_size",
        type=IntRange("--limit", 1, maximum),
        default=default,
        help=f"rows per page (1-{maximum}, default {default})",
    )


def limit(
    parser: argparse.ArgumentParser, default: int, maximum: int, what: str, *, paged: bool = False
) -> None:
    """`--limit` (dest `limit`); a page size also answers to `--page-size`."""
    parser.add_argument(
        "--limit",
        *(["--page-size"] if paged else []),
        dest="limit",
        type=IntRange("--limit", 1, maximum),
        default=default,
        help=f"{what} (1-{maximum}, default {default})",
    )


def dates(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--start-date", type=iso_date, metavar="YYYY-MM-DD", help="published on or after"
    )
    parser.add_argument(
        "--end-date", type=iso_date, metavar="YYYY-MM-DD", help="published on or before"
    )


def official(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--has-official-implementation",
        action="store_true",
        help="only papers with official code (confirmed by the API)",
    )


def coverage(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--implementation-coverage",
        action="store_true",
        help="add official_implementation and code_repositories columns",
    )


def json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help='print {"schema_version": "v1", "data": ...}'
    )


def paper(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paper",
        metavar="PAPER",
        help="arXiv ID (modern or legacy), numeric catalog ID, arXiv/Hugging Face/Papers With "
        "Code URL, exact title, or the unique short name before a title's colon",
    )


def order(
    parser: argparse.ArgumentParser, fields: Iterable[str], default: str | None, direction: str
) -> None:
    choices = list(fields)
    parser.add_argument(
        "--order-by",
        choices=choices,
        default=default,
        help=f"sort field (default {default or 'trending with --task, name otherwise'})",
    )
    parser.add_argument(
        "--order-dir",
        choices=["asc", "desc"],
        default=direction,
        help=f"sort direction (default {direction})",
    )


def is_open(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--is-open",
        choices=["true", "false"],
        help=f"only {what} of open (true) or closed (false) models",
    )


def grouping(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--group-by-area", action="store_true", help="group the results by area")
    group.add_argument("--flat", action="store_true", help="always print the flat table")


def name(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--name", help=what)


def threshold(parser: argparse.ArgumentParser, flag: str, dest: str, relation: str) -> None:
    """`--min`/`--max METRIC=VALUE`, repeatable up to the bound of BoundedAppend."""
    parser.add_argument(
        flag,
        dest=dest,
        type=metric_threshold,
        action=BoundedAppend,
        default=[],
        metavar="METRIC=VALUE",
        help=f"metric {relation} VALUE; repeatable",
    )
