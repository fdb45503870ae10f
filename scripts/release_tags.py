#!/usr/bin/env python3
"""Which git tags are releases: the one rule the release workflow follows.

Rule:
  * ``vMAJOR.MINOR.PATCH``          -> ``release``        (test, image, VPS deployment)
  * ``pwc-mcp-MAJOR.MINOR.PATCH``   -> ``release+space``  (the same, and the fallback Space)
  * anything else                   -> ``ignore``

MAJOR, MINOR and PATCH are ASCII digits without leading zeros (``0`` itself is fine). There are
no pre-release or build suffixes: ``v1.2.3-rc1``, ``V1.2.3``, ``v1.2`` and ``pwc-mcp-v1.2.3``
are ignored. A leading ``refs/tags/`` is accepted and dropped.

Usage:
  release_tags.py classify TAG          print release | release+space | ignore
  release_tags.py version TAG           print the tag's version (1.2.3)
  release_tags.py check TAG VERSION     the tag is a release of exactly VERSION

Exit codes:
  0  classify: always (the answer is printed); version/check: the tag is a release (of VERSION)
  1  version: the tag is not a release; check: not a release, or another version (reason on
     stderr)
  2  usage error
"""

from __future__ import annotations

import argparse
import re
import sys

RELEASE, RELEASE_SPACE, IGNORE = "release", "release+space", "ignore"
_NUMBER = r"(?:0|[1-9][0-9]{0,8})"
_VERSION = rf"{_NUMBER}\.{_NUMBER}\.{_NUMBER}"
PATTERNS = (
    (re.compile(rf"v(?P<version>{_VERSION})", re.ASCII), RELEASE),
    (re.compile(rf"pwc-mcp-(?P<version>{_VERSION})", re.ASCII), RELEASE_SPACE),
)
MAX_TAG = 255


def _parse(tag: str) -> tuple[str, str | None]:
    name = tag.removeprefix("refs/tags/")
    if len(name) > MAX_TAG:
        return IGNORE, None
    for pattern, kind in PATTERNS:
        # fullmatch, not match + "$": "$" would also accept a trailing newline.
        if (found := pattern.fullmatch(name)) is not None:
            return kind, found.group("version")
    return IGNORE, None


def classify(tag: str) -> str:
    """``release``, ``release+space`` or ``ignore`` for a tag name."""
    return _parse(tag)[0]


def version_of(tag: str) -> str | None:
    """The ``MAJOR.MINOR.PATCH`` of a release tag, or None."""
    return _parse(tag)[1]


def publishes_space(tag: str) -> bool:
    return classify(tag) == RELEASE_SPACE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="release_tags.py", description="Classify release tags (see the module docstring)."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("classify", help="print release, release+space or ignore").add_argument("tag")
    sub.add_parser("version", help="print the version of a release tag").add_argument("tag")
    check = sub.add_parser("check", help="the tag is a release of exactly VERSION")
    check.add_argument("tag")
    check.add_argument("version")
    args = parser.parse_args(argv)

    if args.command == "classify":
        print(classify(args.tag))
        return 0
    version = version_of(args.tag)
    if version is None:
        print(
            f"release_tags: {args.tag!r} is not a release tag (vX.Y.Z or pwc-mcp-X.Y.Z)",
            file=sys.stderr,
        )
        return 1
    if args.command == "version":
        print(version)
        return 0
    if version != args.version:
        print(
            f"release_tags: tag {args.tag!r} is version {version} but the package is "
            f"{args.version!r}; bump pyproject.toml or fix the tag",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
