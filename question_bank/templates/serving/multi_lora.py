"""Multi-LoRA serving (Punica, S-LoRA): one adapter's bytes, then what a batch of many tenants' adapters costs a
memory-bound decode step.  The models have multi-head attention (Llama-2), so q, k, v and o are all d × d."""

from __future__ import annotations

from ... import kit, models
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..model_params import nominal_phi

MHA = ("llama2_7b", "llama2_13b")
CONV_EN = ("Adapters on q, k, v and o of every layer, stored in bf16 (2 B per element). A decode step reads the bf16 "
           "base weights once, every sequence's KV cache, and each distinct adapter once (a batched LoRA kernel). "
           "GB = 10⁹ B, MB = 10⁶ B.")
CONV_ZH = ("适配器加在每层的 q、k、v、o 上，以 bf16 存储（每元素 2 B）。一个 decode 步读一次 bf16 基座权重、每条序列的 "
           "KV Cache，以及每个不同的适配器各一次（批量 LoRA kernel）。GB = 10⁹ B，MB = 10⁶ B。")


@template("serving.multi_lora_chain", topic="serving", title="LoRA adapter bytes → a multi-LoRA decode step's reads",
          title_zh="LoRA 适配器字节数 → 多 LoRA decode 步的读取量", difficulty=2, target_seconds=150,
          source="punica2023, slora2023")
def multi_lora_chain(rng):
    m = models.get(rng.choice(MHA))
    weights = 2 * nominal_phi(m)
    # drawn again until the adapters are at least 8 % of the step's reads: leaving them out is then a mistake
    while True:
        rank = rng.choice((8, 16, 32, 64))
        batch = rng.choice((32, 64, 128, 256))
        distinct = rng.choice([d for d in (4, 8, 16, 32, 64) if 4 * d <= batch])
        kv = weights * rng.choice((0.1, 0.2, 0.25, 0.3, 0.5))
        adapters = distinct * m.layers * 4 * rank * 2 * m.d_model * 2
        if adapters >= 0.08 * (weights + kv + adapters):
            break
    inputs = {"layers": m.layers, "d_in": m.d_model, "d_out": m.d_model, "rank": rank, "n_matrices": 4,
              "bytes_per_elem": 2}
    return Spec(
        scenario_en=f"{m.name} is served with rank-{rank} LoRA adapters, one per tenant; a batch of {batch} sequences "
                    f"uses {distinct} different adapters.",
        scenario_zh=f"{m.name} 以秩为 {rank} 的 LoRA 适配器服务多个租户，每个租户一个；一个 {batch} 条序列的 batch 用到 "
                    f"{distinct} 个不同的适配器。",
        givens=(given("model", "Model", "模型", m.name), kit.model(m, "layers"), kit.model(m, "d_model", name="d_in"),
                given("rank", "LoRA rank r", "LoRA 的秩 r", rank),
                given("weight_bytes", "Base weights (bf16)", "基座权重（bf16）", weights, "bytes", "GB"),
                given("kv_bytes", "KV cache read per step", "每步读取的 KV Cache", kv, "bytes", "GB"),
                given("distinct_adapters", "Distinct adapters in the batch", "batch 中不同的适配器数", distinct)),
        asks=(Ask(formula="lora_adapter_bytes", unit="MB", inputs=inputs,
                  prompt_en="How many bytes does one adapter take, in MB?",
                  prompt_zh="一个适配器占多少字节（MB）？"),
              Ask(formula="multi_lora_step_bytes", unit="GB", inputs={"weight_bytes": weights, "kv_bytes": kv,
                                                             "distinct_adapters": distinct, "adapter_bytes": Ref(0)},
                  extras={"batch": batch},
                  prompt_en="How many bytes does one decode step of the batch read, in GB?",
                  prompt_zh="这个 batch 的一个 decode 步要读多少字节（GB）？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m),
    )
