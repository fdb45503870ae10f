"""Release and operations helpers: external tools (uv, nginx), the shipped files, scripts/."""

from __future__ import annotations

import datetime
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import ROOT, free_port, wait_until

__all__ = ["ROOT", "free_port"]  # re-exported: the ops tests take every helper from here

SITE_CONF = ROOT / "nginx" / "pwc-mcp.conf"
MAIN_TEMPLATE = ROOT / "tests" / "ops" / "nginx-test-main.conf"
PUBLIC_HOST = "paperswithcode.co"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_tool(name: str, *candidates: str, hint: str = ".ci/run installs it") -> str:
    """The path of an external tool; missing it fails under CI=true and skips elsewhere."""
    for candidate in (shutil.which(name), *candidates):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    message = f"{name} is not installed ({hint})"
    if in_ci():
        pytest.fail(f"CI: {message}", pytrace=False)
    pytest.skip(message)


def nginx_binary() -> str:
    return require_tool(
        "nginx",
        "/usr/sbin/nginx",
        "/usr/local/sbin/nginx",
        hint="apt-get install nginx; .ci/run does",
    )


def uv_binary() -> str:
    return require_tool(
        "uv",
        str(ROOT / ".cache" / "uv-bin" / "bin" / "uv"),
        hint="`make install` bootstraps it into .cache/uv-bin",
    )


@contextmanager
def open_tempdir(prefix: str = "pwc-ops-") -> Iterator[Path]:
    """A temp directory other users may traverse: nginx started as root runs workers as nobody
    (pytest's own tmp_path sits under a 0700 directory)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- nginx -----------------------------------------------------------------------------------


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A throwaway certificate for PUBLIC_HOST, so `nginx -t` can load the TLS server block."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, PUBLIC_HOST)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(PUBLIC_HOST)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "fullchain.pem", directory / "privkey.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def _sub(pattern: str, replacement: str, text: str, count: int) -> str:
    """re.sub that insists on exactly ``count`` matches: a changed site file fails loudly here
    instead of silently being tested in some other shape."""
    new, found = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    assert found == count, f"nginx/pwc-mcp.conf: expected {count} match(es) of {pattern!r}"
    return new


def render_site(
    *, port: int, redirect_port: int, backend_port: int = 7860, tls: tuple[Path, Path] | None = None
) -> str:
    """The shipped site, runnable unprivileged on loopback; nothing but these lines change:

    * the IPv6 ``listen`` lines are dropped and the IPv4 ones (the catch-all default servers'
      included) move to free loopback ports (``nginx -t`` binds its sockets too, so ports 80/443
      would need root);
    * with ``tls=(cert, key)`` the TLS servers keep ``ssl http2`` and the site gets a throwaway
      certificate (for ``nginx -t``); without it the TLS lines go and both serve plain HTTP;
    * the upstream points at ``backend_port``.
    """
    text = SITE_CONF.read_text()
    text = _sub(r"^\s*listen\s+\[::\]:(80|443)\b[^;]*;\n", "", text, 4)
    text = _sub(
        r"^(\s*)listen\s+80( default_server)?;", rf"\1listen 127.0.0.1:{redirect_port}\2;", text, 2
    )
    if tls is not None:
        cert, key = tls
        text = _sub(r"^(\s*)listen\s+443( ssl[^;]*);", rf"\1listen 127.0.0.1:{port}\2;", text, 2)
        text = _sub(r"^(\s*ssl_certificate)\s+\S+;", rf"\1 {cert};", text, 1)
        text = _sub(r"^(\s*ssl_certificate_key)\s+\S+;", rf"\1 {key};", text, 1)
    else:
        text = _sub(
            r"^(\s*)listen\s+443 ssl http2( default_server)?;",
            rf"\1listen 127.0.0.1:{port}\2;",
            text,
            2,
        )
        text = _sub(r"^\s*ssl_\w+\s[^;]*;\n", "", text, 5)
    return _sub(r"^(\s*server\s+)127\.0\.0\.1:7860;", rf"\g<1>127.0.0.1:{backend_port};", text, 1)


def write_main(prefix: Path, site: str) -> Path:
    (prefix / "temp").mkdir(exist_ok=True)
    site_path = prefix / "site.conf"
    site_path.write_text(site)
    main = MAIN_TEMPLATE.read_text().replace("@PREFIX@", str(prefix))
    main_path = prefix / "main.conf"
    main_path.write_text(main.replace("@SITE@", str(site_path)))
    return main_path


def nginx_test(nginx: str, prefix: Path, main: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [nginx, "-t", "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(main)],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )


@dataclass
class Nginx:
    port: int
    redirect_port: int
    prefix: Path
    process: subprocess.Popen[bytes]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


@contextmanager
def run_nginx(nginx: str, prefix: Path, backend_port: int) -> Iterator[Nginx]:
    """The real nginx in the foreground (`daemon off`) with the rendered site; stopped on exit."""
    port, redirect_port = free_port(), free_port()
    site = render_site(port=port, redirect_port=redirect_port, backend_port=backend_port)
    with start_nginx(nginx, prefix, site, port, redirect_port) as running:
        yield running


@contextmanager
def start_nginx(
    nginx: str, prefix: Path, site: str, port: int, redirect_port: int
) -> Iterator[Nginx]:
    """The real nginx with `site` (rendered to listen on `port` and `redirect_port`)."""
    main = write_main(prefix, site)
    checked = nginx_test(nginx, prefix, main)
    assert checked.returncode == 0, checked.stderr
    command = [
        nginx,
        "-p",
        str(prefix),
        "-e",
        str(prefix / "error.log"),
        "-c",
        str(main),
        "-g",
        "daemon off; master_process on;",
    ]
    output = (prefix / "nginx.out").open("wb")
    process = subprocess.Popen(
        command,
        stdout=output,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    running = Nginx(port, redirect_port, prefix, process)
    try:

        def started() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"nginx exited at start:\n{running.log()}")
            return _listening(port) and _listening(redirect_port)

        try:
            wait_until(started, timeout=10, interval=0.02)
        except AssertionError:
            raise RuntimeError(f"nginx did not start:\n{running.log()}") from None
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # fast shutdown: the master stops its workers
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # its own session: nginx and its workers
                process.wait(timeout=5)
        output.close()


# -- scripts ---------------------------------------------------------------------------------


def load_script(name: str) -> ModuleType:
    """Import scripts/NAME.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        f"pwc_scripts_{name}", ROOT / "scripts" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """A script under scripts/ in a fresh interpreter of this environment."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- scale out: nginx, replicas, Redis (deploy/) ---------------------------------------------

COMPOSE = ROOT / "deploy" / "compose.yaml"
UPSTREAMS = ROOT / "deploy" / "nginx-upstreams.sh"
# What every replica of a scale-out deployment is started with (README, "Scale out"):
# deploy/compose.yaml names exactly these plus CONTAINER_ONLY, and tests/ops/test_replicas.py
# runs its replicas with exactly these plus LOOPBACK_ONLY (tests/ops/test_compose.py checks both).
SCALE_OUT_SETTINGS = (
    "PWC_MCP_ALLOWED_HOSTS",
    "PWC_MCP_PUBLIC_URL",
    "PWC_MCP_RATE_LIMIT_STORAGE",
    "PWC_MCP_CACHE_STORAGE",
    "PWC_MCP_CURSOR_KEY_CURRENT",
)
CONTAINER_ONLY = {
    "PWC_MCP_HOST": "a container listens on its network, not on loopback",
    "PWC_MCP_TRUSTED_PROXY_CIDRS": "nginx reaches the replicas from its network address",
}
LOOPBACK_ONLY = {"PWC_API_URL": "the test's own counting catalog, not the public one"}
# The installed `pwc-mcp` entry point, run by this interpreter (no console script needed).
PWC_MCP = [sys.executable, "-c", "from pwc_mcp.cli import entry; entry()"]


def replicated_site(*, port: int, redirect_port: int, replicas: list[str]) -> str:
    """The shipped site for loopback (`render_site`), its upstream turned into `replicas` by the
    script the compose file runs."""
    site = render_site(port=port, redirect_port=redirect_port)
    result = subprocess.run(
        ["sh", str(UPSTREAMS), *replicas],
        input=site,
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@dataclass
class Replica:
    """One `pwc-mcp` process on a loopback port."""

    port: int
    process: subprocess.Popen[bytes]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL, as a crash: no graceful shutdown, open connections reset."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def run_replicas(env: dict[str, str], count: int) -> Iterator[list[Replica]]:
    """`count` real `pwc-mcp` processes (uvicorn) with `env`, each ready (/health 200)."""
    import httpx

    replicas: list[Replica] = []
    try:
        for _ in range(count):
            port = free_port()
            process = subprocess.Popen(
                [*PWC_MCP, "--host", "127.0.0.1", "--port", str(port)],
                cwd=ROOT,
                env={**os.environ, **env},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
            replicas.append(Replica(port, process))
        for replica in replicas:

            def ready(replica: Replica = replica) -> bool:
                if replica.process.poll() is not None:
                    raise RuntimeError(f"pwc-mcp on {replica.origin} exited at start")
                try:
                    return httpx.get(f"{replica.origin}/health", timeout=5).status_code == 200
                except httpx.HTTPError:
                    return False

            wait_until(ready, timeout=60, interval=0.05)
        yield replicas
    finally:
        for replica in replicas:
            replica.stop()
