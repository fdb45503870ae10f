"""The Pareto frontier equals its definition (no other row is at least as good everywhere and
better somewhere), for any rows, ties, missing values and directions."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pwc_core.leaderboard import pareto_frontier

METRICS = ("a", "b", "c")
value = st.one_of(st.none(), st.integers(0, 4).map(float))  # few values: many ties
row = st.fixed_dictionaries({"metrics": st.fixed_dictionaries({m: value for m in METRICS})})
objectives = st.lists(
    st.tuples(st.sampled_from(METRICS), st.sampled_from(("higher", "lower"))),
    min_size=1,
    max_size=4,
)


def by_definition(
    rows: list[dict[str, Any]], objectives: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    def score(r: dict[str, Any]) -> list[float] | None:
        values = [r["metrics"][m] for m, _ in objectives]
        if any(v is None for v in values):
            return None
        return [v if d == "higher" else -v for v, (_, d) in zip(values, objectives, strict=True)]

    scored = [(r, s) for r in rows if (s := score(r)) is not None]

    def dominated(s: list[float]) -> bool:
        return any(all(x >= y for x, y in zip(o, s, strict=True)) and o != s for _, o in scored)

    return [r for r, s in scored if not dominated(s)]


@given(st.lists(row, max_size=30), objectives)
def test_frontier_matches_the_definition(
    rows: list[dict[str, Any]], wanted: list[tuple[str, str]]
) -> None:
    got = pareto_frontier(rows, wanted)
    assert [id(r) for r in got] == [id(r) for r in by_definition(rows, wanted)]


def test_nan_counts_as_missing() -> None:
    rows = [{"metrics": {"a": float("nan"), "b": 1.0}}, {"metrics": {"a": 0.0, "b": 0.0}}]
    assert pareto_frontier(rows, [("a", "higher"), ("b", "higher")]) == [rows[1]]


wide_value = st.one_of(st.none(), st.integers(0, 2).map(float), st.floats(-1e3, 1e3))
wide_objectives = st.lists(
    st.tuples(st.sampled_from("abcdefgh"), st.sampled_from(("higher", "lower"))),
    min_size=1,
    max_size=8,
)


@given(
    st.lists(
        st.fixed_dictionaries(
            {"metrics": st.fixed_dictionaries({m: wide_value for m in "abcdefgh"})}
        ),
        max_size=120,
    ),
    wide_objectives,
)
def test_frontier_matches_the_definition_with_eight_objectives(
    rows: list[dict[str, Any]], wanted: list[tuple[str, str]]
) -> None:
    got = pareto_frontier(rows, wanted)
    assert [id(r) for r in got] == [id(r) for r in by_definition(rows, wanted)]


def test_nearly_everyone_on_the_frontier() -> None:
    # anti-correlated objectives (the bench's worst case): every row is kept but one
    rows = [{"metrics": {"a": float(i), "b": float(i)}} for i in range(300)]
    rows.append({"metrics": {"a": 5.0, "b": 5.0}})  # equal to row 5: neither dominates
    rows.append({"metrics": {"a": 5.0, "b": 6.0}})  # worse than row 5 on b alone: dominated
    objectives = [("a", "higher"), ("b", "lower")]
    got = [id(r) for r in pareto_frontier(rows, objectives)]
    assert got == [id(r) for r in by_definition(rows, objectives)]
    assert got == [id(r) for r in rows[:-1]]
