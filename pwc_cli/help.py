"""The end of every `--help`: real examples (tests run each against the sample catalog), the
catalog address and the exit codes."""

from __future__ import annotations

from pwc_cli.transport import DEFAULT_BASE_URL

EXAMPLES: dict[str, tuple[str, ...]] = {
    "": (
        'pwc search "vision transformer" --limit 5',
        "pwc paper info 1706.03762",
        'pwc benchmark --name ImageNet --max-parameters 100M --min "Top 1 Accuracy=83"',
    ),
    "search": (
        "pwc search transformer --limit 3",
        'pwc search "vision transformer" --mode keyword --start-date 2021-01-01',
    ),
    "paper": ("pwc paper info 1706.03762", "pwc paper list --task image-classification"),
    "paper info": (
        "pwc paper info 1706.03762 --include-resources",
        'pwc paper info "Attention Is All You Need" --json',
    ),
    "paper evaluations": (
        "pwc paper evaluations 1706.03762 --limit 10",
        'pwc paper evaluations "Attention Is All You Need" --json',
    ),
    "paper read": ("pwc paper read 1706.03762 > attention.md", "pwc paper read hep-th/9711200"),
    "paper list": (
        "pwc paper list --task image-classification --order-by citation_count",
        'pwc paper list --author "Kaiming He" --limit 5',
    ),
    "paper recent": ("pwc paper recent --limit 5", "pwc paper recent --implementation-coverage"),
    "paper trending": ("pwc paper trending --limit 5", "pwc paper trending --max-age-days 365"),
    "paper related": ("pwc paper related 2010.11929 --limit 5", "pwc paper related BERT --json"),
    "paper lineage": ("pwc paper lineage list BERT", "pwc paper lineage list 1810.04805 --json"),
    "paper lineage list": (
        "pwc paper lineage list BERT",
        "pwc paper lineage list 1810.04805 --json",
    ),
    "task": ("pwc task --name image-classification", "pwc task list --search detection"),
    "task list": ("pwc task list --search detection --limit 10", "pwc task list --group-by-area"),
    "method": ("pwc method --name transformer", "pwc method list --area Vision"),
    "method list": ("pwc method list --area Vision", "pwc method list --introduced-year 2017"),
    "conference": ("pwc conference --name neurips-2017", "pwc conference list --year 2017"),
    "conference list": ("pwc conference list --year 2017", "pwc conference list --json"),
    "organization": ("pwc organization --name google", "pwc organization list --featured-only"),
    "organization list": ("pwc organization list --featured-only", "pwc organization list --json"),
    "framework": ("pwc framework --name pytorch", "pwc framework list --platform gpu"),
    "framework list": (
        "pwc framework list --domain deep-learning --platform gpu",
        "pwc framework list --json",
    ),
    "benchmark": (
        'pwc benchmark --name ImageNet --max-parameters 100M --min "Top 1 Accuracy=83" --limit 5',
        'pwc benchmark --name ImageNet --pareto "Top 1 Accuracy:higher,GFLOPs:lower"',
    ),
    "benchmark list": (
        "pwc benchmark list --task image-classification",
        "pwc benchmark list --group-by-area",
    ),
    "version": ("pwc version",),
}

FOOTER = (
    f"The catalog is $PWC_API_URL (default {DEFAULT_BASE_URL}).\n"
    "Output: aligned columns in a terminal, TSV or Markdown when piped, JSON with --json.\n"
    "Exit codes: 0 success, 2 invalid usage, 3 network/server failure,\n"
    "4 unusable API response or not found."
)


def epilog(command: str) -> str:
    """`command` is a parser path such as "" (the root), "paper" or "paper info"."""
    lines = ["examples:", *(f"  {example}" for example in EXAMPLES[command])]
    return "\n".join(lines) + "\n\n" + FOOTER
