"""Tool parameters generated from the `pwc` parser, so the two can never drift apart.

`TOOLS` maps each MCP tool to its CLI command (declared with the command in pwc_cli/parsers);
`RENAMES` holds the established MCP names of CLI dests; `MCP_ONLY` declares the few parameters
that have no CLI flag. `signature_for(tool)` turns
the command's research actions into an `inspect.Signature` with pydantic `Field` bounds, and
`to_cli_values(tool, params)` maps validated tool arguments back to parser dests.
"""

from __future__ import annotations

import argparse
import datetime as dt
import inspect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastmcp.exceptions import ToolError
from pydantic import BeforeValidator, Field

from pwc_cli.parser import TOOL_COMMANDS, research_actions
from pwc_core.values import (
    IntRange,
    IsoDate,
    MetricList,
    MetricThreshold,
    ParameterSize,
    ParetoObjectives,
    finite_float,
)

HOSTED_ROW_CAP = 25

# Tool -> CLI command: declared with each command in pwc_cli/parsers (`tool=`).
TOOLS: dict[str, str] = dict(TOOL_COMMANDS)

# CLI dest → MCP parameter name (applies to every tool whose command has that dest).
RENAMES = {
    "start_date": "published_after",
    "end_date": "published_before",
    "author": "authors",
    "order_dir": "order_direction",
    "min_eval_count": "minimum_evaluations",
    "include_evals": "include_evaluations",
}


@dataclass(frozen=True)
class Extra:
    """An MCP-only parameter: not a CLI flag, handled by the tool itself."""

    annotation: Any
    default: Any
    description: str | None


MCP_ONLY: dict[str, dict[str, Extra]] = {
    "read_paper": {
        "cursor": Extra(
            Annotated[str | None, Field(max_length=2048)],
            None,
            "next_cursor from the previous read_paper result; omit to start at the beginning",
        ),
    },
    "get_paper_info": {
        "repo_limit": Extra(
            Annotated[int, Field(ge=1, le=10)],
            5,
            "most repositories and artifacts to return per kind, official first",
        ),
    },
    "get_task": {
        "benchmark_limit": Extra(
            Annotated[int, Field(ge=1, le=10)], 10, "most benchmarks to return"
        ),
    },
    **{
        tool: {
            "page": Extra(Annotated[int, Field(ge=1, le=100)], 1, None),
            "limit": Extra(Annotated[int, Field(ge=1, le=HOSTED_ROW_CAP)], HOSTED_ROW_CAP, None),
        }
        for tool in ("list_conferences", "list_organizations", "list_frameworks")
    },
}


def _mcp_name(tool: str, action: argparse.Action) -> str:
    command = TOOLS[tool]
    if action.dest == "name":
        return command  # `task --name` is exposed as `task`, and so on
    if action.dest == "page_size":
        return "limit"
    return RENAMES.get(action.dest, action.dest)


_REDUNDANT = re.compile(
    r"\s*\((?:\d+-\d+)?(?:, )?(?:default [^)]*)?\)|;\s*repeatable(?: \(AND\))?|,\s*at most \d+$"
)


def describe(action: argparse.Action) -> str:
    """The CLI help without what the schema already states (bounds, defaults, repetition)."""
    return _REDUNDANT.sub("", (action.help or "").replace("%%", "%")).strip()


# Parameters whose name, type and bounds say it all get no description (schemas cost tokens).
SELF_EXPLANATORY = frozenset(
    {"page", "limit", "order_by", "order_direction", "published_after", "published_before"}
)


def _annotation(tool: str, action: argparse.Action, name: str) -> tuple[Any, Any]:
    """(annotation, default) for one CLI action."""
    help_text = None if name in SELF_EXPLANATORY else describe(action)
    default = action.default
    if isinstance(action, argparse._StoreTrueAction):
        return Annotated[bool, Field(description=help_text)], False
    if action.choices is not None:
        choices = tuple(action.choices)
        if set(choices) == {"true", "false"}:
            return Annotated[bool | None, Field(description=help_text)], None
        return Annotated[
            Literal[choices] | None if default is None else Literal[choices],
            Field(description=help_text),
        ], default
    kind = action.type
    if isinstance(kind, IntRange):
        high = kind.maximum
        if name == "limit":
            high = min(high or HOSTED_ROW_CAP, HOSTED_ROW_CAP)
            # A CLI default above the hosted cap becomes "unset": the tool applies the cap
            # itself, so grouped listings (which take no page size) still work.
            default = default if isinstance(default, int) and default <= high else None
        field = Field(ge=kind.minimum, le=high, description=help_text)
        return Annotated[int | None if default is None else int, field], default
    if isinstance(kind, IsoDate):
        date = Annotated[dt.date | None, *_at_most(kind.max_length)]
        return Annotated[date, Field(description=help_text)], None
    if kind is finite_float:
        return Annotated[float | None, Field(description=help_text)], None
    # Lists and objects: the converter's bounds on item count and item length (pwc_core.values).
    if isinstance(kind, MetricThreshold):
        bound = "minimum" if action.dest == "minimum_metrics" else "maximum"
        # A blank name is refused by the converter, which names the parameter (pydantic's
        # message for a dict key reads `minimum_metrics..[key]`).
        metric = Annotated[str, Field(max_length=kind.name_length)]
        return Annotated[
            dict[metric, float] | None,
            Field(
                max_length=kind.max_items,
                description=f"{{metric name: {bound} value}}; names match case-insensitively",
            ),
        ], None
    if isinstance(action, argparse._AppendAction):
        item = Annotated[str, Field(min_length=1, max_length=_bound(action))]
        return Annotated[
            list[item],
            Field(max_length=_bound(action, "max_items"), description=help_text),
        ], []
    if isinstance(kind, MetricList):
        name_item = Annotated[str, Field(max_length=kind.item_length)]
        return Annotated[
            list[name_item] | None,
            Field(min_length=1, max_length=kind.max_items, description=help_text),
        ], None
    if isinstance(kind, ParetoObjectives):
        objective = Annotated[str, Field(max_length=kind.item_length)]
        return Annotated[
            list[objective] | None,
            Field(
                min_length=kind.min_items,
                max_length=kind.max_items,
                description=(
                    "two or more objectives such as ['Top 1 Accuracy:higher', 'Params:lower']"
                ),
            ),
        ], None
    if isinstance(kind, ParameterSize):
        return Annotated[
            str | None,
            BeforeValidator(_size_text),
            Field(
                max_length=kind.max_length,
                description=f"{help_text}; a JSON number (100000000, 1.5e9) is accepted too",
            ),
        ], None
    length = _bound(action)
    if not action.option_strings or action.required:
        return Annotated[str, Field(min_length=1, max_length=length, description=help_text)], (
            inspect.Parameter.empty
        )
    return Annotated[str | None, Field(max_length=length, description=help_text)], None


def _size_text(value: Any) -> Any:
    """A size sent as a JSON number (what a model naturally writes) becomes the text the CLI's
    converter reads: the schema keeps one portable type, "string", and says numbers work too.
    A non-integral or non-finite number becomes text the converter refuses by name."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return str(value)


def _bound(action: argparse.Action, name: str = "max_length") -> int:
    """A bound the flag's converter declares (pwc_core.values); a flag without one cannot become
    a tool parameter."""
    bound = getattr(action.type, name, None)
    if not isinstance(bound, int):
        raise TypeError(f"{action.dest}: the flag's type declares no {name}")
    return bound


def _at_most(limit: int) -> tuple[Any, ...]:
    """A length bound for a string-encoded value pydantic parses itself (a date): checked on the
    raw text before parsing, and advertised as maxLength."""

    def check(value: Any) -> Any:
        if isinstance(value, str) and len(value) > limit:
            raise ValueError(f"at most {limit} characters")
        return value

    return BeforeValidator(check), Field(json_schema_extra={"maxLength": limit})


@dataclass(frozen=True)
class ToolParams:
    signature: inspect.Signature
    to_dest: dict[str, str]  # MCP name → CLI dest (MCP-only names are absent)
    extras: frozenset[str]
    names: dict[str, str]  # CLI dest and every flag spelling → MCP name, for messages
    required_text: tuple[str, ...]  # text without which the tool cannot run


def _build(tool: str) -> ToolParams:
    params: list[inspect.Parameter] = []
    to_dest: dict[str, str] = {}
    names: dict[str, str] = {}
    for action in research_actions(TOOLS[tool]):
        name = _mcp_name(tool, action)
        names.update(dict.fromkeys([action.dest, *action.option_strings], name))
        annotation, default = _annotation(tool, action, name)
        if action.dest == "name":  # an entity tool needs its entity
            annotation = Annotated[
                str, Field(min_length=1, max_length=_bound(action), description=action.help)
            ]
            default = inspect.Parameter.empty
        to_dest[name] = action.dest
        params.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
            )
        )
    extras = MCP_ONLY.get(tool, {})
    for name, extra in extras.items():
        annotation = Annotated[extra.annotation, Field(description=extra.description)]
        params.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=extra.default
            )
        )
    required = [p for p in params if p.default is inspect.Parameter.empty]
    optional = [p for p in params if p.default is not inspect.Parameter.empty]
    text = tuple(p.name for p in required if _base(p.annotation) is str)
    return ToolParams(
        inspect.Signature(required + optional), to_dest, frozenset(extras), names, text
    )


def _base(annotation: Any) -> Any:
    return getattr(annotation, "__origin__", annotation)  # Annotated[str, ...] → str


PARAMS: dict[str, ToolParams] = {tool: _build(tool) for tool in TOOLS}
TOOL_OF: dict[str, str] = {command: tool for tool, command in TOOLS.items()}


def parameter_names(command: str) -> dict[str, str]:
    """How the tool that runs `command` names its options: CLI dest or flag → MCP name."""
    tool = TOOL_OF.get(command)
    return PARAMS[tool].names if tool else {}


def to_cli_values(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Validated tool arguments → values keyed by CLI dest, as the parser's converters expect."""
    spec = PARAMS[tool]
    values: dict[str, Any] = {}
    for name, value in arguments.items():
        dest = spec.to_dest.get(name)
        if dest is None or value is None:
            continue
        if isinstance(value, bool) and dest == "is_open":
            value = "true" if value else "false"
        elif isinstance(value, dict):
            value = [f"{metric}={number}" for metric, number in value.items()]
        elif isinstance(value, list | tuple) and dest in ("require_metrics", "pareto"):
            value = ",".join(str(item) for item in value) if value else None
        elif isinstance(value, dt.date):
            value = value.isoformat()
        if value is None or value == []:
            continue
        values[dest] = value
    return values


def generated(tool: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: give a `**params` tool function the signature generated for `tool`."""

    def apply(fn: Callable[..., Any]) -> Callable[..., Any]:
        spec = PARAMS[tool]

        def wrapper(**kwargs: Any) -> Any:
            # Blank required text is the caller's mistake, said before any request is made
            # (the catalog would answer in its own names: `q is required`).
            for name in spec.required_text:
                value = kwargs.get(name)
                if isinstance(value, str) and not value.strip():
                    raise ToolError(f"invalid_argument: {name} must not be blank")
            return fn(**kwargs)

        wrapper.__name__ = tool
        wrapper.__qualname__ = tool
        wrapper.__doc__ = fn.__doc__
        # No return annotation: the tool passes its output schema explicitly.
        wrapper.__signature__ = spec.signature  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in spec.signature.parameters.values()}
        return wrapper

    return apply
