"""List the English words a Chinese learner reads: every template at seeds 1-5, prompt, worked solution and card
rendered in Chinese (as tests/tools/render_problem.py renders them), each run of ASCII letters that is not a
name, unit, precision, formula symbol, cited author or source, or a term Chinese writing keeps in English.

    python -m tests.tools.zh_english            # word, how many (template, part) show it, templates, one line
    python -m tests.tools.zh_english --all      # also the names, units and symbols it leaves out

A reviewing aid, not a test: what it prints is for a person to judge (``embedding`` has a Chinese word,
词嵌入; ``kernel`` and ``prefill`` are what Chinese engineers write).  Fix a leak where the text is defined:
a template's ``*_zh`` strings, engine/formulas/*.py's ``*_zh`` fields, question_bank/data files.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict

WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z'\-]*[A-Za-z](?![A-Za-z0-9_])")
# Terms Chinese technical writing keeps in English (the bank's usage), and formula words that are symbols
KEPT = {
    "token", "tokens", "batch", "prefill", "decode", "prompt", "kernel", "GEMM", "GEMV", "Roofline", "roofline",
    "Tensor", "Core", "Cache", "KV", "Query", "MoE", "MLP", "FFN", "QKV", "MHA", "GQA", "MQA", "MLA", "SwiGLU",
    "GELU", "SiLU", "ReLU", "LayerNorm", "RMSNorm", "Softmax", "softmax", "dropout", "FlashAttention",
    "PagedAttention", "AllReduce", "AllGather", "ReduceScatter", "All-to-All", "Ring", "ring", "NVLink", "PCIe",
    "InfiniBand", "ZeRO", "FSDP", "DDP", "TP", "PP", "DP", "CP", "SP", "MFU", "HFU", "MBU", "TTFT", "TPOT", "SLO",
    "PUE", "TDP", "MTBF", "AdamW", "Adam", "LoRA", "QLoRA", "GRPO", "PPO", "RL", "KL", "RoPE", "GPU", "CPU", "TPU",
    "ICI", "HBM", "SRAM", "NCCL", "LLM", "AI", "Infra", "Transformer", "Attention", "Decode", "Prefill", "rollout",
    "top-k", "top", "epilogue", "rank", "pod", "logits", "logit", "torus", "Send", "Recv", "ceil", "floor", "max",
    "min", "sum", "mean", "len", "log", "exp", "tanh", "rms", "mod", "true", "false", "key", "mask", "gate", "up",
    "down", "busbw", "algbw", "nccl-tests", "vLLM", "SGLang", "LMCache", "Little", "Young-Daly", "Clos",
}


def _known() -> set[str]:
    """Names, units, precisions, formula symbols and cited sources: English that is no leak."""
    from engine import formulas
    from engine.sources import SOURCES
    from engine.units import DTYPE_BYTES, KINDS, UNIT_SYMBOLS
    from question_bank import hardware, models

    texts = [m.name for m in models.ALL] + [g.name for g in hardware.ALL] + list(UNIT_SYMBOLS) + list(DTYPE_BYTES)
    texts += list(KINDS.values())
    for f in formulas.CATALOGUE:
        texts += [f.name, *f.symbols.values(), *f.symbols]
        texts += [p.symbol for p in f.parts] + [f.result_symbol, f.formula_text()]
    for s in SOURCES.values():
        texts += [s.en, s.zh]
    return {w for t in texts for w in WORD.findall(str(t))}


def scan(seeds=range(1, 6)) -> dict[str, dict]:
    """word -> {"where": {(template, part)}, "line": one line that shows it}."""
    from question_bank import registry
    from tests.tools.render_problem import render, render_card

    found: dict[str, dict] = defaultdict(lambda: {"where": set(), "line": ""})
    for tid in sorted(registry.REGISTRY):
        t = registry.get(tid)
        texts = [("card", render_card(t, "zh"))]
        for seed in seeds:
            p = t.generate(seed)
            texts += [("prompt", render(p, "prompt", "zh")), ("solution", render(p, "solution", "zh"))]
        for part, text in texts:
            for line in text.splitlines():
                for w in WORD.findall(line):
                    found[w]["where"].add((tid, part))
                    found[w]["line"] = found[w]["line"] or line.strip()
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.tools.zh_english", description=__doc__.split("\n\n")[0])
    p.add_argument("--all", action="store_true", help="also list names, units, symbols and kept terms")
    args = p.parse_args(argv)
    found = scan()
    skip = set() if args.all else KEPT | _known()
    words = sorted((w for w in found if w not in skip), key=lambda w: (-len(found[w]["where"]), w.lower()))
    for w in words:
        tids = sorted({t for t, _ in found[w]["where"]})
        shown = ", ".join(tids[:3]) + (" …" if len(tids) > 3 else "")
        print(f"{w}\t{len(found[w]['where'])}\t{shown}\t{found[w]['line'][:160]}")
    print(f"{len(words)} word(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
