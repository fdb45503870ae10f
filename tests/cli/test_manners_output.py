"""Issue #27 item 6, "CLI manners", in the output: terminal tables give up width where it costs
least and cut cells so the rows still tell apart; detail text folds at word boundaries; a DOI
URL is the DOI. Unit checks of pwc_cli.render and pwc_core.references, then the sample catalog."""

from __future__ import annotations

import shlex

import pytest

from pwc_cli.render import fold, table
from pwc_cli.terminal import Terminal, display_width
from pwc_cli.views.common import wrapped
from pwc_core.references import parse_reference
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli


def shown(sample: RunningCatalog, line: str, width: int) -> str:
    result = run_cli(sample.url, shlex.split(line), tty=True, width=width)
    assert result.code == 0, result.err
    return result.out


def column(text: str, index: int) -> list[str]:
    """The cells of one column of an aligned table (columns are two spaces apart)."""
    return [
        [c.strip() for c in line.split("  ") if c.strip()][index] for line in text.splitlines()[1:]
    ]


# --- tables ---------------------------------------------------------------------------------


def test_cut_cells_that_share_a_start_keep_their_ends() -> None:
    rows = [["Transformer Big", "28.4"], ["Transformer Base", "27.3"], ["Transformer", "25"]]
    text = table(["model", "BLEU score"], rows, tty=Terminal(22))
    cells = column(text, 0)
    assert all(display_width(line) <= 22 for line in text.splitlines()), text
    assert len(set(cells)) == 3 and cells[0].endswith("Big") and cells[1].endswith("Base")


def test_cells_that_differ_early_are_cut_at_the_end() -> None:
    rows = [["Attention Is All You Need", "1"], ["BERT: Pre-training of Deep", "2"]]
    cells = column(table(["title", "n"], rows, tty=Terminal(15)), 0)
    assert cells == ["Attention I…", "BERT: Pre-t…"]


def test_prose_columns_give_up_width_before_names() -> None:
    title = "Swin Transformer: Hierarchical Vision Transformer using Shifted Windows"
    rows = [["2103.14030", "Swin Transformer Large 384", title]]
    text = table(["id", "name", "title"], rows, tty=Terminal(60))
    assert text.splitlines()[1].startswith("2103.14030  Swin Transformer Large 384  Swin T")
    assert all(display_width(line) <= 60 for line in text.splitlines()) and "…" in text


def test_a_header_wider_than_its_cells_gives_up_width_first() -> None:
    rows = [["1706.03762", "Attention Is All You Need", "true"], ["2", "BERT", "false"]]
    text = table(["id", "title", "official_implementation"], rows, tty=Terminal(51))
    assert "Attention Is All You Need" in text and "official_im…" in text.splitlines()[0]


def test_the_evaluations_of_a_paper_tell_their_rows_apart_at_80_columns(
    sample: RunningCatalog,
) -> None:
    text = shown(sample, "paper evaluations 1706.03762", 80)
    assert all(display_width(line) <= 80 for line in text.splitlines()), text
    text = text[text.index("benchmark  ") :]  # below what every row shares, said once
    models, piped = column(text, 1), run_cli(sample.url, ["paper", "evaluations", "1706.03762"])
    whole = [line.split("\t")[1] for line in piped.out.splitlines()[1:]]
    assert "Transformer Big" in models and len(set(models)) == len(set(whole)), text
    rows = list(zip(column(text, 0), models, strict=True))
    assert len(set(rows)) == len({tuple(x.split("\t")[:2]) for x in piped.out.splitlines()[1:]})


# --- folded detail text ---------------------------------------------------------------------


def test_text_folds_at_spaces_not_at_hyphens() -> None:
    text = "the rows of WMT2014 English-German are merged"
    assert fold(text, Terminal(30)) == "the rows of WMT2014\nEnglish-German are merged"
    assert wrapped(text, Terminal(30)) == fold(text, Terminal(30))
    assert fold(text, None) == text  # a pipe gets it whole


def test_only_a_word_longer_than_the_line_is_broken_and_never_a_url() -> None:
    assert fold("a " + "x" * 30, Terminal(25)).splitlines() == ["a " + "x" * 23, "x" * 7]
    url = "see https://paperswithcode.co/" + "y" * 40
    assert fold(url, Terminal(25)).splitlines() == ["see", url[4:]]


def test_bullets_and_paragraphs_keep_their_shape() -> None:
    text = "- one two three four five six\n\nseven"
    assert fold(text, Terminal(22)) == "- one two three four\n  five six\n\nseven"


@pytest.mark.parametrize(
    "line",
    [
        "paper info 1706.03762",
        "task --name image-classification",
        "method --name transformer",
        "conference --name neurips-2017",
        "framework --name pytorch",
        "organization --name google",
        "benchmark --name ImageNet --limit 2",
    ],
)
def test_detail_views_fold_their_prose_to_the_terminal(sample: RunningCatalog, line: str) -> None:
    narrow, wide = (shown(sample, line, width).split("\nRank ")[0] for width in (36, 1000))
    assert narrow.split() == wide.split()  # the same words: folded at spaces, none broken
    assert narrow != wide
    too_wide = [x for x in narrow.splitlines() if display_width(x) > 36]
    assert all("://" in x for x in too_wide), too_wide  # only a URL keeps its line whole


# --- DOI URLs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://doi.org/10.1145/3065386",
        "http://dx.doi.org/10.1145/3065386",
        "https://www.doi.org/10.1145%2F3065386",
    ],
)
def test_a_doi_url_is_the_bare_doi(url: str) -> None:
    parsed = parse_reference(url)
    assert parsed == parse_reference("10.1145/3065386")


@pytest.mark.parametrize("url", ["https://doi.org/", "https://doi.org/not-a-doi"])
def test_a_doi_url_without_a_doi_is_refused(url: str) -> None:
    from pwc_core.errors import UsageError

    with pytest.raises(UsageError, match="Paper URL not supported"):
        parse_reference(url)


def test_a_doi_url_finds_the_paper_its_doi_finds(sample: RunningCatalog) -> None:
    bare = run_cli(sample.url, ["paper", "info", "10.1109/5.726791", "--json"])
    for url in ("https://doi.org/10.1109/5.726791", "http://dx.doi.org/10.1109/5.726791"):
        linked = run_cli(sample.url, ["paper", "info", url, "--json"])
        assert (linked.code, linked.out) == (0, bare.out)


def test_a_huge_cell_costs_no_more_narrowing_than_the_line_is_wide(monkeypatch) -> None:
    # a hostile catalog description of 200,000 characters: before, one narrowing step per
    # character of excess; now at most the line's width per column
    from pwc_cli import columns

    steps = 0
    shrink = columns._shrink

    def counting(widths, cols, floors, excess):  # type: ignore[no-untyped-def]
        nonlocal steps
        before = sum(widths)
        left = shrink(widths, cols, floors, excess)
        steps += before - sum(widths)
        return left

    monkeypatch.setattr(columns, "_shrink", counting)
    widths = columns.fit(["name", "description"], [10, 200_000], [10, 200_000], 80)
    assert sum(widths) + 2 <= 80
    assert steps <= 2 * 80
