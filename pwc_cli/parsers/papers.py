"""`search` and the `paper` commands."""

from __future__ import annotations

from typing import Any

from pwc_cli import flags
from pwc_cli.parsers import Builder
from pwc_core.citation_formats import FORMATS as CITATION_FORMATS
from pwc_core.outline import SectionId
from pwc_core.values import AUTHOR, IntRange, finite_float


def add(b: Builder, top: Any) -> None:
    search = b.leaf(
        top,
        "search",
        "search",
        "Paper search: hybrid (keyword + semantic) by default.",
        tool="search_papers",
        examples=(
            "pwc search transformer --limit 3",
            'pwc search "vision transformer" --mode keyword --start-date 2021-01-01',
        ),
    )
    search.add_argument("query", metavar="QUERY", help="title, topic, author or arXiv ID")
    flags.limit(search, 10, 100, "results per page", paged=True)
    flags.page(search)
    search.add_argument(
        "--mode",
        choices=["hybrid", "keyword", "semantic"],
        default="hybrid",
        help="search mode (default hybrid)",
    )
    flags.dates(search)
    flags.official(search)
    flags.coverage(search)
    flags.json(search)

    papers = b.group(
        top,
        "paper",
        "paper",
        "Paper details, Markdown, lists and lineage.",
        "paper_command",
        examples=("pwc paper info 1706.03762", "pwc paper list --task image-classification"),
    )

    info = b.leaf(
        papers,
        "info",
        "paper info",
        "Show one paper.",
        tool="get_paper_info",
        examples=(
            "pwc paper info 1706.03762 --include-resources",
            'pwc paper info "Attention Is All You Need" --json',
            "pwc paper info BERT --cite bibtex",
        ),
    )
    flags.paper(info)
    info.add_argument(
        "--include-resources",
        action="store_true",
        help="add repositories, project pages and Hugging Face links",
    )
    info.add_argument(
        "--include-evals", action="store_true", help="add every evaluation row of the paper"
    )
    info.add_argument(
        "--cite",
        choices=CITATION_FORMATS,
        help="add a citation entry with its venue",
    )
    flags.json(info)

    evaluations = b.leaf(
        papers,
        "evaluations",
        "paper evaluations",
        "Evaluation rows of one paper, merged across task scopes.",
        tool="get_paper_evaluations",
        examples=(
            "pwc paper evaluations 1706.03762 --limit 10",
            'pwc paper evaluations "Attention Is All You Need" --json',
            "pwc paper evaluations 1706.03762 --against-sota",
        ),
    )
    flags.paper(evaluations)
    flags.page(evaluations)
    flags.page_size(evaluations, 20)
    evaluations.add_argument(
        "--against-sota",
        action="store_true",
        help="add each row's benchmark best now, its gap to it and its scoped rank",
    )
    flags.json(evaluations)

    read = b.leaf(
        papers,
        "read",
        "paper read",
        "Print a paper's stored Markdown.",
        tool="read_paper",
        examples=(
            "pwc paper read 1706.03762 > attention.md",
            'pwc paper read "Attention Is All You Need" --outline',
            "pwc paper read 1706.03762 --section 4-results@1390",
        ),
    )
    flags.paper(read)
    read.add_argument(
        "--outline",
        action="store_true",
        help="list the headings (level, title, section ID, byte offset) instead of the text",
    )
    read.add_argument(
        "--section",
        type=SectionId(),
        metavar="ID",
        help="only this section (to the next heading of its level or higher), by an outline ID",
    )
    flags.json(read)

    plist = b.leaf(
        papers,
        "list",
        "paper list",
        "Deterministic filtered paper listing.",
        tool="list_papers",
        examples=(
            "pwc paper list --task image-classification --order-by citation_count",
            'pwc paper list --author "Kaiming He" --limit 5',
        ),
    )
    flags.page(plist)
    flags.page_size(plist, 20)
    plist.add_argument("--search", help="title/abstract topic terms")
    flags.dates(plist)
    plist.add_argument("--task", help="exact task name, slug, or ID")
    plist.add_argument("--method", help="exact method name, full name, slug, or ID")
    plist.add_argument("--conference", help="exact conference name, slug, or ID")
    plist.add_argument("--framework", help="exact framework name, slug, or ID")
    plist.add_argument("--organization", help="exact organization name, slug, or ID")
    plist.add_argument(
        "--author",
        action="append",
        type=AUTHOR,
        default=[],
        metavar="AUTHOR",
        help="exact author name, author ID, or @HF_USERNAME; repeatable (AND), at most 10",
    )
    plist.add_argument(
        "--all-versions", action="store_true", help="include superseded paper versions"
    )
    flags.order(plist, ["trending", "date_published", "citation_count"], "trending", "desc")
    plist.add_argument(
        "--include-resources", action="store_true", help="add code and artifact links"
    )
    flags.official(plist)
    flags.coverage(plist)
    flags.json(plist)

    recent = b.leaf(
        papers,
        "recent",
        "paper recent",
        "Most recently published papers.",
        tool="list_recent_papers",
        examples=("pwc paper recent --limit 5", "pwc paper recent --implementation-coverage"),
    )
    flags.limit(recent, 10, 100, "number of papers")
    flags.coverage(recent)
    flags.json(recent)

    trending = b.leaf(
        papers,
        "trending",
        "paper trending",
        "Trending papers.",
        tool="list_trending_papers",
        examples=("pwc paper trending --limit 5", "pwc paper trending --max-age-days 365"),
    )
    flags.limit(trending, 20, 100, "number of papers")
    trending.add_argument(
        "--max-age-days",
        type=IntRange("--max-age-days", 1, 365),
        default=180,
        help="only papers published within this many days (1-365, default 180)",
    )
    trending.add_argument("--min-velocity", type=finite_float, help="minimum trending velocity")
    flags.coverage(trending)
    flags.json(trending)

    related = b.leaf(
        papers,
        "related",
        "paper related",
        "Papers related to one paper.",
        tool="get_related_papers",
        examples=("pwc paper related 2010.11929 --limit 5", "pwc paper related BERT --json"),
    )
    flags.paper(related)
    flags.limit(related, 4, 20, "number of papers")
    flags.coverage(related)
    flags.json(related)

    lineages = b.group(
        papers,
        "lineage",
        "paper lineage",
        "Explicit predecessor/successor links.",
        "lineage_command",
        examples=("pwc paper lineage list BERT", "pwc paper lineage list 1810.04805 --json"),
    )
    lineage_list = b.leaf(
        lineages,
        "list",
        "paper lineage list",
        "A paper's lineage links.",
        tool="get_paper_lineage",
        examples=("pwc paper lineage list BERT", "pwc paper lineage list 1810.04805 --json"),
    )
    flags.paper(lineage_list)
    flags.json(lineage_list)
