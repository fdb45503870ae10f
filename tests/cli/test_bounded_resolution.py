"""The CLI follows upstream paper mappings a bounded number of times (issue #14): stale
public-metadata mappings in the sample catalog (a cycle, a long chain) end in a clean not-found."""

from __future__ import annotations

import pytest

from pwc_core.resolution import MAX_HOPS
from pwc_mcp.sample import RunningCatalog
from tests.helpers.cli import run_cli


@pytest.mark.parametrize("command", [["paper", "info"], ["paper", "read"], ["paper", "related"]])
@pytest.mark.parametrize("paper", ["990001", "990101"])  # a cycle; a chain of five
def test_a_stale_mapping_is_a_clean_not_found(
    sample: RunningCatalog, command: list[str], paper: str
) -> None:
    sample.stats.reset()
    result = run_cli(sample.url, [*command, paper])
    assert result.code == 4 and result.out == ""
    assert result.err.startswith("pwc: ") and result.err.count("\n") == 1
    assert sample.stats.total() <= 2 * (MAX_HOPS + 1)
