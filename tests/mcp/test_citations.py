"""`get_paper_info` with `cite` (issue #18, item 4) through a real MCP client: the entry is the
text block, `citation` is in the structured content, public metadata is labelled, and a hostile
catalog's strings stay inside their BibTeX fields."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from tests.helpers.mcp import Answers, call, error_of
from tests.test_citations import BERT_BIBTEX, BERT_TITLE, parse_bibtex, plain, ris_fields

pytestmark = pytest.mark.anyio


async def test_a_bibtex_entry_for_bert_with_its_venue(cached_client: Client) -> None:
    structured, text = await call(cached_client, "get_paper_info", paper="BERT", cite="bibtex")
    # the text block is the entry itself, then the date the entry holds only as a year
    assert text == BERT_BIBTEX.rstrip("\n") + "\n\nPublished 2018-10-11."
    assert structured["citation"] == {
        "format": "bibtex",
        "key": "devlin2018bert",
        "text": BERT_BIBTEX,
        "source": "catalog",
    }
    assert structured["data"]["title"] == BERT_TITLE
    assert "citation" not in structured["data"]  # typed once, not twice


async def test_every_format_is_a_parameter_value(cached_client: Client) -> None:
    [tool] = [t for t in await cached_client.list_tools() if t.name == "get_paper_info"]
    assert tool.input_schema["properties"]["cite"]["enum"] == ["bibtex", "ris", "csl-json"]
    structured, text = await call(cached_client, "get_paper_info", paper="1810.04805", cite="ris")
    assert ("T2", "NAACL 2019") in ris_fields(structured["citation"]["text"])
    assert text.startswith("TY  - CPAPER\nID  - devlin2018bert\n")
    refused = await error_of(cached_client, "get_paper_info", paper="BERT", cite="apa")
    assert refused.startswith("invalid_argument: cite: ")


async def test_without_cite_the_answer_is_unchanged(cached_client: Client) -> None:
    structured, text = await call(cached_client, "get_paper_info", paper="BERT")
    assert "citation" not in structured and text.startswith("## BERT: Pre-training")


async def test_a_paper_outside_the_catalog_is_cited_from_public_metadata_and_says_so(
    cached_client: Client,
) -> None:
    structured, text = await call(
        cached_client, "get_paper_info", paper="Long Short-Term Memory", cite="bibtex"
    )
    cited = structured["citation"]
    assert cited["source"] == "public_metadata" and cited["key"] == "hochreiter1997long"
    assert cited["note"].startswith("Built from public metadata (Crossref)")
    kind, _, fields = parse_bibtex(cited["text"])
    assert kind == "misc" and fields["doi"] == "10.1162/neco.1997.9.8.1735"
    published = structured["data"]["published"]
    # said in the text too, after the entry and its date
    assert text == cited["text"] + f"\nPublished {published}.\n\nNote: " + cited["note"]


HOSTILE_PAPER: dict[str, Any] = {
    "id": "1",
    "arxiv_id": "2001.00001",
    "title": "Broken} @misc{evil, title = {x \\\x1b[2J",
    "authors": ["Eve} and {Mallory", "Jian Sun [1187]"],
    "published": "2020-01-02",
    "conference": "evil-2020",
    "conference_name": "ignored when the record answers",
}


async def test_a_hostile_catalog_cannot_break_out_of_a_field(
    hostile: tuple[Client, Answers],
) -> None:
    client, answers = hostile
    answers.by_path["papers/2001.00001"] = (200, HOSTILE_PAPER)
    answers.by_path["conferences/evil-2020"] = (
        200,
        {"name": "Evil} 2020 \\", "year": 2020, "location": "Line\nbreak"},
    )
    structured, text = await call(client, "get_paper_info", paper="2001.00001", cite="bibtex")
    assert "\x1b" not in text
    kind, key, fields = parse_bibtex(structured["citation"]["text"])
    assert (kind, key) == ("inproceedings", "mallory2020broken")
    assert plain(fields["title"]) == "Broken} @misc{evil, title = {x \\"
    assert plain(fields["booktitle"]) == "Evil} 2020 \\" and fields["address"] == "Line break"
    assert fields["author"].count(" and ") == 1 and fields["author"].endswith("Sun, Jian")
