"""Post-training memory templates: LoRA, QLoRA and the models PPO / GRPO hold.

Post-training memory templates: LoRA's trainable parameters and the static memory of LoRA training
(a frozen bf16 base + 16 bytes per adapter parameter), QLoRA's NF4 base, and PPO/GRPO's models in memory.
LoRA's models have multi-head attention (Llama-2 7B / 13B), so q, k, v and o are all d × d.
"""

from __future__ import annotations

from engine import convention_set as cs
from engine import formulas
from engine.langs import EN, ZH
from engine.messages import pick
from engine.units import fmt_quantity

from ... import hardware, kit, models
from ...spec import Ask, Ref, Spec, World, given, settled_by_hand
from ...template import convention, template
from ..chip_givens import an
from ..model_params import ROUND_PHI_B, nominal_phi, phi_text

# multi-head attention (d × d projections); GPT-3 175B is the LoRA paper's own model (Hu et al. 2021, Table 4)
MHA = ("llama2_7b", "llama2_13b", "gpt3_175b")
CONV_EN = ("Conventions: the adapted attention projections are each d × d here (multi-head attention); "
           "adapter weights train with mixed-precision Adam (16 B per parameter); GB = 1e9 B.")
CONV_ZH = "约定：被适配的注意力投影在这里都是 d × d（多头注意力）；适配器用混合精度 Adam 训练（每参数 16 B）；GB = 1e9 B。"


# which matrices are adapted: the sets of attention projections the LoRA paper compares (Hu et al. 2021, Table 5)
TARGETS = ((1, "q", "q"), (2, "q and k", "q 和 k"), (2, "q and v", "q 和 v"), (4, "q, k, v and o", "q、k、v、o"))
RANKS = (4, 8, 16, 32, 64, 128, 256)


def _setup(rng):
    m = models.get(rng.choice(MHA))
    n_mat, en, zh = rng.choice(TARGETS)
    return m, rng.choice(RANKS), n_mat, en, zh


def _givens(m, r):
    return (given("model", "Model", "模型", m.name), kit.model(m, "layers"),
            kit.model(m, "d_model", name="d_in"), given("rank", "LoRA rank r", "LoRA 的秩 r", r))


def _inputs(m, r, n_mat):
    return {"layers": m.layers, "d_in": m.d_model, "d_out": m.d_model, "rank": r, "n_matrices": n_mat}


@template("memory.lora_params", topic="memory", title="Trainable parameters of a LoRA adapter",
          title_zh="LoRA 适配器的可训练参数量", difficulty=2, target_seconds=120, source="hu2021")
def lora_params(rng):
    m, r, n_mat, t_en, t_zh = _setup(rng)
    return Spec(
        givens=_givens(m, r),
        asks=(Ask(formula="lora_params", unit="", inputs=_inputs(m, r, n_mat),
                  prompt_en=f"{m.name} ({m.layers} layers, hidden size {m.d_model:,}) is fine-tuned with rank-{r} "
                            f"LoRA on {t_en} of every layer. How many parameters does the adapter train?",
                  prompt_zh=f"{m.name}（{m.layers} 层，隐藏维度 {m.d_model:,}）用秩为 {r} 的 LoRA 微调，适配每层的 {t_zh}。"
                            "适配器要训练多少个参数？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m),
    )


@template("memory.lora_chain", topic="memory", title="LoRA: adapter parameters → training memory",
          title_zh="LoRA：适配器参数量 → 训练显存", difficulty=3, target_seconds=240, source="hu2021, dettmers2023")
def lora_chain(rng):
    m, r, n_mat, t_en, t_zh = _setup(rng)
    phi = nominal_phi(m)
    return Spec(
        scenario_en=f"{m.name} (Φ = {phi_text(phi)}, {m.layers} layers, hidden size {m.d_model:,}) is fine-tuned "
                    f"with rank-{r} LoRA on {t_en} of every layer; the base stays frozen in bf16.",
        scenario_zh=f"{m.name}（Φ = {phi_text(phi)}，{m.layers} 层，隐藏维度 {m.d_model:,}）用秩为 {r} 的 LoRA 微调，"
                    f"适配每层的 {t_zh}；基座冻结，保持 bf16。",
        givens=_givens(m, r) + (given("phi", "Parameters Φ", "参数量 Φ", phi, "count", "params"),),
        asks=(Ask(formula="lora_params", unit="", inputs=_inputs(m, r, n_mat),
                  prompt_en="How many parameters does the adapter train?",
                  prompt_zh="适配器要训练多少个参数？"),
              Ask(formula="lora_train_bytes", unit="GB",
                  inputs={"phi": phi, "phi_trainable": Ref(0), "bytes_per_frozen_param": 2},
                  prompt_en="What static memory (weights, gradients, optimizer state) does the training hold, in GB, "
                            "activations aside?",
                  prompt_zh="不计激活，训练的静态显存（权重、梯度、优化器状态）是多少 GB？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m),
    )


# --------------------------------------------------------------------------- #
# QLoRA: the frozen base in NF4 with double quantisation (Dettmers et al. 2023)

QLORA_MODELS = ("llama2_13b", "llama2_70b", "llama31_8b", "llama31_70b", "qwen3_8b", "qwen3_32b", "llama3_405b")
QLORA_ROUND_B = tuple(b for b in ROUND_PHI_B if 3 <= b <= 180)  # a dense model fine-tuned on one node or less
NF4_BITS = 4.127  # 4 + 8/64 + 32/(64·256): the QLoRA paper's figure
NF4_EN = ("QLoRA stores the frozen base in 4-bit NF4, in blocks of 64 weights; each block's scale constant is itself "
          "quantised to 8 bits, with one fp32 constant per 256 blocks (double quantisation).")
NF4_ZH = "QLoRA 把冻结的基座存为 4 比特 NF4，每 64 个权重一块；每块的缩放常数本身再量化为 8 比特，每 256 块共用一个 fp32 常数（双重量化）。"
QLORA_CONV_EN = NF4_EN + " GB = 1e9 B; activations and buffers aside."
QLORA_CONV_ZH = NF4_ZH + "GB = 1e9 B；不计激活值和缓冲区。"
NF4_LINES = (f"bits per weight = 4 + 8/64 + 32/(64 × 256) = {NF4_BITS}",)
NF4_LINES_ZH = (f"每个权重的比特数 = 4 + 8/64 + 32/(64 × 256) = {NF4_BITS}",)


# GPUs a QLoRA run fits on (the paper's 65B fine-tune ran on one 48 GB GPU): the 4-bit base takes at most 80% of
# one GPU's memory, or of an 8-GPU node's when no single GPU holds it
QLORA_GPUS = ("l40s", "a100_40", "a100_80", "h100_sxm", "h200", "b200")


def _qlora_gpu(rng, phi: float) -> tuple:
    """(GPU, how many, the hardware in English, in Chinese): one GPU the 4-bit base fits on, else an 8-GPU node."""
    base = phi * NF4_BITS / 8
    one = [k for k in QLORA_GPUS if base <= 0.8 * hardware.get(k).memory]
    if one:
        gpu = hardware.get(rng.choice(one))
        return gpu, 1, f"one {gpu.name}", f"一张 {gpu.name} "
    gpu = hardware.get(rng.choice([k for k in QLORA_GPUS if base <= 0.8 * 8 * hardware.get(k).memory]))
    return gpu, 8, f"an 8-GPU {gpu.name} node", f"一台 8 卡 {gpu.name} 节点"


# 4 bits instead of 4.127 is 3 % off: the band is narrower, so the slip this question is about is never "Correct"
NF4_TOLERANCE = 0.015


def _nf4_givens() -> tuple:
    return (given("block", "NF4 block size", "NF4 块大小", 64),
            given("constants", "Block constants", "块常数", "8-bit, one fp32 constant per 256 blocks",
                  value_zh="8 比特，每 256 块一个 fp32 常数"))


@template("memory.qlora_base", topic="memory", title="QLoRA: memory of the 4-bit base",
          title_zh="QLoRA：4 比特基座的显存", difficulty=3, target_seconds=150, source="dettmers2023")
def qlora_base(rng):
    i = rng.randrange(len(QLORA_MODELS) + len(QLORA_ROUND_B))
    if i < len(QLORA_MODELS):
        m = models.get(QLORA_MODELS[i])
        name, name_zh, phi, phi_given = m.name, m.name, nominal_phi(m), kit.model(m, "phi")
    else:
        phi = QLORA_ROUND_B[i - len(QLORA_MODELS)] * 1e9
        name, name_zh = f"{an(phi_text(phi))}-parameter dense model", f"一个 {phi_text(phi)} 参数的稠密模型"
        phi_given = given("phi", "Parameters Φ", "参数量 Φ", phi, "count", "params")
    gpu, n, hw_en, hw_zh = _qlora_gpu(rng, phi)
    world = World(model=m, gpu=gpu, n_gpus=n) if i < len(QLORA_MODELS) else World(phi=phi, gpu=gpu, n_gpus=n)
    return Spec(
        givens=(phi_given,) + _nf4_givens(),
        asks=(Ask(formula="qlora_base_bytes", unit="GB", tolerance=NF4_TOLERANCE, inputs={"phi": phi, "bits_per_weight": NF4_BITS},
                  explanation=NF4_LINES, explanation_zh=NF4_LINES_ZH,
                  prompt_en=f"{name[:1].upper() + name[1:]} (Φ = {phi_text(phi)}) is fine-tuned with QLoRA on "
                            f"{hw_en}. How many GB does its frozen base take in GPU memory?",
                  prompt_zh=f"在{hw_zh}上用 QLoRA 微调{'' if name_zh.startswith('一') else ' '}{name_zh}"
                            f"（Φ = {phi_text(phi)}）。冻结的基座占多少 GB 显存？"),),
        conventions_en=QLORA_CONV_EN, conventions_zh=QLORA_CONV_ZH,
        world=world,
    )


@template("memory.qlora_chain", topic="memory", title="QLoRA: 4-bit base → adapter parameters → training memory",
          title_zh="QLoRA：4 比特基座 → 适配器参数量 → 训练显存", difficulty=3, target_seconds=300,
          source="dettmers2023, hu2021")
def qlora_chain(rng):
    m, r, n_mat, t_en, t_zh = _setup(rng)
    phi = nominal_phi(m)
    gpu, n, hw_en, hw_zh = _qlora_gpu(rng, phi)
    return Spec(
        scenario_en=f"{m.name} (Φ = {phi_text(phi)}, {m.layers} layers, hidden size {m.d_model:,}) is fine-tuned with "
                    f"QLoRA on {hw_en}: the base frozen in NF4, rank-{r} LoRA adapters on {t_en} of every layer, "
                    "trained in bf16 with mixed-precision Adam.",
        scenario_zh=f"在{hw_zh}上用 QLoRA 微调 {m.name}（Φ = {phi_text(phi)}，{m.layers} 层，隐藏维度 {m.d_model:,}）：基座冻结为 NF4，"
                    f"每层的 {t_zh} 上加秩为 {r} 的 LoRA 适配器，用 bf16 混合精度 Adam 训练。",
        givens=_givens(m, r) + (kit.model(m, "phi"),) + _nf4_givens(),
        asks=(Ask(formula="qlora_base_bytes", unit="GB", tolerance=NF4_TOLERANCE, inputs={"phi": phi, "bits_per_weight": NF4_BITS},
                  explanation=NF4_LINES, explanation_zh=NF4_LINES_ZH,
                  prompt_en="How many GB does the frozen NF4 base take?",
                  prompt_zh="冻结的 NF4 基座占多少 GB？"),
              Ask(formula="lora_params", unit="", inputs=_inputs(m, r, n_mat),
                  prompt_en="How many parameters do the adapters train?",
                  prompt_zh="适配器要训练多少个参数？"),
              Ask(formula="lora_train_bytes", unit="GB",
                  inputs={"phi": phi, "phi_trainable": Ref(1), "bytes_per_frozen_param": NF4_BITS / 8},
                  explanation=(f"bytes per frozen parameter = {NF4_BITS} bits ÷ 8 = {NF4_BITS / 8:.4g} B",),
                  explanation_zh=(f"每个冻结参数的字节数 = {NF4_BITS} 比特 ÷ 8 = {NF4_BITS / 8:.4g} B",),
                  takeaway="QLoRA's memory is the 4-bit base plus 16 bytes per adapter parameter: the adapters' "
                           "training state is a rounding error next to the base, so quantising the base is what "
                           "lets a large model fine-tune on one GPU.",
                  takeaway_zh="QLoRA 的显存 = 4 比特基座 + 每个适配器参数 16 字节：适配器的训练状态与基座相比可以忽略，"
                              "所以量化基座才是大模型能在一张卡上微调的原因。",
                  prompt_en="What static memory (base, adapter weights, gradients and optimizer state) does the "
                            "training hold, in GB, activations aside?",
                  prompt_zh="不计激活，训练的静态显存（基座、适配器的权重、梯度和优化器状态）是多少 GB？")),
        conventions_en=CONV_EN + " " + NF4_EN, conventions_zh=CONV_ZH + NF4_ZH,
        world=World(model=m, gpu=gpu, n_gpus=n),
    )


# --------------------------------------------------------------------------- #
# RL post-training: PPO's four models (InstructGPT) against GRPO's policy + reference (DeepSeekMath, R1)

# (policy, reward model): the critic is initialised from the reward model (InstructGPT §3.5), the reference is a
# frozen copy of the initial policy.  (InstructGPT's own 175B policy with a 6B reward model is left out: its critic
# is 3% of the state, so counting it frozen could not be told from the right answer.)
RL_FAMILIES = (("llama31_8b", "llama31_70b"), ("llama3_8b", "llama3_70b"), ("qwen3_8b", "qwen3_32b"),
               ("llama2_7b", "llama2_13b", "llama2_70b"), ("mistral_7b",))
# open 8B reward models used across families (Skywork-Reward-Llama-3.1-8B and the like)
RM_8B = ("llama31_8b", "llama3_8b", "qwen3_8b")
# (policy, reward model): one of the policy's family, or an 8B one, no larger than the policy
RL_SETUPS = tuple(dict.fromkeys(
    (p, r) for fam in RL_FAMILIES for i, p in enumerate(fam)
    for r in fam[:i + 1] + tuple(k for k in RM_8B if models.get(k).params <= models.get(p).params)))
PPO_TASKS = (("helpful chat answers", "更有用的对话回答"), ("instruction following", "更好的指令遵循"),
             ("summaries", "更好的摘要"), ("harmless answers", "更无害的回答"))
# (task, what its rule-based reward checks)
GRPO_TASKS = (("math problems", "数学题", "the final answer is checked", "检查最终答案"),
              ("coding problems", "编程题", "the unit tests are run", "运行单元测试"),
              ("logic puzzles", "逻辑谜题", "the solution is verified", "验证解答"))
RL_CONV_EN = ("Static memory only: a model that trains holds 16 B per parameter (bf16 weights and gradients, fp32 "
              "master weights, Adam m and v); a frozen model holds its bf16 weights (2 B per parameter). Activations, "
              "the rollout's KV cache and buffers aside; GB = 1e9 B.")
RL_CONV_ZH = ("只算静态显存：训练中的模型每参数 16 B（bf16 权重和梯度、fp32 主权重、Adam 的 m 和 v）；冻结的模型只存 bf16 "
              "权重（每参数 2 B）。不计激活值、rollout 的 KV Cache 和缓冲区；GB = 1e9 B。")


def rl_conv(lang: str) -> str:
    """:data:`RL_CONV_EN` / :data:`RL_CONV_ZH` under the learner's bytes per parameter of a model that trains (the
    problem states that recipe after it)."""
    value = convention("bytes_per_param")
    if value == cs.BY_KEY["bytes_per_param"].default:
        return pick(lang, RL_CONV_EN, RL_CONV_ZH)
    value = cs.number_text("bytes_per_param", value)
    return pick(lang, f"Static memory only: a model that trains holds {value} B per parameter (its training state, "
                      "below); a frozen model holds its bf16 weights (2 B per parameter). Activations, the rollout's "
                      "KV cache and buffers aside; GB = 1e9 B.",
                f"只算静态显存：训练中的模型每参数 {value} B（训练状态见下）；冻结的模型只存 bf16 权重（每参数 2 B）。"
                "不计激活值、rollout 的 KV Cache 和缓冲区；GB = 1e9 B。")
PPO_EN = ("PPO in the InstructGPT recipe: the policy trains, the critic (value model) is initialised from the reward "
          "model and trains with it, the reference is a frozen copy of the initial policy (for the KL penalty), the "
          "reward model is frozen.")
PPO_ZH = ("InstructGPT 式的 PPO：策略模型在训练；评论家（价值模型）从奖励模型初始化，并与策略模型一起训练；参考模型是初始策略的"
          "冻结副本（用于 KL 惩罚）；奖励模型冻结。")


def _rl_setup(rng):
    """(policy model, its Φ, the reward model's base model, how the text names it, its Φ)."""
    pol_key, rm_key = rng.choice(RL_SETUPS)
    pol, rm = models.get(pol_key), models.get(rm_key)
    return pol, nominal_phi(pol), rm, f"a reward model fine-tuned from {rm.name}", f"从 {rm.name} 微调出的奖励模型", \
        nominal_phi(rm)


POLICY_PHI = ("Policy parameters Φ_policy", "策略模型参数量 Φ_policy")


def _rl_givens(pol, rm) -> tuple:
    return (given("policy", "Policy", "策略模型", pol.name),
            kit.model(pol, "phi", name="phi_policy", label=POLICY_PHI),
            kit.model(rm, "phi", name="phi_reward", label=("Reward model parameters Φ_reward", "奖励模型参数量 Φ_reward")))


def _ppo_inputs(phi, rm_phi) -> dict:
    return {"phi_policy": phi, "phi_critic": rm_phi, "phi_reference": phi, "phi_reward": rm_phi}


PPO_LINES = ("Φ_critic = Φ_reward (the critic starts from the reward model); Φ_ref = Φ_policy (a copy of the initial "
             "policy)",)
PPO_LINES_ZH = ("Φ_critic = Φ_reward（评论家从奖励模型初始化）；Φ_ref = Φ_policy（初始策略的副本）",)


def _gb(v: float) -> str:
    return fmt_quantity(v, "bytes", unit="GB")


def _ppo_takeaway(phi: float, rm_phi: float) -> tuple[str, str]:
    """What the critic costs in this problem: its own Φ_critic at 16 B, against the total (computed, not asserted)."""
    total = formulas.get("ppo_static_bytes").evaluate(**_ppo_inputs(phi, rm_phi))
    critic = 16 * rm_phi
    share = f"{100 * critic / total:.0f}%"
    size_en = "as large as the policy" if rm_phi == phi else f"{phi_text(rm_phi)} against the policy's {phi_text(phi)}"
    size_zh = "与策略模型一样大" if rm_phi == phi else f"{phi_text(rm_phi)}，策略模型为 {phi_text(phi)}"
    return (f"PPO trains two models and runs two more: the critic (Φ_critic = {size_en}) holds 16 × Φ_critic = "
            f"{_gb(critic)}, {share} of the {_gb(total)}: that is what GRPO removes.",
            f"PPO 训练两个模型、再跑两个：评论家（Φ_critic = {size_zh}）占 16 × Φ_critic = {_gb(critic)}，"
            f"是 {_gb(total)} 的 {share}：GRPO 去掉的正是它。")


@template("memory.ppo_static", topic="memory", title="PPO's four models: static memory",
          title_zh="PPO 的四个模型：静态显存", difficulty=3, target_seconds=150, source="ouyang2022")
def ppo_static(rng):
    pol, phi, rm, rm_en, rm_zh, rm_phi = _rl_setup(rng)
    task_en, task_zh = rng.choice(PPO_TASKS)
    take_en, take_zh = _ppo_takeaway(phi, rm_phi)
    return Spec(
        givens=_rl_givens(pol, rm),
        asks=(Ask(formula="ppo_static_bytes", unit="GB", inputs=_ppo_inputs(phi, rm_phi),
                  explanation=PPO_LINES, explanation_zh=PPO_LINES_ZH, takeaway=take_en, takeaway_zh=take_zh,
                  prompt_en=f"{pol.name} (Φ = {phi_text(phi)}) is aligned with PPO for {task_en}, against "
                            f"{rm_en} (Φ = {phi_text(rm_phi)}). How much static memory do the four models hold "
                            "together, in GB?",
                  prompt_zh=f"用 PPO 对齐 {pol.name}（Φ = {phi_text(phi)}），目标是{task_zh}，奖励来自{rm_zh}"
                            f"（Φ = {phi_text(rm_phi)}）。四个模型合计的静态显存是多少 GB？"),),
        conventions_en=PPO_EN + " " + rl_conv(EN), conventions_zh=PPO_ZH + rl_conv(ZH),
        world=(World(model=pol), World(model=rm)),
    )


def _reward_choice(rng, rm_en, rm_zh, rm_phi):
    """GRPO's task and reward: rule-based (a checker, DeepSeek-R1) or the learned reward model (DeepSeekMath):
    (Φ_reward, task, reward, in English and Chinese)."""
    task_en, task_zh, rule_en, rule_zh = rng.choice(GRPO_TASKS)
    if rng.random() < 0.5:
        return 0.0, task_en, task_zh, f"a rule-based reward ({rule_en}; no reward model)", \
            f"基于规则的奖励（{rule_zh}，不需要奖励模型）"
    return rm_phi, task_en, task_zh, f"{rm_en} (Φ = {phi_text(rm_phi)})", f"{rm_zh}（Φ = {phi_text(rm_phi)}）"


GRPO_EN = ("GRPO scores each sampled response against the mean reward of its group, so there is no critic; the "
           "reference is a frozen copy of the initial policy (for the KL penalty).")
GRPO_ZH = "GRPO 用同组回答的平均奖励作为每个回答的基线，因此没有评论家；参考模型是初始策略的冻结副本（用于 KL 惩罚）。"


@template("memory.grpo_static", topic="memory", title="GRPO: static memory without a critic",
          title_zh="GRPO：没有评论家的静态显存", difficulty=3, target_seconds=120, source="shao2024")
def grpo_static(rng):
    pol, phi, rm, rm_en, rm_zh, rm_phi = _rl_setup(rng)
    reward, task_en, task_zh, r_en, r_zh = _reward_choice(rng, rm_en, rm_zh, rm_phi)
    return Spec(
        givens=(given("policy", "Policy", "策略模型", pol.name),
                kit.model(pol, "phi", name="phi_policy", label=POLICY_PHI),
                given("reward", "Reward", "奖励", "rule-based" if not reward else f"reward model, {phi_text(reward)}",
                      value_zh="基于规则" if not reward else f"奖励模型，{phi_text(reward)}")),
        asks=(Ask(formula="grpo_static_bytes", unit="GB",
                  inputs={"phi_policy": phi, "phi_reference": phi, "phi_reward": reward},
                  prompt_en=f"{pol.name} (Φ = {phi_text(phi)}) is trained with GRPO on {task_en}, with {r_en}. "
                            "How much static memory do the models hold together, in GB?",
                  prompt_zh=f"用 GRPO 在{task_zh}上训练 {pol.name}（Φ = {phi_text(phi)}），使用{r_zh}。"
                            "所有模型合计的静态显存是多少 GB？"),),
        conventions_en=GRPO_EN + " " + rl_conv(EN), conventions_zh=GRPO_ZH + rl_conv(ZH),
        world=(World(model=pol), World(model=rm)),
    )


def _grpo_takeaway(phi: float, rm_phi: float, reward: float, ppo: float, grpo: float, gpu) -> tuple[str, str]:
    """What moving from PPO to GRPO saves here, in the problem's own quantities (Φ_critic, Φ_reward, GPUs)."""
    gpus = formulas.get("min_gpus")
    n_ppo, n_grpo = (int(gpus.evaluate(total_bytes=t, gpu_bytes=gpu.memory)) for t in (ppo, grpo))
    rm_en = (f" and the rule-based reward drops the reward model's 2 × Φ_reward = {_gb(2 * rm_phi)}" if not reward
             else "")
    rm_zh = f"，基于规则的奖励还去掉了奖励模型的 2 × Φ_reward = {_gb(2 * rm_phi)}" if not reward else ""
    return (f"GRPO drops the critic, 16 × Φ_critic = {_gb(16 * rm_phi)} (Φ_critic = Φ_reward = {phi_text(rm_phi)}, "
            f"not the policy's {phi_text(phi)}){rm_en}: {_gb(ppo)} on {n_ppo} GPUs becomes {_gb(grpo)} on {n_grpo}.",
            f"GRPO 去掉了评论家，16 × Φ_critic = {_gb(16 * rm_phi)}（Φ_critic = Φ_reward = {phi_text(rm_phi)}，"
            f"而不是策略模型的 {phi_text(phi)}）{rm_zh}：{n_ppo} 张卡上的 {_gb(ppo)} 变成 {n_grpo} 张卡上的 {_gb(grpo)}。")


# GPUs whose memory the static state is sharded over (ZeRO-3 / FSDP): 80 GB and 141 GB parts
RL_GPUS = ("h100_sxm", "h200", "b200")


@template("memory.rl_memory_chain", topic="memory", title="RL post-training: PPO's four models vs GRPO → GPUs",
          title_zh="RL 后训练：PPO 的四个模型对比 GRPO → GPU 数", difficulty=3, target_seconds=360,
          source="ouyang2022, shao2024")
def rl_memory_chain(rng):
    while True:
        pol, phi, rm, rm_en, rm_zh, rm_phi = _rl_setup(rng)
        gpu = hardware.get(rng.choice(RL_GPUS))
        reward, task_en, task_zh, r_en, r_zh = _reward_choice(rng, rm_en, rm_zh, rm_phi)
        ppo = formulas.get("ppo_static_bytes").evaluate(**_ppo_inputs(phi, rm_phi))
        grpo_in = {"phi_policy": phi, "phi_reference": phi, "phi_reward": reward}
        grpo = formulas.get("grpo_static_bytes").evaluate(**grpo_in)
        fits = [{"total_bytes": t, "gpu_bytes": gpu.memory} for t in (ppo, grpo)]
        if all(settled_by_hand("min_gpus", f) for f in fits) and ppo <= 64 * gpu.memory:
            break
    mem = fmt_quantity(gpu.memory, "bytes", unit="GB")
    ppo_take, grpo_take = _ppo_takeaway(phi, rm_phi), _grpo_takeaway(phi, rm_phi, reward, ppo, grpo, gpu)
    return Spec(
        scenario_en=f"A team post-trains {pol.name} (Φ = {phi_text(phi)}) with reinforcement learning on {gpu.name} "
                    f"GPUs ({mem} each) for {task_en} and compares PPO, rewarded by {rm_en} (Φ = "
                    f"{phi_text(rm_phi)}), with GRPO, rewarded by {r_en}. Each recipe's static state is fully "
                    "sharded over its GPUs (ZeRO-3 / FSDP).",
        scenario_zh=f"一个团队在 {gpu.name}（每卡 {mem}）上用强化学习后训练 {pol.name}（Φ = {phi_text(phi)}），任务是{task_zh}，"
                    "比较两种做法："
                    f"PPO，奖励来自{rm_zh}（Φ = {phi_text(rm_phi)}）；GRPO，使用{r_zh}。每种做法的静态状态都完全"
                    "切分到各自的 GPU 上（ZeRO-3 / FSDP）。",
        givens=_rl_givens(pol, rm) + (
            given("grpo_reward", "GRPO reward", "GRPO 的奖励", "rule-based" if not reward else "the same reward model",
                  value_zh="基于规则" if not reward else "同一个奖励模型"),
            kit.chip(gpu, "memory")),
        asks=(Ask(formula="ppo_static_bytes", unit="GB", inputs=_ppo_inputs(phi, rm_phi),
                  explanation=PPO_LINES, explanation_zh=PPO_LINES_ZH, takeaway=ppo_take[0], takeaway_zh=ppo_take[1],
                  prompt_en="How much static memory do PPO's four models hold, in GB?",
                  prompt_zh="PPO 的四个模型合计占多少 GB 静态显存？"),
              Ask(formula="min_gpus", integer=True, unit="", inputs={"total_bytes": Ref(0), "gpu_bytes": gpu.memory},
                  prompt_en=f"What is the fewest {gpu.name} GPUs whose memory holds it?",
                  prompt_zh=f"至少需要多少张 {gpu.name} 才放得下？"),
              Ask(formula="grpo_static_bytes", unit="GB", inputs=grpo_in,
                  prompt_en="How much static memory does GRPO hold, in GB?",
                  prompt_zh="GRPO 合计占多少 GB 静态显存？"),
              Ask(formula="min_gpus", integer=True, unit="", inputs={"total_bytes": Ref(2), "gpu_bytes": gpu.memory},
                  takeaway=grpo_take[0], takeaway_zh=grpo_take[1],
                  prompt_en=f"And the fewest {gpu.name} GPUs for GRPO?",
                  prompt_zh=f"GRPO 至少需要多少张 {gpu.name}？")),
        conventions_en=PPO_EN + " " + GRPO_EN + " " + rl_conv(EN), conventions_zh=PPO_ZH + GRPO_ZH + rl_conv(ZH),
        world=(World(model=pol, gpu=gpu), World(model=rm)),
    )
