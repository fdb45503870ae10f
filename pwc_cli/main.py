"""`pwc` entry point: parse, run the handler, render, and map errors to exit codes."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from pwc_cli.commands import Catalog, run
from pwc_cli.errors import PwcError
from pwc_cli.parser import VERSION_LINE, build_parser
from pwc_cli.render import envelope, load_views
from pwc_cli.transport import CatalogClient


def main(
    argv: Sequence[str] | None = None,
    *,
    client: Catalog | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    tty: bool | None = None,
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser, _ = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed usage or --help/--version
        return int(exc.code or 0)
    if args.command == "version":
        print(VERSION_LINE, file=out)
        return 0
    is_tty = out.isatty() if tty is None else tty
    args.tty = is_tty  # list commands group automatically in a terminal (§4.11, §4.15)
    owned = client is None
    catalog = client or CatalogClient()
    try:
        payload = run(args, catalog)
        if args.json:
            text, notes = envelope(payload) + "\n", []
        else:
            rendered = load_views()[args.command](payload, args, is_tty)
            text, notes = rendered.stdout, rendered.stderr
        out.write(text)
        out.flush()
        for line in notes:
            print(line, file=err)
        return 0
    except PwcError as exc:
        print(f"pwc: {exc}", file=err)
        return exc.exit_code
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        if owned and isinstance(catalog, CatalogClient):
            catalog.close()


def entry() -> None:
    sys.exit(main())
