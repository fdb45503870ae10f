"""Chart test helpers: the SVG namespace, elements by class, their text, and the Pareto frontier
computed the slow, obvious way to compare the chart's against."""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    """Elements of `tag` that have every class of `cls`."""
    wanted = set(cls.split())
    return [e for e in root.iter(SVG + tag) if wanted <= set((e.get("class") or "").split())]


def texts(root: ET.Element, cls: str) -> list[str]:
    return ["".join(e.itertext()) for e in by_class(root, "text", cls)]


def brute_frontier(points: list[tuple[int, float]], sign: float) -> set[tuple[int, float]]:
    """Points strictly better than every other point with as many parameters or fewer."""
    return {
        (p, v)
        for p, v in points
        if all(sign * v > sign * w for q, w in points if q <= p and (q, w) != (p, v))
    }
