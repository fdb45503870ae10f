"""Helpers for scripts/interop.sh: read the external tools' outputs and turn them into verdicts.

Standard library only. Every verdict is one tab-separated line on stdout:
``STATUS<TAB>check name<TAB>detail`` with STATUS in PASS, FAIL, XFAIL.

Subcommands:
  version PACKAGE_JSON                 print the package's version ("" when absent)
  free-port                            print a free loopback TCP port
  xfail-yaml TXT OUT_YAML              expected-failures text -> the suite's baseline YAML
  conformance RESULTS_DIR TXT REQUIRED [LABEL]
                                       evaluate the suite's checks.json files
  inspector-plan CALLS_JSON            print the Inspector invocations (kind, name, args)
  inspector-eval ERA DIR CALLS_JSON    evaluate one era's Inspector outputs
  readme-inspector URL OUT_PREFIX      run the README's Inspector CLI line against URL

CALLS_JSON is scripts/interop_calls.json, which `make regen` writes from pwc_mcp/site/examples.py.
"""

from __future__ import annotations

import json
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

SCENARIO_DIR = re.compile(r"^server-(?P<name>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$")


def emit(status: str, name: str, detail: str = "") -> None:
    detail = " ".join(detail.split())
    print(f"{status}\t{name}\t{detail[:160]}")


def read_expected(path: str) -> dict[str, str]:
    expected: dict[str, str] = {}
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition(":")
        if not reason.strip():
            raise SystemExit(f"{path}: every entry needs a reason: {raw!r}")
        expected[name.strip()] = reason.strip()
    return expected


def cmd_version(package_json: str) -> int:
    try:
        print(json.loads(Path(package_json).read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        print("")
    return 0


def cmd_free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        print(sock.getsockname()[1])
    return 0


def cmd_xfail_yaml(txt: str, out: str) -> int:
    names = sorted(read_expected(txt))
    Path(out).write_text("server:\n" + "".join(f"  - {n}\n" for n in names), encoding="utf-8")
    return 0


def cmd_conformance(
    results_dir: str, txt: str, required_csv: str, label_prefix: str = "conformance"
) -> int:
    expected = read_expected(txt)
    required = [r for r in required_csv.split(",") if r]
    outcomes: dict[str, tuple[bool, str]] = {}
    for directory in sorted(Path(results_dir).glob("server-*")):
        match = SCENARIO_DIR.match(directory.name)
        checks_file = directory / "checks.json"
        if not match or not checks_file.is_file():
            continue
        checks = json.loads(checks_file.read_text(encoding="utf-8"))
        failed = [c for c in checks if c.get("status") == "FAILURE"]
        passed = [c for c in checks if c.get("status") == "SUCCESS"]
        warned = [c for c in checks if c.get("status") == "WARNING"]
        # Same rule as the suite's --expected-failures logic: a WARNING counts as a failure.
        if failed or warned:
            detail = "; ".join(
                [f"{c.get('id')}: {c.get('errorMessage', '')}" for c in failed]
                + [
                    f"warning {c.get('id')}: {(c.get('details') or {}).get('message', '')}"
                    for c in warned
                ]
            )
            outcomes[match["name"]] = (False, detail)
        else:
            outcomes[match["name"]] = (True, f"{len(passed)} check(s) passed")
    for name in required:
        if name not in outcomes:
            outcomes[name] = (False, "scenario did not run (no checks.json)")
    for name, (ok, detail) in outcomes.items():
        label = f"{label_prefix} {name}"
        if name in expected:
            if ok:
                emit(
                    "FAIL",
                    label,
                    f"stale expected failure, it passes now: remove it from {Path(txt).name}",
                )
            else:
                emit("XFAIL", label, expected[name])
        elif ok:
            if name in required and detail.startswith("0 check(s)"):
                emit("FAIL", label, "required scenario ran no passing check: " + detail)
            else:
                emit("PASS", label, detail)
        else:
            emit("FAIL", label, detail)
    for name in expected:
        if name not in outcomes:
            emit("FAIL", f"{label_prefix} {name}", "listed as expected failure but did not run")
    return 0


def cmd_inspector_plan(calls_json: str) -> int:
    """One line per Inspector invocation: kind, label, then the method-specific arguments."""
    calls = json.loads(Path(calls_json).read_text(encoding="utf-8"))
    print("tools-list\ttools/list --strict")
    print("templates-list\tresources/templates/list")
    print("prompts-list\tprompts/list")
    for tool, arguments in calls["tools"].items():
        print(f"call\ttools/call {tool}\t{tool}\t{json.dumps(arguments, separators=(',', ':'))}")
    for template, uri in calls["resources"].items():
        print(f"read\tresources/read {template}\t{uri}")
    for prompt, arguments in calls["prompts"].items():
        pairs = "\t".join(f"{k}={v}" for k, v in arguments.items())
        print(f"prompt\tprompts/get {prompt}\t{prompt}\t{pairs}")
    return 0


def _load(path: Path) -> tuple[dict | None, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None, "no output"
    try:
        return json.loads(text), ""
    except ValueError:
        return None, "output is not JSON: " + text[:120]


def _verdict(kind: str, name: str, doc: dict, calls: dict, err: str) -> tuple[bool, str]:
    result = doc.get("result")
    if not isinstance(result, dict):
        return False, "no result: " + json.dumps(doc.get("error", doc))[:140]
    if kind == "tools-list":
        names = [t["name"] for t in result.get("tools", [])]
        missing = sorted(set(names) - set(calls["tools"]))
        summary = re.search(r"(\d+) errors?, (\d+) warnings?", err)
        counts = (
            f"{summary[1]} portability errors, {summary[2]} warnings"
            if summary
            else "no portability problems"
        )
        if summary and summary[1] != "0":
            return False, counts
        if missing:
            return False, f"tools without a call in interop_calls.json: {', '.join(missing)}"
        return True, f"{len(names)} tools; {counts}"
    if kind == "templates-list":
        templates = [t["uriTemplate"] for t in result.get("resourceTemplates", [])]
        missing = sorted(set(templates) - set(calls["resources"]))
        if not templates or missing:
            return (
                False,
                f"templates without a read in interop_calls.json: {missing or 'none listed'}",
            )
        return True, f"{len(templates)} templates"
    if kind == "prompts-list":
        prompts = result.get("prompts", [])
        missing = sorted({p["name"] for p in prompts} - set(calls["prompts"]))
        undescribed = [p["name"] for p in prompts if not p.get("description")]
        if not prompts or missing or undescribed:
            return False, f"missing calls: {missing}; without description: {undescribed}"
        return True, f"{len(prompts)} prompts, all described"
    if kind == "call":
        if result.get("isError"):
            return False, "isError: " + json.dumps(result.get("content"))[:140]
        structured = result.get("structuredContent") or {}
        text = [c for c in result.get("content", []) if c.get("type") == "text" and c.get("text")]
        if structured.get("schema_version") != "v2" or structured.get("data") is None or not text:
            return False, "missing structuredContent v2 with data, or the text block"
        return True, "structuredContent v2 + text"
    if kind == "read":
        contents = result.get("contents") or []
        if not contents or not (contents[0].get("text") or contents[0].get("blob")):
            return False, "empty contents"
        return True, f"{contents[0].get('mimeType')}, {len(contents[0].get('text', ''))} chars"
    if kind == "prompt":
        messages = result.get("messages") or []
        if not messages:
            return False, "no messages"
        return True, f"{len(messages)} message(s)"
    return False, f"unknown kind {kind}"


def cmd_inspector_eval(era: str, directory: str, calls_json: str) -> int:
    calls = json.loads(Path(calls_json).read_text(encoding="utf-8"))
    base = Path(directory)
    for line in (base / "manifest.tsv").read_text(encoding="utf-8").splitlines():
        index, kind, label = line.split("\t")[:3]
        name = f"inspector {era} {label}"
        rc_text = (
            (base / f"{index}.rc").read_text().strip() if (base / f"{index}.rc").exists() else ""
        )
        err = (
            (base / f"{index}.err").read_text(encoding="utf-8", errors="replace")
            if (base / f"{index}.err").exists()
            else ""
        )
        if rc_text == "124":
            emit("FAIL", name, "timed out (the client hung)")
            continue
        doc, problem = _load(base / f"{index}.json")
        if doc is None:
            emit("FAIL", name, f"exit {rc_text}: {problem}; stderr: {err.strip()[-140:]}")
            continue
        ok, detail = _verdict(kind, label, doc, calls, err)
        if ok and era == "modern" and kind in ("call", "read", "prompt"):
            # Evidence that the request really went out as 2026-07-28 (no silent legacy
            # fallback): modern results carry the per-result serverInfo _meta.
            meta = (doc.get("result") or {}).get("_meta") or {}
            if "io.modelcontextprotocol/serverInfo" not in meta:
                ok, detail = False, "no 2026-07-28 result _meta serverInfo (legacy fallback?)"
        if ok and rc_text != "0":
            ok, detail = False, f"exit {rc_text}: {detail}"
        emit("PASS" if ok else "FAIL", name, detail)
    return 0


README_ENDPOINT = "http://127.0.0.1:7860/mcp"  # what `make demo` prints, so the README shows it
README_INSPECTOR = re.compile(r"^npx @modelcontextprotocol/inspector@.*?[^\\]$", re.M | re.S)
README_TIMEOUT = 60


def cmd_readme_inspector(url: str, out_prefix: str) -> int:
    """The README's one Inspector CLI line as written, only its endpoint pointed at `url`."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    name = "README Inspector CLI line"
    found = README_INSPECTOR.findall(readme)
    if len(found) != 1:
        emit("FAIL", name, f"README.md should hold one such line, found {len(found)}")
        return 0
    argv = [url if w == README_ENDPOINT else w for w in shlex.split(found[0].replace("\\\n", " "))]
    try:
        run = subprocess.run(
            argv, capture_output=True, text=True, timeout=README_TIMEOUT, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        emit("FAIL", name, f"did not finish: {error}")
        return 0
    Path(f"{out_prefix}.out").write_text(run.stdout, encoding="utf-8")
    Path(f"{out_prefix}.err").write_text(run.stderr, encoding="utf-8")
    try:
        answer = json.loads(run.stdout)
    except ValueError:
        emit("FAIL", name, f"exit {run.returncode}, no JSON; see {out_prefix}.err")
        return 0
    text = " ".join(c.get("text", "") for c in answer.get("content", []))
    if run.returncode == 0 and not answer.get("isError") and "ImageNet" in text:
        emit("PASS", name, "get_benchmark answered with the ImageNet leaderboard")
    else:
        emit("FAIL", name, f"exit {run.returncode}, isError={answer.get('isError')}: {text}")
    return 0


def main(argv: list[str]) -> int:
    commands = {
        "version": cmd_version,
        "free-port": cmd_free_port,
        "xfail-yaml": cmd_xfail_yaml,
        "conformance": cmd_conformance,
        "inspector-plan": cmd_inspector_plan,
        "inspector-eval": cmd_inspector_eval,
        "readme-inspector": cmd_readme_inspector,
    }
    if not argv or argv[0] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    return commands[argv[0]](*argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
