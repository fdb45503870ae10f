"""The CLI follows upstream paper mappings a bounded number of times (issue #14): stale
public-metadata mappings in the sample catalog (a cycle, a long chain) end in a clean not-found."""

from __future__ import annotations

import io

import pytest

from pwc_cli.main import main
from pwc_cli.resolution import MAX_HOPS
from pwc_cli.transport import CatalogClient
from pwc_mcp.sample import RunningCatalog


@pytest.mark.parametrize("command", [["paper", "info"], ["paper", "read"], ["paper", "related"]])
@pytest.mark.parametrize("paper", ["990001", "990101"])  # a cycle; a chain of five
def test_a_stale_mapping_is_a_clean_not_found(
    sample: RunningCatalog, command: list[str], paper: str
) -> None:
    sample.stats.reset()
    out, err = io.StringIO(), io.StringIO()
    client = CatalogClient(sample.url)
    try:
        code = main([*command, paper], client=client, stdout=out, stderr=err, tty=False)
    finally:
        client.close()
    assert code == 4 and out.getvalue() == ""
    assert err.getvalue().startswith("pwc: ") and err.getvalue().count("\n") == 1
    assert sample.stats.total() <= 2 * (MAX_HOPS + 1)
