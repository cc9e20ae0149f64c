"""The data pipeline: tokens per second a training run consumes, then the storage bandwidth that feeds it.

"A 16k-GPU run at 40 % MFU on a 405B model: how many tokens/s and GB/s from storage?"  The stored bytes per
token follow the vocabulary: uint16 ids fit 65,536 entries, Llama 3's 128k needs uint32.
"""

from __future__ import annotations

from ... import hardware, kit, models
from ...spec import Ask, Ref, Spec, World, given
from ...template import convention, template
from ..model_params import nominal_phi, phi_text

RUN_MODELS = ("llama2_70b", "llama3_8b", "llama3_70b", "llama3_405b", "mistral_7b", "gpt3_175b", "qwen3_32b")
CHIPS = ("h100_sxm", "h200", "b200")
CONV_EN = ("6Φ FLOPs per training token (MFU's definition). The corpus is pre-tokenised: ids are stored as uint16 "
           "(2 B) when the vocabulary fits 65,536 entries, else uint32 (4 B); each token is read once. TFLOPS = 10¹² FLOP/s.")
CONV_ZH = ("每个训练 token 6Φ FLOPs（MFU 的定义）。语料已预分词：词表不超过 65,536 时 id 存成 uint16（2 B），否则存成 "
           "uint32（4 B）；每个 token 读一次。TFLOPS = 10¹² FLOP/s。")


@template("mfu.data_pipeline_chain", topic="mfu", title="Training tokens per second → storage read bandwidth",
          title_zh="训练每秒 token 数 → 存储读带宽", difficulty=2, target_seconds=150, source="megatron_indexed")
def data_pipeline_chain(rng):
    m = models.get(rng.choice(RUN_MODELS))
    gpu = hardware.get(rng.choice(CHIPS))
    phi = nominal_phi(m)
    n = rng.choice((1024, 2048, 4096, 8192, 16384))
    mfu = rng.choice((0.3, 0.35, 0.38, 0.4, 0.43, 0.45, 0.5))
    # uint32 ids fit every vocabulary: under the learner's convention (bytes_per_token=4) the convention sets them
    uint32 = convention("bytes_per_token") == "4"
    per_token = 2 if m.vocab <= 65536 and not uint32 else 4
    read = {"tokens_per_s": Ref(0), **({} if uint32 else {"bytes_per_token": per_token})}
    conv_en, conv_zh = (CONV_EN, CONV_ZH) if not uint32 else (
        CONV_EN.replace("ids are stored as uint16 (2 B) when the vocabulary fits 65,536 entries, else uint32 (4 B)",
                        "ids are stored as uint32 (4 B)"),
        CONV_ZH.replace("词表不超过 65,536 时 id 存成 uint16（2 B），否则存成 uint32（4 B）", "id 存成 uint32（4 B）"))
    return Spec(
        scenario_en=f"{m.name} (Φ = {phi_text(phi)}, vocabulary {m.vocab:,}) trains on {n:,} {gpu.name} GPUs at "
                    f"{mfu:.0%} MFU in bf16.",
        scenario_zh=f"{m.name}（Φ = {phi_text(phi)}，词表 {m.vocab:,}）在 {n:,} 张 {gpu.name} 上以 bf16 训练，MFU 为 {mfu:.0%}。",
        givens=(given("phi", "Parameters Φ", "参数量 Φ", phi), given("n_gpus", "GPUs", "GPU 数", n),
                kit.chip(gpu, "peak", dtype="bf16"), given("mfu", "MFU", "MFU", mfu, "ratio", "%"),
                given("vocab", "Vocabulary", "词表大小", m.vocab)),
        asks=(Ask(formula="training_tokens_per_s", unit="tok/s",
                  prompt_en="How many tokens per second must the data loader deliver?",
                  prompt_zh="数据加载器每秒必须供给多少个 token？"),
              Ask(formula="data_read_bandwidth", unit="MB/s", inputs=read,
                  prompt_en="What read bandwidth from storage does that take, in MB/s?",
                  prompt_zh="这需要存储提供多大的读带宽（MB/s）？")),
        conventions_en=conv_en, conventions_zh=conv_zh,
        world=World(model=m, gpu=gpu, precision="bf16"),
    )
