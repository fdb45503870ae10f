"""Citations (issue #18, item 4): `pwc paper info REF --cite bibtex|ris|csl-json` against the
sample catalog, the name and key rules, and hostile strings that must stay inside their fields.

"Give me a BibTeX entry for BERT with its venue." BERT is NAACL 2019 in the sample.
"""

from __future__ import annotations

import json
import re
import shlex

import pytest

from pwc_core.citation_formats import FORMATS, render
from pwc_core.citation_names import Name, citation_key, parse_name
from pwc_core.citations import facts_of
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli

BERT_BIBTEX = """\
@inproceedings{devlin2018bert,
  title = {{BERT}: Pre-training of Deep Bidirectional Transformers for Language Understanding},
  author = {Devlin, Jacob and Chang, Ming-Wei and Lee, Kenton and Toutanova, Kristina},
  booktitle = {NAACL 2019},
  address = {Minneapolis, USA},
  year = {2019},
  eprint = {1810.04805},
  archivePrefix = {arXiv},
  url = {https://arxiv.org/abs/1810.04805}
}
"""
BERT_TITLE = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"


def pwc(sample: RunningCatalog, line: str) -> tuple[int, str, str]:
    result = run_cli(sample.url, shlex.split(line))
    return result.code, result.out, result.err


# --- a small BibTeX reader: structure, fields, escapes (no new dependency) -------------------

_ENTRY = re.compile(r"@([a-z]+)\{([a-z0-9]+),\n")
_FIELD = re.compile(r"  ([A-Za-z]+) = \{")
_COMMANDS = {
    r"\textbackslash{}": "\\",
    r"\textbraceleft{}": "{",
    r"\textbraceright{}": "}",
    r"\textasciitilde{}": "~",
    r"\textasciicircum{}": "^",
    **{"\\" + c: c for c in "&%$#_"},
}
_ESCAPE = re.compile("|".join(re.escape(c) for c in _COMMANDS))


def parse_bibtex(text: str) -> tuple[str, str, dict[str, str]]:
    """(type, key, fields) of one entry, reading braces as BibTeX does: every `{` and `}`
    counts, a backslash before it or not, so an escaped brace that unbalances a value would
    end it early here exactly as it would in bibtex."""
    head = _ENTRY.match(text)
    assert head, text
    fields: dict[str, str] = {}
    at = head.end()
    while True:
        field = _FIELD.match(text, at)
        assert field, text[at:]
        depth, i = 1, field.end()
        while depth:
            assert i < len(text), "a field is never closed"
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        assert field.group(1) not in fields, "a field repeats"
        fields[field.group(1)] = text[field.end() : i - 1]
        if text.startswith(",\n", i):
            at = i + 2
            continue
        assert text[i:] == "\n}\n", "the entry ends right after its last field"
        return head.group(1), head.group(2), fields


def plain(value: str) -> str:
    """A field value read back: every escape checked and undone, protective braces dropped."""
    rest = _ESCAPE.sub("", value)
    assert not re.search(r"[\\&%$#_~^]", rest), f"unescaped special character in {value!r}"
    depth = 0
    for char in rest:
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0, value
    assert depth == 0, value
    pieces = _ESCAPE.split(value)  # text between the escapes: its braces are protective
    escapes = [_COMMANDS[m.group()] for m in _ESCAPE.finditer(value)]
    text = [pieces[0].replace("{", "").replace("}", "")]
    for char, piece in zip(escapes, pieces[1:], strict=True):
        text += [char, piece.replace("{", "").replace("}", "")]
    return "".join(text)


def ris_fields(text: str) -> list[tuple[str, str]]:
    lines = text.split("\n")
    assert lines[-1] == "" and lines[-2] == "ER  - "
    pairs = []
    for line in lines[:-1]:
        tag, sep, value = line.partition("  - ")
        assert sep and re.fullmatch(r"[A-Z][A-Z0-9]", tag), line
        pairs.append((tag, value))
    assert pairs[0][0] == "TY"
    return pairs


# --- the question, end to end ------------------------------------------------------------


def test_a_bibtex_entry_for_bert_with_its_venue(sample: RunningCatalog) -> None:
    code, out, err = pwc(sample, "paper info BERT --cite bibtex")
    assert (code, err) == (0, "")
    assert out == BERT_BIBTEX  # just the entry: `pwc paper info BERT --cite bibtex >> refs.bib`
    kind, key, fields = parse_bibtex(out)
    assert (kind, key) == ("inproceedings", "devlin2018bert")
    assert plain(fields["title"]) == BERT_TITLE
    assert fields["booktitle"] == "NAACL 2019" and fields["year"] == "2019"


def test_ris_and_csl_json_state_the_same_facts(sample: RunningCatalog) -> None:
    _, ris, _ = pwc(sample, "paper info 1810.04805 --cite ris")
    pairs = ris_fields(ris)
    assert pairs[:3] == [("TY", "CPAPER"), ("ID", "devlin2018bert"), ("TI", BERT_TITLE)]
    assert [v for t, v in pairs if t == "AU"] == [
        "Devlin, Jacob",
        "Chang, Ming-Wei",
        "Lee, Kenton",
        "Toutanova, Kristina",
    ]
    assert {("T2", "NAACL 2019"), ("PY", "2019"), ("CY", "Minneapolis, USA")} <= set(pairs)
    assert ("AN", "arXiv:1810.04805") in pairs
    _, csl, _ = pwc(sample, "paper info BERT --cite csl-json")
    [item] = json.loads(csl)
    assert item["id"] == "devlin2018bert" and item["type"] == "paper-conference"
    assert item["title"] == BERT_TITLE and item["container-title"] == "NAACL 2019"
    assert item["author"][0] == {"family": "Devlin", "given": "Jacob"}
    assert item["issued"] == {"date-parts": [[2019]]} and item["event-place"] == "Minneapolis, USA"


def test_json_puts_the_citation_in_the_payload(sample: RunningCatalog) -> None:
    code, out, _ = pwc(sample, "paper info BERT --cite ris --json")
    data = json.loads(out)["data"]
    assert code == 0 and data["title"] == BERT_TITLE  # the paper, plus its citation
    assert data["citation"]["format"] == "ris" and data["citation"]["key"] == "devlin2018bert"
    assert data["citation"]["source"] == "catalog" and "note" not in data["citation"]
    assert data["citation"]["text"].startswith("TY  - CPAPER\n")
    _, without, _ = pwc(sample, "paper info BERT --json")
    assert "citation" not in json.loads(without)["data"]


def test_a_paper_without_a_venue_is_an_arxiv_misc(sample: RunningCatalog) -> None:
    _, out, _ = pwc(sample, "paper info RoBERTa --cite bibtex")
    kind, key, fields = parse_bibtex(out)
    assert (kind, key) == ("misc", "liu2019roberta")
    assert fields["eprint"] == "1907.11692" and fields["archivePrefix"] == "arXiv"
    assert "primaryClass" not in fields and "booktitle" not in fields  # never guessed
    _, legacy, _ = pwc(sample, "paper info hep-th/9711200 --cite bibtex")
    assert parse_bibtex(legacy)[2]["primaryClass"] == "hep-th"  # a legacy ID names its class


def test_a_paper_outside_the_catalog_is_cited_from_public_metadata_and_says_so(
    sample: RunningCatalog,
) -> None:
    code, out, err = pwc(sample, 'paper info "Long Short-Term Memory" --cite bibtex')
    kind, key, fields = parse_bibtex(out)
    assert code == 0 and (kind, key) == ("misc", "hochreiter1997long")
    assert fields["author"] == "Hochreiter, Sepp and Schmidhuber, Jürgen"  # UTF-8 kept
    assert fields["doi"] == "10.1162/neco.1997.9.8.1735"
    assert err == (
        "pwc: note: Built from public metadata (Crossref): the paper is not in the Papers "
        "With Code catalog, so its venue is unknown.\n"
    )
    _, payload, _ = pwc(sample, "paper info 2501.12948 --cite csl-json --json")
    cited = json.loads(payload)["data"]["citation"]
    assert cited["source"] == "public_metadata" and "arXiv" in cited["note"]
    [item] = json.loads(cited["text"])
    assert item["author"] == [{"literal": "DeepSeek-AI"}] and item["number"] == "arXiv:2501.12948"


def test_an_unknown_format_is_a_usage_error(
    sample: RunningCatalog, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = pwc(sample, "paper info BERT --cite apa")
    assert code == 2 and out == "" and "invalid choice: 'apa'" in capsys.readouterr().err


# --- names and keys ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "name", "bibtex"),
    [
        ("Jian Sun [1187]", Name("Sun", "Jian"), "Sun, Jian"),
        ("Aidan N. Gomez", Name("Gomez", "Aidan N."), "Gomez, Aidan N."),
        ("Laurens van der Maaten", Name("Maaten", "Laurens", "van der"), "van der Maaten, Laurens"),
        (
            "van der Maaten, Laurens",
            Name("Maaten", "Laurens", "van der"),
            "van der Maaten, Laurens",
        ),
        (
            "Martin Luther King Jr.",
            Name("King", "Martin Luther", "", "Jr."),
            "King, Jr., Martin Luther",
        ),
        ("King, Jr., Martin", Name("King", "Martin", "", "Jr."), "King, Jr., Martin"),
        ("Martin King, Jr.", Name("King", "Martin", "", "Jr."), "King, Jr., Martin"),
        ("Kimi Team", Name("Kimi Team", literal=True), "{Kimi Team}"),
        ("DeepSeek-AI", Name("DeepSeek-AI", literal=True), "{DeepSeek-AI}"),
        ("Ann and Bob", Name("Bob", "Ann and"), "Bob, Ann {and}"),
    ],
)
def test_author_names(raw: str, name: Name, bibtex: str) -> None:
    from pwc_core.citation_formats import bibtex_name

    assert parse_name(raw) == name
    assert bibtex_name(name) == bibtex


@pytest.mark.parametrize(
    ("author", "published", "title", "key"),
    [
        ("Jacob Devlin", "2018-10-11", BERT_TITLE, "devlin2018bert"),
        (
            "Grisha Perelman",
            "2002-11-11",
            "The entropy formula for the Ricci flow",
            "perelman2002entropy",
        ),
        ("Jürgen Schmidhuber", "1997", "Über Netze", "schmidhuber1997uber"),
        ("Łukasz Kaiser", "2017-06-12", "A Model", "kaiser2017model"),
        ("Laurens van der Maaten", "2008", "Visualizing Data using t-SNE", "maaten2008visualizing"),
        ("何恺明", "2016", "深度残差学习", "anon2016"),
        ("Jian Sun [1187]", None, "On the Of", "sun"),
    ],
)
def test_keys(author: str, published: str | None, title: str, key: str) -> None:
    assert citation_key(parse_name(author), published, title) == key


# --- hostile catalog strings ---------------------------------------------------------------

HOSTILE = {
    "title": "Evil} , author = {Mallory} @misc{x, \\ & % $ # _ ~ ^ {\n\x1b[31mred\x1b[0m\u2028end",
    "authors": ["Eve}, title = {pwned", "Tab\tName\\", "\x1b]0;owned\x07Bob Smith"],
    "published": "2020-01-02",
    "arxiv_id": "2001.00001} x",
    "doi": "10.1000/x}y",
    "url_abs": "https://example.org/a b",
    "conference_name": "Conf}\n2020 & co",
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_hostile_strings_stay_inside_their_fields(fmt: str) -> None:
    text = render(facts_of(HOSTILE, {"name": "Conf} 2020", "location": "A\nB"}), fmt)
    assert "\x1b" not in text and "\x07" not in text and "\u2028" not in text
    if fmt == "bibtex":
        _, _, fields = parse_bibtex(text)
        assert set(fields) == {"title", "author", "booktitle", "address", "year"}
        assert plain(fields["title"]).startswith("Evil} , author = {Mallory} @misc{x, \\ & % $")
        assert plain(fields["booktitle"]) == "Conf} 2020" and fields["address"] == "A B"
        assert fields["author"].count(" and ") == 2
    elif fmt == "ris":
        pairs = ris_fields(text)
        assert [t for t, _ in pairs].count("TI") == 1 and len(pairs) == 10
    else:
        [item] = json.loads(text)
        assert item["title"].startswith("Evil} , author = {Mallory}") and "\n" not in item["title"]
        assert "DOI" not in item and "URL" not in item  # malformed identifiers are left out


def test_a_long_author_list_is_cut_at_the_cap_and_parsed_no_further(monkeypatch) -> None:
    """100 authors kept, then `others`; blank names do not count, and no name past the
    101st parseable one is even parsed (a hostile list costs no more than the cap)."""
    from pwc_core import citations

    parsed: list[object] = []

    def counting(raw: object) -> Name | None:
        parsed.append(raw)
        return parse_name(raw)

    monkeypatch.setattr(citations, "parse_name", counting)
    authors = ["", *(f"Author{i} Smith" for i in range(10_000))]
    facts = facts_of({"title": "T", "authors": authors}, None)
    assert len(facts.authors) == citations.MAX_AUTHORS and facts.more_authors
    assert facts.authors[-1].given == "Author99" and len(parsed) == citations.MAX_AUTHORS + 2
    exact = facts_of({"title": "T", "authors": authors[: citations.MAX_AUTHORS + 1]}, None)
    assert len(exact.authors) == citations.MAX_AUTHORS and not exact.more_authors
