"""`pwc search` and `pwc paper …` end to end against a respx-mocked catalog."""

from __future__ import annotations

import json

import httpx
import pytest
import respx

from pwc_core.errors import unreachable
from tests.helpers.cli import BASE, fixture, params_of


def test_search_json_envelope_and_parameters(api: respx.MockRouter, pwc) -> None:
    payload = fixture("papers_search.json")
    route = api.get("/papers/search").respond(json=payload)
    result = pwc(
        "search",
        "attention",
        "--json",
        "--has-official-implementation",
        "--start-date",
        "2017-01-01",
        "--limit",
        "5",
        "--mode",
        "keyword",
    )
    assert result.code == 0 and result.err == ""
    assert result.out.startswith('{"schema_version":"v1","data":{')
    assert result.data == payload
    assert params_of(route) == {
        "q": ["attention"],
        "page": ["1"],
        "page_size": ["5"],
        "mode": ["keyword"],
        "start_date": ["2017-01-01"],
        "has_official_implementation": ["true"],
    }


def test_search_defaults_omit_unset_filters(api: respx.MockRouter, pwc) -> None:
    route = api.get("/papers/search").respond(json=fixture("papers_search_empty.json"))
    assert pwc("search", "zzz").code == 0
    assert params_of(route) == {
        "q": ["zzz"],
        "page": ["1"],
        "page_size": ["10"],
        "mode": ["hybrid"],
    }


def test_search_refuses_unconfirmed_official_filter(api: respx.MockRouter, pwc) -> None:
    payload = fixture("papers_search.json")
    payload["applied_filters"] = {}
    api.get("/papers/search").respond(json=payload)
    result = pwc("search", "x", "--has-official-implementation")
    assert result.code == 4 and result.out == ""
    assert result.err == (
        "pwc: Papers API did not confirm has_official_implementation; refusing unfiltered results\n"
    )


def test_search_date_order_is_a_usage_error(pwc) -> None:
    result = pwc("search", "x", "--start-date", "2021-01-02", "--end-date", "2021-01-01")
    assert (result.code, result.err) == (2, "pwc: start date must be on or before end date\n")


def test_captured_output_is_lossless_tsv(api: respx.MockRouter, pwc) -> None:
    payload = {
        "count": 30,
        "results": [
            {
                "id": "1",
                "arxiv_id": None,
                "title": "Tabs\tand\nnewlines \\ here",
                "published": "2020-05-01",
                "citation_count": 7,
                "has_official_implementation": True,
                "code_repository_count": 2,
            }
        ],
    }
    api.get("/papers/search").respond(json=payload)
    result = pwc("search", "x", "--implementation-coverage")
    lines = result.out.splitlines()
    assert lines[0] == "id\ttitle\tyear\tcitations\tofficial_implementation\tcode_repositories"
    assert lines[1] == "1\tTabs\\tand\\nnewlines \\\\ here\t2020\t7\ttrue\t2"
    assert result.err == "# more: rerun with --page 2\n"


def test_terminal_output_is_aligned(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/search").respond(json=fixture("papers_search.json"))
    lines = pwc("search", "x", tty=True).out.splitlines()
    assert lines[0].split() == ["id", "title", "year", "citations"]
    assert "\t" not in "".join(lines)
    year_column = lines[0].index("year")
    assert all(line[year_column : year_column + 4].strip().isdigit() for line in lines[1:])


@pytest.mark.parametrize(
    "reference", ["1706.03762", "1706.03762v5", "math.GT/0309136", "hep-th/9711200v2", "904512"]
)
def test_identifiers_need_no_lookup(api: respx.MockRouter, pwc, reference: str) -> None:
    route = api.get(url__regex=r"/papers/[^/]+$").respond(json=fixture("paper_detail_basic.json"))
    result = pwc("paper", "info", reference, "--json")
    assert result.code == 0
    assert (
        route.calls.last.request.url.raw_path.decode()
        .split("?")[0]
        .endswith("/papers/" + reference.replace("/", "%2F"))
    )
    assert params_of(route) == {"include_resources": ["false"]}


def test_exact_title_resolves_case_insensitively(api: respx.MockRouter, pwc) -> None:
    search = api.get("/papers/search").respond(json=fixture("papers_search_title_lookup.json"))
    detail = api.get("/papers/1706.03762").respond(json=fixture("paper_detail.json"))
    result = pwc("paper", "info", "  attention   is all you NEED ", "--include-resources", "--json")
    assert result.code == 0 and detail.called
    assert params_of(search) == {
        "q": ["attention   is all you NEED"],
        "page": ["1"],
        "page_size": ["20"],
        "mode": ["keyword"],
    }
    assert params_of(detail) == {"include_resources": ["true"]}


def test_ambiguous_title_lists_candidates(api: respx.MockRouter, pwc) -> None:
    rows = [
        {"id": "1", "arxiv_id": "1512.03385", "title": "Deep Residual Learning"},
        {"id": "2", "arxiv_id": None, "title": "deep residual learning"},
    ]
    api.get("/papers/search").respond(json={"count": 2, "results": rows})
    result = pwc("paper", "info", "Deep Residual Learning")
    assert result.code == 2  # a usage error: the user picks one of the candidates
    assert result.err == (
        "pwc: Paper title is ambiguous: Deep Residual Learning; "
        "Deep Residual Learning (1512.03385); deep residual learning (2)\n"
    )


def test_unknown_title_shows_closest_results(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/search").respond(json=fixture("papers_search.json"))
    api.get("/papers/No%20such%20paper/public-metadata").respond(422, json={"detail": "title"})
    api.get("/papers/public-metadata/search").respond(
        json={"count": 0, "match": None, "results": []}
    )
    api.get("/methods/no-such-paper").respond(404, json={"detail": "Not found."})  # no alias
    result = pwc("paper", "info", "No such paper")
    assert result.code == 4
    assert result.err.startswith("pwc: Paper title not found: No such paper; closest results: ")
    assert result.err.rstrip().endswith(
        "title also tried in public metadata (Hugging Face Papers, arXiv and Crossref)"
    )


def test_short_name_before_colon(api: respx.MockRouter, pwc) -> None:
    rows = [
        {
            "id": "9",
            "arxiv_id": "1810.04805",
            "title": "BERT: Pre-training of Deep Bidirectional Transformers",
        },
        {
            "id": "8",
            "arxiv_id": "1907.11692",
            "title": "RoBERTa: A Robustly Optimized BERT Approach",
        },
    ]
    api.get("/papers/search").respond(json={"results": rows})
    detail = api.get("/papers/1810.04805").respond(json={"id": "9", "title": rows[0]["title"]})
    assert pwc("paper", "info", "bert", "--json").code == 0 and detail.called


@pytest.mark.parametrize("reference", ["", "   "])
def test_empty_reference(pwc, api, capsys, reference: str) -> None:
    result = pwc("paper", "info", reference)
    assert (result.code, capsys.readouterr().err.splitlines()[-1]) == (
        2,
        "pwc paper info: error: argument PAPER: must not be empty; run 'pwc paper info --help'",
    )
    assert not api.calls


def test_paper_info_with_all_evaluations(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/1706.03762").respond(json=fixture("paper_detail_basic.json"))
    page1 = {"count": 3, "results": [{"id": "a"}, {"id": "b"}]}
    page2 = {"count": 3, "results": [{"id": "c"}]}
    route = api.get("/evaluations/").mock(
        side_effect=[httpx.Response(200, json=page1), httpx.Response(200, json=page2)]
    )
    result = pwc("paper", "info", "1706.03762", "--include-evals", "--json")
    assert result.data["evaluations"] == {
        "count": 3,
        "results": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
    }
    paper_id = fixture("paper_detail_basic.json")["id"]
    assert params_of(route, 0) == {
        "page": ["1"],
        "page_size": ["100"],
        "paper_id": [str(paper_id)],
        "ordering": ["-benchmark_popularity"],
    }
    assert params_of(route, 1)["page"] == ["2"]


def test_paper_info_without_id_cannot_fetch_evaluations(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/1706.03762").respond(json={"title": "x"})
    result = pwc("paper", "info", "1706.03762", "--include-evals")
    assert (result.code, result.err) == (4, "pwc: Paper response did not contain an ID\n")


def test_paper_info_markdown_view(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/1706.03762").respond(json=fixture("paper_detail.json"))
    out = pwc("paper", "info", "1706.03762", "--include-resources").out
    assert out.startswith("id: 1706.03762\ntitle: Attention Is All You Need\n")
    for section in (
        "## Abstract",
        "## Paper lineage",
        "### Predecessors",
        "### Successors",
        "## Repositories",
        "## Project pages",
        "## Hugging Face artifacts",
    ):
        assert section in out
    repositories = out.split("## Repositories\n\n")[1].split("\n\n")[0].splitlines()
    assert repositories[0].startswith("- **Official:** ")


def test_paper_info_wrong_shape_is_a_response_error(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/1706.03762").respond(json=["not", "an", "object"])
    assert pwc("paper", "info", "1706.03762").code == 4


def test_paper_evaluations_merges_and_paginates(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/1706.03762").respond(json={"id": "48213"})
    rows = [
        {
            "paper_id": "48213",
            "dataset_id": "5",
            "model_name": "T",
            "task_id": "1",
            "task_name": "A",
            "best_rank": 3,
            "metrics": {"BLEU": 28.4},
        },
        {
            "paper_id": "48213",
            "dataset_id": "5",
            "model_name": "T",
            "task_id": "2",
            "task_name": "B",
            "best_rank": 1,
            "metrics": {"BLEU": 28.4},
        },
    ]
    route = api.get("/evaluations/").respond(json={"count": 2, "next_page": None, "results": rows})
    result = pwc("paper", "evaluations", "1706.03762", "--page-size", "5", "--json")
    assert result.code == 0
    data = result.data
    assert (data["count"], data["page"], data["next_page"]) == (2, 1, None)
    assert len(data["results"]) == 1 and data["results"][0]["best_rank"] == 1
    assert len(data["results"][0]["rank_scopes"]) == 2
    assert params_of(route)["page_size"] == ["5"]
    table = pwc("paper", "evaluations", "1706.03762").out
    assert table.splitlines() == [
        "benchmark\tmodel\tscores\trank\ttask\topen\tsource",
        # listed under A (a tie in rows per scope: the first seen) with A's rank
        "\tT\tBLEU: 28.4\t3\tA #3; B #1\t—\t",  # openness unknown: said by no word
    ]


def test_paper_read_raw_and_json(api: respx.MockRouter, pwc) -> None:
    text = fixture("research_papers_read.md")
    route = api.get("/research/papers/math.GT%2F0309136/read").respond(text=text.rstrip("\n"))
    out = pwc("paper", "read", "math.GT/0309136").out
    assert out == text.rstrip("\n") + "\n"
    assert params_of(route) == {}
    assert pwc("paper", "read", "math.GT/0309136", "--json").data == {
        "paper": "math.GT/0309136",
        "markdown": text.rstrip("\n"),
    }


def test_paper_read_missing_markdown_is_not_found(api: respx.MockRouter, pwc) -> None:
    api.get("/research/papers/1706.03762/read").respond(404, json={"detail": "Not found."})
    api.get("/papers/1706.03762").respond(json={"id": "48213"})
    result = pwc("paper", "read", "1706.03762")
    assert (result.code, result.err) == (
        4,
        "pwc: No Markdown is stored for this paper: 1706.03762\n",
    )


def test_paper_list_sends_and_confirms_filters(api: respx.MockRouter, pwc) -> None:
    payload = fixture("papers_list.json")
    route = api.get("/papers/").respond(json=payload)
    applied = payload["applied_filters"]
    argv = ["paper", "list", "--json"]
    for key in ("task", "organization"):
        if applied.get(key):
            argv += [f"--{key}", str(applied[key]).upper()]
    for author in applied.get("authors", []):
        argv += ["--author", author["name"]]
    result = pwc(*argv)
    assert result.code == 0, result.err
    sent = params_of(route)
    assert sent["latest_only"] == ["true"] and sent["order_by"] == ["trending"]
    assert sent["include_resources"] == ["false"] and "has_official_implementation" not in sent


def test_paper_list_unconfirmed_filter_fails_closed(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/").respond(
        json={"count": 0, "results": [], "applied_filters": {"task": "other"}}
    )
    result = pwc("paper", "list", "--task", "Image Classification")
    assert result.code == 4
    assert "did not confirm the requested catalog filters" in result.err


def test_paper_list_author_confirmation(api: respx.MockRouter, pwc) -> None:
    applied = {"authors": [{"id": "42", "name": "Kaiming He", "hf_username": "kaiming"}]}
    api.get("/papers/").respond(json={"results": [], "applied_filters": applied})
    assert pwc("paper", "list", "--author", "0042").code == 0
    assert pwc("paper", "list", "--author", "@KAIMING").code == 0
    assert pwc("paper", "list", "--author", "kaiming   he").code == 0
    result = pwc("paper", "list", "--author", "Someone Else")
    assert result.code == 4 and "did not confirm the requested author filters" in result.err


def test_paper_list_ambiguous_author(api: respx.MockRouter, pwc) -> None:
    body = fixture("error_ambiguous_author_409.json")
    api.get("/papers/").respond(409, json=body)
    result = pwc("paper", "list", "--author", body["detail"]["reference"])
    assert result.code == 2
    assert result.err.startswith(
        f"pwc: {body['detail']['reference']} is ambiguous; retry with --author "
    )


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (404, {"detail": "Author not found: X"}, "Author not found: X"),
        (422, "not json", "author filter request failed (422)"),
        (409, {"detail": {"code": "other"}}, "author filter request failed (409)"),
    ],
)
def test_paper_list_author_errors(api: respx.MockRouter, pwc, status, body, message) -> None:
    kwargs = {"json": body} if isinstance(body, dict) else {"text": body}
    api.get("/papers/").respond(status, **kwargs)
    assert pwc("paper", "list", "--author", "X").err == f"pwc: {message}\n"


def test_paper_list_other_http_errors_stay_transport_errors(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/").respond(500, json={"detail": "boom"})
    assert pwc("paper", "list", "--author", "X").code == 3


def test_at_most_ten_authors(api: respx.MockRouter, pwc) -> None:
    argv = ["paper", "list"] + [f"--author=a{i}" for i in range(11)]
    result = pwc(*argv)
    assert (result.code, result.err) == (2, "pwc: at most 10 author filters are allowed\n")
    assert not api.calls


@pytest.mark.parametrize(
    ("argv", "path", "fixture_name", "params"),
    [
        (
            ["paper", "recent", "--limit", "3"],
            "/papers/recent",
            "papers_recent.json",
            {"limit": ["3"]},
        ),
        (
            ["paper", "trending", "--min-velocity", "1"],
            "/papers/trending",
            "papers_trending.json",
            {"limit": ["20"], "max_age_days": ["180"], "min_velocity": ["1.0"]},
        ),
        (
            ["paper", "related", "1706.03762"],
            "/papers/1706.03762/related",
            "papers_related.json",
            {"limit": ["4"]},
        ),
        (
            ["paper", "lineage", "list", "1706.03762"],
            "/research/papers/1706.03762/lineage",
            "research_papers_lineage.json",
            {},
        ),
    ],
)
def test_pass_through_commands(
    api: respx.MockRouter, pwc, argv, path, fixture_name, params
) -> None:
    payload = fixture(fixture_name)
    route = api.get(path).respond(json=payload)
    result = pwc(*argv, "--json")
    assert result.code == 0 and result.data == payload
    assert params_of(route) == params
    human = pwc(*argv)
    assert human.code == 0 and human.out


def test_lineage_view(api: respx.MockRouter, pwc) -> None:
    api.get("/research/papers/1706.03762/lineage").respond(
        json=fixture("research_papers_lineage.json")
    )
    out = pwc("paper", "lineage", "list", "1706.03762").out
    assert out.startswith("# Paper lineage\n\n## Paper\n\n- [")
    assert "## Predecessors" in out and "## Successors" in out


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (httpx.Response(200, text="<html>oops</html>"), "API returned invalid JSON"),
        (httpx.Response(200, json="a string"), "API returned an unexpected response shape"),
        (
            httpx.Response(200, json={"results": "nope"}),
            "API response did not contain a result list",
        ),
    ],
)
def test_unusable_answers_exit_4(api: respx.MockRouter, pwc, response, message) -> None:
    api.get("/papers/search").mock(return_value=response)
    result = pwc("search", "x")
    assert (result.code, result.err) == (4, f"pwc: {message}\n")


def test_unreachable_catalog_exits_3(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/recent").mock(side_effect=httpx.ConnectError("Connection refused"))
    result = pwc("paper", "recent")
    assert (result.code, result.err, result.out) == (
        3,
        f"pwc: API request failed: Connection refused; {unreachable(BASE)}\n",
        "",
    )


def test_version_needs_no_network(pwc, api: respx.MockRouter) -> None:
    from pwc_core import __version__

    result = pwc("version")
    assert result.out == f"pwc {__version__} (API v1)\n" and not api.calls
    assert pwc("--version").code == 0


def test_help_lists_the_flags(pwc, capsys: pytest.CaptureFixture[str]) -> None:
    assert pwc("paper", "list", "--help").code == 0
    text = capsys.readouterr().out
    assert "--has-official-implementation" in text and "--author AUTHOR" in text


def test_json_output_keeps_unicode(api: respx.MockRouter, pwc) -> None:
    api.get("/papers/recent").respond(json=[{"id": "1", "title": "Hervé Jégou — 𝛼"}])
    out = pwc("paper", "recent", "--json").out
    assert "Hervé Jégou — 𝛼" in out and json.loads(out)["data"][0]["title"] == "Hervé Jégou — 𝛼"
