"""`pwc` entry point: parse, run the handler, render, and map errors to exit codes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from pwc_cli.argparsing import WordError, blank_positional
from pwc_cli.charts.output import problem as chart_problem
from pwc_cli.charts.output import write_chart
from pwc_cli.mistyped import flag_hint
from pwc_cli.parser import VERSION_LINE, build_tree, words_of
from pwc_cli.render import Screen, envelope
from pwc_cli.settings import api_url
from pwc_cli.skills import install
from pwc_cli.terminal import Terminal
from pwc_cli.views import load_views
from pwc_core.commands import Catalog, answer
from pwc_core.declarations import COMMANDS
from pwc_core.errors import HTTPStatusError, PwcError, upstream_detail
from pwc_core.text import neutralise
from pwc_core.transport import CatalogClient


def screen_for(out: TextIO, tty: bool | None, width: int | None) -> Screen:
    """The Terminal that `out` is (None when captured); `tty`/`width` override the detection."""
    is_tty = out.isatty() if tty is None else tty
    if not is_tty:
        return None
    return Terminal(width) if width else Terminal.detect()


def message(error: PwcError) -> str:
    """The one-line stderr message: our own words, never a raw upstream body."""
    if isinstance(error, HTTPStatusError):
        detail = upstream_detail(error.detail)
        return f"API request failed ({error.status}){': ' + detail if detail else ''}"
    return neutralise(str(error)).replace("\n", " ").replace("\t", " ")


def main(
    argv: Sequence[str] | None = None,
    *,
    client: Catalog | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    tty: bool | None = None,
    width: int | None = None,
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    tree = build_tree()
    try:
        words, strays = words_of(list(sys.argv[1:] if argv is None else argv))
    except WordError as refused:
        try:
            tree.parsers[refused.path].error(str(refused))
        except SystemExit as exc:
            return int(exc.code or 0)
    try:
        args, extras = tree.root.parse_known_args(words)
        leaf, declared = tree.parsers[args.command], COMMANDS[args.command]
        extras = [*strays, *extras]
        if extras:  # said by the command that was given, with its own usage line
            hint = flag_hint(["--help", *(f for p in declared.params for f in p.flags)], extras)
            leaf.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
        blank = blank_positional(declared, args)
        if blank:
            leaf.error(f"argument {blank}: must not be empty")
        unusable = chart_problem(args)  # before any request: a bad --chart path costs nothing
        if unusable:
            leaf.error(unusable)
    except SystemExit as exc:  # argparse already printed usage or --help/--version
        return int(exc.code or 0)
    if args.command == "version":
        print(VERSION_LINE, file=out)
        return 0
    if args.command == "skills add":
        return _install_skill(args, out, err)
    screen = screen_for(out, tty, width)
    owned = client is None
    catalog = client
    try:
        catalog = client or CatalogClient(api_url())  # a bad address is a usage error (2)
        answered = answer(args, catalog)
        payload = answered.payload
        if args.json:  # exact: the payload as the catalog and the handler made it
            text, notes = envelope(payload) + "\n", []
        else:  # upstream text cannot drive the terminal (escape sequences, controls)
            rendered = load_views()[args.command](payload, args, screen)
            text, notes = neutralise(rendered.stdout), [neutralise(n) for n in rendered.stderr]
        # `--chart FILE.svg`, drawn for the selection the handler resolved
        notes += [neutralise(n) for n in write_chart(args, payload, answered.selection)]
        out.write(text)
        out.flush()
        for line in notes:
            print(line, file=err)
        return 0
    except PwcError as exc:
        print(f"pwc: {message(exc)}", file=err)
        return exc.exit_code
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        if owned and isinstance(catalog, CatalogClient):
            catalog.close()


def _install_skill(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """`pwc skills add`: no catalog; a refusal is one `pwc: <message>` line (exit 2)."""
    try:
        done = install(args)
    except PwcError as exc:
        print(f"pwc: {message(exc)}", file=err)
        return exc.exit_code
    for line in done:
        print(line, file=out)
    return 0


def entry() -> None:
    sys.exit(main())
