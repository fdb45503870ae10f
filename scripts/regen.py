"""`make regen`: every artefact derived from the code, written from it.

- README.md's generated regions, each between `<!-- generated: NAME [ARGS] -->` and
  `<!-- end -->`; the prose around them stays hand-written. `tools`: the tool table with every
  example of pwc_mcp/site/examples.py; `counts`: the tools, resource templates and prompts the server
  lists; `prompts`: each prompt with its arguments; `tools-list-size`: the bytes of tools/list
  and their share of the reference implementation's; `sample-sizes`: the sample catalog's
  papers, tasks and benchmarks; `text TOOL N`: what a model reads for TOOL's example N;
  `sizes`: per tool family, the bytes of the text and of the structuredContent (and of its
  `data`) of every example, which is what a text-only and a structured-only client pay;
  `modules`: the Architecture section's map, every folder of the three packages (a room: its
  `__init__.py` docstring says what it is for) with each module's opening sentence.
- scripts/interop_calls.json, the Inspector's plan (pwc_mcp.site.examples.interop_calls_json).
- deploy/registry/server.json, the MCP Registry entry for the hosted endpoint
  (pwc_mcp.site.server_card.registry_entry), named as the real server names itself and versioned
  as the package is.
- tests/golden/tools_list.json: tools/list as a real MCP client reads it over HTTP from the real
  application against the sample catalog (tools sorted by name, pretty-printed), so any change to
  a tool's name, description, parameters, output schema or annotations shows in review.

`python scripts/regen.py` writes the files that changed and names them; `--check` writes
nothing and exits 1 naming the stale ones. tests/test_regen.py fails while any file differs
from what `generate()` makes.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import anyio
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from pwc_mcp.app import create_app
from pwc_mcp.config import Settings
from pwc_mcp.params import TOOLS
from pwc_mcp.sample import start_sample_catalog
from pwc_mcp.serving.localserver import serve_in_thread
from pwc_mcp.site.connect import HOSTED_ENDPOINT
from pwc_mcp.site.examples import TOOL_EXAMPLES, interop_calls_json
from pwc_mcp.site.server_card import registry_entry

ROOT = Path(__file__).resolve().parents[1]
README = Path("README.md")
INTEROP_CALLS = Path("scripts/interop_calls.json")
GOLDEN_TOOLS_LIST = Path("tests/golden/tools_list.json")
REGISTRY_ENTRY = Path("deploy/registry/server.json")
SAMPLE_DATA = Path("pwc_mcp/sample/data/catalog.json")
# The reference implementation's tools/list as compact JSON, the figure the README compares with.
REFERENCE_TOOLS_LIST_BYTES = 48_371

REGION = re.compile(r"<!-- generated: ([^>]*?) -->(.*?)<!-- end -->", re.S)
REQUIRED = ("tools", "counts", "prompts", "tools-list-size", "sample-sizes", "sizes", "modules")
PACKAGES = ("pwc_core", "pwc_cli", "pwc_mcp")  # in layer order: the core below its two users
# A tool's family is its CLI command's first word; the rest are taxonomy.
FAMILIES = {"search": "Papers", "paper": "Papers", "benchmark": "Benchmarks"}


class Sizes(NamedTuple):
    """Bytes one example call sends a model: its text, its structuredContent (compact JSON)
    and the `data` inside that."""

    text: int
    structured: int
    data: int


class Served(NamedTuple):
    """What the real server answers, read once for every renderer (a NamedTuple: the tests load
    this script without registering a module, which a dataclass needs)."""

    tools: list[dict[str, Any]]  # tools/list, each tool as JSON, sorted by name
    templates: int
    prompts: list[tuple[str, list[str]]]  # (name, argument names)
    texts: dict[tuple[str, int], str]  # (tool, example index) -> the text a model reads
    server: str  # the server's own name, as it introduces itself to a client
    sizes: dict[tuple[str, int], Sizes] = {}  # every example's, by (tool, example index)


async def serve_and_read(catalog_url: str, texts: list[tuple[str, int]]) -> Served:
    with serve_in_thread(create_app(Settings(api_url=catalog_url)), name="pwc-mcp") as running:
        async with Client(StreamableHttpTransport(f"{running.origin}/mcp")) as client:
            listed = await client.list_tools_mcp()
            if listed.next_cursor:
                raise SystemExit("regen: tools/list no longer fits one page")
            tools = [
                t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools
            ]
            shown: dict[tuple[str, int], str] = {}
            sizes: dict[tuple[str, int], Sizes] = {}
            for tool, examples in TOOL_EXAMPLES.items():
                for index, example in enumerate(examples):
                    result = await client.call_tool_mcp(tool, example)
                    if result.is_error:
                        raise SystemExit(f"regen: {tool} example {index} fails: {result.content}")
                    text = result.content[0].text
                    sizes[tool, index] = Sizes(
                        len(text.encode()),
                        len(_compact(result.structured_content)),
                        len(_compact(result.structured_content["data"])),
                    )
                    if (tool, index) in texts:
                        shown[tool, index] = text
            return Served(
                tools=sorted(tools, key=lambda tool: tool["name"]),
                templates=len(await client.list_resource_templates()),
                prompts=[
                    (p.name, [a.name for a in p.arguments or []])
                    for p in await client.list_prompts()
                ],
                texts=shown,
                server=client.server_info.name if client.server_info else "",
                sizes=sizes,
            )


def _compact(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def golden(tools: list[dict[str, Any]]) -> str:
    return json.dumps(tools, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --- README regions ---------------------------------------------------------------------------


def _code(value: Any) -> str:
    """An inline code span of JSON, safe inside a table cell."""
    return "`" + json.dumps(value, ensure_ascii=False).replace("|", "\\|") + "`"


def _command(tool: str) -> str:
    """`pwc task --name` for an entity command (one with a `list` beside it), else the command."""
    command = TOOLS[tool]
    return f"pwc {command} --name" if f"{command} list" in TOOLS.values() else f"pwc {command}"


def tool_table(served: Served) -> str:
    listed = [tool["name"] for tool in served.tools]
    if sorted(TOOL_EXAMPLES) != listed:
        raise SystemExit(
            f"regen: the server lists {listed}, pwc_mcp/site/examples.py has {sorted(TOOL_EXAMPLES)}"
        )
    rows = ["| Tool | CLI command | Example arguments |", "| --- | --- | --- |"]
    for tool, examples in TOOL_EXAMPLES.items():
        shown = " or ".join(_code(example) for example in examples)
        rows.append(f"| `{tool}` | `{_command(tool)}` | {shown} |")
    return "\n" + "\n".join(rows) + "\n"


def counts(served: Served) -> str:
    return (
        f"{len(served.tools)} tools, {served.templates} resource templates, "
        f"{len(served.prompts)} prompts"
    )


def prompts(served: Served) -> str:
    return ", ".join(f"`{name}({', '.join(arguments)})`" for name, arguments in served.prompts)


def tools_list_size(served: Served) -> str:
    size = len(json.dumps(served.tools, separators=(",", ":")))
    share = round(100 * size / REFERENCE_TOOLS_LIST_BYTES)
    reference = f"{REFERENCE_TOOLS_LIST_BYTES:,}"
    return f"{size:,} bytes ({share}% of the reference implementation's {reference})"


def sample_sizes(_: Served) -> str:
    data = json.loads((ROOT / SAMPLE_DATA).read_text(encoding="utf-8"))
    papers, tasks, benchmarks = (len(data[key]) for key in ("papers", "tasks", "datasets"))
    return f"{papers} papers, {tasks} tasks, {benchmarks} benchmarks"


def text(served: Served, tool: str, index: str) -> str:
    example = TOOL_EXAMPLES[tool][int(index)]
    return f"`{tool}` with {_code(example)}\n\n```text\n{served.texts[tool, int(index)]}\n```\n"


def sizes(served: Served) -> str:
    """Per tool family: the examples' text and structuredContent bytes, and the largest share
    of the structuredContent that is not `data`."""
    families: dict[str, list[tuple[str, int, Sizes]]] = {}
    for (tool, index), size in served.sizes.items():
        family = FAMILIES.get(TOOLS[tool].split()[0], "Taxonomy")
        families.setdefault(family, []).append((tool, index, size))
    rows = [
        "| Tool family | Example calls | Text | `structuredContent` | its `data` | Largest "
        "`structuredContent` / `data` |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for family, calls in families.items():
        tool, index, top = max(calls, key=lambda call: call[2].structured / call[2].data)
        total = [sum(call[2][field] for call in calls) for field in range(3)]
        tools = len({call[0] for call in calls})
        rows.append(
            f"| {family} ({tools} tools) | {len(calls)} | {total[0]:,} B | {total[1]:,} B | "
            f"{total[2]:,} B | {top.structured / top.data:.2f}× (`{tool}` example {index}) |"
        )
    return "\n" + "\n".join(rows) + "\n"


def opening(path: Path, root: Path = ROOT) -> str:
    """The first sentence of a module's docstring, on one line."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    if not docstring:
        name = path.relative_to(root).as_posix()
        raise SystemExit(f"regen: {name} has no docstring to say what it is for")
    paragraph = " ".join(docstring.split("\n\n", 1)[0].split())
    return re.split(r"(?<=[.!?])\s", paragraph, maxsplit=1)[0]


def module_map(_: Served, root: Path = ROOT) -> str:
    """Every folder of the packages, then each of its modules, with its opening sentence."""
    lines = []
    for package in PACKAGES:
        for folder in sorted({p.parent for p in (root / package).rglob("*.py")}):
            init = folder / "__init__.py"
            about = opening(init, root) if init.is_file() else "(no `__init__.py`)"
            lines.append(f"- **`{folder.relative_to(root).as_posix()}/`**: {about}")
            for module in sorted(folder.glob("*.py")):
                if module.name != "__init__.py":
                    lines.append(f"  - `{module.name}`: {opening(module, root)}")
    return "\n" + "\n".join(lines) + "\n"


RENDERERS: dict[str, Callable[..., str]] = {
    "tools": tool_table,
    "counts": counts,
    "prompts": prompts,
    "tools-list-size": tools_list_size,
    "sample-sizes": sample_sizes,
    "text": text,
    "sizes": sizes,
    "modules": module_map,
}


def regions(readme: str) -> list[list[str]]:
    """Each region's name and arguments, in order; an unknown name fails."""
    found = [match.group(1).split() for match in REGION.finditer(readme)]
    unknown = [words for words in found if not words or words[0] not in RENDERERS]
    missing = set(REQUIRED) - {words[0] for words in found if words}
    if unknown or missing:
        raise SystemExit(f"regen: README.md regions unknown {unknown}, missing {sorted(missing)}")
    return found


def rewrite(readme: str, served: Served) -> str:
    """The README with every region rendered afresh; nothing outside a region changes."""
    regions(readme)

    def render(match: re.Match[str]) -> str:
        name, *arguments = match.group(1).split()
        content = RENDERERS[name](served, *arguments)
        return f"<!-- generated: {match.group(1)} -->{content}<!-- end -->"

    return REGION.sub(render, readme)


# --- files -------------------------------------------------------------------------------------


def generate() -> dict[Path, str]:
    """Every generated file (path in the checkout -> text), from the code and the README's prose."""
    readme = (ROOT / README).read_text(encoding="utf-8")
    texts = [(words[1], int(words[2])) for words in regions(readme) if words[0] == "text"]
    with start_sample_catalog() as catalog:
        served = anyio.run(serve_and_read, catalog.url, texts)
    return {
        README: rewrite(readme, served),
        INTEROP_CALLS: interop_calls_json(),
        GOLDEN_TOOLS_LIST: golden(served.tools),
        REGISTRY_ENTRY: json.dumps(registry_entry(HOSTED_ENDPOINT, served.server), indent=2) + "\n",
    }


def stale() -> dict[Path, str]:
    """The generated files whose text on disk differs, with the text they should have."""
    return {
        path: text
        for path, text in generate().items()
        if not (ROOT / path).is_file() or (ROOT / path).read_text(encoding="utf-8") != text
    }


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print("usage: python scripts/regen.py [--check]", file=sys.stderr)
        return 2
    changed = stale()
    for path, text in changed.items():
        if argv:
            print(f"stale: {path} (run `make regen`)")
        else:
            (ROOT / path).write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if not changed:
        print("regen: every generated file is up to date")
    return 1 if argv and changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
