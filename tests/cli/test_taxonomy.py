"""`pwc task|method|conference|organization|framework` and their `list`s, through the CLI."""

from __future__ import annotations

import pytest
import respx

from tests.helpers.cli import fixture, params_of

AREAS = {"page": ["1"], "page_size": ["500"], "ordering": ["name"]}


@pytest.fixture
def areas(api: respx.MockRouter) -> respx.Route:
    return api.get("areas/").respond(json=fixture("areas_list.json"))


@pytest.fixture
def task_routes(api: respx.MockRouter, areas: respx.Route) -> dict[str, respx.Route]:
    return {
        "search": api.get("tasks/").respond(json=fixture("tasks_list.json")),
        "summary": api.get("tasks/12").respond(json=fixture("task_summary.json")),
        "page": api.get("tasks/12/page").respond(json=fixture("task_page.json")),
        "trends": api.get("tasks/12/trending-benchmarks").respond(
            json=fixture("task_trending_benchmarks.json")
        ),
        "papers": api.get("tasks/12/papers").respond(json=fixture("task_papers.json")),
        "areas": areas,
    }


def paths(api: respx.MockRouter) -> list[str]:
    return [call.request.url.path.removeprefix("/api/v1/") for call in api.calls]


# --- inspection requires --name -----------------------------------------------------------


@pytest.mark.parametrize("entity", ["task", "method", "conference", "organization", "framework"])
@pytest.mark.parametrize("extra", [[], ["--name", "  "]])
def test_inspection_requires_name(pwc, api, entity, extra) -> None:
    result = pwc(entity, *extra)
    assert (result.code, result.out) == (2, "")
    assert result.err == f"pwc: {entity} inspection requires --name\n"
    assert not api.calls


# --- task detail --------------------------------------------------------------------------


def test_task_by_name(pwc, api, task_routes) -> None:
    result = pwc("task", "--name", " image classification ", "--json")
    assert result.code == 0, result.err
    assert paths(api) == [
        "tasks/",
        "tasks/12/page",
        "tasks/12/trending-benchmarks",
        "tasks/12/papers",
        "areas/",
    ]
    assert params_of(task_routes["search"]) == {
        "q": ["image classification"],
        "page": ["1"],
        "page_size": ["100"],
    }
    assert params_of(task_routes["trends"]) == {"limit": ["100"], "min_recent_papers": ["0"]}
    assert params_of(task_routes["papers"]) == {
        "page": ["1"],
        "page_size": ["100"],
        "order_by": ["trending"],
        "order_dir": ["desc"],
        "include_resources": ["true"],
    }
    assert params_of(task_routes["areas"]) == AREAS
    data = result.data
    assert list(data) == [
        "task",
        "area",
        "parents",
        "sisters",
        "recommended_frameworks",
        "children",
        "benchmarks",
        "subtask_benchmarks",
        "common_methods",
        "paper_sample_size",
        "paper_count",
        "papers",
    ]
    assert data["area"] == {"id": "1", "name": "Vision"}
    assert data["task"]["benchmark_count"] == 212 and data["task"]["evaluation_count"] == 9844
    assert data["task"]["research_trends"][0] == "Vision transformers pre-trained at scale"
    # the server's trend order; page fields overlaid by trend fields
    assert [b["id"] for b in data["benchmarks"]] == ["205", "207", "219"]
    assert data["benchmarks"][0]["paper_count"] == 1184
    assert data["benchmarks"][0]["support_weighted_score"] == 4.1187
    assert [(m["slug"], m["paper_count"]) for m in data["common_methods"]] == [
        ("batch-normalization", 2),
        ("transformer", 2),
        ("dense-connections", 1),
        ("residual-connection", 1),
        ("swin-transformer", 1),
        ("vision-transformer", 1),
    ]
    assert (data["paper_sample_size"], data["paper_count"], len(data["papers"])) == (4, 14931, 4)


def test_task_by_id_skips_search(pwc, api, task_routes) -> None:
    result = pwc("task", "--name", "12", "--json")
    assert result.code == 0
    assert paths(api)[0] == "tasks/12" and not task_routes["search"].called


def test_task_benchmark_ranking_and_overrides(pwc, api, task_routes) -> None:
    trends = fixture("task_trending_benchmarks.json")
    trends["results"] = [
        {"id": "999", "name": "Not on the page"},
        {"id": "219", "name": "ImageNet ReaL", "trend_score": 0.5},
        {"id": "207", "paper_count": 700},
    ]
    task_routes["trends"].respond(json=trends)
    summary = fixture("task_summary.json") | {
        "paper_count": None,
        "benchmark_count": 5,
        "area_id": "77",
    }
    task_routes["summary"].respond(json=summary)
    papers = fixture("task_papers.json")
    del papers["count"]
    papers["results"] = papers["results"] * 30  # 120 sampled rows; only 10 are returned
    task_routes["papers"].respond(json=papers)
    data = pwc("task", "--name", "12", "--json").data
    assert [b["id"] for b in data["benchmarks"]] == ["219", "207", "205"]
    assert data["benchmarks"][1]["paper_count"] == 700
    assert data["task"]["paper_count"] == 14931  # null summary values do not override
    assert data["task"]["benchmark_count"] == 5
    assert data["area"] is None
    assert (data["paper_sample_size"], data["paper_count"], len(data["papers"])) == (120, 120, 10)
    assert data["common_methods"][0] == {
        "id": "19",
        "slug": "batch-normalization",
        "name": "Batch Normalization",
        "paper_count": 60,
    }
    assert len(data["common_methods"]) == 6


def test_common_methods_top_eight() -> None:
    from pwc_core.commands.taxonomy import common_methods

    papers = [
        {"methods": [{"id": str(i), "name": f"m{i:02d}"} for i in range(n)]} for n in range(1, 12)
    ] + [{"methods": [{"slug": None, "id": None, "name": "x"}, "bad"]}]
    top = common_methods(papers)
    assert [m["name"] for m in top] == [f"m{i:02d}" for i in range(8)]
    assert [m["paper_count"] for m in top] == [11, 10, 9, 8, 7, 6, 5, 4]


def test_task_not_found(pwc, api, task_routes) -> None:
    result = pwc("task", "--name", "Image")
    assert result.code == 4
    assert result.err == (
        # by similarity: a prefix first, then the more alike of the names containing it
        "pwc: Task not found: Image; closest results: Image Classification, "
        "Few-Shot Image Classification, Fine-Grained Image Classification\n"
    )
    api.get("tasks/").respond(json={"count": 0, "results": []})
    assert pwc("task", "--name", "zzz").err == "pwc: Task not found: zzz\n"


@pytest.mark.parametrize(
    ("route", "body", "message"),
    [
        (
            "page",
            {"task": None, "benchmarks": []},
            "task page API returned an unexpected response shape",
        ),
        ("page", [], "task page API returned an unexpected response shape"),
        ("page", {"task": {"id": "12"}}, "task page API did not contain a benchmark list"),
        ("trends", {"results": {}}, "benchmark trends API returned an unexpected response shape"),
        ("papers", "oops", "API returned an unexpected response shape"),
        ("summary", [1], "API returned an unexpected response shape"),
    ],
)
def test_task_shape_errors(pwc, api, task_routes, route, body, message) -> None:
    task_routes[route].respond(json=body)
    result = pwc("task", "--name", "12")
    assert (result.code, result.err) == (4, f"pwc: {message}\n")


def test_task_view_captured_and_terminal(pwc, api, task_routes) -> None:
    page = fixture("task_page.json")
    page["parents"] = [{"id": "3", "name": "Vision Tasks"}, {"id": "1", "name": "Computer Vision"}]
    task_routes["page"].respond(json=page)
    out = pwc("task", "--name", "12").out
    assert out.startswith(
        "# Image Classification\n\nArea: Vision · Level: 0 · 14,931 papers · 212 benchmarks · "
        "9,844 evaluations\n\nAssigning one label from a fixed set of categories to a whole image."
        "\n\n[View task](https://paperswithcode.co/tasks/image-classification)\n\n"
        "## Task hierarchy\n\nComputer Vision → Vision Tasks → Image Classification\n\n"
        "## Research trends\n\n- Vision transformers pre-trained at scale\n"
    )
    assert "## Recommended frameworks\n\n- huggingface/pytorch-image-models — 33,120 stars\n" in out
    assert "## Sister tasks\n\n- Object Detection\n" in out
    assert "## Subtasks\n\n- Fine-Grained Image Classification\n" in out
    assert "## Common methods (from 4 sampled papers)\n\n- Batch Normalization — 2 papers\n" in out
    assert (
        "## Benchmarks\n\n- ImageNet — 1,184 papers, trend score: 4.12, best model: "
        "CoCa (finetuned)\n"
    ) in out
    assert (
        "## Benchmarks by subtask\n\n- Fine-Grained Image Classification\n  - CUB-200-2011\n"
        "  - Stanford Cars\n- Few-Shot Image Classification\n"
    ) in out
    assert (
        "## Trending papers (top 4 of 14,931)\n\n- An Image is Worth 16x16 Words: Transformers "
        "for Image Recognition at Scale (2020-10-22, 58,417 citations)\n"
    ) in out
    tty = pwc("task", "--name", "12", tty=True).out
    assert tty.startswith("Image Classification\n\nArea: Vision")
    assert "View task: https://paperswithcode.co/tasks/image-classification\n" in tty
    assert "\nTask hierarchy\n\n" in tty and "##" not in tty


# --- task list ----------------------------------------------------------------------------


def test_task_list_flat_default(pwc, api, areas) -> None:
    route = api.get("tasks/").respond(json=fixture("tasks_list.json"))
    result = pwc("task", "list")
    assert paths(api) == ["areas/", "tasks/"]
    assert params_of(areas) == AREAS
    assert params_of(route) == {
        "page": ["1"],
        "page_size": ["50"],
        "visible_only": ["false"],
        "ordering": ["name"],
    }
    assert result.out.splitlines() == [
        "id\tslug\tname\tarea\tlevel\tpapers\tbenchmarks\tevals",
        "12\timage-classification\tImage Classification\tVision\t0\t14931\t212\t9844",
        "316\tfine-grained-image-classification\tFine-Grained Image Classification\tVision\t1\t1288\t29\t1450",
        "317\tfew-shot-image-classification\tFew-Shot Image Classification\tVision\t1\t904\t41\t2203",
    ]
    assert result.err == ""


def test_task_list_flat_filters(pwc, api, areas) -> None:
    route = api.get("tasks/").respond(json=fixture("tasks_list.json"))
    result = pwc(
        "task",
        "list",
        "--area",
        "vision",
        "--level",
        "1",
        "--visible-only",
        "--search",
        "few shot",
        "--order-by",
        "paper_count",
        "--order-dir",
        "desc",
        "--page",
        "2",
        "--page-size",
        "10",
        "--json",
    )
    assert params_of(route) == {
        "page": ["2"],
        "page_size": ["10"],
        "q": ["few shot"],
        "area_id": ["1"],
        "level": ["1"],
        "visible_only": ["true"],
        "ordering": ["-paper_count"],
    }
    rows = result.data["results"]
    assert [r["area_name"] for r in rows] == ["Vision"] * 3
    assert result.data["count"] == 3
    pwc("task", "list", "--area", "2", "--search", "", "--flat")
    assert params_of(route)["area_id"] == ["2"] and "q" not in params_of(route)


def test_task_list_unknown_area(pwc, api, areas) -> None:
    tasks = api.get("tasks/")
    result = pwc("task", "list", "--area", "Robotics")
    assert result.code == 4 and not tasks.called
    assert result.err == (
        "pwc: Area not found: Robotics; available areas: Audio, General, "
        "Natural Language Processing, Reinforcement Learning, Vision\n"
    )


def test_task_list_terminal_flat_and_hint(pwc, api, areas) -> None:
    body = fixture("tasks_list.json") | {"count": 120}
    api.get("tasks/").respond(json=body)
    result = pwc("task", "list", "--flat", tty=True)
    lines = result.out.splitlines()
    assert lines[0] == "area: Vision"  # the same on every row: said once above the table
    assert (
        lines[1]
        == "id   slug                               name                               level  papers  benchmarks  evals"
    )
    assert (
        lines[2]
        == "12   image-classification               Image Classification                   0   14931         212   9844"
    )
    assert result.err == "# more: rerun with --page 2\n"
    assert pwc("task", "list", "--page", "3").err == ""


def test_task_list_grouped(pwc, api) -> None:
    route = api.get("areas/with-tasks/").respond(json=fixture("areas_with_tasks.json"))
    result = pwc("task", "list", "--group-by-area")
    assert route.called and params_of(route) == {}
    assert result.out == (
        "# Area: Natural Language Processing\n"
        "- **Machine Translation** (`machine-translation`) — 6,122 papers · 74 benchmarks · 2,310 evals\n"
        "- **Question Answering** (`question-answering`) — 8,410 papers · 131 benchmarks · 5,127 evals\n"
        "\n# Area: Vision\n"
        "- **Image Classification** (`image-classification`) — 14,931 papers · 212 benchmarks · 9,844 evals\n"
        "- **Object Detection** (`object-detection`) — 11,208 papers · 187 benchmarks · 7,012 evals\n"
    )  # Reinforcement Learning has no tasks: an empty area is left out
    data = pwc("task", "list", "--group-by-area", "--json").data
    assert [a["name"] for a in data["results"]] == [
        "Natural Language Processing",
        "Vision",
        "Reinforcement Learning",
    ]


def test_task_list_grouped_sorting(pwc, api) -> None:
    body = {
        "results": [
            {
                "id": "1",
                "name": "Vision",
                "tasks": [
                    {"name": "b", "slug": "b", "paper_count": 1, "benchmark_count": None},
                    {"name": "C", "slug": "c", "paper_count": None},
                    {"name": "a", "slug": "a", "paper_count": 5},
                ],
            }
        ]
    }
    api.get("areas/with-tasks/").respond(json=body)

    def order(*argv: str) -> list[str]:
        data = pwc("task", "list", "--group-by-area", *argv, "--json").data
        return [t["name"] for t in data["results"][0]["tasks"]]

    assert order() == ["a", "b", "C"]
    assert order("--order-dir", "desc") == ["C", "b", "a"]
    assert order("--order-by", "paper_count") == ["b", "a", "C"]  # missing values last
    assert order("--order-by", "paper_count", "--order-dir", "desc") == ["C", "a", "b"]
    out = pwc("task", "list", "--group-by-area").out
    assert "- **b** (`b`) — 1 paper · unknown benchmarks · unknown evals\n" in out


def test_task_list_grouped_area_filter(pwc, api) -> None:
    api.get("areas/with-tasks/").respond(json=fixture("areas_with_tasks.json"))
    data = pwc("task", "list", "--group-by-area", "--area", "VISION", "--json").data
    assert [a["id"] for a in data["results"]] == ["1"]
    result = pwc("task", "list", "--group-by-area", "--area", "Audio")
    assert result.code == 4
    assert result.err == (
        "pwc: Area not found: Audio; available areas: Natural Language "
        "Processing, Reinforcement Learning, Vision\n"
    )


GROUPED_PAGING = (
    "pwc: --group-by-area cannot be combined with pagination or --level; "
    "use --flat for the complete task endpoint\n"
)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--page", "2"], GROUPED_PAGING),
        (["--page-size", "49"], GROUPED_PAGING),
        (["--level", "0"], GROUPED_PAGING),
        (
            ["--search", "image"],
            "pwc: --group-by-area cannot be combined with --search; use --flat to search tasks\n",
        ),
    ],
)
def test_task_list_grouped_usage_errors(pwc, api, argv, message) -> None:
    result = pwc("task", "list", "--group-by-area", *argv)
    assert (result.code, result.err) == (2, message)
    assert not api.calls


def test_task_list_group_and_flat_exclusive(pwc, api, capsys) -> None:
    assert pwc("task", "list", "--flat", "--group-by-area").code == 2
    assert "argument --group-by-area: not allowed with argument --flat" in capsys.readouterr().err


def test_task_list_terminal_and_pipe_get_the_same_rows(pwc, api, areas) -> None:
    """Grouping is asked for (--group-by-area), never implied by a terminal."""
    grouped = api.get("areas/with-tasks/").respond(json=fixture("areas_with_tasks.json"))
    flat = api.get("tasks/").respond(json=fixture("tasks_list.json"))
    piped, shown = pwc("task", "list"), pwc("task", "list", tty=True)
    assert not grouped.called and flat.call_count == 2
    slugs = [line.split("\t")[1] for line in piped.out.splitlines()[1:]]
    table = shown.out.splitlines()
    table = table[next(i for i, x in enumerate(table) if x.startswith("id ")) + 1 :]
    assert [line.split()[1] for line in table] == slugs  # below what all rows share
    terminal = pwc("task", "list", "--group-by-area", tty=True).out
    assert terminal.startswith("Area: Natural Language Processing\n- Machine Translation (")
    assert "#" not in terminal and "**" not in terminal and "`" not in terminal


# --- methods ------------------------------------------------------------------------------


def test_method_by_name(pwc, api, areas) -> None:
    search = api.get("methods/").respond(json=fixture("methods_list.json"))
    detail = api.get("methods/77").respond(
        json=fixture("method_detail.json")
        | {
            "id": "77",
            "name": "ViT",
            "full_name": "Vision Transformer",
            "area_id": "1",
            "source_url": None,
        }
    )
    result = pwc("method", "--name", "vision transformer", "--json")
    assert paths(api) == ["methods/", "methods/77", "areas/"]
    assert params_of(search) == {"q": ["vision transformer"], "page": ["1"], "page_size": ["100"]}
    assert detail.called
    assert result.data["method"]["name"] == "ViT"
    assert result.data["area"] == {"id": "1", "name": "Vision"}


def test_method_by_id_and_view(pwc, api, areas) -> None:
    api.get("methods/2").respond(json=fixture("method_detail.json"))
    result = pwc("method", "--name", "2")
    assert paths(api) == ["methods/2", "areas/"]
    assert result.out == (
        "# Transformer\n\nArea: General · Introduced: 2017 · 13,086 papers\n\n"
        "An encoder-decoder architecture built entirely from multi-head self-attention and "
        "position-wise feed-forward layers, without recurrence or convolution.\n\n"
        "[Attention Is All You Need](https://paperswithcode.co/paper/1706.03762)\n\n"
        "[View method](https://paperswithcode.co/methods/transformer)\n"
    )
    tty = pwc("method", "--name", "2", tty=True).out
    assert "Attention Is All You Need: https://paperswithcode.co/paper/1706.03762\n" in tty


def test_method_not_found_falls_back_to_slug(pwc, api) -> None:
    api.get("methods/").respond(
        json={"results": [{"id": "5", "slug": "only-slug"}, {"id": "6", "name": "Named"}]}
    )
    result = pwc("method", "--name", "nothing")
    assert (result.code, result.err) == (
        4,
        "pwc: Method not found: nothing; closest results: only-slug, Named\n",
    )


def test_method_list(pwc, api, areas) -> None:
    route = api.get("methods/").respond(json=fixture("methods_list.json"))
    result = pwc(
        "method",
        "list",
        "--area",
        "General",
        "--introduced-year",
        "2017",
        "--search",
        "trans",
        "--order-by",
        "introduced_year",
        "--order-dir",
        "desc",
        "--page-size",
        "500",
    )
    assert paths(api) == ["areas/", "methods/"]
    assert params_of(route) == {
        "page": ["1"],
        "page_size": ["500"],
        "q": ["trans"],
        "area_id": ["3"],
        "introduced_year": ["2017"],
        "ordering": ["-introduced_year"],
    }
    assert result.out.splitlines() == [
        "id\tslug\tname\tfull_name\tarea\tintroduced\tpapers",
        "2\ttransformer\tTransformer\tTransformer\tGeneral\t2017\t13086",
        "77\tvision-transformer\tViT\tVision Transformer\tVision\t2020\t3120",
    ]
    pwc("method", "list")
    assert params_of(route) == {"page": ["1"], "page_size": ["50"], "ordering": ["name"]}


def test_method_list_page_size_bound(pwc, api, capsys) -> None:
    assert pwc("method", "list", "--page-size", "501").code == 2
    assert "argument --limit/--page-size: --limit must be 1-500" in capsys.readouterr().err


def test_method_list_bare_list_payload(pwc, api, areas) -> None:
    api.get("methods/").respond(json=fixture("methods_list.json")["results"])
    data = pwc("method", "list", "--json").data
    assert [r["area_name"] for r in data] == ["General", "Vision"]


# --- conferences --------------------------------------------------------------------------


def test_conference_detail(pwc, api) -> None:
    listing = api.get("conferences/").respond(json=fixture("conferences_list.json"))
    detail = api.get("conferences/neurips-2017").respond(json=fixture("conference_detail.json"))
    result = pwc("conference", "--name", "41", "--json")
    assert params_of(listing) == {} and detail.called
    assert result.data == fixture("conference_detail.json")
    out = pwc("conference", "--name", "neurips 2017").out
    assert out == (
        "# NeurIPS 2017\n\n2017 · 679 papers · Tier: A*\n\nDates: 2017-12-04 – 2017-12-09\n"
        "Venue: Long Beach Convention Center\nLocation: Long Beach, USA\n\n"
        "Thirty-first Conference on Neural Information Processing Systems.\n\n"
        "[Conference website](https://nips.cc/Conferences/2017)\n\n"
        "[View conference](https://paperswithcode.co/conferences/neurips-2017)\n"
    )


def test_conference_detail_falls_back_to_id(pwc, api) -> None:
    api.get("conferences/").respond(json=[{"id": "7", "name": "Solo"}])
    detail = api.get("conferences/7").respond(json={"id": "7", "name": "Solo"})
    assert pwc("conference", "--name", "solo").code == 0 and detail.called


def test_conference_not_found(pwc, api) -> None:
    api.get("conferences/").respond(json=fixture("conferences_list.json"))
    result = pwc("conference", "--name", "ICML")
    assert (result.code, result.err) == (
        4,
        "pwc: Conference not found: ICML; closest results: ICLR 2021, CVPR 2016, NeurIPS 2017\n",
    )


def test_conference_list(pwc, api) -> None:
    body = fixture("conferences_list.json")
    body["results"].append({"id": "99", "slug": "odd", "name": "Odd", "year": "2017"})
    api.get("conferences/").respond(json=body)
    data = pwc("conference", "list", "--year", "2017", "--json").data
    assert data["count"] == 2 and [r["slug"] for r in data["results"]] == ["neurips-2017", "odd"]
    data = pwc("conference", "list", "--json").data
    assert data["count"] == 4 and list(data) == ["count", "results"]
    out = pwc("conference", "list", "--year", "2016").out
    assert (
        out
        == "slug\tname\tyear\tpapers\tlocation\ncvpr-2016\tCVPR 2016\t2016\t643\tLas Vegas, USA\n"
    )
    tty = pwc("conference", "list", "--year", "2016", tty=True).out
    assert tty == (
        "slug       name       year  papers  location\n"
        "cvpr-2016  CVPR 2016  2016     643  Las Vegas, USA\n"
    )


# --- organizations ------------------------------------------------------------------------


def test_organization_detail(pwc, api) -> None:
    listing = api.get("organizations/").respond(json=fixture("organizations_list.json"))
    api.get("organizations/microsoft").respond(json=fixture("organization_detail.json"))
    result = pwc("organization", "--name", "MICROSOFT")
    assert params_of(listing) == {"featured_only": ["false"]}
    assert result.out == (
        "# Microsoft\n\n17,402 papers · Trending rank: 4 · Featured\n\nPaper years: 1998–2026\n\n"
        "Microsoft Research and product AI groups.\n\n"
        "[Website](https://www.microsoft.com/en-us/research/)\n[GitHub](https://github.com/microsoft)"
        "\n[Hugging Face](https://huggingface.co/microsoft)\n\n"
        "[View organization](https://paperswithcode.co/orgs/microsoft)\n"
    )
    assert pwc("organization", "--name", "9", "--json").data["slug"] == "microsoft"


def test_organization_not_found(pwc, api) -> None:
    api.get("organizations/").respond(json=fixture("organizations_list.json"))
    assert pwc("organization", "--name", "Meta").err == (
        "pwc: Organization not found: Meta; closest results: Microsoft, Google, "
        "University of Toronto\n"
    )


def test_organization_list(pwc, api) -> None:
    route = api.get("organizations/").respond(json=fixture("organizations_list.json"))
    result = pwc("organization", "list", "--featured-only")
    assert params_of(route) == {"featured_only": ["true"]}
    assert result.out.splitlines() == [
        "id\tslug\tname\tpapers\tfeatured\ttrend_rank",
        "3\tgoogle\tGoogle\t21877\tyes\t2",
        "9\tmicrosoft\tMicrosoft\t17402\tyes\t4",
        "117\tuniversity-of-toronto\tUniversity of Toronto\t5230\tno\t",
    ]
    assert pwc("organization", "list", "--json").data == fixture("organizations_list.json")
    assert params_of(route) == {"featured_only": ["false"]}


# --- frameworks ---------------------------------------------------------------------------


@pytest.fixture
def frameworks(api: respx.MockRouter) -> respx.Route:
    return api.get("frameworks/").respond(json=fixture("frameworks_catalog.json"))


def test_framework_detail(pwc, frameworks) -> None:
    data = pwc("framework", "--name", "JAX", "--json").data
    assert data["id"] == "2"
    assert (
        data["domain_slug"],
        data["domain_name"],
        data["category_slug"],
        data["category_name"],
    ) == ("deep-learning", "Deep Learning Frameworks", "training", "Training")
    out = pwc("framework", "--name", "pytorch").out
    assert out == (
        "# PyTorch\n\nDeep Learning Frameworks · Training · PyTorch Foundation · 40,211 papers\n\n"
        "When to use: General research training code and custom architectures.\n"
        "Platforms: cpu, gpu, apple\n\nTensor library and autograd engine with eager execution.\n\n"
        "[GitHub](https://github.com/pytorch/pytorch)\n[Documentation](https://pytorch.org/docs/stable/)"
        "\n[Introducing paper 1912.01703](https://paperswithcode.co/paper/1912.01703)\n\n"
        "[View framework](https://paperswithcode.co/frameworks/pytorch)\n"
    )


def test_framework_not_found(pwc, frameworks) -> None:
    assert pwc("framework", "--name", "keras").err == (
        "pwc: Framework not found: keras; closest results: Transformers, JAX, PyTorch\n"
    )


@pytest.mark.parametrize(
    ("argv", "ids"),
    [
        ([], ["1", "2", "7"]),
        (["--domain", "NLP"], ["7"]),
        (["--domain", "deep learning frameworks"], ["1", "2"]),
        (["--category", "training"], ["1", "2"]),
        (["--category", "Model Libraries", "--platform", "GPU"], ["7"]),
        (["--platform", "tpu"], ["2"]),
        (["--platform", "tp"], []),
        (["--domain", "nlp", "--category", "training"], []),
    ],
)
def test_framework_list_filters(pwc, frameworks, argv, ids) -> None:
    data = pwc("framework", "list", *argv, "--json").data
    assert [r["id"] for r in data["results"]] == ids and data["count"] == len(ids)


def test_framework_list_view(pwc, frameworks) -> None:
    out = pwc("framework", "list", "--platform", "tpu").out
    assert out == (
        "id\tslug\tname\tdomain\tcategory\tplatforms\tpapers\n"
        "2\tjax\tJAX\tDeep Learning Frameworks\tTraining\tcpu, gpu, tpu\t3544\n"
    )


@pytest.mark.parametrize("body", [[], {"domains": None}, {"domains": {}}, "x"])
def test_framework_catalog_shape(pwc, api, body) -> None:
    api.get("frameworks/").respond(json=body)
    for argv in (["framework", "--name", "x"], ["framework", "list"]):
        result = pwc(*argv)
        assert (result.code, result.err) == (
            4,
            "pwc: framework catalog returned an unexpected response shape\n",
        )


def test_framework_catalog_skips_non_objects(pwc, api) -> None:
    api.get("frameworks/").respond(
        json={
            "domains": [
                "junk",
                {
                    "slug": "d",
                    "name": "D",
                    "categories": [
                        None,
                        {"slug": "c", "name": "C", "frameworks": [1, {"id": "9", "name": "F"}]},
                    ],
                },
            ]
        }
    )
    assert pwc("framework", "list", "--json").data["results"] == [
        {
            "id": "9",
            "name": "F",
            "domain_slug": "d",
            "domain_name": "D",
            "category_slug": "c",
            "category_name": "C",
        }
    ]


# --- transport-level errors pass through ------------------------------------------------


def test_upstream_failure_exit_3(pwc, api) -> None:
    api.get("conferences/").respond(status_code=503, text="busy")
    result = pwc("conference", "list")
    assert (result.code, result.err) == (3, "pwc: API request failed (503): busy\n")


def test_invalid_json_exit_4(pwc, api) -> None:
    api.get("organizations/").respond(text="not json")
    result = pwc("organization", "list")
    assert (result.code, result.err) == (4, "pwc: API returned invalid JSON\n")


def test_list_without_results_exit_4(pwc, api) -> None:
    api.get("organizations/").respond(json={"results": "no"})
    result = pwc("organization", "list")
    assert (result.code, result.err) == (4, "pwc: API response did not contain a result list\n")
