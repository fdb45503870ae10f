"""The repository stands alone: every document reference in the code, the README and docs/
names a file of docs/ and a heading in it, and no reference points into a document the
repository does not contain (the old `§4.14` style)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import pwc_core.commands
from tests.helpers import PACKAGES, ROOT

DOCS = ROOT / "docs"
CODE = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))
CODE_REF = re.compile(r"docs/([\w.-]+\.md)#([\w-]+)")
# Markdown links between documents: README → docs/x.md#a, docs → x.md#a or #a.
MD_LINK = re.compile(r"\]\(((?:docs/)?[\w.-]+\.md)?#([\w-]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(document: Path) -> set[str]:
    """Every heading anchor of a Markdown file (repeats get GitHub's `-1`, `-2` suffixes)."""
    found: set[str] = set()
    fenced = False
    for line in document.read_text("utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := re.match(r"^#{1,6} (.+)$", line)):
            anchor = base = slug(match.group(1))
            n = 0
            while anchor in found:
                n += 1
                anchor = f"{base}-{n}"
            found.add(anchor)
    return found


def code_references() -> list[tuple[str, str, str]]:
    return [
        (f"{path.relative_to(ROOT)}:{number}", document, anchor)
        for path in CODE
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        for document, anchor in CODE_REF.findall(line)
    ]


def markdown_references() -> list[tuple[str, Path, str]]:
    refs = []
    for source in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for target, anchor in MD_LINK.findall(source.read_text("utf-8")):
            if target:
                document = ROOT / target if target.startswith("docs/") else source.parent / target
            else:
                document = source
            refs.append((source.name, document, anchor))
    return refs


def test_the_code_refers_to_the_documents() -> None:
    assert len(code_references()) >= 15  # the contract and decisions the code relies on


@pytest.mark.parametrize(("where", "document", "anchor"), code_references())
def test_code_reference_resolves(where: str, document: str, anchor: str) -> None:
    path = DOCS / document
    assert path.is_file(), f"{where}: docs/{document} does not exist"
    assert anchor in anchors(path), f"{where}: docs/{document} has no heading #{anchor}"


@pytest.mark.parametrize(("source", "document", "anchor"), markdown_references())
def test_document_link_resolves(source: str, document: Path, anchor: str) -> None:
    assert document.is_file(), f"{source}: {document.relative_to(ROOT)} does not exist"
    assert anchor in anchors(document), f"{source}: {document.name} has no heading #{anchor}"


def test_no_reference_points_outside_the_repository() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in CODE
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if "§" in line or re.search(r"\bshared/spec\b|\bSPEC\b|upstream-api\.md §", line)
    ]
    assert not outside, "references into documents the repository lacks:\n" + "\n".join(outside)


def declared_routes() -> list[str]:
    """Every upstream route a command module declares (`ROUTES`, pwc_core/routes.py)."""
    modules = [
        importlib.import_module(f"pwc_core.commands.{m.name}")
        for m in pkgutil.iter_modules(pwc_core.commands.__path__)
    ]
    return sorted({route.path for module in modules for route in getattr(module, "ROUTES", ())})


def test_the_contract_documents_every_route_the_code_calls() -> None:
    routes = declared_routes()
    assert len(routes) >= 20
    contract = (DOCS / "upstream-api.md").read_text("utf-8")
    missing = [path for path in routes if f"`{path}`" not in contract]
    assert not missing, f"docs/upstream-api.md does not describe: {', '.join(missing)}"


def test_slug_is_githubs() -> None:
    assert slug("Deadlines: 25 s per request, 50 s per call") == (
        "deadlines-25-s-per-request-50-s-per-call"
    )
    assert slug("The `pwc` CLI") == "the-pwc-cli"
