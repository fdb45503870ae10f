"""Shared by the sample catalog's modules: the HTTP error, text folding and arXiv IDs."""

from __future__ import annotations

import re
from typing import Any

Json = dict[str, Any]
MODERN_ARXIV = re.compile(r"^(\d{4}\.\d{4,5})(?:v(\d+))?$", re.IGNORECASE)
LEGACY_ARXIV = re.compile(r"^([a-z][a-z.\-]*/\d{7})(?:v(\d+))?$", re.IGNORECASE)


class ApiError(Exception):
    """An HTTP error answer: a status and the JSON ``detail`` member."""

    def __init__(self, status: int, detail: Any) -> None:
        super().__init__(str(detail))
        self.status, self.detail = status, detail


def pick(record: Json, fields: str) -> Json:
    return {k: record[k] for k in fields.split()}


def fold(value: Any) -> str:
    """Whitespace-collapsed, casefolded text (the clients' comparison rule)."""
    return " ".join(str(value).split()).casefold()


def split_arxiv(ref: str) -> tuple[str, int | None] | None:
    """(ID without version, version or None) for a modern or legacy arXiv ID."""
    match = MODERN_ARXIV.match(ref) or LEGACY_ARXIV.match(ref)
    return (match.group(1), int(match.group(2)) if match.group(2) else None) if match else None
