"""deploy/compose.yaml, read as data (no container engine here): it starts what
tests/ops/test_replicas.py starts, with the same settings and the same nginx site and script;
and that script (deploy/nginx-upstreams.sh), run for real.

PyYAML is already installed with fastmcp and read by tests/ops/test_release_workflow.py.
"""

from __future__ import annotations

import ipaddress
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from pwc_mcp.config import SETTINGS, Settings
from pwc_mcp.edge.drain import stop_seconds
from tests.helpers.ops import (
    COMPOSE,
    CONTAINER_ONLY,
    LOOPBACK_ONLY,
    ROOT,
    SCALE_OUT_SETTINGS,
    SITE_CONF,
    UPSTREAMS,
    free_port,
    nginx_binary,
    nginx_test,
    render_site,
    self_signed,
    write_main,
)

REPLICAS = ("replica-1", "replica-2", "replica-3")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def environment(compose: dict[str, Any], service: str) -> dict[str, str]:
    return {k: str(v) for k, v in compose["services"][service]["environment"].items()}


def test_the_stack_is_nginx_three_replicas_and_redis(compose) -> None:
    services = compose["services"]
    assert set(services) == {"nginx", "redis", *REPLICAS}
    assert [s for s, spec in services.items() if "ports" in spec] == ["nginx"]  # one way in
    for replica in REPLICAS:
        assert services[replica]["build"]["context"] == ".."  # the repository's Dockerfile
        assert services[replica]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert {services["nginx"]["depends_on"][r]["condition"] for r in REPLICAS} == {
        "service_healthy"
    }


def test_replicas_name_the_settings_the_end_to_end_test_runs_with(compose) -> None:
    known = {setting.env for setting in SETTINGS}
    assert {*SCALE_OUT_SETTINGS, *CONTAINER_ONLY, *LOOPBACK_ONLY} <= known
    envs = [environment(compose, replica) for replica in REPLICAS]
    assert all(env == envs[0] for env in envs), "every replica runs with the same settings"
    assert set(envs[0]) == {*SCALE_OUT_SETTINGS, *CONTAINER_ONLY}
    assert not set(envs[0]) & set(LOOPBACK_ONLY)  # the public catalog, by default


def test_a_stopped_replica_is_given_the_whole_drain_before_it_is_killed(compose) -> None:
    """Issue #37: Docker kills 10 s after SIGTERM unless told otherwise; the drain lets calls in
    flight run to the call limit (pwc_mcp.edge.drain), so every replica waits at least that."""
    for replica in REPLICAS:
        grace = re.fullmatch(r"(\d+)s", compose["services"][replica]["stop_grace_period"])
        assert grace is not None and int(grace.group(1)) >= stop_seconds(Settings().call_timeout)


def test_replicas_share_redis_and_one_cursor_key_from_the_environment(compose) -> None:
    env = environment(compose, "replica-1")
    assert (
        env["PWC_MCP_RATE_LIMIT_STORAGE"] == env["PWC_MCP_CACHE_STORAGE"] == "redis://redis:6379/0"
    )
    # No secret in the file: the key comes from the operator's environment, or nothing starts.
    assert re.fullmatch(
        r"\$\{PWC_MCP_CURSOR_KEY_CURRENT:\?[^}]+\}", env["PWC_MCP_CURSOR_KEY_CURRENT"]
    )
    assert env["PWC_MCP_HOST"] == "0.0.0.0" and "127.0.0.1:*" in env["PWC_MCP_ALLOWED_HOSTS"]


def test_only_nginx_is_a_trusted_proxy(compose) -> None:
    nginx = compose["services"]["nginx"]["networks"]["pwc"]["ipv4_address"]
    (subnet,) = (c["subnet"] for c in compose["networks"]["pwc"]["ipam"]["config"])
    trusted = environment(compose, "replica-1")["PWC_MCP_TRUSTED_PROXY_CIDRS"]
    assert trusted == f"{nginx}/32"
    assert ipaddress.ip_address(nginx) in ipaddress.ip_network(subnet)


def test_nginx_serves_the_shipped_site_through_the_upstream_script(compose) -> None:
    nginx = compose["services"]["nginx"]
    mounts = {v.split(":")[1]: v.split(":")[0] for v in nginx["volumes"]}
    site, script = mounts["/etc/pwc-mcp/pwc-mcp.conf"], mounts["/etc/pwc-mcp/nginx-upstreams.sh"]
    assert (COMPOSE.parent / site).resolve() == ROOT / "nginx" / "pwc-mcp.conf"
    assert (COMPOSE.parent / script).resolve() == UPSTREAMS
    command = " ".join(nginx["command"])
    (upstreams,) = re.findall(r"nginx-upstreams\.sh ((?:\S+:\d+ ?)+)<", command)
    # the image's PORT (the replicas set none of their own)
    (port,) = re.findall(r"^\s*PORT=(\d+)", (ROOT / "Dockerfile").read_text(), re.M)
    assert upstreams.split() == [f"{replica}:{port}" for replica in REPLICAS]
    assert "/etc/nginx/conf.d/default.conf" in command  # replaces the image's default site


def test_redis_keeps_nothing_and_evicts_only_expiring_keys(compose) -> None:
    command = compose["services"]["redis"]["command"]
    options = dict(zip(command[1::2], command[2::2], strict=True))
    assert options["--save"] == "" and options["--appendonly"] == "no"
    assert options["--maxmemory-policy"] == "volatile-lru"  # pwc-mcp's keys all expire


def upstreams(site: str, *replicas: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(UPSTREAMS), *replicas], input=site, capture_output=True, text=True, check=False
    )


def test_the_upstream_script_makes_a_site_nginx_accepts(workdir: Path) -> None:
    """The shipped site with TLS (as in production), its upstream turned into three replicas."""
    site = render_site(port=free_port(), redirect_port=free_port(), tls=self_signed(workdir))
    result = upstreams(site, "replica-1:7860", "replica-2:7860", "127.0.0.1:7861")
    assert result.returncode == 0, result.stderr
    block = r"upstream\s+pwc_mcp\s*\{([^}]*)\}"
    before, after = re.search(block, site), re.search(block, result.stdout)
    assert before is not None and after is not None
    assert re.findall(r"^\s*server\s+([^;\s]+);", after.group(1), re.M) == [
        "replica-1:7860",
        "replica-2:7860",
        "127.0.0.1:7861",
    ]
    assert result.stdout.replace(after.group(0), "") == site.replace(before.group(0), ""), (
        "nothing but the upstream's server lines changes"
    )
    # replica names resolve in a compose network, not here: name loopback ports for the check
    loopback = upstreams(site, "127.0.0.1:7861", "127.0.0.1:7862")
    checked = nginx_test(nginx_binary(), workdir, write_main(workdir, loopback.stdout))
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("argument", ["a;b:1", "a:1x", "a", ":1", "a:", "a:1; server evil:2"])
def test_the_upstream_script_refuses_what_is_not_host_port(argument: str) -> None:
    result = upstreams(SITE_CONF.read_text(), argument)
    assert result.returncode == 2 and result.stdout == "" and "HOST:PORT" in result.stderr


def test_the_upstream_script_refuses_a_site_without_the_upstream_line() -> None:
    site = SITE_CONF.read_text().replace("server 127.0.0.1:7860;", "server 127.0.0.1:9999;")
    result = upstreams(site, "replica-1:7860")
    assert result.returncode == 1 and "expected one upstream line" in result.stderr


def test_the_site_passes_a_failed_request_to_the_next_replica_never_a_slow_one() -> None:
    """nginx retries what failed before any response header or was answered 503 (a replica
    that is stopping or full), POST /mcp included (every MCP request is read-only), on each
    replica at most once; never a timeout, which would double a slow call's work
    (docs/decisions.md, "Retries across replicas")."""
    text = re.sub(r"#[^\n]*", "", SITE_CONF.read_text())
    (retry,) = re.findall(r"^\s*proxy_next_upstream\s+([^;]*);", text, re.M)
    assert retry.split() == ["error", "http_503", "non_idempotent"]
    (tries,) = re.findall(r"^\s*proxy_next_upstream_tries\s+(\d+);", text, re.M)
    assert int(tries) == len(REPLICAS)
