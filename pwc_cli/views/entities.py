"""Human output for conferences, organizations and frameworks
(docs/upstream-api.md#output-rules)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.render import Screen, heading, link, sections
from pwc_cli.views import Rendered, view
from pwc_cli.views.common import prose, slug_of
from pwc_cli.views.tables import Cell, counted, joined, row_table
from pwc_core.text import cell_text, meta_line, one_line
from pwc_core.urls import site_url


@view("conference")
@prose
def conference_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    dates = [d for d in (data.get("start_date"), data.get("end_date")) if d]
    return Rendered(
        sections(
            heading(data.get("name"), tty),
            meta_line(
                [
                    cell_text(data.get("year")),
                    counted(data, "paper_count", "paper"),
                    f"Tier: {cell_text(data['tier']).upper()}" if data.get("tier") else "",
                ]
            ),
            joined(
                f"Dates: {' – '.join(dates)}" if dates else "",
                f"Venue: {one_line(data['venue'])}" if data.get("venue") else "",
                f"Location: {one_line(data['location'])}" if data.get("location") else "",
            ),
            one_line(data.get("description")),
            joined(
                link("Conference website", data.get("url"), tty),
                link("Hugging Face", data.get("hf_url"), tty),
            ),
            link("View conference", site_url("conference", slug_of(data)), tty),
        )
    )


@view("conference list")
def conference_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    columns = [
        ("slug", "slug"),
        ("name", "name"),
        ("year", "year"),
        ("papers", "paper_count"),
        ("location", "location"),
    ]
    return row_table(
        payload, args, tty, columns, right=["year", "papers"], empty="try another --year"
    )


@view("organization")
@prose
def organization_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    years = [
        cell_text(y) for y in (data.get("first_paper_year"), data.get("latest_paper_year")) if y
    ]
    return Rendered(
        sections(
            heading(data.get("name"), tty),
            meta_line(
                [
                    counted(data, "paper_count", "paper"),
                    f"Trending rank: {data['trending_rank']}"
                    if data.get("trending_rank") is not None
                    else "",
                    "Featured" if data.get("is_featured") is True else "",
                ]
            ),
            f"Paper years: {'–'.join(years)}" if years else "",
            one_line(data.get("description")),
            joined(
                link("Website", data.get("website_url"), tty),
                link("GitHub", data.get("github_url"), tty),
                link("Hugging Face", data.get("hf_url"), tty),
            ),
            link("View organization", site_url("organization", slug_of(data)), tty),
        )
    )


@view("organization list")
def organization_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    columns: list[tuple[str, Cell]] = [
        ("id", "id"),
        ("slug", "slug"),
        ("name", "name"),
        ("papers", "paper_count"),
        ("featured", lambda r: "yes" if r.get("is_featured") is True else "no"),
        ("trend_rank", "trending_rank"),
    ]
    return row_table(payload, args, tty, columns, right=["papers", "trend_rank"])


def _platform_text(row: dict[str, Any]) -> str:
    platforms = row.get("platforms")
    return ", ".join(cell_text(p) for p in platforms) if isinstance(platforms, list) else ""


@view("framework")
@prose
def framework_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    arxiv = data.get("introducing_paper_arxiv_id")
    paper = site_url("paper", arxiv) if arxiv else None
    return Rendered(
        sections(
            heading(data.get("name"), tty),
            meta_line(
                [
                    one_line(data.get("domain_name")),
                    one_line(data.get("category_name")),
                    one_line(data.get("organization_name")),
                    counted(data, "paper_count", "paper"),
                ]
            ),
            joined(
                f"When to use: {one_line(data['when_to_use'])}" if data.get("when_to_use") else "",
                f"Platforms: {_platform_text(data)}" if _platform_text(data) else "",
            ),
            one_line(data.get("description")),
            joined(
                link("GitHub", data.get("github_url"), tty),
                link("Documentation", data.get("docs_url"), tty),
                link(f"Introducing paper {arxiv}", paper, tty),
            ),
            link("View framework", site_url("framework", slug_of(data)), tty),
        )
    )


@view("framework list")
def framework_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    columns: list[tuple[str, Cell]] = [
        ("id", "id"),
        ("slug", "slug"),
        ("name", "name"),
        ("domain", "domain_name"),
        ("category", "category_name"),
        ("platforms", _platform_text),
        ("papers", "paper_count"),
    ]
    hint = "the filters match exactly; see pwc framework list for the values"
    return row_table(payload, args, tty, columns, right=["papers"], empty=hint)
