"""`search` and the `paper` commands."""

from __future__ import annotations

from pwc_core.citation_formats import FORMATS as CITATION_FORMATS
from pwc_core.declarations import shared
from pwc_core.declare import TOOL, Command, Group, Param
from pwc_core.outline import SectionId
from pwc_core.values import AUTHOR, IntRange, Text, finite_float

DECLARED = (
    Command(
        "search",
        "Paper search: hybrid (keyword + semantic) by default.",
        (
            # search_papers' description says what a query may be
            Param("query", "title, topic, author or arXiv ID", metavar="QUERY", tool_help=""),
            shared.limit(10, 100, "results per page", paged=True),
            shared.page(),
            Param(
                "mode",
                "search mode (default hybrid)",
                ("--mode",),
                choices=("hybrid", "keyword", "semantic"),
                default="hybrid",
                tool_help="",  # the enum and the tool's description say it
            ),
            *shared.dates(),
            shared.official(),
            shared.coverage(),
            shared.json(),
        ),
        (
            "pwc search transformer --limit 3",
            'pwc search "vision transformer" --mode keyword --start-date 2021-01-01',
        ),
        tool="search_papers",
    ),
    Group(
        "paper",
        "Paper details, Markdown, lists and lineage.",
        "paper_command",
        ("pwc paper info 1706.03762", "pwc paper list --task image-classification"),
    ),
    Command(
        "paper info",
        "Show one paper.",
        (
            shared.paper(),
            shared.switch(
                "include_resources", "add repositories, project pages and Hugging Face links"
            ),
            shared.switch(
                "include_evals",
                "add every evaluation row of the paper",
                tool_name="include_evaluations",
            ),
            Param(
                "cite", "add a citation entry with its venue", ("--cite",), choices=CITATION_FORMATS
            ),
            shared.json(),
            shared.tool_count(
                "repo_limit",
                "most repositories and artifacts to return per kind, official first",
                10,
                5,
            ),
        ),
        (
            "pwc paper info 1706.03762 --include-resources",
            'pwc paper info "Attention Is All You Need" --json',
            "pwc paper info BERT --cite bibtex",
        ),
        tool="get_paper_info",
    ),
    Command(
        "paper evaluations",
        "Evaluation rows of one paper, merged across task scopes.",
        (
            shared.paper(),
            shared.page(),
            shared.page_size(20),
            shared.switch(
                "against_sota",
                "add each row's benchmark best now, its gap to it and its scoped rank",
            ),
            shared.json(),
        ),
        (
            "pwc paper evaluations 1706.03762 --limit 10",
            'pwc paper evaluations "Attention Is All You Need" --json',
            "pwc paper evaluations 1706.03762 --against-sota",
        ),
        tool="get_paper_evaluations",
    ),
    Command(
        "paper read",
        "Print a paper's stored Markdown.",
        (
            shared.paper(),
            shared.switch(
                "outline",
                "list the headings (level, title, section ID, byte offset) instead of the text",
            ),
            Param(
                "section",
                "only this section (to the next heading of its level or higher), by an outline ID",
                ("--section",),
                SectionId(),
                metavar="ID",
            ),
            shared.json(),
            Param(
                "cursor",
                "next_cursor from the previous read_paper result; omit to start at the beginning",
                kind=Text(max_length=2048),
                where=TOOL,
                tool_help="the previous result's next_cursor",
            ),
        ),
        (
            "pwc paper read 1706.03762 > attention.md",
            'pwc paper read "Attention Is All You Need" --outline',
            "pwc paper read 1706.03762 --section 4-results@1390",
        ),
        tool="read_paper",
    ),
    Command(
        "paper list",
        "Deterministic filtered paper listing.",
        (
            shared.page(),
            shared.page_size(20),
            shared.text("search", "title/abstract topic terms"),
            *shared.dates(),
            shared.text("task", "exact task name, slug, or ID"),
            shared.text("method", "exact method name, full name, slug, or ID"),
            shared.text("conference", "exact conference name, slug, or ID"),
            shared.text("framework", "exact framework name, slug, or ID"),
            shared.text("organization", "exact organization name, slug, or ID"),
            Param(
                "author",
                "exact author name, author ID, or @HF_USERNAME; repeatable (AND), at most 10",
                ("--author",),
                AUTHOR,
                default=[],
                metavar="AUTHOR",
                repeat=True,
                cap_repeats=False,
                tool_name="authors",
                tool_help="exact author name, author ID, or @HF_USERNAME",
            ),
            shared.switch("all_versions", "include superseded paper versions"),
            *shared.order(["trending", "date_published", "citation_count"], "trending", "desc"),
            shared.switch("include_resources", "add code and artifact links"),
            shared.official(),
            shared.coverage(),
            shared.json(),
        ),
        (
            "pwc paper list --task image-classification --order-by citation_count",
            'pwc paper list --author "Kaiming He" --limit 5',
        ),
        tool="list_papers",
    ),
    Command(
        "paper recent",
        "Most recently published papers.",
        (shared.limit(10, 100, "number of papers"), shared.coverage(), shared.json()),
        ("pwc paper recent --limit 5", "pwc paper recent --implementation-coverage"),
        tool="list_recent_papers",
    ),
    Command(
        "paper trending",
        "Trending papers.",
        (
            shared.limit(20, 100, "number of papers"),
            Param(
                "max_age_days",
                "only papers published within this many days (1-365, default 180)",
                ("--max-age-days",),
                IntRange("--max-age-days", 1, 365),
                180,
                tool_help="only papers published within this many days",
            ),
            Param("min_velocity", "minimum trending velocity", ("--min-velocity",), finite_float),
            shared.coverage(),
            shared.json(),
        ),
        ("pwc paper trending --limit 5", "pwc paper trending --max-age-days 365"),
        tool="list_trending_papers",
    ),
    Command(
        "paper related",
        "Papers related to one paper.",
        (shared.paper(), shared.limit(4, 20, "number of papers"), shared.coverage(), shared.json()),
        ("pwc paper related 2010.11929 --limit 5", "pwc paper related BERT --json"),
        tool="get_related_papers",
    ),
    Group(
        "paper lineage",
        "Explicit predecessor/successor links.",
        "lineage_command",
        ("pwc paper lineage list BERT", "pwc paper lineage list 1810.04805 --json"),
    ),
    Command(
        "paper lineage list",
        "A paper's lineage links.",
        (shared.paper(), shared.json()),
        ("pwc paper lineage list BERT", "pwc paper lineage list 1810.04805 --json"),
        tool="get_paper_lineage",
    ),
)
