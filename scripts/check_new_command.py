"""The README's "Adding a command or tool", done for real on a copy of the checkout: a throwaway
`pwc areas` command with its `list_areas` tool, over the catalog's `areas/` route, in exactly the
hand edits the README lists (declaration, handler, view, tool, example), then `make regen`'s
script, then the tests that catch a forgotten step. Run by CI (`make new-command`); exits 1 when
a step the README does not list turns out to be needed, or the README names other files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Adding a command or tool"

# file -> (anchor text, text put before it; "" anchor: appended at the end)
EDITS: dict[str, tuple[str, str]] = {
    "pwc_core/declarations/taxonomy.py": (
        "\n)\n",
        '\n    Command("areas", "Research areas.", (shared.json(),),'
        ' ("pwc areas", "pwc areas --json"), tool="list_areas"),',
    ),
    "pwc_core/commands/taxonomy.py": (
        "",
        '\n\n@handler("areas")\n'
        "def areas(args: argparse.Namespace, client: Catalog) -> dict[str, Any]:\n"
        '    rows, _ = extract_rows(client.get_json("areas/"))\n'
        '    return {"count": len(rows), "results": rows}\n',
    ),
    "pwc_cli/views/taxonomy.py": (
        "",
        '\n\n@view("areas")\n'
        "def areas_view(payload: Any, args: argparse.Namespace, tty: Screen) -> Rendered:\n"
        '    columns = [("id", "id"), ("name", "name")]\n'
        '    return row_table(payload, args, tty, columns, right=[], empty="no areas")\n',
    ),
    "pwc_mcp/tools/taxonomy.py": (
        "\n    return provider\n",
        "\n    @tool(annotations=READ_ONLY, output_schema=lean_schema(RecordPage))\n"
        '    @generated("list_areas")\n'
        "    def list_areas(**params: Any) -> ToolResult:\n"
        '        """Research areas (Computer Vision, NLP, ...): the names list_tasks(area=) takes."""\n'
        '        return flat_page(payload_of(catalog, "list_areas", params), None, "areas")\n',
    ),
    "pwc_mcp/site/examples.py": ('    "get_benchmark": (', '    "list_areas": ({},),\n'),
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
    "tests/e2e/test_content_free_log.py",
]


def listed_files() -> set[str]:
    """The files the README's checklist names (its steps, before the table of failing tests)."""
    text = (ROOT / "README.md").read_text("utf-8").split(SECTION, 1)[1].split("\n## ", 1)[0]
    steps = text.split("\n| ", 1)[0]
    return {f for f in EDITS if f in steps or f.replace("taxonomy", "<domain>") in steps}


def edit(copy: Path) -> None:
    for name, (anchor, text) in EDITS.items():
        path = copy / name
        source = path.read_text("utf-8")
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
    unlisted = set(EDITS) - listed_files()
    if unlisted:
        print(f"new-command: the README's checklist does not name {sorted(unlisted)}")
        return 1
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
            run(copy, sys.executable, "-m", "ruff", "format", *EDITS)
            run(copy, sys.executable, "scripts/regen.py")
            run(copy, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS)
            run(copy, sys.executable, "-m", "mypy", "--cache-dir", str(copy / ".cache" / "mypy"))
        except subprocess.CalledProcessError as failed:
            print(f"new-command: {len(EDITS)} hand edits and `make regen` are not enough: {failed}")
            return 1
    print(f"new-command: `pwc areas` / `list_areas` took {len(EDITS)} hand edits and `make regen`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
