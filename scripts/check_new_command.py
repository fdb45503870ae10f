"""The README's "Adding a command or tool", done for real on a copy of the checkout: a throwaway
`pwc licenses` command with its `list_licenses` tool, over a route the catalog client has never
read (`licenses/`) and with an output shape no tool has yet, so every edit a realistic command
needs is made: the declaration, the handler with its `ROUTES` line, the route's line in the
contract, the sample catalog's data and endpoint, the view, the output model and text, the tool
and its example. Exactly the files the README's checklist names are edited, then `make regen`'s
script runs, then the tests that catch a forgotten step. Run by CI (`make new-command`); exits 1
when a step the README does not list turns out to be needed, or when the README's checklist and
these edits name different files.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Adding a command or tool"
DOMAIN = "taxonomy"  # the README writes it `<domain>`
LICENSES = (
    '{"id": "1", "spdx": "MIT", "name": "MIT License", "is_open": true, "paper_count": 21}, '
    '{"id": "2", "spdx": "Apache-2.0", "name": "Apache License 2.0", "is_open": true, '
    '"paper_count": 17}, '
    '{"id": "3", "spdx": "NONE", "name": "No license stated", "is_open": false, "paper_count": 9}'
)

# file -> its edits, each (anchor text, text put before it; "" anchor: appended at the end)
EDITS: dict[str, list[tuple[str, str]]] = {
    "pwc_core/declarations/taxonomy.py": [
        (
            "\n)\n",
            '\n    Command("licenses", "Licenses of papers\' code, with paper counts.",'
            ' (shared.json(),), ("pwc licenses", "pwc licenses --json"), tool="list_licenses"),',
        )
    ],
    "pwc_core/commands/taxonomy.py": [
        (
            "    tasks/                            list",
            "    licenses/                         list     taxonomy\n",
        ),
        (
            "",
            '\n\n@handler("licenses")\n'
            "def licenses(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:\n"
            '    rows, _ = extract_rows(client.get_json("licenses/"))\n'
            '    return {"count": len(rows), "results": rows}\n',
        ),
    ],
    "docs/upstream-api.md": [
        (
            "| `tasks/` |",
            "| `licenses/` | nothing | `{count, results: [{id, spdx, name, is_open, paper_count}]}`"
            ", every license |\n",
        )
    ],
    "pwc_mcp/sample/data/catalog.json": [('  "tasks": [', f'  "licenses": [{LICENSES}],\n')],
    "pwc_mcp/sample/records.py": [
        ("        self.tasks: dict", '        self.licenses: list[Json] = raw["licenses"]\n')
    ],
    "pwc_mcp/sample/endpoints.py": [
        (
            '    ("tasks/", tasks_list),',
            '    ("licenses/", lambda s, p, a: paginate(s.licenses, p.page(100, 100))),\n',
        )
    ],
    "pwc_cli/views/taxonomy.py": [
        (
            "",
            '\n\n@view("licenses")\n'
            "def licenses_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:\n"
            '    columns = [("license", "spdx"), ("name", "name"), ("papers", "paper_count")]\n'
            '    return row_table(payload, args, tty, columns, right=["papers"], empty="no licenses")\n',
        )
    ],
    "pwc_mcp/answers/models.py": [
        (
            "# --- schemas",
            "class LicensePage(Out):\n"
            "    open_count: int  # how many of them are open licenses\n"
            "    data: dict[str, Any]\n\n\n",
        )
    ],
    "pwc_mcp/answers/texts.py": [
        (
            "",
            "\n\ndef licenses(rows: list[dict[str, Any]]) -> str:\n"
            '    """One line a license: its name, SPDX identifier and papers."""\n'
            '    lines = [f"Returned {len(rows)} licenses."]\n'
            "    for row in rows:\n"
            '        papers = count(row.get("paper_count"), "paper")\n'
            "        lines.append(f\"- {clip(row.get('name'), 80)} ({row.get('spdx')}): {papers}\")\n"
            '    return "\\n".join(lines)\n',
        )
    ],
    "pwc_mcp/tools/taxonomy.py": [
        ("Record, RecordPage, lean_schema", "LicensePage, "),
        (
            "\n    return provider\n",
            "\n    @tool(annotations=READ_ONLY, output_schema=lean_schema(LicensePage))\n"
            "    @generated\n"
            "    def list_licenses(name: str, /, **params: Any) -> ToolResult:\n"
            '        """Licenses papers\' code is released under, with how many papers use each."""\n'
            "        payload = payload_of(catalog, name, params)\n"
            "        rows, _ = rows_of(payload)\n"
            '        open_count = sum(row.get("is_open") is True for row in rows)\n'
            "        model = LicensePage(open_count=open_count, data=bounded(payload))\n"
            "        return respond(model, texts.licenses(rows[:HOSTED_ROW_CAP]))\n",
        ),
    ],
    "pwc_mcp/site/examples.py": [('    "get_benchmark": (', '    "list_licenses": ({},),\n')],
}
TESTS = [
    "tests/test_completeness.py",
    "tests/test_parity.py",
    "tests/test_help.py",
    "tests/test_readme.py",
    "tests/test_examples.py",
    "tests/test_regen.py",
    "tests/test_modules.py",
    "tests/test_docs.py",
    "tests/golden",
    "tests/cli/test_output.py",
    "tests/mcp/test_texts.py",
    "tests/mcp/test_one_copy.py",
    "tests/mcp/test_tool_names.py",
    "tests/e2e/test_content_free_log.py",
]


def listed_files() -> set[str]:
    """The files the README's checklist says to edit: those its numbered steps name in their
    heads (`N. **Step** in `file`, `file`: ...`), with `<domain>` read as this script's."""
    text = (ROOT / "README.md").read_text("utf-8").split(SECTION, 1)[1].split("\n## ", 1)[0]
    heads = re.findall(r"^\d+\. \*\*[^*]+\*\* in ([^:]+):\s", text, re.M)
    return {
        name.replace("<domain>", DOMAIN)
        for head in heads
        for name in re.findall(r"`([^`]+)`", head)
    }


def edit(copy: Path) -> None:
    for name, edits in EDITS.items():
        path = copy / name
        source = path.read_text("utf-8")
        for anchor, text in edits:
            if anchor:
                at = source.rindex(anchor)
                source = source[:at] + text + source[at:]
            else:
                source = source.rstrip("\n") + "\n" + text
        path.write_text(source, "utf-8")


def run(copy: Path, *argv: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    print("$", " ".join(argv), flush=True)
    subprocess.run(argv, cwd=copy, env=env, check=True)


def main() -> int:
    listed = listed_files()
    if listed != set(EDITS):
        print(
            "new-command: the README's checklist and these edits differ: it does not name "
            f"{sorted(set(EDITS) - listed)}, and names {sorted(listed - set(EDITS))} unedited"
        )
        return 1
    made = f"{sum(map(len, EDITS.values()))} hand edits in {len(EDITS)} files"
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    with tempfile.TemporaryDirectory(prefix="pwc-new-command-") as tmp:
        copy = Path(tmp)
        for name in files:
            if (ROOT / name).is_file():
                (copy / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, copy / name)
        edit(copy)
        try:
            run(
                copy,
                sys.executable,
                "-m",
                "ruff",
                "format",
                *(f for f in EDITS if f.endswith(".py")),
            )
            run(copy, sys.executable, "scripts/regen.py")
            pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            run(copy, *pytest, *TESTS)
            run(copy, sys.executable, "-m", "mypy", "--cache-dir", str(copy / ".cache" / "mypy"))
        except subprocess.CalledProcessError as failed:
            print(f"new-command: {made} and `make regen` are not enough: {failed}")
            return 1
    print(f"new-command: `pwc licenses` / `list_licenses` took {made} and `make regen`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
