"""Issue #23 item 7, "did you mean": a misspelt name answers with the closest catalog names,
found by a few bounded fallback searches when the catalog's own search finds nothing; an exact
benchmark name that other benchmarks contain names them. Against the sample catalog on
loopback, and against respx catalogs whose full-name search is empty."""

from __future__ import annotations

import json
import shlex

import httpx
import pytest
import respx

from pwc_core.suggest import MAX_EXTRA_SEARCHES, closest, keyword_queries, word_queries
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import BASE, run_cli

# (command line, what follows "closest results: ") over the sample catalog
MISSPELT = [
    # the catalog's `q` search finds nothing for these: before, a bare "not found"
    ("benchmark --name 'LSUN Bedrom 256 x 256'", "LSUN Bedroom 256 x 256"),
    (
        "task --name 'Few Shot Lerning'",
        "Few-Shot Image Classification, Zero-Shot Image Classification",
    ),
    (
        "benchmark --name 'WMT2014 Englsh-French'",
        "WMT2014 English-French, WMT2014 English-German",
    ),
    (
        "task --name image-clasification",
        "Image Classification, Few-Shot Image Classification, Zero-Shot Image Classification",
    ),
    ("method --name transfomer", "Transformer, Swin Transformer, Decision Transformer"),
    # whole lists: before, the name the typed text begins with came first
    ("organization --name 'Google Deepmnd'", "Google DeepMind, Google"),
    ("framework --name 'Pytorch Imag Models'", "PyTorch Image Models, PyTorch"),
    # already ranked well before (kept so): a typo in the series name
    ("conference --name 'Nuerips 2019'", "NeurIPS 2019, ICML 2019, NAACL 2019"),
]


def run(sample: RunningCatalog, argv: str) -> tuple[int, str, str, int]:
    """(exit code, stdout, stderr, catalog requests made)."""
    before = sample.stats.total()
    result = run_cli(sample.url, shlex.split(argv))
    return result.code, result.out, result.err, sample.stats.total() - before


@pytest.mark.parametrize(("argv", "suggested"), MISSPELT)
def test_a_misspelt_name_suggests_the_closest_names(
    sample: RunningCatalog, argv: str, suggested: str
) -> None:
    code, out, err, requests = run(sample, argv)
    typed = shlex.split(argv)[-1]
    assert (code, out) == (4, "")
    assert err.endswith(f" not found: {typed}; closest results: {suggested}\n"), err
    assert requests <= 1 + MAX_EXTRA_SEARCHES  # the lookup and at most three more


@pytest.mark.parametrize(
    ("title", "suggested"),
    [
        ("Atention Is All You Need", "Attention Is All You Need (1706.03762)"),
        (
            "Deep Residal Learning for Image Recognition",
            "Deep Residual Learning for Image Recognition (1512.03385)",
        ),
    ],
)
def test_a_misspelt_title_suggests_the_closest_titles(
    sample: RunningCatalog, title: str, suggested: str
) -> None:
    code, _, err, _ = run(sample, f"paper info '{title}'")
    assert code == 4
    assert err == (
        f"pwc: Paper title not found: {title}; closest results: {suggested}; title also "
        "tried in public metadata (Hugging Face Papers, arXiv and Crossref)\n"
    )


def test_a_title_public_metadata_knows_costs_no_extra_search(sample: RunningCatalog) -> None:
    # suggestions are only looked for once the answer is a miss
    before = sample.stats.requests.get("papers/search", 0)
    code, _, err, _ = run(sample, "paper info 'Long Short-Term Memory' --json")
    assert code == 0, err
    assert sample.stats.requests.get("papers/search", 0) - before == 1


def test_an_exact_name_with_siblings_names_them(sample: RunningCatalog) -> None:
    code, out, err, _ = run(sample, "benchmark --name 'Penn Treebank' --json")
    assert code == 0, err
    data = json.loads(out)["data"]
    assert (data["benchmark"]["id"], data["similar_benchmarks"]) == (
        "455",
        ["Penn Treebank (Word Level)"],
    )
    code, out, err, _ = run(sample, "benchmark --name 'penn treebank'")
    assert code == 0 and out.startswith("# Penn Treebank\n")
    assert err == "# also: Penn Treebank (Word Level)\n"
    # the longer name is contained in no other: nothing to add
    code, out, err, _ = run(sample, "benchmark --name 'Penn Treebank (Word Level)' --json")
    assert (code, json.loads(out)["data"]["similar_benchmarks"], err) == (0, [], "")


# --- respx catalogs whose full-name search finds nothing --------------------------------------


def answer_by_query(answers: dict[str, list[dict[str, str]]]):
    """A respx side effect: the rows listed for the request's `q`, none for any other."""

    def respond(request: httpx.Request) -> httpx.Response:
        rows = answers.get(request.url.params.get("q", ""), [])
        return httpx.Response(200, json={"count": len(rows), "results": rows})

    return respond


def queries(route: respx.Route) -> list[str]:
    return [call.request.url.params.get("q", "") for call in route.calls]


@pytest.fixture
def api():
    with respx.mock(base_url=BASE, assert_all_mocked=True) as router:
        yield router


def pwc(argv: str) -> tuple[int, str]:
    result = run_cli(BASE, shlex.split(argv))
    return result.code, result.err


LSUN = [
    {"id": "1", "name": "LSUN Churches 256 x 256"},
    {"id": "2", "name": "LSUN Bedroom 64 x 64"},
    {"id": "3", "name": "LSUN Bedroom 256 x 256"},
    {"id": "4", "name": "LSUN Cat 256 x 256"},
]


def test_fallback_searches_stop_at_a_name_with_every_word(api: respx.MockRouter) -> None:
    route = api.get("datasets/").mock(side_effect=answer_by_query({"LSUN": LSUN}))
    assert pwc("benchmark --name 'LSUN Bedrom 256 x 256'") == (
        4,
        "pwc: Benchmark not found: LSUN Bedrom 256 x 256; closest results: "
        "LSUN Bedroom 256 x 256, LSUN Bedroom 64 x 64, LSUN Cat 256 x 256\n",
    )
    # the full name, then its longest words until a row has every typed word
    assert queries(route) == ["LSUN Bedrom 256 x 256", "Bedrom", "LSUN"]


def test_fallback_searches_are_bounded(api: respx.MockRouter) -> None:
    route = api.get("tasks/").mock(side_effect=answer_by_query({}))
    code, err = pwc("task --name 'Unsupervised Cross Lingual Domain Adaptation Benchmarks'")
    assert (code, err) == (
        4,
        "pwc: Task not found: Unsupervised Cross Lingual Domain Adaptation Benchmarks\n",
    )
    assert queries(route) == [
        "Unsupervised Cross Lingual Domain Adaptation Benchmarks",
        "Unsupervised",
        "Adaptation",
        "Benchmarks",
    ]


def test_a_lone_misspelt_word_is_searched_by_its_first_and_last_letters(
    api: respx.MockRouter,
) -> None:
    rows = [{"id": "9", "name": "Decision Transformer"}, {"id": "2", "name": "Transformer"}]
    route = api.get("methods/").mock(side_effect=answer_by_query({"rmer": rows}))
    assert pwc("method --name tarnsformer") == (
        4,
        "pwc: Method not found: tarnsformer; closest results: Transformer, Decision Transformer\n",
    )
    assert queries(route) == ["tarnsformer", "tarn", "rmer"]


def test_names_in_hand_that_are_alike_need_no_more_searches(api: respx.MockRouter) -> None:
    rows = [{"id": "1", "name": "Image Classification"}]
    route = api.get("tasks/").mock(side_effect=answer_by_query({"Image Clas": rows}))
    assert pwc("task --name 'Image Clas'")[1].endswith("closest results: Image Classification\n")
    assert queries(route) == ["Image Clas"]


def test_a_failing_fallback_search_still_answers_not_found(api: respx.MockRouter) -> None:
    calls = iter([httpx.Response(200, json={"results": []}), httpx.Response(503)])
    api.get("datasets/").mock(side_effect=lambda request: next(calls))
    assert pwc("benchmark --name 'WMT2014 Englsh-French'") == (
        4,
        "pwc: Benchmark not found: WMT2014 Englsh-French\n",
    )


def test_a_title_search_leaves_out_one_word(api: respx.MockRouter) -> None:
    paper = {"id": "7", "arxiv_id": "1706.03762", "title": "Attention Is All You Need"}
    search = api.get("papers/search").mock(
        side_effect=answer_by_query({"Is All You Need": [paper]})
    )
    api.get("papers/Atention%20Is%20All%20You%20Need/public-metadata").respond(422)
    api.get("papers/public-metadata/search").respond(json={"results": []})
    code, err = pwc("paper info 'Atention Is All You Need'")
    assert code == 4
    assert err.startswith(
        "pwc: Paper title not found: Atention Is All You Need; closest results: "
        "Attention Is All You Need (1706.03762); title also tried in public metadata"
    ), err
    assert queries(search) == ["Atention Is All You Need", "Is All You Need"]


# --- the ranking and the queries ---------------------------------------------------------


def test_closest_ranks_a_typo_of_the_whole_name_first() -> None:
    assert closest("transfomer", ["Decision Transformer", "Swin Transformer", "Transformer"]) == [
        "Transformer",
        "Swin Transformer",
        "Decision Transformer",
    ]
    # a name the typed text merely begins with is not nearer than one with every typed word
    assert closest("Google Deepmnd", ["Google", "Google DeepMind"]) == ["Google DeepMind", "Google"]
    # hyphens and spaces compare alike
    assert closest("image-clasification", ["Image Generation", "Image Classification"])[0] == (
        "Image Classification"
    )


def test_the_fallback_queries() -> None:
    assert word_queries("WMT2014 Englsh-French") == ["WMT2014", "Englsh", "French"]
    assert word_queries("LSUN Bedrom 256 x 256") == ["Bedrom", "LSUN", "256"]
    assert word_queries("transfomer") == ["tran", "omer"]
    assert word_queries("zzz") == []  # too short to search by parts
    assert keyword_queries("Atention Is All You Need") == [
        "Is All You Need",
        "Atention Is All You",
        "Atention Is You Need",
    ]
