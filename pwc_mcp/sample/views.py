"""Derived views: evaluation rows and the benchmark, task and area payloads.

``catalog.json`` keeps each leaderboard as a compact table; ``CatalogViews`` expands it into full
evaluation rows (ids, paper fields, links) and computes the task-scoped ``best_rank``, so the
same model can rank differently in two task scopes of one benchmark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pwc_mcp.sample.common import Json

if TYPE_CHECKING:
    from pwc_mcp.sample.records import CatalogRecords

RECENT_DAYS = 365
SUPPORT_PRIOR = 2.0
ROW_FIELDS = frozenset(
    {"harness", "methodology", "split_name", "result_url", "source_url", "hf_model_url"}
    | {"uses_additional_data", "num_parameters", "is_open", "model_name", "paper_id"}
)


def metric_number(value: Any) -> float | None:
    """Numeric value of a metric cell ("78.57%" and "1,024" included)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(str(value).replace(",", "").strip().removesuffix("%"))
    except ValueError:
        return None


def rank_key(row: Json) -> tuple[Any, ...]:
    rank = row["best_rank"]
    return (rank is None, rank or 0, int(row["task_id"]), int(row["id"]))


def ref(record: Json) -> Json:
    return {"id": record["id"], "slug": record["slug"], "name": record["name"]}


class CatalogViews:
    """Evaluation rows with per-dataset/per-task indexes, and the payloads built from them."""

    def __init__(self, store: CatalogRecords, specs: list[Json]) -> None:
        self.store = store
        self.rows = [
            self._row(spec, i, values) for spec in specs for i, values in enumerate(spec["rows"])
        ]
        self.by_dataset: dict[str, list[Json]] = {d: [] for d in store.datasets}
        self.by_task: dict[str, list[Json]] = {t: [] for t in store.tasks}
        scopes: dict[tuple[str, str], list[Json]] = {}
        for row in self.rows:
            self.by_dataset[row["dataset_id"]].append(row)
            self.by_task[row["task_id"]].append(row)
            scopes.setdefault((row["dataset_id"], row["task_id"]), []).append(row)
        for spec in specs:  # the first leaderboard of a (dataset, task) scope sets its direction
            rows = scopes.pop((spec["dataset_id"], spec["task_id"]), [])
            metric, sign = (
                spec["best_metric"],
                -1 if spec["metrics"][spec["best_metric"]] == "higher" else 1,
            )
            scored = [r for r in rows if metric_number(r["metrics"].get(metric)) is not None]
            scored.sort(
                key=lambda r: (
                    sign * (metric_number(r["metrics"][metric]) or 0),
                    r["model_name"].casefold(),
                )
            )
            for rank, row in enumerate(scored, start=1):
                row["best_rank"] = rank

    def _row(self, spec: Json, index: int, values: list[Any]) -> Json:
        extra = values[-1] if values and isinstance(values[-1], dict) else {}
        cells = values[:-1] if extra else values
        given = {
            **spec.get("defaults", {}),
            **dict(zip(spec["columns"], cells, strict=True)),
            **extra,
        }
        if set(given) - ROW_FIELDS - set(spec["metrics"]):
            raise ValueError(
                f"row {given.get('model_name')!r}: unknown fields {set(given) - ROW_FIELDS}"
            )
        paper, dataset = (
            self.store.papers[given["paper_id"]],
            self.store.datasets[spec["dataset_id"]],
        )
        task = self.store.tasks[spec["task_id"]]
        official = next((r["url"] for r in paper.get("repositories", []) if r["is_official"]), None)
        return {
            "id": str(spec["id_start"] + index),
            "paper_id": paper["id"],
            "paper_title": paper["title"],
            "paper_arxiv_id": paper.get("arxiv_id"),
            "paper_published_date": paper["published"],
            "task_id": task["id"],
            "task_name": task["name"],
            "task_slug": task["slug"],
            "dataset_id": dataset["id"],
            "dataset_name": dataset["name"],
            "model_name": given["model_name"],
            "harness": given.get("harness"),
            "metrics": {m: given[m] for m in spec["metrics"] if given.get(m) is not None},
            "best_metric": spec["best_metric"],
            "best_rank": None,
            "num_parameters": given.get("num_parameters"),
            "is_open": given.get("is_open"),
            "methodology": given.get("methodology"),
            "split_name": given.get("split_name", dataset["split_name"]),
            "result_url": given.get(
                "result_url", paper["row"]["url_abs"] or paper["row"]["source_url"]
            ),
            "source_url": given.get("source_url"),
            "code_url": official,
            "hf_model_url": given.get("hf_model_url"),
            "uses_additional_data": given.get("uses_additional_data", False),
            "updated_at": spec["updated_at"],
        }

    # -- benchmarks and evaluations ------------------------------------------------------------

    def dataset_summary(self, dataset: Json) -> Json:
        rows = self.by_dataset[dataset["id"]]
        fields = ("id", "name", "slug", "full_name", "description", "hf_url", "split_name")
        return {k: dataset[k] for k in fields} | {
            "paper_count": len({r["paper_id"] for r in rows}),
            "evaluation_count": len(rows),
            "created_at": dataset["created_at"],
        }

    def evaluations(
        self,
        filters: dict[str, str | None],
        is_open: bool | None,
        ceiling: int | None,
        popular: bool,
    ) -> tuple[list[Json], int, int]:
        """Rows matching the id filters, openness and parameter ceiling, plus parameter coverage
        (rows with a known count / all rows) of the id-filtered set."""
        rows = [r for r in self.rows if all(v in (None, r[k]) for k, v in filters.items())]
        known = sum(isinstance(r["num_parameters"], int) and r["num_parameters"] > 0 for r in rows)
        total = len(rows)
        rows = [r for r in rows if is_open is None or r["is_open"] is is_open]
        if ceiling is not None:
            rows = [
                r
                for r in rows
                if isinstance(r["num_parameters"], int) and 0 < r["num_parameters"] < ceiling
            ]
        if popular:  # most evaluated benchmarks first, then rank
            rows.sort(
                key=lambda r: (
                    -len(self.by_dataset[r["dataset_id"]]),
                    int(r["dataset_id"]),
                    *rank_key(r),
                )
            )
        else:
            rows.sort(key=rank_key)
        return rows, known, total

    def datasets(
        self,
        query: str,
        task: Json | None,
        descendants: bool,
        minimum: int | None,
        is_open: bool | None,
    ) -> list[Json]:
        rows = [self.dataset_summary(d) for d in self.store.datasets.values()]
        rows = [
            r
            for r in rows
            if query.casefold() in f"{r['name']} {r['full_name']} {r['slug']}".casefold()
        ]
        if task is not None:
            scope = {task["id"], *(self.descendants(task["id"]) if descendants else [])}
            ids = {d["id"] for d in self.task_datasets(scope)}
            rows = [r for r in rows if r["id"] in ids]
        rows = [r for r in rows if minimum is None or r["evaluation_count"] >= minimum]
        if is_open is not None:
            rows = [
                r for r in rows if any(e["is_open"] is is_open for e in self.by_dataset[r["id"]])
            ]
        return rows

    def task_datasets(self, task_ids: set[str]) -> list[Json]:
        """Datasets evaluated in any of the tasks, most evaluated first."""
        ids = {r["dataset_id"] for t in task_ids for r in self.by_task[t]}
        datasets = [self.store.datasets[i] for i in ids]
        return sorted(
            datasets, key=lambda d: (-len(self.by_dataset[d["id"]]), d["name"].casefold())
        )

    def trending(
        self, task: Json, descendants: bool, is_open: bool | None, limit: int, min_recent: int
    ) -> Json:
        scope = {task["id"], *(self.descendants(task["id"]) if descendants else [])}
        cutoff, today = self.store.recent_cutoff(RECENT_DAYS), self.store.as_of.isoformat()
        groups: dict[str, list[Json]] = {}
        for row in self.rows:
            if row["task_id"] in scope and (is_open is None or row["is_open"] is is_open):
                groups.setdefault(row["dataset_id"], []).append(row)
        results = []
        for dataset_id, rows in groups.items():
            published = {r["paper_id"]: r["paper_published_date"] for r in rows}
            recent, total = (
                sum(cutoff <= day <= today for day in published.values()),
                len(published),
            )
            best, dataset = min(rows, key=rank_key), self.store.datasets[dataset_id]
            fields = ("id", "slug", "name", "full_name", "description", "hf_url")
            results.append(
                {k: dataset[k] for k in fields}
                | {
                    "recent_paper_count": recent,
                    "all_time_paper_count": total,
                    "trend_score": round(recent / (total + SUPPORT_PRIOR), 4),
                    "support_weighted_score": round(recent * total / (total + SUPPORT_PRIOR), 4),
                    "best_model_name": best["model_name"],
                    "best_paper_title": best["paper_title"],
                    "best_code_url": best["code_url"],
                }
            )
        results = [r for r in results if r["recent_paper_count"] >= min_recent]
        results.sort(
            key=lambda r: (
                -r["support_weighted_score"],
                -r["all_time_paper_count"],
                r["name"].casefold(),
            )
        )
        return {
            "task_id": task["id"],
            "task_slug": task["slug"],
            "recent_days": RECENT_DAYS,
            "support_prior_papers": SUPPORT_PRIOR,
            "results": results[:limit],
        }

    # -- tasks and areas -----------------------------------------------------------------------

    def task_summary(self, task: Json) -> Json:
        rows = self.by_task[task["id"]]
        return ref(task) | {
            "area_id": task["area_id"],
            "level": task["level"],
            "paper_count": len(task["papers"]),
            "benchmark_count": len({r["dataset_id"] for r in rows}),
            "evaluation_count": len(rows),
            "created_at": task["created_at"],
        }

    def tasks(
        self, query: str, area_id: str | None, level: int | None, visible_only: bool
    ) -> list[Json]:
        return [
            self.task_summary(t)
            for t in self.store.tasks.values()
            if query.casefold() in f"{t['name']} {t['slug']}".casefold()
            and area_id in (None, t["area_id"])
            and level in (None, t["level"])
            and (t.get("visible", True) or not visible_only)
        ]

    def descendants(self, task_id: str) -> list[str]:
        found, frontier = [], [task_id]
        while frontier:
            children = [t["id"] for t in self.store.tasks.values() if t["parent_id"] == frontier[0]]
            found += children
            frontier = frontier[1:] + children
        return found

    def task_page(self, task: Json) -> Json:
        tasks = self.store.tasks
        parents, parent = [], task["parent_id"]
        while parent:  # nearest first
            parents.append(ref(tasks[parent]))
            parent = tasks[parent]["parent_id"]
        visible = [t for t in tasks.values() if t.get("visible", True)]
        siblings = [
            t
            for t in visible
            if (t["parent_id"], t["area_id"]) == (task["parent_id"], task["area_id"])
        ]
        children = [t for t in visible if t["parent_id"] == task["id"]]
        benchmarks = []
        for dataset in self.task_datasets({task["id"]}):
            best = min(
                (r for r in self.by_dataset[dataset["id"]] if r["task_id"] == task["id"]),
                key=rank_key,
            )
            count = self.dataset_summary(dataset)["paper_count"]
            benchmarks.append(
                ref(dataset) | {"paper_count": count, "best_model_name": best["model_name"]}
            )
        fields = ("id", "slug", "name", "description", "research_trends", "area_id", "level")
        return {
            "task": {k: task[k] for k in fields} | {"paper_count": len(task["papers"])},
            "parents": parents,
            "sisters": [ref(t) for t in siblings if t is not task],
            "children": [ref(c) for c in children],
            "recommended_frameworks": list(task.get("recommended_frameworks", [])),
            "benchmarks": benchmarks,
            "subtask_benchmarks": [
                {
                    "subtask_id": c["id"],
                    "benchmarks": [ref(d) for d in self.task_datasets({c["id"]})],
                }
                for c in children
                if self.by_task[c["id"]]
            ],
        }

    def _area_tasks(self, area: Json) -> list[Json]:
        tasks = [
            t
            for t in self.store.tasks.values()
            if t["area_id"] == area["id"] and t.get("visible", True)
        ]
        return sorted(tasks, key=lambda t: t["name"].casefold())

    def areas_with_tasks(self) -> Json:
        areas = sorted(self.store.areas.values(), key=lambda a: a["name"].casefold())
        tasks = {
            a["id"]: [self.task_summary(t) for t in self._area_tasks(a) if t["level"] == 0]
            for a in areas
        }
        return {"results": [a | {"tasks": tasks[a["id"]]} for a in areas]}

    def areas_with_task_benchmarks(self, per_task: int, min_eval_count: int) -> Json:
        results = []
        for area in sorted(self.store.areas.values(), key=lambda a: a["name"].casefold()):
            tasks = []
            for task in self._area_tasks(area):
                fields = (
                    "id",
                    "name",
                    "slug",
                    "full_name",
                    "description",
                    "hf_url",
                    "evaluation_count",
                )
                benchmarks = [
                    {k: s[k] for k in fields} | {"featured_rank": rank}
                    for rank, d in enumerate(self.task_datasets({task["id"]}), start=1)
                    if (s := self.dataset_summary(d))["evaluation_count"] >= min_eval_count
                ]
                if benchmarks:
                    head = {k: task[k] for k in ("id", "name", "slug")} | {
                        "paper_count": len(task["papers"])
                    }
                    tasks.append(head | {"benchmarks": benchmarks[:per_task]})
            if tasks:
                results.append(area | {"tasks": tasks})
        return {"results": results}
