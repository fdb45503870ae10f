""".github/workflows/release.yml: the release rules, checked statically (no runner here)."""

from __future__ import annotations

import fnmatch
import re
import subprocess
from typing import Any

import pytest
import yaml

from tests.helpers.ops import ROOT, load_script

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
tags = load_script("release_tags")


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    data = yaml.safe_load(WORKFLOW.read_text())
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return job.get("steps", [])


def runs(job: dict[str, Any]) -> str:
    return "\n".join(step.get("run", "") for step in steps(job))


def test_triggers_only_on_release_tags(workflow: dict[str, Any]) -> None:
    assert set(workflow["on"]) == {"push"}
    push = workflow["on"]["push"]
    assert set(push) == {"tags"}, "releases come from tags only, never from branches"
    patterns = push["tags"]
    for tag in ("v0.3.0", "v12.0.1", "pwc-mcp-0.3.0"):
        assert tags.classify(tag) != "ignore"
        assert any(fnmatch.fnmatchcase(tag, p) for p in patterns), f"{tag} would not trigger"


def test_least_privilege_and_pinned_actions(workflow: dict[str, Any]) -> None:
    assert workflow["permissions"] == {}
    for name, job in workflow["jobs"].items():
        assert "permissions" in job, f"{name} must declare its permissions"
        for step in steps(job):
            if "uses" in step:
                assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
                if step["uses"].startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False
    writers = {n for n, j in workflow["jobs"].items() if "write" in j["permissions"].values()}
    assert writers == {"image", "publish-pypi"}, "only the image push and the PyPI upload write"
    assert workflow["jobs"]["publish-pypi"]["permissions"] == {"id-token": "write"}


def test_job_order(workflow: dict[str, Any]) -> None:
    jobs = workflow["jobs"]
    need = {
        name: set([job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", []))
        for name, job in jobs.items()
    }
    assert need["test"] == {"tag"} and "ignore" in jobs["test"]["if"]
    assert "test" in need["image"]
    assert "image" in need["deploy-vps"] and "image" in need["publish-space"]
    assert jobs["publish-space"]["if"] == "needs.tag.outputs.kind == 'release+space'"
    assert "if" not in jobs["deploy-vps"] and "if" not in jobs["image"], (
        "they follow the test job: skipped with it, never run on their own"
    )


def test_the_tag_rule_and_version_come_from_release_tags(workflow: dict[str, Any]) -> None:
    script = runs(workflow["jobs"]["tag"])
    assert 'scripts/release_tags.py classify "$TAG"' in script
    assert 'scripts/release_tags.py check "$TAG" "$version"' in script


def test_tests_and_image(workflow: dict[str, Any]) -> None:
    test = workflow["jobs"]["test"]
    assert "make test" in runs(test)
    assert "nginx" in runs(test), "the nginx tests fail without nginx when CI=true"
    image = runs(workflow["jobs"]["image"])
    assert "docker build" in image and "manifest inspect" in image
    assert (
        image.index("docker build") < image.index("scripts/smoke.py") < image.index("docker push")
    ), "the image is smoke-tested before it is pushed"


def test_vps_is_smoke_tested_before_nginx_publishes(workflow: dict[str, Any]) -> None:
    script = runs(workflow["jobs"]["deploy-vps"])
    remote = script[script.index("<<'REMOTE'") :]
    staged = remote.index('smoke "http://127.0.0.1:$next"')
    assert staged < remote.index("sudo install -m 0644 site.conf")
    assert staged < remote.index("systemctl reload nginx")
    assert "nginx/pwc-mcp.conf" in remote and "--network host" in remote
    assert "PWC_MCP_HOST=127.0.0.1" in remote, "loopback-bound on the VPS"


def test_no_secret_values_and_no_expression_injection(workflow: dict[str, Any]) -> None:
    text = WORKFLOW.read_text()
    for pattern in (
        r"hf_[A-Za-z0-9]{20,}",
        r"gh[pousr]_[A-Za-z0-9]{20,}",
        r"-----BEGIN",
        r"PWC_MCP_CURSOR_KEY_CURRENT\s*[:=]\s*['\"]?[A-Za-z0-9+/]{16,}",
    ):
        assert not re.search(pattern, text), pattern
    for name, job in workflow["jobs"].items():
        for step in steps(job):
            assert "${{" not in step.get("run", ""), (
                f"{name}: pass expressions through env:, never into the script text"
            )
    assert set(re.findall(r"\$\{\{\s*secrets\.(\w+)\s*}}", text)) == {
        "GITHUB_TOKEN",
        "VPS_SSH_KEY",
        "VPS_KNOWN_HOSTS",
        "VPS_USER",
        "VPS_HOST",
        "HF_TOKEN",
        "SPACE_CURSOR_KEY_CURRENT",
        "MCP_REGISTRY_PRIVATE_KEY",
    }


def test_shell_steps_parse(workflow: dict[str, Any]) -> None:
    scripts = [
        step["run"] for job in workflow["jobs"].values() for step in steps(job) if "run" in step
    ]
    deploy = runs(workflow["jobs"]["deploy-vps"])
    remote = re.search(r"<<'REMOTE'\n(.*?)\nREMOTE\n", deploy, re.S)
    assert remote is not None
    for script in [*scripts, remote.group(1)]:
        result = subprocess.run(
            ["bash", "-n"], input=script, capture_output=True, text=True, timeout=10, check=False
        )
        assert result.returncode == 0, f"{result.stderr}\n{script[:200]}"


def test_dist_is_built_checked_and_install_tested(workflow: dict[str, Any]) -> None:
    dist = workflow["jobs"]["dist"]
    assert dist["needs"] == "tag" and "ignore" in dist["if"]
    assert "make dist" in runs(dist)
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^dist:.*\n\t.*python scripts/check_dist\.py", makefile, re.M), (
        "make dist runs the same check as .ci/run"
    )
    assert "make dist" in (ROOT / ".ci" / "run").read_text()
    upload = [s for s in steps(dist) if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert upload and upload[0]["with"]["path"] == "dist/"
    assert upload[0]["with"]["if-no-files-found"] == "error"


def test_pypi_is_published_by_trusted_publishing_on_pwc_mcp_tags(workflow: dict[str, Any]) -> None:
    job = workflow["jobs"]["publish-pypi"]
    assert job["if"] == "needs.tag.outputs.kind == 'release+space'", "pwc-mcp-* tags only"
    assert (
        tags.classify("pwc-mcp-0.3.0") == "release+space" and tags.classify("v0.3.0") == "release"
    )
    assert {"test", "dist"} <= set(job["needs"]), "only what passed the tests and the dist check"
    assert job["environment"]["name"] == "pypi"
    uses = [step["uses"].split("@")[0] for step in steps(job)]
    assert uses == ["actions/download-artifact", "pypa/gh-action-pypi-publish"], (
        "no checkout and no run step: the job holding the OIDC token runs no repository code"
    )
    download, publish = steps(job)
    assert download["with"]["name"] == "python-dist"
    assert publish["with"] == {"packages-dir": "dist/"}, "no password or token: trusted publishing"


def test_the_registry_entry_is_published_once_the_endpoint_serves_it(
    workflow: dict[str, Any],
) -> None:
    job = workflow["jobs"]["publish-registry"]
    assert "deploy-vps" in job["needs"], "the entry names the hosted endpoint: deployed first"
    assert "if" not in job, "every release deploys the endpoint, so every release publishes"
    assert job["permissions"] == {"contents": "read"}, "DNS proves the namespace: no OIDC token"
    assert job["environment"]["name"] == "mcp-registry"
    script = runs(job)
    # The entry's version is the tag's, checked before anything is sent.
    assert script.index('"$entry" = "$VERSION"') < script.index("login dns")
    assert '--domain "$PUBLIC_HOST"' in script and script.index("login dns") < script.index(
        "publish server.json"
    )
    assert "cd deploy/registry" in script
    assert re.fullmatch(r"github\.com/[\w./-]+@v\d+\.\d+\.\d+", job["env"]["MCP_PUBLISHER"]), (
        "mcp-publisher is pinned to one version"
    )
