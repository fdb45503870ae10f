"""Human output for conferences, organizations and frameworks
(docs/upstream-api.md#output-rules)."""

from __future__ import annotations

import argparse
from typing import Any

from pwc_cli.commands.common import extract_rows
from pwc_cli.render import Screen, heading, link, sections, table
from pwc_cli.text import cell_text, meta_line, one_line
from pwc_cli.urls import site_url
from pwc_cli.views import Rendered, view
from pwc_cli.views.common import page_notes, plural, slug_of


@view("conference")
def conference_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    dates = [d for d in (data.get("start_date"), data.get("end_date")) if d]
    return Rendered(
        sections(
            heading(data.get("name"), tty),
            meta_line(
                [
                    cell_text(data.get("year")),
                    plural(data.get("paper_count"), "paper")
                    if data.get("paper_count") is not None
                    else "",
                    f"Tier: {cell_text(data['tier']).upper()}" if data.get("tier") else "",
                ]
            ),
            "\n".join(
                line
                for line in (
                    f"Dates: {' – '.join(dates)}" if dates else "",
                    f"Venue: {one_line(data['venue'])}" if data.get("venue") else "",
                    f"Location: {one_line(data['location'])}" if data.get("location") else "",
                )
                if line
            ),
            one_line(data.get("description")),
            "\n".join(
                x
                for x in (
                    link("Conference website", data.get("url"), tty),
                    link("Hugging Face", data.get("hf_url"), tty),
                )
                if x
            ),
            link("View conference", site_url("conference", slug_of(data)), tty),
        )
    )


@view("conference list")
def conference_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    rows, _ = extract_rows(payload)
    lines = [
        [r.get("slug"), r.get("name"), r.get("year"), r.get("paper_count"), r.get("location")]
        for r in rows
    ]
    headers = ["slug", "name", "year", "papers", "location"]
    text = table(headers, lines, tty=tty, right=["year", "papers"])
    return Rendered(text, page_notes(payload, args, len(rows), "try another --year"))


@view("organization")
def organization_view(data: dict[str, Any], args: argparse.Namespace, tty: Screen) -> Rendered:
    years = [
        cell_text(y) for y in (data.get("first_paper_year"), data.get("latest_paper_year")) if y
    ]
    return Rendered(
        sections(
            heading(data.get("name"), tty),
            meta_line(
                [
                    plural(data.get("paper_count"), "paper")
                    if data.get("paper_count") is not None
                    else "",
                    f"Trending rank: {data['trending_rank']}"
                    if data.get("trending_rank") is not None
                    else "",
                    "Featured" if data.get("is_featured") is True else "",
                ]
            ),
            f"Paper years: {'–'.join(years)}" if years else "",
            one_line(data.get("description")),
            "\n".join(
                x
                for x in (
                    link("Website", data.get("website_url"), tty),
                    link("GitHub", data.get("github_url"), tty),
                    link("Hugging Face", data.get("hf_url"), tty),
                )
                if x
            ),
            link("View organization", site_url("organization", slug_of(data)), tty),
        )
    )


@view("organization list")
def organization_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    rows, _ = extract_rows(payload)
    lines = [
        [
            r.get("id"),
            r.get("slug"),
            r.get("name"),
            r.get("paper_count"),
            "yes" if r.get("is_featured") is True else "no",
            r.get("trending_rank"),
        ]
        for r in rows
    ]
    headers = ["id", "slug", "name", "papers", "featured", "trend_rank"]
    text = table(headers, lines, tty=tty, right=["papers", "trend_rank"])
    return Rendered(text, page_notes(payload, args, len(rows)))


def _platform_text(row: dict[str, Any]) -> str:
    platforms = row.get("platforms")
    return ", ".join(cell_text(p) for p in platforms) if isinstance(platforms, list) else ""


@view("framework")
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
                    plural(data.get("paper_count"), "paper")
                    if data.get("paper_count") is not None
                    else "",
                ]
            ),
            "\n".join(
                line
                for line in (
                    f"When to use: {one_line(data['when_to_use'])}"
                    if data.get("when_to_use")
                    else "",
                    f"Platforms: {_platform_text(data)}" if _platform_text(data) else "",
                )
                if line
            ),
            one_line(data.get("description")),
            "\n".join(
                x
                for x in (
                    link("GitHub", data.get("github_url"), tty),
                    link("Documentation", data.get("docs_url"), tty),
                    link(f"Introducing paper {arxiv}", paper, tty),
                )
                if x
            ),
            link("View framework", site_url("framework", slug_of(data)), tty),
        )
    )


@view("framework list")
def framework_list_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:
    rows, _ = extract_rows(payload)
    lines = [
        [
            r.get("id"),
            r.get("slug"),
            r.get("name"),
            r.get("domain_name"),
            r.get("category_name"),
            _platform_text(r),
            r.get("paper_count"),
        ]
        for r in rows
    ]
    headers = ["id", "slug", "name", "domain", "category", "platforms", "papers"]
    text = table(headers, lines, tty=tty, right=["papers"])
    hint = "the filters match exactly; see pwc framework list for the values"
    return Rendered(text, page_notes(payload, args, len(rows), hint))
