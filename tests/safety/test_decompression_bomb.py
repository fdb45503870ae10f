"""A decompression bomb from the catalog leaves the client's memory flat.

The client runs in its own process so its peak RSS (VmHWM) measures nothing but itself; the
bomb comes from the sample catalog over loopback. 256 MiB of zeros is 260 KB gzipped once and
under 1 KB gzipped twice: a client that inflates before counting (httpx's iter_bytes inflates
each 64 KiB chunk whole) peaks 64 MiB (one layer) to 256 MiB (two) above its baseline.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pwc_mcp.sample import RunningCatalog, start_sample_catalog

BOMB_BYTES = 256 << 20
FLAT = 32 << 20  # well above the 2 MiB bound plus buffers, well below one inflated chunk
ROOT = Path(__file__).resolve().parents[2]

CLIENT = """
import json, sys
from pwc_core.errors import ResponseError
from pwc_core.transport import CatalogClient

def peak():
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) * 1024 for l in status if l.startswith("VmHWM:"))

client = CatalogClient(sys.argv[1])
client.get("areas/")  # warm up: imports, the pool, a first connection
before = peak()
outcomes = []
for _ in range(int(sys.argv[2])):
    try:
        client.get("tasks/")
        outcomes.append("ok")
    except ResponseError as error:
        outcomes.append(str(error))
print(json.dumps({"growth": peak() - before, "outcomes": outcomes}))
"""

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/status"), reason="reads VmHWM from /proc"
)


@pytest.fixture(scope="module")
def bomb_catalog() -> Iterator[RunningCatalog]:
    with start_sample_catalog() as running:
        yield running


def _client_run(url: str, requests: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, url, str(requests)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("layers", "refusal"),
    [
        (2, "API response used stacked content encodings"),
        (1, "API response exceeded the client byte limit"),
    ],
)
def test_bomb_is_refused_and_peak_rss_stays_flat(
    bomb_catalog: RunningCatalog, layers: int, refusal: str
) -> None:
    bomb_catalog.faults.bomb(BOMB_BYTES, layers=layers, times=3, path_prefix="tasks/")
    result = _client_run(bomb_catalog.url, 3)
    assert result["growth"] < FLAT, f"peak RSS grew {result['growth'] >> 20} MiB"
    assert result["outcomes"] == [refusal] * 3
