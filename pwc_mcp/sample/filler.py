"""Generated Markdown filler for the sample catalog's long papers."""

from __future__ import annotations


def long_appendix(kib: int) -> str:
    """Deterministic filler that makes one paper's Markdown span several 64 KiB chunks.

    Every sentence carries multi-byte UTF-8 (é, —, ∑, CJK, emoji), so chunk boundaries regularly
    fall inside a character and readers must cut back to a character boundary.
    """
    fragments = (
        "Head {h} of layer {l} attends to the previous token — the “look-back” pattern. ",
        "The café ablation removes {h} heads and BLEU drops by 0.{d}; naïve pruning hurts. ",
        "For all {n} queries ∑ᵢ αᵢ = 1 holds and ‖W_O‖ stays below {l}.{h}. ",
        "Throughput reaches {n} tokens/s on eight GPUs 🚀 after {w} warm-up steps. ",
        "Label smoothing ε = 0.1 trades perplexity for BLEU (Δ = +0.{d}), see Table {l}. ",
        "多头注意力 head {h} tracks coreference; 🤖 sentence {n} resolves “it” correctly. ",
        "Phases θ = pos / 10000^(2i/d) wrap after {w} positions ≈ 2π·10⁴ — résumé in Figure {d}. ",
    )
    parts = ["\n## Appendix — extended ablation notes (generated sample text)\n"]
    size, n = len(parts[0].encode()), 0
    while size < kib * 1024:
        section = n // 24 + 1
        heading = f"\n### A.{section} Ablation set {section} · λ = {section / 10:.1f}\n\n"
        pieces = [heading] if n % 24 == 0 else []
        values = {"h": n % 8 + 1, "l": n % 6 + 1, "d": n % 9 + 1, "n": 512 + 37 * n, "w": 4000 + n}
        pieces.append(fragments[(n * 3 + section) % len(fragments)].format(**values))
        pieces += ["\n\n"] if n % 4 == 3 else []
        parts += pieces
        size += sum(len(piece.encode()) for piece in pieces)
        n += 1
    return "".join(parts) + "\n"
