"""scripts/release_tags.py: the tag rule of the release workflow, in-process and as a CLI."""

from __future__ import annotations

import pytest

from tests.helpers.ops import load_script, run_script

tags = load_script("release_tags")

CASES = [
    ("v1.2.3", "release", "1.2.3"),
    ("v0.3.0", "release", "0.3.0"),
    ("v10.20.30", "release", "10.20.30"),
    ("refs/tags/v1.2.3", "release", "1.2.3"),
    ("pwc-mcp-1.2.3", "release+space", "1.2.3"),
    ("pwc-mcp-0.0.0", "release+space", "0.0.0"),
    ("refs/tags/pwc-mcp-2.0.1", "release+space", "2.0.1"),
    # not releases
    ("", "ignore", None),
    ("v1.2", "ignore", None),
    ("v1.2.3.4", "ignore", None),
    ("1.2.3", "ignore", None),
    ("V1.2.3", "ignore", None),
    ("v01.2.3", "ignore", None),
    ("v1.02.3", "ignore", None),
    ("v1.2.3-rc.1", "ignore", None),
    ("v1.2.3rc1", "ignore", None),
    ("v1.2.3+build", "ignore", None),
    ("v1.2.3\n", "ignore", None),
    (" v1.2.3", "ignore", None),
    ("v１.2.3", "ignore", None),  # full-width digit: \d would take it, the rule does not
    ("pwc-mcp-v1.2.3", "ignore", None),
    ("pwc-mcp-1.2", "ignore", None),
    ("pwc-mcp-1.2.3-beta", "ignore", None),
    ("PWC-MCP-1.2.3", "ignore", None),
    ("pwc-mcp1.2.3", "ignore", None),
    ("pwc-cli-1.2.3", "ignore", None),
    ("xpwc-mcp-1.2.3", "ignore", None),
    ("release/v1.2.3", "ignore", None),
    ("refs/heads/v1.2.3", "ignore", None),
    ("v" + "9" * 300 + ".0.0", "ignore", None),
]


@pytest.mark.parametrize(("tag", "kind", "version"), CASES, ids=[repr(c[0])[:40] for c in CASES])
def test_classify(tag: str, kind: str, version: str | None) -> None:
    assert tags.classify(tag) == kind
    assert tags.version_of(tag) == version
    assert tags.publishes_space(tag) is (kind == "release+space")


def test_only_pwc_mcp_tags_publish_the_space() -> None:
    releases = [tag for tag, kind, _ in CASES if kind != "ignore"]
    assert {tag for tag in releases if tags.publishes_space(tag)} == {
        tag for tag in releases if tag.removeprefix("refs/tags/").startswith("pwc-mcp-")
    }


@pytest.mark.parametrize(
    ("tag", "output"),
    [("v1.2.3", "release"), ("pwc-mcp-1.2.3", "release+space"), ("nightly", "ignore")],
)
def test_cli_classify_prints_and_exits_0(tag: str, output: str) -> None:
    result = run_script("scripts/release_tags.py", "classify", tag)
    assert (result.returncode, result.stdout) == (0, output + "\n")


def test_cli_version_and_check() -> None:
    version = run_script("scripts/release_tags.py", "version", "pwc-mcp-1.4.0")
    assert (version.returncode, version.stdout) == (0, "1.4.0\n")
    not_release = run_script("scripts/release_tags.py", "version", "v1.4")
    assert not_release.returncode == 1 and "not a release tag" in not_release.stderr
    assert run_script("scripts/release_tags.py", "check", "v1.4.0", "1.4.0").returncode == 0
    mismatch = run_script("scripts/release_tags.py", "check", "v1.4.1", "1.4.0")
    assert mismatch.returncode == 1 and "1.4.1" in mismatch.stderr and "1.4.0" in mismatch.stderr
    assert run_script("scripts/release_tags.py", "check", "nightly", "1.4.0").returncode == 1


def test_cli_usage_errors_exit_2() -> None:
    assert run_script("scripts/release_tags.py").returncode == 2
    assert run_script("scripts/release_tags.py", "classify").returncode == 2
    assert run_script("scripts/release_tags.py", "publish", "v1.2.3").returncode == 2
