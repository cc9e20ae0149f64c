"""Parameter-count templates: 12·L·h² against the exact count of a Llama-style config (GQA, SwiGLU, vocabulary)."""

from __future__ import annotations

from engine import formulas

from ... import kit, models
from ...spec import Ask, Ref, Spec, World, given
from ...template import template

# --------------------------------------------------------------------------- #
# Parameter count from a config (memory)

LLAMA_LIKE = tuple(m for m in models.DENSE if m.llama_style)
# Widths of Llama-style decoders (Llama 3.2 1B/3B, Llama 3 8B, Qwen2.5 14B/32B, Llama 3 70B): hidden size,
# FFN size, KV heads; heads of 128 (64 for the 1B).
WIDTHS = ((2048, 8192, 8, 64), (3072, 8192, 8, 128), (4096, 14336, 8, 128), (5120, 13824, 8, 128),
          (5120, 27648, 8, 128), (8192, 28672, 8, 128))
VOCABS = (32000, 128256, 151936)


def _config(rng) -> models.Model:
    """A real Llama-style model, or a Llama-style config of real widths at another depth, such that every
    named mistake (no GQA, 2-matrix MLP, no embeddings) is more than 1.5 % off the exact count."""
    f = formulas.get("param_count")
    while True:
        if rng.random() < 0.3:
            m = rng.choice(LLAMA_LIKE)
        else:
            d, ffn, kv, d_head = rng.choice(WIDTHS)
            layers, vocab = rng.choice((16, 24, 28, 32, 36, 40, 48, 64, 80)), rng.choice(VOCABS)
            inputs = {"layers": layers, "d_model": d, "n_heads": d // d_head, "n_kv_heads": kv, "d_head": d_head,
                      "ffn": ffn, "vocab": vocab}
            m = models.Model("hypothetical", f"a Llama-style model (L = {layers}, h = {d})", layers, d, d // d_head, kv,
                             d_head, ffn, vocab, f.evaluate(**inputs), True, "drawn config")
        exact = f.evaluate(**m.param_inputs())
        wrong = [v for _, v in f.misconception_values(**m.param_inputs())]
        if all(abs(v - exact) / max(v, exact) > 0.015 for v in wrong):
            return m


def zh_name(m) -> str:
    """`` Llama-3-8B `` or ``一个 Llama 式模型（L = 32，h = 4096）``, spaced for Chinese text."""
    if m.key == "hypothetical":
        kind = "Llama 式模型" if m.name.startswith("a Llama") else "Transformer 模型"
        return f"一个 {kind}（L = {m.layers}，h = {m.d_model}）"
    return f" {m.name} "


def cap_first(text: str) -> str:
    return text[:1].upper() + text[1:]


PARAM_EN = ("Llama-style decoder: Q and O projections h × (n_heads·d_head), K and V h × (n_kv_heads·d_head) "
            "(grouped-query attention), a gated (SwiGLU) MLP of three h × d_ffn matrices, untied input embedding and "
            "output matrices V × h; norms and biases ignored.")
PARAM_ZH = ("Llama 式解码器：Q、O 投影为 h × (n_heads·d_head)，K、V 为 h × (n_kv_heads·d_head)（分组查询注意力），"
            "门控（SwiGLU）MLP 含三个 h × d_ffn 矩阵，输入词嵌入与输出矩阵不共享，各为 V × h；忽略归一化层和偏置。")


def _config_givens(m) -> tuple:
    return (kit.model(m, "layers"), kit.model(m, "d_model", label=("Hidden size h", "隐藏维度 h")),
            kit.model(m, "n_heads"), kit.model(m, "n_kv_heads", label=("KV heads", "KV 头数")),
            kit.model(m, "d_head"),
            given("ffn", "MLP inner size d_ffn", "MLP 中间维度 d_ffn", m.ffn),
            kit.model(m, "vocab"))


@template("memory.param_count_approx", topic="memory", title="Parameters from the 12·L·h² rule",
          title_zh="用 12·L·h² 估算参数量", difficulty=1, target_seconds=45, source="kaplan2020")
def param_count_approx(rng):
    m = _config(rng)
    if rng.random() < 0.7:  # another depth and width: the rule needs only L and h
        layers, d = rng.choice(range(12, 129, 4)), rng.choice((2048, 2560, 3072, 4096, 5120, 6144, 8192, 12288, 16384))
        m = m._replace(key="hypothetical", name=f"a transformer (L = {layers}, h = {d})", layers=layers, d_model=d)
    return Spec(
        givens=(kit.model(m, "layers"), kit.model(m, "d_model", label=("Hidden size h", "隐藏维度 h"))),
        asks=(Ask(formula="param_count_approx", unit="",
                  prompt_en=f"{cap_first(m.name)} has L = {m.layers} layers of hidden size h = {m.d_model}. Estimate its parameters "
                            "with the rule of thumb 12·L·h² (4h² attention + 8h² MLP per layer).",
                  prompt_zh=f"{zh_name(m)}有 L = {m.layers} 层，隐藏维度 h = {m.d_model}。用经验公式 12·L·h²"
                            "（每层注意力 4h² + MLP 8h²）估算它的参数量。"),),
        conventions_en="A plain count of parameters (70B = 7e10); embeddings ignored.",
        conventions_zh="参数量为个数（70B = 7e10）；忽略词嵌入。",
        world=World(model=m),
    )


@template("memory.param_count", topic="memory", title="Exact parameters of a Llama-style config (GQA, SwiGLU, vocab)",
          title_zh="Llama 式配置的精确参数量（GQA、SwiGLU、词表）", difficulty=3, target_seconds=240)
def param_count(rng):
    m = _config(rng)
    return Spec(
        givens=_config_givens(m),
        asks=(Ask(formula="param_count", inputs=m.param_inputs(), unit="", tolerance=0.01,
                  prompt_en=f"From the config of {m.name}, count its parameters exactly (within 1 %).",
                  prompt_zh=f"根据{zh_name(m)}的配置，精确计算它的参数量（误差 1% 以内）。"),),
        conventions_en=PARAM_EN + " A plain count (8B = 8e9).", conventions_zh=PARAM_ZH + "参数量为个数（8B = 8e9）。",
        world=World(model=m),
    )


@template("memory.param_count_chain", topic="memory", title="Parameters: 12·L·h² → exact count → bf16 weights",
          title_zh="参数量：12·L·h² → 精确计数 → bf16 权重", difficulty=2, target_seconds=360,
          source="kaplan2020, touvron2023")
def param_count_chain(rng):
    m = _config(rng)
    return Spec(
        scenario_en=f"The config of {m.name} is on the whiteboard; the interviewer wants its size three ways.",
        scenario_zh=f"白板上写着{zh_name(m)}的配置；面试官要你用三种方式说出它的规模。",
        givens=_config_givens(m),
        asks=(Ask(formula="param_count_approx", inputs={"layers": m.layers, "d_model": m.d_model}, unit="",
                  prompt_en="First the rule of thumb: 12·L·h² parameters?",
                  prompt_zh="先用经验公式：12·L·h² 是多少个参数？"),
              Ask(formula="param_count", inputs=m.param_inputs(), unit="", tolerance=0.01,
                  prompt_en="Now exactly (within 1 %), with grouped-query attention, the gated MLP and the vocabulary: how many "
                            "parameters?",
                  prompt_zh="再精确计算（含分组查询注意力、门控 MLP 和词表，误差 1% 以内）：参数量是多少？"),
              Ask(formula="weights_bytes", inputs={"phi": Ref(1), "bytes_per_param": 2}, unit="GB",
                  prompt_en="How much memory do those weights take in bf16 (2 B each), in GB?",
                  prompt_zh="这些权重以 bf16（每个 2 B）存放占多少显存（GB）？")),
        conventions_en=PARAM_EN + " Counts are plain numbers (8B = 8e9); GB = 10⁹ B.",
        conventions_zh=PARAM_ZH + "参数量为个数（8B = 8e9）；GB = 10⁹ B。",
        world=World(model=m),
    )
