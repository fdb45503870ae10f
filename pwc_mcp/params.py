"""Tool parameters generated from the command declarations (pwc_core.declarations), the same
tables the `pwc` parser is generated from, so the two can never drift apart.

`TOOLS` maps each MCP tool to its command; `signature_for(tool)` turns the command's research
parameters into an `inspect.Signature` with pydantic `Field` bounds read off each value kind, and
`to_dests(tool, params)` keys validated tool arguments by handler attribute, values unchanged:
the handler gets them typed (pwc_core.declare.arguments), lists as lists.
"""

from __future__ import annotations

import datetime as dt
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, TypeAdapter, ValidationError

from pwc_core.declarations import COMMANDS, TOOL_COMMANDS
from pwc_core.declare import HOSTED_ROWS, Param
from pwc_core.suggest import nearest
from pwc_core.values import (
    FiniteFloat,
    IntRange,
    IsoDate,
    MetricList,
    MetricThreshold,
    ParameterSize,
    ParetoObjectives,
    YesNo,
)
from pwc_mcp.failures import Failure, Kind

HOSTED_ROW_CAP = HOSTED_ROWS

# Tool -> its command, as declared.
TOOLS: dict[str, str] = dict(TOOL_COMMANDS)

# Handler attribute -> MCP parameter name, where they differ (read by messages that name an
# upstream parameter); an entity's `name` is each tool's own entity word, so it is left out.
RENAMES: dict[str, str] = {
    p.dest: p.name
    for command in COMMANDS.values()
    for p in command.params
    if p.name != p.dest and p.dest != "name"
}


def describe(param: Param) -> str | None:
    """The schema's description: the declared tool help (what the schema does not already
    state: no bounds, defaults or repetition), else the CLI help; none for "" (schemas cost
    tokens)."""
    return (param.help if param.tool_help is None else param.tool_help) or None


def _annotation(param: Param) -> tuple[Any, Any]:
    """(annotation, default) for one declared parameter, from its kind's bounds."""
    help_text = describe(param)
    default, kind = param.default, param.kind
    if param.switch:
        return Annotated[bool, Field(description=help_text)], False
    if param.choices is not None:
        choices = tuple(param.choices)
        if isinstance(kind, YesNo):  # `--is-open true|false`: a tool's boolean
            return Annotated[bool | None, Field(description=help_text)], None
        return Annotated[
            Literal[choices] | None if default is None else Literal[choices],
            Field(description=help_text),
        ], default
    if isinstance(kind, IntRange):
        high = kind.maximum
        if param.name == "limit":
            high = min(high or HOSTED_ROW_CAP, HOSTED_ROW_CAP)
            # A default above the hosted cap becomes "unset": the tool applies the cap
            # itself, so grouped listings (which take no page size) still work.
            default = default if isinstance(default, int) and default <= high else None
        field = Field(ge=kind.minimum, le=high, description=help_text)
        return Annotated[int | None if default is None else int, field], default
    if isinstance(kind, IsoDate):
        date = Annotated[dt.date | None, *_at_most(kind.max_length)]
        return Annotated[date, Field(description=help_text)], None
    if isinstance(kind, FiniteFloat):
        return Annotated[float | None, Field(description=help_text)], None
    if isinstance(kind, MetricThreshold):
        # A blank name is refused by the kind, which names the parameter (pydantic's
        # message for a dict key reads `minimum_metrics..[key]`).
        metric = Annotated[str, Field(max_length=kind.name_length)]
        return Annotated[
            dict[metric, float] | None, Field(max_length=kind.max_items, description=help_text)
        ], None
    if param.repeat:
        item = Annotated[str, Field(min_length=1, max_length=_bound(param))]
        return Annotated[
            list[item], Field(max_length=_bound(param, "max_items"), description=help_text)
        ], []
    if isinstance(kind, MetricList | ParetoObjectives):
        low = kind.min_items if isinstance(kind, ParetoObjectives) else 1
        name_item = Annotated[str, Field(max_length=kind.item_length)]
        return Annotated[
            list[name_item] | None,
            Field(min_length=low, max_length=kind.max_items, description=help_text),
        ], None
    if isinstance(kind, ParameterSize):
        return Annotated[
            str | None,
            BeforeValidator(kind.text_of),
            Field(max_length=kind.max_length, description=help_text),
        ], None
    length = _bound(param)
    if param.positional or param.tool_required:
        field = Field(min_length=1, max_length=length, description=help_text)
        return Annotated[str, field], inspect.Parameter.empty
    return Annotated[str | None, Field(max_length=length, description=help_text)], None


def _bound(param: Param, name: str = "max_length") -> int:
    """A bound the parameter's kind declares (pwc_core.values); a parameter without one
    cannot become a tool parameter."""
    bound = getattr(param.kind, name, None)
    if not isinstance(bound, int):
        raise TypeError(f"{param.dest}: its kind declares no {name}")
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
    to_dest: dict[str, str]  # MCP name → handler attribute
    names: dict[str, str]  # handler attribute and every flag spelling → MCP name, for messages
    required_text: tuple[str, ...]  # text without which the tool cannot run


def _build(tool: str) -> ToolParams:
    params: list[inspect.Parameter] = []
    to_dest: dict[str, str] = {}
    names: dict[str, str] = {}
    for param in COMMANDS[TOOLS[tool]].research():
        names.update(dict.fromkeys([param.dest, *param.flags], param.name))
        annotation, default = _annotation(param)
        to_dest[param.name] = param.dest
        params.append(
            inspect.Parameter(
                param.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
            )
        )
    required = [p for p in params if p.default is inspect.Parameter.empty]
    optional = [p for p in params if p.default is not inspect.Parameter.empty]
    text = tuple(p.name for p in required if _base(p.annotation) is str)
    return ToolParams(inspect.Signature(required + optional), to_dest, names, text)


def _base(annotation: Any) -> Any:
    return getattr(annotation, "__origin__", annotation)  # Annotated[str, ...] → str


PARAMS: dict[str, ToolParams] = {tool: _build(tool) for tool in TOOLS}
TOOL_OF: dict[str, str] = {command: tool for tool, command in TOOLS.items()}


def parameter_names(command: str) -> dict[str, str]:
    """How the tool that runs `command` names its options: CLI dest or flag → MCP name."""
    tool = TOOL_OF.get(command)
    return PARAMS[tool].names if tool else {}


def to_dests(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Validated tool arguments keyed by handler attribute; unset ones left out."""
    spec = PARAMS[tool]
    return {
        spec.to_dest[name]: value
        for name, value in arguments.items()
        if name in spec.to_dest and value is not None
    }


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
                    raise Failure(Kind.INVALID_ARGUMENT, f"{name} must not be blank")
            return fn(**kwargs)

        wrapper.__name__ = tool
        wrapper.__qualname__ = tool
        wrapper.__doc__ = fn.__doc__
        # No return annotation: the tool passes its output schema explicitly.
        wrapper.__signature__ = spec.signature  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in spec.signature.parameters.values()}
        return wrapper

    return apply


@cache
def _adapter(tool: str, name: str) -> TypeAdapter[Any]:
    return TypeAdapter(PARAMS[tool].signature.parameters[name].annotation)


def validated(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Arguments as the tool's schema validates them: what FastMCP hands the tool function
    (for callers that are no MCP client: resource templates, tests); refused as a tool call's
    arguments are (`refusal`)."""
    try:
        return {name: _adapter(tool, name).validate_python(v) for name, v in arguments.items()}
    except ValidationError as error:
        raise refusal(error, tool) from None


NAME_SHOWN = 64  # characters of an unknown argument's name said back


def refusal(error: ValidationError, tool: str | None = None) -> Failure:
    """A schema's refusal in one line that names each parameter and never echoes its value; an
    argument `tool` does not take is answered with the parameter meant (`unknown`)."""
    parts = []
    for e in error.errors(include_url=False, include_input=False):
        where = ".".join(str(p) for p in e["loc"]) or "arguments"
        if e["type"] == "unexpected_keyword_argument" and tool in PARAMS and e["loc"]:
            typed = str(e["loc"][-1])
            shown = typed if len(typed) <= NAME_SHOWN else typed[:NAME_SHOWN] + "…"
            parts.append(f"{shown}: {unknown(str(tool), typed)}")
        elif e["type"] in ("missing", "missing_keyword_only_argument"):
            parts.append(f"{where} is required")
        else:
            parts.append(f"{where}: {e['msg']}")
    return Failure(Kind.INVALID_ARGUMENT, "; ".join(parts))


def unknown(tool: str, typed: str) -> str:
    """`did you mean sort_metric?`: a CLI spelling of a parameter (`sort`, `--min`,
    `page_size`) names it exactly, else the most similar name (pwc_core.suggest); with none
    alike, the parameters the tool takes."""
    spec = PARAMS[tool]
    flag = typed if typed.startswith("-") else "--" + typed.replace("_", "-")
    meant = spec.names.get(typed) or spec.names.get(flag) or nearest(typed, spec.to_dest)
    if meant:
        return f"{tool} takes no such parameter; did you mean {meant}?"
    return f"{tool} takes no such parameter; its parameters: {', '.join(spec.to_dest)}"
