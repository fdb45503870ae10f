"""The prompts: ready-made research workflows over the tools, one row of `PROMPTS` each.

Arguments are checked here rather than by a pydantic constraint: FastMCP turns a failed
constraint into -32603 with pydantic's text, its docs URL and the whole value echoed back. A bad
argument is the caller's mistake: an `invalid_argument` Failure that names the argument, never
its value, which the server says as -32602 (pwc_mcp.server.prompt_error).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import NamedTuple

from fastmcp.server.providers import LocalProvider

from pwc_mcp.failures import Failure, Kind

MAX_TEXT = 500


class Prompt(NamedTuple):
    name: str
    title: str
    description: str
    argument: str  # the one required text argument
    template: str  # str.format template: `{<argument>!r}` stands for the stripped argument


PROMPTS = (
    Prompt(
        "find_papers",
        "Find papers",
        "Find and cite the most relevant papers on a topic.",
        "topic",
        "Find papers about {topic!r} in the Papers With Code catalog. Use search_papers "
        "(mode='semantic' for concepts, 'keyword' for exact terms), inspect the most relevant "
        "results with get_paper_info, and cite each paper with its canonical URL.",
    ),
    Prompt(
        "compare_leaderboard",
        "Compare a leaderboard",
        "Compare the models on one benchmark, with their settings.",
        "benchmark",
        "Inspect the benchmark {benchmark!r} with get_benchmark (find its slug with "
        "list_benchmarks if needed). Explain each metric's direction and the evaluation "
        "settings (split, shots, protocol, openness, parameter counts), show how the state of "
        "the art moved (timeline=true), and do not compare ranks across different task scopes.",
    ),
    Prompt(
        "survey_task",
        "Survey a research task",
        "Survey a task: benchmarks, representative papers and methods.",
        "task",
        "Survey the research task {task!r}: resolve its slug with list_tasks, call get_task, "
        "inspect the benchmarks with the most evaluations using get_benchmark, and summarize "
        "representative papers and methods with their canonical URLs.",
    ),
)


def _text(name: str, value: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise Failure(Kind.INVALID_ARGUMENT, f"{name} must be 1 to {MAX_TEXT} characters of text")
    return value.strip()


def _renderer(prompt: Prompt) -> Callable[..., str]:
    """A function of the prompt's one argument, as FastMCP reads a prompt's arguments from the
    signature: `(topic: str) -> str` for find_papers."""

    def render(**arguments: str) -> str:
        value = _text(prompt.argument, arguments[prompt.argument])
        return prompt.template.format(**{prompt.argument: value})

    # The annotation as text, as a postponed `topic: str` reads: FastMCP then describes the
    # argument ("Provide a value matching the following JSON schema: ...") as it always has.
    parameter = inspect.Parameter(
        prompt.argument, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation="str"
    )
    signature = inspect.Signature([parameter], return_annotation=str)
    render.__signature__ = signature  # type: ignore[attr-defined]
    render.__annotations__ = {prompt.argument: str, "return": str}
    render.__name__ = prompt.name
    return render


def build(table: tuple[Prompt, ...] = PROMPTS) -> LocalProvider:
    """A provider holding every prompt of the table."""
    provider = LocalProvider(on_duplicate="error")
    for prompt in table:
        provider.prompt(name=prompt.name, title=prompt.title, description=prompt.description)(
            _renderer(prompt)
        )
    return provider


provider = build()
