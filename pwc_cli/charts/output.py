"""`--chart FILE.svg`: the path checked before any request, and the SVG written after the
leaderboard arrived (the CLI's only file output; the MCP server never writes files).

Policy, like `-o` in curl or a shell redirection: a regular file is overwritten (through a
symlink to one); a directory or any other kind of file is refused, as is a missing directory
or "-" (stdout keeps the table). The file is replaced atomically: a failed write leaves the old
file as it was. Every refusal is a usage error (exit code 2).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import tempfile
from collections.abc import Mapping
from typing import Any

from pwc_cli.charts.svg import document
from pwc_core.chart import scatter
from pwc_core.errors import UsageError
from pwc_core.selection import Selection


def _target(path: str) -> str:
    """Where the SVG goes: the path, or the regular file a symlink at the path points to."""
    return os.path.realpath(path) if os.path.islink(path) else path


def problem(args: argparse.Namespace) -> str | None:
    """Why `--chart` cannot be written (the argparse-style message), or None."""
    path = getattr(args, "chart", None)
    if not path:
        return None
    target = _target(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        return f"argument --chart: cannot use {path}: {exc.strerror or 'not accessible'}"
    if mode is not None and stat.S_ISDIR(mode):
        return f"argument --chart: {path} is a directory; name a file in it"
    if mode is not None and not stat.S_ISREG(mode):
        return f"argument --chart: {path} is not a regular file"
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        return f"argument --chart: no such directory: {folder}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"argument --chart: cannot write in {folder}: permission denied"
    return None


def _write(target: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(target))
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_chart(
    args: argparse.Namespace, payload: Mapping[str, Any], asked: Selection | None
) -> list[str]:
    """Write the `--chart` SVG of `payload` for the selection the handler resolved (`asked`);
    the stderr note saying where (none without `--chart`)."""
    path = getattr(args, "chart", None)
    if not path:
        return []
    refused = problem(args)  # checked again: the filesystem may have changed since
    if refused:
        raise UsageError(refused.removeprefix("argument "))
    try:
        _write(_target(path), document(payload, asked))
    except OSError as exc:
        raise UsageError(f"--chart: cannot write {path}: {exc.strerror or exc}") from None
    chart = scatter(payload, asked)
    plotted = f"{len(chart.points)} point{'s' if len(chart.points) != 1 else ''} plotted"
    return [f"# chart written to {path} ({plotted})"]
