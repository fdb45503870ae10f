"""The three prompts: ready-made research workflows over the tools."""

from __future__ import annotations

from typing import Annotated

from fastmcp.server.providers import LocalProvider
from pydantic import Field

provider = LocalProvider(on_duplicate="error")
Text = Annotated[str, Field(min_length=1, max_length=500)]


@provider.prompt(
    name="find_papers",
    title="Find papers",
    description="Find and cite the most relevant papers on a topic.",
)
def find_papers(topic: Text) -> str:
    return (
        f"Find papers about {topic!r} in the Papers With Code catalog. Use search_papers "
        "(mode='semantic' for concepts, 'keyword' for exact terms), inspect the most relevant "
        "results with get_paper_info, and cite each paper with its canonical URL."
    )


@provider.prompt(
    name="compare_leaderboard",
    title="Compare a leaderboard",
    description="Compare the models on one benchmark, with their settings.",
)
def compare_leaderboard(benchmark: Text) -> str:
    return (
        f"Inspect the benchmark {benchmark!r} with get_benchmark (find its slug with "
        "list_benchmarks if needed). Explain each metric's direction and the evaluation "
        "settings (split, shots, protocol, openness, parameter counts), and do not compare "
        "ranks across different task scopes."
    )


@provider.prompt(
    name="survey_task",
    title="Survey a research task",
    description="Survey a task: benchmarks, representative papers and methods.",
)
def survey_task(task: Text) -> str:
    return (
        f"Survey the research task {task!r}: resolve its slug with list_tasks, call get_task, "
        "inspect the benchmarks with the most evaluations using get_benchmark, and summarize "
        "representative papers and methods with their canonical URLs."
    )
