"""Release and operations fixtures (the helpers are in tests/helpers/ops.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pwc_mcp.sample import RunningCatalog, start_sample_catalog
from tests.helpers.ops import open_tempdir


@pytest.fixture(scope="session")
def catalog() -> Iterator[RunningCatalog]:
    with start_sample_catalog() as running:
        yield running


@pytest.fixture
def workdir() -> Iterator[Path]:
    with open_tempdir() as path:
        yield path
