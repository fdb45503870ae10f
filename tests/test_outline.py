"""Sections of a paper: the heading rules of pwc_core/outline.py, and `pwc paper read --outline`
/ `--section` against the sample catalog."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from pwc_core.outline import (
    MAX_ENTRIES,
    MAX_LINE,
    MAX_TITLE,
    Outliner,
    SectionMismatch,
    cut_section,
    outline,
    section_text,
    slug,
)
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli

RESULTS = "4-results@1390"


def stored(sample: RunningCatalog, reference: str) -> bytes:
    path = reference.replace("/", "%2F")
    return httpx.get(f"{sample.url}/research/papers/{path}/read").content


@contextmanager
def markdown_of(sample: RunningCatalog, reference: str, text: str) -> Iterator[None]:
    """The sample's own hook: the paper's stored Markdown replaced, then restored."""
    original = stored(sample, reference).decode()
    sample.store.set_markdown(reference, text)
    try:
        yield
    finally:
        sample.store.set_markdown(reference, original)


def run(sample: RunningCatalog, *argv: str) -> tuple[int, str, str]:
    result = run_cli(sample.url, argv)
    return result.code, result.out, result.err


# A long section: a code fence across the 64 KiB mark holding heading-like lines, a line longer
# than a chunk, a deeper heading longer than MAX_LINE, a tilde fence that a backtick run does
# not close, and `##` lines that are no headings.
FILLER = "Attention weights sum to one — ∑ᵢ αᵢ = 1, 多头注意力 🤖.\n" * 890
LONG = (
    "# A long paper\n\nIntro.\n\n## 1 Method\n\n"
    + FILLER
    + "```python\n# a comment, not a heading\n## neither\n"
    + "x = 1\n" * 400
    + "```\n\n"
    + "y" * 70_000
    + "\n\n### "
    + "Deep " * 1000
    + "\n\n~~~~\n## still code\n```\n# still code\n~~~~~\n\n#hashtag, ####### seven, \\## escaped\n"
    + "    ## indented code\n\n## 2 Results ##\n\nBLEU 28.4.\n\n# Appendix\n\nEnd.\n"
)


def test_headings_outside_code_fences_only() -> None:
    text = (
        b"# Title #\n\n```\n# not\n```\n\n~~~\n## not\n```\n~~~\n"
        b"``` inline ` code ```\n## Real  heading ###\n#no\n####### no\n    # no\n"
        b"Setext\n======\n   ###### Six\n##\n"
    )
    found = [(h.level, h.title, h.id) for h in outline(text)]
    assert found == [
        (1, "Title", f"title@{text.index(b'# Title')}"),
        (2, "Real heading", f"real-heading@{text.index(b'## Real')}"),
        (6, "Six", f"six@{text.index(b'   ######')}"),
        (2, "", f"section@{text.rindex(b'##')}"),
    ]


def test_an_unclosed_fence_runs_to_the_end() -> None:
    assert [h.title for h in outline(b"# A\n````\n# B\n```\n# C\n")] == ["A"]


def test_slugs_are_short_and_plain() -> None:
    assert slug("4 Results") == "4-results"
    assert slug("Café — naïve Résumé") == "cafe-naive-resume"
    assert slug("🔍 !!") == "section"
    long = slug("Appendix — extended ablation notes (generated sample text)")
    assert long == "appendix-extended-ablation-notes" and len(long) <= 40


def test_outline_bounds_entries_and_titles() -> None:
    text = ("## " + "t" * 1000 + "\n").encode() + b"".join(
        f"## H{i}\n".encode() for i in range(MAX_ENTRIES + 50)
    )
    outliner = Outliner()
    outliner.feed(text, final=True)
    assert outliner.full and len(outliner.headings) == MAX_ENTRIES
    assert len(outliner.headings[0].title) == MAX_TITLE


@pytest.mark.parametrize("piece", [2 * MAX_LINE, 10_000, 65_536])
def test_pieces_give_the_sections_of_the_whole_text(piece: int) -> None:
    """The server's chunked scan ends each section exactly where the whole-text one does, and
    the outline is the same whatever the piece size."""
    data = LONG.encode()
    whole = outline(data)
    outliner = Outliner()
    for start in range(0, len(data), piece):
        outliner.feed(data[start : start + piece], final=start + piece >= len(data))
    assert outliner.headings == whole
    for heading in whole:
        _, expected = section_text(data, heading.id)
        parts, position, fence, midline, first = [], heading.offset, "", False, True
        while True:
            chunk = data[position : position + piece]
            while position + len(chunk) < len(data) and data[position + len(chunk)] & 0xC0 == 0x80:
                chunk = chunk[:-1]  # the catalog cuts back to a character boundary
            more = position + len(chunk) < len(data)
            cut = cut_section(
                chunk, level=heading.level, more=more, fence=fence, midline=midline, first=first
            )
            assert cut.length or cut.ended, "every call makes progress"
            parts.append(chunk[: cut.length])
            position, fence, midline, first = position + cut.length, cut.fence, cut.midline, False
            if cut.ended:
                break
        assert b"".join(parts) == expected, heading


def test_section_ids_are_checked_against_the_text() -> None:
    data = b"# T\n\n## Results\n\nx ## Results\n"
    assert section_text(data, "results@5")[1] == b"## Results\n\nx ## Results\n"
    for wrong in ("result@5", "results@4", "results@6", "results@19", "results@999"):
        with pytest.raises(SectionMismatch):
            section_text(data, wrong)


# --- the CLI over the sample --------------------------------------------------------------


def test_outline_then_results_of_attention(sample: RunningCatalog) -> None:
    """ "Show me the outline of Attention Is All You Need, then read its Results section."""
    code, out, _ = run(sample, "paper", "read", "Attention Is All You Need", "--outline", "--json")
    assert code == 0
    data = json.loads(out)["data"]
    assert data["paper"] == "1706.03762" and data["complete"] is True
    results = next(h for h in data["outline"] if h["title"].endswith("Results"))
    assert results == {"level": 2, "title": "4 Results", "id": RESULTS, "offset": 1390}
    code, out, _ = run(sample, "paper", "read", "1706.03762", "--section", results["id"])
    whole = stored(sample, "1706.03762")
    end = whole.index(b"\n## Appendix") + 1
    assert code == 0 and out.encode() == whole[1390:end]
    assert out.startswith("## 4 Results\n") and "Transformer (big) | 28.4" in out


def test_outline_table_when_piped(sample: RunningCatalog) -> None:
    code, out, err = run(sample, "paper", "read", "1810.04805", "--outline")
    assert code == 0 and not err
    assert out.splitlines()[0] == "level\tid\ttitle"
    assert "2\tresults@940\tResults" in out.splitlines()


def test_long_section_and_hostile_lines(sample: RunningCatalog) -> None:
    with markdown_of(sample, "2010.11929", LONG):
        code, out, _ = run(sample, "paper", "read", "2010.11929", "--outline", "--json")
        headings = json.loads(out)["data"]["outline"]
        assert [h["title"][:10] for h in headings] == [
            "A long pap",
            "1 Method",
            "Deep Deep ",
            "2 Results",
            "Appendix",
        ]
        method = headings[1]["id"]
        code, out, _ = run(sample, "paper", "read", "2010.11929", "--section", method, "--json")
        section = json.loads(out)["data"]
        assert code == 0 and len(section["markdown"].encode()) > 65_536 * 2
        assert section["markdown"].endswith("    ## indented code\n\n")
        assert section["section"]["end"] == LONG.encode().index(b"## 2 Results")


def test_refusals(sample: RunningCatalog, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(sample, "paper", "read", "1706.03762", "--section", "4-result@1390")
    assert code == 4 and "is not in this paper" in err and "--outline" in err
    code, _, _ = run(sample, "paper", "read", "1706.03762", "--section", "Results")
    assert code == 2 and "section must be SLUG@OFFSET" in capsys.readouterr().err
    code, _, err = run(sample, "paper", "read", "1706.03762", "--outline", "--section", RESULTS)
    assert code == 2 and "cannot be combined" in err
