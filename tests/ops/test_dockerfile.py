"""Dockerfile and .dockerignore: the image's invariants, and everything of it buildable here.

There is no Docker engine on this machine, so the image itself is built by the release workflow.
Here: the Dockerfile is parsed and its rules checked; its install step (the `uv sync` command it
runs, on exactly the files it copies) runs offline into a temp environment; the wheel is built
and inspected; and the HEALTHCHECK command runs against a live server.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.sample import RunningCatalog
from pwc_mcp.serving.localserver import serve_in_thread
from tests.helpers import wait_until
from tests.helpers.ops import ROOT, free_port, uv_binary

DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
SECRET_NAME = re.compile(r"KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE", re.I)
REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git@)", re.I)


@dataclasses.dataclass
class Instruction:
    keyword: str
    args: str

    def json_args(self) -> list[str] | None:
        try:
            value = json.loads(self.args)
        except ValueError:
            return None
        return value if isinstance(value, list) else None


def parse_dockerfile(text: str) -> list[list[Instruction]]:
    """Instructions grouped by stage (a leading group holds the global ARGs)."""
    logical: list[str] = []
    current = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if current and line.startswith("#"):
            continue  # comment lines inside a continuation are dropped by Docker
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        logical.append(current + line)
        current = ""
    assert not current, "the Dockerfile ends inside a line continuation"
    stages: list[list[Instruction]] = [[]]
    for line in logical:
        keyword, _, args = line.partition(" ")
        instruction = Instruction(keyword.upper(), args.strip())
        if instruction.keyword == "FROM":
            stages.append([])
        stages[-1].append(instruction)
    return stages


def assignments(instruction: Instruction) -> dict[str, str]:
    """ENV / ARG / LABEL ``k=v`` pairs (and the legacy ``ENV k v`` form)."""
    parts = shlex.split(instruction.args)
    if instruction.keyword == "ENV" and len(parts) >= 2 and "=" not in parts[0]:
        return {parts[0]: " ".join(parts[1:])}
    return dict(part.split("=", 1) if "=" in part else (part, "") for part in parts)


@pytest.fixture(scope="module")
def stages() -> list[list[Instruction]]:
    return parse_dockerfile(DOCKERFILE.read_text())


def final(stages: list[list[Instruction]]) -> list[Instruction]:
    return stages[-1]


def find(stage: list[Instruction], keyword: str) -> list[Instruction]:
    return [i for i in stage if i.keyword == keyword]


def test_parser_sees_continuations_and_stages() -> None:
    stages = parse_dockerfile("ARG A=1\nFROM x AS b\nRUN a \\\n  # note\n  b\nFROM y\nUSER 1\n")
    assert [i.keyword for i in stages[0]] == ["ARG"]
    assert stages[1][1] == Instruction("RUN", "a  b")
    assert [i.keyword for i in stages[2]] == ["FROM", "USER"]


def test_slim_python_base(stages: list[list[Instruction]]) -> None:
    args = {k: v for i in find(stages[0], "ARG") for k, v in assignments(i).items()}
    for stage in stages[1:]:
        image = stage[0].args.split()[0]
        image = re.sub(r"\$\{?(\w+)\}?", lambda m: args.get(m.group(1), m.group(0)), image)
        assert re.fullmatch(
            r"python:3\.(1[1-9])(\.\d+)?-slim(-\w+)?(@sha256:[0-9a-f]{64})?", image
        ), f"not a slim Python >= 3.11 base: {image}"


def test_runs_as_a_non_root_user(stages: list[list[Instruction]]) -> None:
    stage = final(stages)
    users = find(stage, "USER")
    assert users, "the runtime stage sets no USER"
    user = users[-1].args.split(":")[0]
    assert user not in ("root", "0", ""), f"USER {users[-1].args} is root"
    position = stage.index(users[-1])
    after = [i.keyword for i in stage[position + 1 :]]
    assert "RUN" not in after and "USER" not in after, "nothing may run as root after USER"
    assert after.count("CMD") == 1 or "ENTRYPOINT" in after


def test_binds_all_interfaces_exposes_the_port_and_checks_health(
    stages: list[list[Instruction]],
) -> None:
    stage = final(stages)
    env = {k: v for i in find(stage, "ENV") for k, v in assignments(i).items()}
    assert env.get("PWC_MCP_HOST") == "0.0.0.0", "inside a container the server binds 0.0.0.0"
    assert [i.args for i in find(stage, "EXPOSE")] == [env.get("PORT", "7860")]
    (health,) = find(stage, "HEALTHCHECK")
    assert "/health" in health.args and "--timeout=" in health.args
    cmd = find(stage, "CMD")[-1].json_args()
    assert cmd == ["pwc-mcp"], "exec-form CMD: the server is PID 1 and gets SIGTERM"


def test_installs_from_the_lock_file(stages: list[list[Instruction]]) -> None:
    runs = [i.args for stage in stages for i in find(stage, "RUN")]
    syncs = [r for r in runs if re.search(r"\buv sync\b", r)]
    assert syncs, "no `uv sync` step"
    for sync in syncs:
        flags = shlex.split(sync)
        assert "--frozen" in flags and "--no-dev" in flags, sync
    assert not any(re.search(r"\bpip install\b(?!.*\buv==)", r) for r in runs), (
        "dependencies come from uv.lock, not pip"
    )
    copies = [i.args for stage in stages for i in find(stage, "COPY")]
    assert any("uv.lock" in c.split() for c in copies), "uv.lock is not copied"


def test_no_remote_add_and_no_secrets(stages: list[list[Instruction]]) -> None:
    for stage in stages:
        for instruction in stage:
            if instruction.keyword == "ADD":
                sources = instruction.json_args() or shlex.split(instruction.args)
                assert not any(REMOTE.match(s) for s in sources[:-1]), instruction.args
            if instruction.keyword in ("ENV", "ARG"):
                for name in assignments(instruction):
                    assert not SECRET_NAME.search(name), f"{instruction.keyword} {name}"
            if instruction.keyword == "RUN":
                assert not re.search(r"\b(curl|wget)\b[^|]*\|\s*(ba)?sh", instruction.args)
            assert "BEGIN" not in instruction.args or "PRIVATE KEY" not in instruction.args
            assert "--mount=type=secret" not in instruction.args


def test_copy_sources_exist_and_are_in_the_context(stages: list[list[Instruction]]) -> None:
    for source in copy_sources(stages):
        assert (ROOT / source).exists(), source
        assert not ignored(source), f".dockerignore drops {source}, which the image needs"


# -- .dockerignore ---------------------------------------------------------------------------


def _rule(pattern: str) -> re.Pattern[str]:
    out = ""
    for part in re.split(r"(\*\*/?|\*|\?)", pattern.strip("/")):
        out += {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part) or re.escape(
            part
        )
    return re.compile(out + "(?:/.*)?")  # a matched directory takes its contents with it


def ignored(path: str) -> bool:
    """Docker's rule, simplified: the last matching pattern wins, ``!`` re-includes."""
    result = False
    for line in DOCKERIGNORE.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        if _rule(line.lstrip("!")).fullmatch(path):
            result = not negate
    return result


def copy_sources(stages: list[list[Instruction]]) -> list[str]:
    sources: list[str] = []
    for stage in stages:
        for instruction in find(stage, "COPY"):
            if "--from=" in instruction.args:
                continue
            parts = instruction.json_args() or shlex.split(instruction.args)
            sources.extend(p for p in parts[:-1] if not p.startswith("--"))
    return sources


def test_dockerignore_keeps_secrets_and_clutter_out() -> None:
    for path in (
        ".git/config",
        ".venv/bin/python",
        "pwc_mcp/__pycache__/app.cpython-311.pyc",
        ".env",
        "deploy/.env.production",
        "tests/ops/test_dockerfile.py",
        ".cache/uv-bin/bin/uv",
        "server.pem",
        "keys/tls.key",
    ):
        assert ignored(path), path
    for path in (
        "pyproject.toml",
        "uv.lock",
        "README.md",
        "pwc_cli/main.py",
        "pwc_mcp/app.py",
        "pwc_mcp/sample/data/catalog.json",
        "pwc_mcp/sample/data/markdown/1706.03762.md",
    ):
        assert not ignored(path), path


# -- what can be built here ------------------------------------------------------------------


def _run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, check=False, **kwargs
    )  # type: ignore[call-overload]


def test_the_image_install_step_runs_offline(
    stages: list[list[Instruction]], tmp_path: Path
) -> None:
    """The Dockerfile's last `uv sync`, on exactly the files it copies, into a temp venv."""
    uv = uv_binary()
    context = tmp_path / "src"
    context.mkdir()
    for source in copy_sources(stages):
        origin = ROOT / source
        if origin.is_dir():
            shutil.copytree(
                origin, context / source, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        else:
            shutil.copy2(origin, context / source)
    sync = [r.args for s in stages for r in find(s, "RUN") if "uv sync" in r.args][-1]
    flags = shlex.split(sync)[2:]
    if "--python" in flags:  # the image's interpreter is /usr/local/bin/python; ours is this one
        at = flags.index("--python")
        del flags[at : at + 2]
    venv = tmp_path / "venv"
    env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(venv), "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("VIRTUAL_ENV", None)
    result = _run(
        [uv, "sync", *flags, "--offline", "--python", sys.executable], cwd=context, env=env
    )
    assert result.returncode == 0, result.stderr[-3000:]
    python = venv / "bin" / "python"
    probe = _run(
        [
            str(python),
            "-c",
            (
                "import importlib.util as u, json, pathlib, pwc_mcp, pwc_cli;"
                "print(json.dumps({'mcp': pwc_mcp.__file__, 'redis': bool(u.find_spec('redis')),"
                " 'pytest': bool(u.find_spec('pytest')), 'ruff': bool(u.find_spec('ruff')),"
                " 'data': (pathlib.Path(pwc_mcp.__file__).parent / 'sample/data/catalog.json').is_file()}))"
            ),
        ],
        cwd=tmp_path,
    )
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert str(venv) in found["mcp"], "installed non-editable into the environment, not linked"
    assert found["data"] and found["redis"]
    assert not found["pytest"] and not found["ruff"], "dev dependencies are not installed"
    for script in ("pwc", "pwc-mcp"):
        helped = _run([str(venv / "bin" / script), "--help"], cwd=tmp_path)
        assert helped.returncode == 0 and "usage:" in helped.stdout, helped.stderr


def test_wheel_carries_both_packages_data_and_scripts(tmp_path: Path) -> None:
    uv = uv_binary()
    result = _run([uv, "build", "--wheel", "--offline", "-o", str(tmp_path)], cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    (wheel,) = tmp_path.glob("pwc_mcp-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    assert {
        "pwc_cli/__init__.py",
        "pwc_cli/main.py",
        "pwc_mcp/__init__.py",
        "pwc_mcp/app.py",
        "pwc_mcp/ui/leaderboard.html",  # the MCP app is package data, read at start-up
    } <= names
    data = ROOT / "pwc_mcp" / "sample" / "data"
    shipped = {
        f"pwc_mcp/sample/data/{p.relative_to(data).as_posix()}"
        for p in data.rglob("*")
        if p.suffix in (".json", ".md")
    }
    assert "pwc_mcp/sample/data/catalog.json" in shipped
    assert any(n.startswith("pwc_mcp/sample/data/markdown/") for n in shipped)
    assert shipped <= names, f"missing from the wheel: {sorted(shipped - names)}"
    assert re.search(r"^pwc = pwc_cli\.main:entry$", scripts, re.M)
    assert re.search(r"^pwc-mcp = pwc_mcp\.cli:entry$", scripts, re.M)
    assert not any(n.startswith(("tests/", "scripts/", "nginx/")) for n in names)


# -- HEALTHCHECK -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def healthcheck_code(stages: list[list[Instruction]]) -> str:
    (health,) = find(final(stages), "HEALTHCHECK")
    command = json.loads(health.args[health.args.index("CMD") + 3 :].strip())
    assert command[:2] == ["python", "-c"], "exec form, no shell needed"
    return command[2]


def healthcheck(code: str, port: int, allowed_hosts: str | None) -> int:
    env = {"PATH": os.environ.get("PATH", ""), "PORT": str(port)}
    if allowed_hosts is not None:
        env["PWC_MCP_ALLOWED_HOSTS"] = allowed_hosts
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, timeout=20, check=False
    ).returncode


@contextmanager
def server(catalog_url: str, hosts: tuple[str, ...] | None) -> Iterator[int]:
    settings = Settings(api_url=catalog_url)
    if hosts is not None:
        settings = dataclasses.replace(settings, allowed_hosts=hosts)
    with serve_in_thread(create_app(settings), name="pwc-mcp") as running:
        yield running.port


@pytest.mark.parametrize(
    ("hosts", "env"),
    [
        (None, None),  # defaults on both sides
        (("paperswithcode.co",), "paperswithcode.co"),  # the public name only
        (("paperswithcode.co", "127.0.0.1:*"), "paperswithcode.co,127.0.0.1:*"),
        (
            ("huggingface-paperswithcode-mcp.hf.space:*",),
            "huggingface-paperswithcode-mcp.hf.space:*",
        ),
    ],
    ids=["default", "public-only", "public-and-loopback", "space-any-port"],
)
def test_healthcheck_passes_the_host_allowlist(
    healthcheck_code: str, catalog: RunningCatalog, hosts: tuple[str, ...] | None, env: str | None
) -> None:
    with server(catalog.url, hosts) as port:
        assert healthcheck(healthcheck_code, port, env) == 0


def test_healthcheck_needs_its_host_header(catalog: RunningCatalog) -> None:
    """Why the check picks a Host: the naive request to 127.0.0.1 is refused (421)."""
    with server(catalog.url, ("paperswithcode.co",)) as port:
        assert httpx.get(f"http://127.0.0.1:{port}/health").status_code == 421


def test_healthcheck_fails_when_unhealthy(healthcheck_code: str) -> None:
    dead = f"http://127.0.0.1:{free_port()}/api/v1"  # a catalog nobody serves
    with server(dead, None) as port:
        # /health is "starting" until the first probe fails, then "unavailable"
        wait_until(
            lambda: httpx.get(f"http://127.0.0.1:{port}/health").status_code == 503,
            timeout=10,
            interval=0.05,
        )
        assert healthcheck(healthcheck_code, port, None) != 0
    assert healthcheck(healthcheck_code, free_port(), None) != 0, "nothing listening"
