"""Query parameters and pages of the sample catalog: typed access (every invalid value is a 422
with a readable detail), the v1 page object and the listing order.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from starlette.requests import Request

from pwc_mcp.sample.common import ApiError, Json


class Params:
    """Typed access to query parameters; every invalid value is a 422 with a readable detail."""

    def __init__(self, request: Request) -> None:
        self.query = request.query_params

    def text(self, name: str) -> str | None:
        value = self.query.get(name)
        return value if value is not None and value.strip() else None

    def integer(
        self, name: str, default: int, low: int | None = None, high: int | None = None
    ) -> int:
        raw = (self.query.get(name) or "").strip()
        if not raw:
            return default
        if not re.fullmatch(r"[+-]?\d+", raw):
            raise ApiError(422, f"{name} must be an integer")
        value = int(raw)
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise ApiError(422, f"{name} must be {bounds}")
        return value

    def optional_int(self, name: str, low: int | None = None) -> int | None:
        return self.integer(name, -1, low) if self.text(name) else None

    def boolean(self, name: str, default: bool | None = None) -> bool | None:
        raw = (self.query.get(name) or "").strip().lower()
        if raw and raw not in ("true", "1", "false", "0"):
            raise ApiError(422, f"{name} must be true or false")
        return raw in ("true", "1") if raw else default

    def flag(self, name: str) -> bool:
        return bool(self.boolean(name, False))

    def choice(self, name: str, options: tuple[str, ...], default: str) -> str:
        value = self.query.get(name) or default
        if value not in options:
            raise ApiError(422, f"{name} must be one of: {', '.join(options)}")
        return value

    def ordering(self, fields: str, default: str = "name") -> str:
        options = tuple(sign + field for field in fields.split() for sign in ("", "-"))
        return self.choice("ordering", options, default)

    def dates(self) -> tuple[str | None, str | None]:
        found = [self.query.get(name) or None for name in ("start_date", "end_date")]
        for name, value in zip(("start_date", "end_date"), found, strict=True):
            try:
                if value is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                    raise ValueError(value)
                date.fromisoformat(value or "2000-01-01")
            except ValueError:
                raise ApiError(422, f"{name} must be a date in YYYY-MM-DD format") from None
        if found[0] and found[1] and found[0] > found[1]:
            raise ApiError(422, "start_date must be on or before end_date")
        return found[0], found[1]

    def page(self, size: int, max_size: int, max_page: int | None = None) -> tuple[int, int]:
        return self.integer("page", 1, 1, max_page), self.integer("page_size", size, 1, max_size)


def paginate(rows: list[Json], page: tuple[int, int], **extra: Any) -> Json:
    """The v1 page object; a page past the end is empty with ``next_page`` null."""
    number, size = page
    start = (number - 1) * size
    return {
        "count": len(rows),
        "next_page": number + 1 if start + size < len(rows) else None,
        "previous_page": number - 1 if number > 1 else None,
        **extra,
        "results": rows[start : start + size],
    }


def sort_rows(rows: list[Json], ordering: str) -> list[Json]:
    """Sort by ``field`` or ``-field``; strings casefolded, missing values last, ties by id."""
    field = ordering.lstrip("-")

    def key(row: Json) -> tuple[Any, ...]:
        value = row.get(field)
        return (value is None, value.casefold() if isinstance(value, str) else value or 0)

    by_id = sorted(rows, key=lambda r: int(r["id"]))
    return sorted(by_id, key=key, reverse=ordering.startswith("-"))
