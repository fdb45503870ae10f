"""A handler's message in a tool's words: each option it names is the tool's parameter, each
setting MCP syntax (`authors: ["1187"]`, `group_by_area: false`), each value the user's own
spelling, and an ambiguity lists its candidates with what tells them apart.

The handlers raise `pwc_core.wording.Words` (their `str()` is the CLI's message); this module
says the same parts as the tool that ran the command names them. Upstream text (a title, an
author's name) is shown as one short printable line without addresses.
"""

from __future__ import annotations

import json
from typing import Any

from pwc_core.declarations import COMMANDS
from pwc_core.declare import Param
from pwc_core.errors import ArgumentError, PwcError
from pwc_core.scrub import without_internals
from pwc_core.suggest import normal
from pwc_core.wording import Ambiguity, Candidate, Words
from pwc_mcp.params import TOOLS

DETAIL_CHARS = 120
UPSTREAM_READ = 8 * DETAIL_CHARS  # of a catalog string, the prefix cleaned and shown
SHOWN = 5  # candidates an ambiguity lists (and describes, at a request each at most)


def _by_key(command: str) -> dict[str, Param]:
    """The tool's parameters by every key a message may use: dest and each CLI flag."""
    return {
        key: param for param in COMMANDS[command].research() for key in (param.dest, *param.flags)
    }


_COMMAND_KEYS = {command: _by_key(command) for command in TOOLS.values()}
# Without the command (a failure raised outside a handler run): the keys every tool names alike.
_SAME: dict[str, Param] = {}
_CLASHING: set[str] = set()
for _keys in _COMMAND_KEYS.values():
    for _key, _param in _keys.items():
        if _SAME.setdefault(_key, _param).name != _param.name:
            _CLASHING.add(_key)
_ANY_TOOL = {key: param for key, param in _SAME.items() if key not in _CLASHING}


class ToolNames:
    """pwc_core.wording.Namer for the tool that runs `command` (None: any tool)."""

    def __init__(self, command: str | None) -> None:
        self.params = _COMMAND_KEYS.get(command or "", _ANY_TOOL)

    def name(self, key: str) -> str:
        param = self.params.get(key) or _ANY_TOOL.get(key)
        return param.name if param else key.lstrip("-").replace("-", "_")

    def setting(self, key: str, value: Any) -> str:
        param = self.params.get(key) or _ANY_TOOL.get(key)
        if param is not None and param.repeat and not isinstance(value, list | tuple):
            value = [value]  # a repeatable option is a list parameter
        return f"{self.name(key)}: {json.dumps(value, ensure_ascii=False)}"


def in_tool_words(message: str | Words, command: str | None) -> str:
    """A handler's message as the tool that runs `command` says it (plain text as it is)."""
    if isinstance(message, Words):
        return message.tool_text(ToolNames(command))
    return message


def said(error: PwcError, command: str | None) -> str:
    return in_tool_words(error.words or str(error), command)


def argument_said(error: ArgumentError, command: str) -> str:
    """`argument --min: metric threshold must ...` → `minimum_metrics: metric threshold must
    ...`; a reason that is a predicate reads as one sentence (`limit must be 1-25`)."""
    name = ToolNames(command).name(error.dest)
    reason = in_tool_words(error.reason, command)
    if reason.startswith(f"{error.flag} "):  # a kind that names its own flag (`--page must`)
        reason = name + reason[len(error.flag) :]
    if reason.startswith(f"{name} "):
        return reason
    return f"{name} {reason}" if reason.startswith("must ") else f"{name}: {reason}"


# --- ambiguities ---------------------------------------------------------------------------


def ambiguity_said(ambiguity: Ambiguity, command: str | None) -> str:
    """`paper "X" matches 2 catalog papers; retry with paper: "1611.01578" (2016, ICLR 2017)
    or paper: "907341" (2019)`: each candidate as the setting to retry with (or, for a name
    used in its place, the name), with what tells it apart."""
    names = ToolNames(command)
    name = names.name(ambiguity.key)
    typed = json.dumps(ambiguity.typed, ensure_ascii=False)
    found = ambiguity.candidates
    if not found:
        return f"{name} {typed} matches several {ambiguity.kind}; pass one of them by its ID"
    shown = [_choice(c, ambiguity, names) for c in described(ambiguity)]
    more = f" (or one of {len(found) - SHOWN} more)" if len(found) > SHOWN else ""
    head = f"{name} {typed} matches {len(found)} {ambiguity.kind}"
    if ambiguity.by_value:
        return f"{head}; retry with {' or '.join(shown)}{more}"
    return f"{head}: {' or '.join(shown)}{more}; name one of them"


def described(ambiguity: Ambiguity) -> list[Candidate]:
    """The candidates shown, with the traits that cost a request where the ambiguity says how;
    a failing lookup ends the describing (their IDs still tell them apart)."""
    describe, shown = ambiguity.describe, []
    for candidate in ambiguity.candidates[:SHOWN]:
        if describe is not None:
            try:
                candidate = describe(candidate)
            except PwcError:
                describe = None
        shown.append(candidate)
    return shown


def _choice(candidate: Candidate, ambiguity: Ambiguity, names: ToolNames) -> str:
    value = upstream_line(candidate.value)
    if ambiguity.by_value:
        choice = names.setting(ambiguity.key, value)
    else:
        choice = json.dumps(value, ensure_ascii=False)
    # a label that only repeats what was typed tells nothing apart
    label = candidate.label if normal(candidate.label) != normal(ambiguity.typed) else ""
    detail = [upstream_line(t) for t in (label, *candidate.traits) if t]
    return f"{choice} ({', '.join(d for d in detail if d)})" if any(detail) else choice


def upstream_line(text: str) -> str:
    """One short printable line of upstream text, without URLs, addresses or paths."""
    # Only what can be shown is cleaned: a catalog string of any length costs the same.
    text = "".join(ch if ch.isprintable() else " " for ch in text[:UPSTREAM_READ])
    text = without_internals(text)  # URLs, addresses, host names and paths; spaces collapsed
    text = text.strip(" \t:;,-(")
    if len(text) > DETAIL_CHARS:
        text = text[:DETAIL_CHARS].rsplit(" ", 1)[0].rstrip(" :;,-(") + " …"
    return text
