"""The three prompts: ready-made research workflows over the tools.

Arguments are checked here rather than by a pydantic constraint: FastMCP turns a failed
constraint into -32603 with pydantic's text, its docs URL and the whole value echoed back. A bad
argument is the caller's mistake: -32602 and one line that names the argument, never its value.
"""

from __future__ import annotations

from fastmcp.server.providers import LocalProvider
from mcp import MCPError

from pwc_mcp.jsonrpc import INVALID_PARAMS

provider = LocalProvider(on_duplicate="error")
MAX_TEXT = 500


def _text(name: str, value: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise MCPError(
            INVALID_PARAMS, f"invalid params: {name} must be 1 to {MAX_TEXT} characters of text"
        )
    return value.strip()


@provider.prompt(
    name="find_papers",
    title="Find papers",
    description="Find and cite the most relevant papers on a topic.",
)
def find_papers(topic: str) -> str:
    topic = _text("topic", topic)
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
def compare_leaderboard(benchmark: str) -> str:
    benchmark = _text("benchmark", benchmark)
    return (
        f"Inspect the benchmark {benchmark!r} with get_benchmark (find its slug with "
        "list_benchmarks if needed). Explain each metric's direction and the evaluation "
        "settings (split, shots, protocol, openness, parameter counts), show how the state of "
        "the art moved (timeline=true), and do not compare ranks across different task scopes."
    )


@provider.prompt(
    name="survey_task",
    title="Survey a research task",
    description="Survey a task: benchmarks, representative papers and methods.",
)
def survey_task(task: str) -> str:
    task = _text("task", task)
    return (
        f"Survey the research task {task!r}: resolve its slug with list_tasks, call get_task, "
        "inspect the benchmarks with the most evaluations using get_benchmark, and summarize "
        "representative papers and methods with their canonical URLs."
    )
