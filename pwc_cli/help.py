"""The end of every `--help`: the command's examples, the catalog address and the exit codes.

The examples themselves are declared with each command (pwc_core/declarations, collected in
`pwc_core.declarations.EXAMPLES`), and tests run every one against the sample catalog."""

from __future__ import annotations

import textwrap

from pwc_core.errors import EXIT_CODES
from pwc_core.transport import DEFAULT_BASE_URL

CODES = "Exit codes: " + ", ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES.items())
FOOTER = (
    f"The catalog is $PWC_API_URL (default {DEFAULT_BASE_URL}).\n"
    "Output: aligned columns in a terminal, TSV or Markdown when piped, JSON with --json.\n"
    + textwrap.fill(CODES + ".", 66)
)


def epilog(examples: tuple[str, ...]) -> str:
    """The `--help` epilog showing `examples`, one command line each."""
    if not examples:
        raise ValueError("a command's --help needs at least one example")
    lines = ["examples:", *(f"  {example}" for example in examples)]
    return "\n".join(lines) + "\n\n" + FOOTER
