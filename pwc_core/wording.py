"""Messages each front end says in its own words: the CLI names a flag (`--author 1187`), a
tool its parameter in MCP syntax (`authors: ["1187"]`).

A handler raises an error whose message is `Words`: a template and the parts it names. Its
`str()` is the CLI's message, the contract (docs/upstream-api.md#errors-and-exit-codes), and the MCP server
says the same parts as its tools name them (pwc_mcp.answers.tool_errors), so no front end ever rewrites
another's finished text. An ambiguity carries its candidates and what tells them apart.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class Namer(Protocol):
    """How a front end names an option: `key` is a flag (`--author`) or a handler's dest."""

    def name(self, key: str) -> str: ...

    def setting(self, key: str, value: Any) -> str: ...


@dataclass(frozen=True)
class Option:
    """An option a message names, or with `value` the setting that fixes the request. `cli` is
    the CLI's words where its contract says them otherwise (`start date`, `--flat` for
    `--group-by-area` false)."""

    flag: str
    value: Any = None
    cli: str | None = None

    def cli_text(self) -> str:
        if self.cli is not None:
            return self.cli
        return self.flag if self.value is None else f"{self.flag} {self.value}"

    def tool_text(self, namer: Namer) -> str:
        if self.value is None:
            return namer.name(self.flag)
        return namer.setting(self.flag, self.value)


@dataclass(frozen=True)
class Asked:
    """Names as typed, each with the option (dest) that took it: the CLI lists them casefolded,
    each once (its contract); a tool under each parameter, in the user's spelling."""

    pairs: tuple[tuple[str, str], ...]

    def cli_text(self) -> str:
        return ", ".join(dict.fromkeys(typed.casefold() for _, typed in self.pairs))

    def tool_text(self, namer: Namer) -> str:
        shown = dict.fromkeys((namer.name(key), typed) for key, typed in self.pairs)
        return ", ".join(f"{name} {json.dumps(typed)}" for name, typed in shown)


Part = Option | Asked


class Words:
    """`template` with each `{}` filled by a part: an Option or Asked said by the front end,
    anything else as text (a value the user typed is a part, never the template)."""

    __slots__ = ("parts", "template")

    def __init__(self, template: str, *parts: Any) -> None:
        self.template = template
        self.parts = parts

    def cli_text(self) -> str:
        return self.template.format(
            *(p.cli_text() if isinstance(p, Part) else p for p in self.parts)
        )

    def tool_text(self, namer: Namer) -> str:
        return self.template.format(
            *(p.tool_text(namer) if isinstance(p, Part) else p for p in self.parts)
        )

    def __str__(self) -> str:
        return self.cli_text()

    def __repr__(self) -> str:
        return f"Words({self.cli_text()!r})"


def reason_of(error: BaseException) -> str | Words:
    """An exception's message, as Words when it was raised with them (argparse's
    ArgumentTypeError keeps its argument)."""
    if len(error.args) == 1 and isinstance(error.args[0], Words):
        return error.args[0]
    return str(error)


@dataclass(frozen=True)
class Candidate:
    """One record an ambiguous name may mean: `value` names it exactly (an ID, a metric's
    name), `label` is its name, `traits` what tells it apart (year and venue of a paper; an
    author's handle or paper count)."""

    value: str
    label: str = ""
    traits: tuple[str, ...] = ()


Describe = Callable[[Candidate], Candidate]


@dataclass(frozen=True)
class Ambiguity:
    """A value of option `key` (a flag or dest) that matches several `candidates`, `kind` what
    they are ("catalog papers"). With `by_value` the fix is the option set to a candidate's
    value (an ID); else a candidate's name used in its place. `describe`, when given, adds the
    traits that cost a request (a paper's venue): only a tool's message asks for them."""

    key: str
    typed: str
    kind: str
    candidates: tuple[Candidate, ...]
    by_value: bool = True
    describe: Describe | None = None
