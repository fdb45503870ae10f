"""`python -m bench.outline`: what an outline of a hostile paper costs beside a normal one.

Both texts are 2 MiB (the most `read_paper outline=true` reads) with MAX_ENTRIES headings, fed
to `pwc_core.outline.Outliner` in 64 KiB chunks as the server feeds it:

* normal: headings like `## 3.2 Scaled dot-product attention`, prose between them;
* long: every heading a plain title as long as a classified line can be (MAX_LINE bytes);
* hostile: headings as long, made of U+FDFA, which NFKD expands 18-fold (issue #24).

It prints the median CPU seconds per outline and each one's ratio to normal, and returns the
numbers (`make bench` keeps them under "outline" in latest.json). Nothing about time is asserted
in tests; tests/test_outline.py proves the bound structurally.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench import cpu
from pwc_core.outline import MAX_ENTRIES, MAX_LINE, Outliner

TEXT_BYTES = 2 * 1024 * 1024
CHUNK = 65_536
EXPANSIVE = "\ufdfa"  # one character, 18 after NFKD
PROSE = "The encoder maps an input sequence of symbols to continuous representations. "


def paper(heading: Callable[[int], str]) -> bytes:
    """MAX_ENTRIES headings (`heading(i)` gives each line) with prose up to TEXT_BYTES."""
    lines = [heading(i).encode() for i in range(MAX_ENTRIES)]
    room = TEXT_BYTES - sum(len(line) + 2 for line in lines)
    filler = (PROSE * (room // MAX_ENTRIES // len(PROSE) + 1)).encode()[: room // MAX_ENTRIES]
    return b"".join(line + b"\n" + filler + b"\n" for line in lines)


def texts() -> dict[str, bytes]:
    room = MAX_LINE - len("# ")
    return {
        "normal": paper(lambda i: f"## {i // 8 + 1}.{i % 8 + 1} Scaled dot-product attention"),
        "long": paper(lambda i: "# " + "word " * (room // 5)),
        "hostile": paper(lambda i: "# " + EXPANSIVE * (room // len(EXPANSIVE.encode()))),
    }


def outline(data: bytes) -> None:
    outliner = Outliner()
    for start in range(0, len(data), CHUNK):
        outliner.feed(data[start : start + CHUNK], final=start + CHUNK >= len(data))
    if len(outliner.headings) != MAX_ENTRIES:
        raise RuntimeError(f"found {len(outliner.headings)} headings, not {MAX_ENTRIES}")


def run(rounds: int = 15) -> dict[str, Any]:
    print("outline: a hostile paper's headings beside a normal paper's ...", flush=True)
    cases = texts()
    result = cpu.compare(cases, outline, rounds)
    result["text_bytes"] = {name: len(data) for name, data in cases.items()}
    title = f"Outline of a 2 MiB paper with {MAX_ENTRIES} headings, in {CHUNK // 1024} KiB chunks"
    print(cpu.table(title, "Headings", result), flush=True)
    return result


if __name__ == "__main__":
    raise SystemExit(cpu.main(run, "python -m bench.outline", __doc__, 15))
