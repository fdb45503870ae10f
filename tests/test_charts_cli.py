"""`pwc benchmark --chart FILE.svg` over the real sample catalog on loopback: the SVG shows the
payload's points, frontier and labels for a higher-is-better (ImageNet) and a lower-is-better
(Penn Treebank word level) leaderboard, renders in headless Chromium, and is written only where
the path policy allows; the terminal step chart follows the timeline table and a pipe never
gets it; the MCP tool has no `chart` parameter (the server never writes files)."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import shlex
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from pwc_cli.terminal import display_width
from pwc_core.declarations import COMMANDS, PRESENTATION
from pwc_core.metrics import metric_value
from pwc_core.transport import CatalogClient
from pwc_mcp.catalog import CatalogService
from pwc_mcp.cursors import CursorCodec
from pwc_mcp.server import build_server
from tests.helpers import ROOT
from tests.helpers.charts import SVG, brute_frontier, by_class, texts
from tests.helpers.cli import Result, run_cli
from tests.helpers.ops import require_tool

BOARDS = [  # (benchmark, metric, direction)
    ("ImageNet", "Top 1 Accuracy", "higher"),
    ("Penn Treebank (Word Level)", "Test perplexity", "lower"),
]
UNREACHABLE = "http://127.0.0.1:9/api/v1"  # a request here would exit 3, not 2


def pwc(url: str, *argv: str, tty: bool = False, width: int = 100) -> Result:
    return run_cli(url, argv, tty=tty, width=width)


def chart_of(sample, tmp_path: Path, name: str, *extra: str) -> tuple[Any, ET.Element, Path]:
    """The leaderboard's JSON payload and the parsed SVG written alongside it."""
    path = tmp_path / "chart.svg"
    result = pwc(
        sample.url,
        "benchmark",
        "--name",
        name,
        "--limit",
        "100",
        "--json",
        "--chart",
        str(path),
        *extra,
    )
    assert result.code == 0, result.err
    assert result.err.startswith(f"# chart written to {path} (")
    return result.data, ET.fromstring(path.read_bytes()), path


@pytest.mark.parametrize("name, metric, direction", BOARDS)
def test_the_svg_shows_the_leaderboard_points_frontier_and_labels(
    sample, tmp_path: Path, name: str, metric: str, direction: str
) -> None:
    data, root, _ = chart_of(sample, tmp_path, name)
    sign = 1.0 if direction == "higher" else -1.0
    expected = [
        (r["num_parameters"], metric_value(r, metric))
        for r in data["results"]
        if isinstance(r.get("num_parameters"), int) and metric_value(r, metric) is not None
    ]
    points = by_class(root, "circle", "point")
    assert len(points) == len(expected) > 5
    seen = [(int(p.get("data-parameters") or 0), float(p.get("data-value") or 0)) for p in points]
    assert sorted(seen) == sorted(expected)
    for a in points:  # coordinates monotone with values, better up
        for b in points:
            pa, pb = int(a.get("data-parameters") or 0), int(b.get("data-parameters") or 0)
            va, vb = float(a.get("data-value") or 0), float(b.get("data-value") or 0)
            if pa < pb:
                assert float(a.get("cx") or 0) < float(b.get("cx") or 0)
            if sign * va < sign * vb:
                assert float(a.get("cy") or 0) > float(b.get("cy") or 0)
    front = {
        (int(p.get("data-parameters") or 0), float(p.get("data-value") or 0))
        for p in by_class(root, "circle", "frontier")
    }
    assert front == brute_frontier(sorted(set(expected)), sign) and len(front) >= 3
    (best,) = by_class(root, "circle", "best")
    assert float(best.get("data-value") or 0) == max(
        (v for _, v in expected), key=lambda v: sign * v
    )
    assert texts(root, "axis-label y") == [f"{metric}: {direction} is better (better ↑)"]
    assert texts(root, "title")[0] == f"{name}: {metric} against parameters"
    left_out = len(data["results"]) - len(expected)
    note = texts(root, "not-plotted")
    assert note[0].startswith(f"not plotted: {left_out} (") if left_out else note == []


@pytest.mark.parametrize("name, metric, direction", BOARDS)
def test_with_timeline_the_svg_also_draws_the_records(
    sample, tmp_path: Path, name: str, metric: str, direction: str
) -> None:
    data, root, _ = chart_of(sample, tmp_path, name, "--timeline")
    records = data["timeline"]["records"]
    assert data["timeline"]["metric"] == metric and len(records) >= 3
    drawn = by_class(root, "circle", "record")
    assert [(c.get("data-date"), float(c.get("data-value") or 0)) for c in drawn] == [
        (r["date"], r["value"]) for r in records
    ]
    ys = [float(c.get("cy") or 0) for c in drawn]
    assert ys == sorted(ys, reverse=True)  # every record is better, so higher up
    assert texts(root, "axis-label y")[1] == f"{metric}: {direction} is better (better ↑)"
    assert len(by_class(root, "circle", "point")) > 5  # the scatter stays above it


def test_with_a_two_metric_pareto_request_the_svg_plots_the_two_metrics(
    sample, tmp_path: Path
) -> None:
    """The chart model the app draws: the objectives on the axes (better up and left), every
    row returned on the front, drawn as one step line."""
    data, root, _ = chart_of(
        sample, tmp_path, "ImageNet", "--pareto", "Top 1 Accuracy:higher,GFLOPs:lower"
    )
    assert texts(root, "title")[0] == "ImageNet: Top 1 Accuracy against GFLOPs"
    assert texts(root, "axis-label y") == ["Top 1 Accuracy: higher is better (better ↑)"]
    assert texts(root, "axis-label x") == ["GFLOPs: lower is better (better ←; log scale)"]
    rows = data["results"]
    points = by_class(root, "circle", "point")
    assert len(points) == len(rows) == len(by_class(root, "circle", "frontier")) >= 5
    for a in points:
        for b in points:
            ax, bx = float(a.get("data-x") or 0), float(b.get("data-x") or 0)
            if ax < bx:  # fewer GFLOPs: further left
                assert float(a.get("cx") or 0) < float(b.get("cx") or 0)
    (line,) = by_class(root, "polyline", "frontier")
    assert line.get("data-count") == str(len(rows))


def _png_size_and_colours(path: Path) -> tuple[tuple[int, int], int]:
    """(width, height) of a PNG and how many distinct byte values its pixel data holds."""
    blob = path.read_bytes()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n"
    size = struct.unpack(">II", blob[16:24])
    chunks, offset = [], 8
    while offset < len(blob):
        length, kind = struct.unpack(">I4s", blob[offset : offset + 8])
        if kind == b"IDAT":
            chunks.append(blob[offset + 8 : offset + 8 + length])
        offset += 12 + length
    return size, len(set(zlib.decompress(b"".join(chunks))))


def _chromium(tmp_path: Path, *flags: str, target: Path) -> subprocess.CompletedProcess[str]:
    binary = require_tool("chromium", "/usr/bin/chromium", hint="apt-get install chromium")
    command = [
        binary,
        "--headless=new",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--disable-gpu",
        "--no-first-run",
        "--hide-scrollbars",
        *flags,
        target.as_uri(),
    ]
    if os.geteuid() == 0:  # Chromium refuses to run as root inside its sandbox
        command.insert(2, "--no-sandbox")
    # the timeout only turns a hang into a failure
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)


@pytest.mark.parametrize("name, metric, direction", BOARDS)
def test_the_svg_renders_in_chromium(
    sample, tmp_path: Path, name: str, metric: str, direction: str
) -> None:
    _, root, path = chart_of(sample, tmp_path, name, "--timeline")
    width, height = int(root.get("width") or 0), int(root.get("height") or 0)
    shot = tmp_path / f"{path.stem}.png"  # left for a human to look at
    _chromium(tmp_path, f"--screenshot={shot}", f"--window-size={width},{height}", target=path)
    size, colours = _png_size_and_colours(shot)
    assert size == (width, height) and colours > 16  # not a blank page
    dom = _chromium(tmp_path, "--dump-dom", target=path).stdout
    rendered = ET.fromstring(dom)  # Chromium parsed it as SVG: the same points
    assert len(by_class(rendered, "circle", "point")) == len(by_class(root, "circle", "point"))
    assert rendered.tag == SVG + "svg"


def test_piped_output_keeps_the_table_and_an_existing_file_is_overwritten(
    sample, tmp_path: Path
) -> None:
    path = tmp_path / "chart.svg"
    path.write_text("old")
    plain = pwc(sample.url, "benchmark", "--name", "ImageNet", "--limit", "5")
    charted = pwc(
        sample.url, "benchmark", "--name", "ImageNet", "--limit", "5", "--chart", str(path)
    )
    assert charted.code == 0 and charted.out == plain.out
    assert charted.err == plain.err + f"# chart written to {path} (4 points plotted)\n"
    assert path.read_text().startswith("<?xml") and os.listdir(tmp_path) == ["chart.svg"]
    link = tmp_path / "link.svg"
    link.symlink_to(path)
    assert pwc(sample.url, "benchmark", "--name", "MNIST", "--chart", str(link)).code == 0
    assert link.is_symlink() and "MNIST" in path.read_text()


@pytest.mark.parametrize(
    "where, says",
    [
        ("", "is a directory"),
        ("missing/chart.svg", "no such directory"),
        ("file.txt/chart.svg", "Not a directory"),
        ("fifo", "is not a regular file"),
    ],
)
def test_an_unusable_path_is_a_usage_error_before_any_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, says: str
) -> None:
    (tmp_path / "file.txt").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    result = pwc(UNREACHABLE, "benchmark", "--name", "ImageNet", "--chart", str(tmp_path / where))
    assert result.code == 2 and result.out == ""
    assert says in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["fifo", "file.txt"]


@pytest.mark.parametrize("value", ["-", " ", "a\x00b", "x" * 5000])
def test_a_chart_value_that_is_no_path_is_refused(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    assert pwc(UNREACHABLE, "benchmark", "--name", "ImageNet", "--chart", value).code == 2
    assert "argument --chart:" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs Linux /proc")
def test_a_failed_write_is_a_usage_error_in_our_words(sample) -> None:
    result = pwc(sample.url, "benchmark", "--name", "MNIST", "--chart", "/proc/version")
    assert result.code == 2 and result.out == ""
    assert result.err.startswith("pwc: --chart: cannot write /proc/version: ")


def test_the_step_chart_follows_the_timeline_table_in_a_terminal_only(sample) -> None:
    argv = ("benchmark", "--name", "Penn Treebank (Word Level)", "--timeline")
    shown = pwc(sample.url, *argv, tty=True, width=70)
    assert shown.code == 0
    lines = shown.out.splitlines()
    last_record = max(
        i for i, line in enumerate(lines) if line.split()[:2] == ["2020-05-28", "20.5"]
    )
    chart = "\n".join(lines[last_record + 1 :])
    assert "SOTA over time" in shown.out and "┤" in chart and "█" in chart
    assert all(display_width(line) <= 70 for line in chart.splitlines())
    assert "lower is better (up) · Test perplexity over time · 8 records" in chart
    piped = pwc(sample.url, *argv)
    assert piped.code == 0 and not set("┤└█▁") & set(piped.out)
    assert "█" not in pwc(sample.url, "benchmark", "--name", "ImageNet", tty=True).out


def _readme_chart_lines() -> list[str]:
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("\n### Charts\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\.venv/bin/pwc (.*--chart .*)$", section, re.M)


def test_the_readme_chart_examples_run(sample, tmp_path: Path) -> None:
    lines = _readme_chart_lines()
    assert len(lines) == 2
    for line in lines:
        argv = shlex.split(line)
        at = argv.index("--chart") + 1
        argv[at] = str(tmp_path / argv[at])  # the example's file, written under tmp_path
        result = pwc(sample.url, *argv)
        assert result.code == 0 and result.out, result.err
        assert ET.fromstring(Path(argv[at]).read_bytes()).tag == SVG + "svg"
    section = (ROOT / "README.md").read_text("utf-8").split("\n### Charts\n", 1)[1]
    blocks = re.findall(r"^```(\w*)\n(.*?)\n```$", section.split("\n## ", 1)[0], re.S | re.M)
    (shown,) = [body for language, body in blocks if not language]  # the printed output
    terminal = pwc(sample.url, *shlex.split(lines[1])[:-2], tty=True, width=72).out
    assert shown in terminal  # the step chart the README shows is the one printed


def test_get_benchmark_has_no_chart_parameter() -> None:
    assert "chart" in COMMANDS["benchmark"].by_dest  # the CLI flag exists
    catalog = CatalogService(CatalogClient(UNREACHABLE), CursorCodec(secrets.token_bytes(32)))

    async def parameters() -> set[str]:
        async with Client(build_server(catalog)) as client:
            tools = {t.name: t for t in await client.list_tools()}
            return set(tools["get_benchmark"].input_schema["properties"])

    advertised = asyncio.run(parameters())
    assert "max_parameters" in advertised  # research flags are parameters
    assert "chart" not in advertised and "chart" in PRESENTATION
