"""`python -m bench.suggestions`: what ranking did-you-mean candidates costs, the worst beside a
typo (issue #37: a 500-character made-up name cost 1.6-1.7 s of CPU per `get_task`, 7.9 s
against long catalog names).

Each case is one `pwc_core.suggest.suggestions` call, a lookup's page in hand and three more
pages found by the fallback searches (none of them alike, so every search is made):

* typo: "image-clasification" against 100 task-like names;
* attack: a name as long as an argument may be (three common words, then nonsense) against
  pages of 100 names of 20,000 characters;
* worst: as long a name of the costliest words (`worst`) against the most candidates ranked,
  names of 20,000 characters of such words.

It prints the median CPU seconds of each (bench/cpu.py) and the target, and returns the numbers
(`make bench` keeps them under "suggestions" in latest.json). Nothing about time is asserted in
tests: tests/mcp/test_suggestion_work.py counts the comparisons on the same inputs.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Any

from bench import cpu
from pwc_core.suggest import MAX_CANDIDATES, MAX_EXTRA_SEARCHES, MAX_WORD_LETTERS, suggestions
from pwc_core.values import MAX_TEXT

TARGET_CPU_S = 0.3  # per call, in the worst case
# The costliest texts found: words as long as a typo is looked for in (so no length rules one
# out), of 8 letters (difflib's work grows as an alphabet shrinks, until names turn alike and
# no more lookups are made).
WORST_LETTERS = (MAX_WORD_LETTERS - 4, MAX_WORD_LETTERS)
WORST_ALPHABET = string.ascii_lowercase[:8]
Pages = Callable[[int], list[str]]  # a lookup's names by its number (0: the one in hand)


def nonsense(
    seed: int | str,
    length: int,
    letters: tuple[int, int] = (4, 8),
    alphabet: str = string.ascii_lowercase,
) -> str:
    """Made-up words of `letters` letters, `length` characters in all."""
    rng = random.Random(seed)
    text = ""
    while len(text) < length:
        text += "".join(rng.choices(alphabet, k=rng.randint(*letters))) + " "
    return text[:length].strip()


def attack_name(words: str) -> str:
    """The attack: three common words, then nonsense, as long as a tool argument may be."""
    return (words + " " + nonsense(words, MAX_TEXT))[:MAX_TEXT]


def worst(
    typed_length: int = MAX_TEXT,
    name_length: int = 20_000,
    rows: int = MAX_CANDIDATES // (1 + MAX_EXTRA_SEARCHES),
) -> tuple[str, Pages]:
    """A typed name and lookups of `rows` names of `name_length` characters, all of the
    costliest words (each name's first 600 characters distinct, then one-letter words)."""

    def words(seed: str, length: int) -> str:
        return nonsense(seed, length, WORST_LETTERS, WORST_ALPHABET)

    def page(number: int) -> list[str]:
        names = (words(f"{number}/{row}", 600) for row in range(rows))
        return [name + " x" * ((name_length - len(name)) // 2) for name in names]

    return words("typed", typed_length), page


def cases() -> dict[str, tuple[str, list[list[str]]]]:
    """Each case's typed name and its lookups' names (the first in hand), built before any
    timing: every lookup is made (none of the names is alike)."""
    tasks = [
        f"{kind} Image Classification {i}" for kind in ("Few-Shot", "Robust") for i in range(50)
    ]
    built: dict[str, tuple[str, Pages]] = {
        "typo": ("image-clasification", lambda number: tasks),
        "attack": (attack_name("image classification transformer"), worst(rows=100)[1]),
        "worst": worst(),
    }
    return {
        name: (typed, [page(n) for n in range(1 + MAX_EXTRA_SEARCHES)])
        for name, (typed, page) in built.items()
    }


def rank(case: tuple[str, list[list[str]]]) -> None:
    typed, found = case
    more = iter(found[1:])
    if not suggestions(typed, found[0], lambda query: next(more)):
        raise RuntimeError(f"no suggestion for {typed[:40]!r}")


def run(rounds: int = 9) -> dict[str, Any]:
    print("suggestions: ranking did-you-mean candidates, a typo beside the worst ...", flush=True)
    result = cpu.compare(cases(), rank, rounds)
    worst_s = max(result["median_cpu_s"].values())
    result["target_cpu_s"] = TARGET_CPU_S
    result["met"] = worst_s <= TARGET_CPU_S
    print(cpu.table("Did-you-mean ranking, one call", "Case", result), flush=True)
    verdict = "met" if result["met"] else "MISSED"
    print(f"target: at most {TARGET_CPU_S} s of CPU per call in the worst case: {verdict} "
          f"({worst_s:.3f} s)", flush=True)  # fmt: skip
    return result


if __name__ == "__main__":
    raise SystemExit(cpu.main(run, "python -m bench.suggestions", __doc__, 9))
