"""What a count counts: the noun of a count question and of a count answer.

A count is a plain number (``16``), so every count reads on every count question; but ``16 GPUs`` typed for
"how many requests are in flight?" answers another question, and grading it would record a mistake the learner
did not make.  So a count question declares its noun (:data:`FORMULA_NOUNS`: one row per count formula, since
the formula's result is what the question counts), the reader works out the noun of what was typed
(:func:`noun_of`: ``16 requests``, ``8 GPUs/node × 512 nodes``), and the answer kind refuses an answer whose noun is
another one (engine.kinds).  An answer with no noun (``16``), with the question's noun, or whose nouns cancel reads
as before.

engine.units builds its count units from :data:`SPELLINGS`, so this module imports nothing of the engine at load.
"""

from __future__ import annotations

from enum import StrEnum


class Noun(StrEnum):
    """A thing a count question counts (its value is what ``--json`` writes)."""

    PARAMS = "params"
    TOKENS = "tokens"
    REQUESTS = "requests"
    SEQUENCES = "sequences"
    GPUS = "GPUs"
    NODES = "nodes"
    HOSTS = "hosts"
    EXPERTS = "experts"
    RACKS = "racks"
    WAVES = "waves"
    STEPS = "steps"
    MICRO_BATCHES = "micro-batches"
    LAYERS = "layers"
    BLOCKS = "blocks"
    REPLICAS = "replicas"
    INSTANCES = "instances"
    HEADS = "heads"
    # what a problem's givens count besides (engine.formulas.inputs declares what each input counts)
    STAGES = "stages"
    PROMPTS = "prompts"
    RESPONSES = "responses"
    ADAPTERS = "adapters"
    SMS = "SMs"
    THREAD_BLOCKS = "CTAs"  # thread blocks
    ELEMENTS = "elements"
    KERNELS = "kernels"
    BUCKETS = "buckets"
    MATRICES = "matrices"
    PORTS = "ports"
    TIERS = "tiers"
    VERSIONS = "versions"
    SHARDS = "shards"
    LINKS = "links"
    PLANES = "planes"


class NotCounted(StrEnum):
    """A count-kind input that counts no thing a learner would name after its number (engine.formulas.inputs)."""

    SIZE = "size"  # a dimension, width or length: hidden size, head dimension, rank, bits per weight
    FACTOR = "factor"  # a ratio written as a number: PUE, oversubscription, a coefficient of variation
    DURATION = "duration"  # a time given as a number of hours or years
    INDEX = "index"  # a position: the pipeline stage counted from 1
    SWITCH = "switch"  # a convention's choice or a 0/1 flag


# How each noun is written, both languages (the first of each is how it is shown in English).  A Chinese
# classifier alone (个, 条, 台, 次, 块: ``206 条``) says no noun: it is read as a count of whatever is asked.
SPELLINGS: dict[Noun, tuple[str, ...]] = {
    Noun.PARAMS: ("params", "param", "parameter", "parameters", "参数", "个参数"),
    Noun.TOKENS: ("tokens", "token", "tok", "词元"),
    Noun.REQUESTS: ("requests", "request", "req", "reqs", "请求"),
    Noun.SEQUENCES: ("sequences", "sequence", "seq", "seqs", "序列"),
    Noun.GPUS: ("GPUs", "GPU", "gpu", "gpus", "card", "cards", "device", "devices", "chip", "chips", "卡", "张",
                "张卡", "块卡"),
    Noun.NODES: ("nodes", "node", "server", "servers", "节点", "服务器"),
    Noun.HOSTS: ("hosts", "host", "主机"),
    Noun.EXPERTS: ("experts", "expert", "专家"),
    Noun.RACKS: ("racks", "rack", "机架", "机柜"),
    Noun.WAVES: ("waves", "wave", "波", "轮"),
    Noun.STEPS: ("steps", "step", "步"),
    Noun.MICRO_BATCHES: ("micro-batches", "micro-batch", "microbatches", "microbatch", "微批次", "微批"),
    Noun.LAYERS: ("layers", "layer", "层"),
    Noun.BLOCKS: ("blocks", "block"),
    Noun.REPLICAS: ("replicas", "replica", "副本"),
    Noun.INSTANCES: ("instances", "instance", "实例"),
    Noun.HEADS: ("heads", "head", "注意力头", "头"),
    Noun.STAGES: ("stages", "stage", "阶段", "级"),
    Noun.PROMPTS: ("prompts", "prompt"),
    Noun.RESPONSES: ("responses", "response", "回答"),
    Noun.ADAPTERS: ("adapters", "adapter", "适配器"),
    Noun.SMS: ("SMs", "SM"),
    Noun.THREAD_BLOCKS: ("CTAs", "CTA", "线程块"),
    Noun.ELEMENTS: ("elements", "element", "elems", "元素"),
    Noun.KERNELS: ("kernels", "kernel"),
    Noun.BUCKETS: ("buckets", "bucket", "桶"),
    Noun.MATRICES: ("matrices", "matrix", "矩阵"),
    Noun.PORTS: ("ports", "port", "端口"),
    Noun.TIERS: ("tiers", "tier", "层交换机"),
    Noun.VERSIONS: ("versions", "version", "版本"),
    Noun.SHARDS: ("shards", "shard", "分片"),
    Noun.LINKS: ("links", "link", "链路"),
    Noun.PLANES: ("planes", "plane", "平面", "网络平面"),
}
# How a noun is written in Chinese: its classifier after a number, and its name (``16 个请求``, "数的是请求")
ZH_WORDS: dict[Noun, tuple[str, str]] = {
    Noun.PARAMS: ("个", "参数"), Noun.TOKENS: ("个", "token"), Noun.REQUESTS: ("个", "请求"),
    Noun.SEQUENCES: ("条", "序列"), Noun.GPUS: ("个", "GPU"), Noun.NODES: ("个", "节点"), Noun.HOSTS: ("台", "主机"),
    Noun.EXPERTS: ("个", "专家"), Noun.RACKS: ("个", "机柜"), Noun.WAVES: ("", "波"), Noun.STEPS: ("", "步"),
    Noun.MICRO_BATCHES: ("个", "微批次"), Noun.LAYERS: ("", "层"), Noun.BLOCKS: ("个", "块"),
    Noun.REPLICAS: ("个", "副本"), Noun.INSTANCES: ("个", "实例"), Noun.HEADS: ("个", "注意力头"),
    Noun.STAGES: ("个", "阶段"), Noun.PROMPTS: ("个", "prompt"), Noun.RESPONSES: ("个", "回答"),
    Noun.ADAPTERS: ("个", "适配器"), Noun.SMS: ("个", "SM"), Noun.THREAD_BLOCKS: ("个", "线程块"),
    Noun.ELEMENTS: ("个", "元素"), Noun.KERNELS: ("个", "kernel"), Noun.BUCKETS: ("个", "桶"),
    Noun.MATRICES: ("个", "矩阵"), Noun.PORTS: ("个", "端口"), Noun.TIERS: ("", "层交换机"),
    Noun.VERSIONS: ("个", "版本"), Noun.SHARDS: ("个", "分片"), Noun.LINKS: ("条", "链路"),
    Noun.PLANES: ("个", "网络平面"),
}
# Chinese classifiers read between a number and its noun, and alone after a number (no noun: any count)
CLASSIFIERS: tuple[str, ...] = ("个", "块", "台", "条", "次")

# Nouns a question of the key's noun also takes: one thing, named two ways in the bank's own questions (a decode
# batch is sequences or requests; a serving replica is an instance; a fat tree connects hosts, counted as GPUs;
# each gradient-accumulation step is one micro-batch).
ALSO: dict[Noun, frozenset[Noun]] = {
    Noun.SEQUENCES: frozenset({Noun.REQUESTS}),
    Noun.REQUESTS: frozenset({Noun.SEQUENCES}),
    Noun.REPLICAS: frozenset({Noun.INSTANCES}),
    Noun.INSTANCES: frozenset({Noun.REPLICAS}),
    Noun.HOSTS: frozenset({Noun.GPUS, Noun.NODES}),
    Noun.STEPS: frozenset({Noun.MICRO_BATCHES}),
}

# What each count formula's result counts.  A formula listed with None counts no one thing (a factor, a batch
# that is sequences or tokens alike): any noun reads there.  tests/unit/test_count_nouns.py checks every count
# formula of the catalogue has a row.
FORMULA_NOUNS: dict[str, Noun | None] = {
    "min_gpus": Noun.GPUS, "gpus_for_power": Noun.GPUS, "gpus_per_rack": Noun.GPUS,
    "fat_tree_hosts": Noun.HOSTS,
    "param_count": Noun.PARAMS, "param_count_approx": Noun.PARAMS, "moe_total_params": Noun.PARAMS,
    "moe_active_params": Noun.PARAMS, "chinchilla_params": Noun.PARAMS, "fit_optimal_params": Noun.PARAMS,
    "lora_params": Noun.PARAMS,
    "chinchilla_tokens": Noun.TOKENS, "global_batch_tokens": Noun.TOKENS, "rollout_tokens": Noun.TOKENS,
    "spec_decode_tokens_per_step": Noun.TOKENS, "moe_expert_capacity": Noun.TOKENS,
    "paged_kv_waste_tokens": Noun.TOKENS, "critical_batch_exact": Noun.TOKENS, "attention_share_seq": Noun.TOKENS,
    "dp_min_batch_per_device": Noun.TOKENS,
    "concurrency": Noun.REQUESTS,
    "max_batch_fit": Noun.SEQUENCES, "max_batch_tpot": Noun.SEQUENCES, "paged_max_seqs": Noun.SEQUENCES,
    "paged_kv_blocks": Noun.BLOCKS,
    "micro_batches_for_bubble": Noun.MICRO_BATCHES, "inflight_microbatches_1f1b": Noun.MICRO_BATCHES,
    "grad_accum_steps": Noun.STEPS,
    "replicas_needed": Noun.REPLICAS, "prefill_instances": Noun.INSTANCES, "decode_instances": Noun.INSTANCES,
    "critical_batch": None, "interleaved_activation_factor": None,
    # part 4: RL, MoE at scale, TP, FSDP (a trajectory in flight is a generated sequence)
    "async_max_inflight": Noun.SEQUENCES, "experts_per_gpu": Noun.EXPERTS, "moe_distinct_experts": Noun.EXPERTS,
    "fsdp_min_tokens_per_gpu": Noun.TOKENS, "moe_critical_batch": Noun.TOKENS, "tp_max_degree": Noun.GPUS,
    # part 4: kernels, data, chunked prefill; interruptions (events) and a matrix's elements have no noun of the list
    "gemm_waves": Noun.WAVES, "vision_tokens_per_image": Noun.TOKENS, "token_budget": Noun.TOKENS,
    "expected_interruptions": None, "adafactor_state_elems": None,
}

_BY_SPELLING: dict[str, Noun] = {s: n for n, spelled in SPELLINGS.items() for s in spelled}


def spelled(word: str) -> Noun | None:
    """The noun ``word`` names (``reqs`` -> requests, ``张卡`` -> GPUs), or None."""
    return _BY_SPELLING.get(word)


def of_symbol(symbol: str) -> dict[Noun, int]:
    """The nouns a unit symbol carries, with their powers: ``GPUs/node`` is GPUs¹·nodes⁻¹, ``B/param`` params⁻¹,
    ``tok/s`` tokens¹, ``GB`` none."""
    top, _, per = symbol.partition("/")
    nouns: dict[Noun, int] = {}
    if (n := spelled(top)) is not None:
        nouns[n] = 1
    if per and (n := spelled(per)) is not None:
        nouns[n] = nouns.get(n, 0) - 1
    return {n: p for n, p in nouns.items() if p}


def accepts(asked: Noun, typed: Noun) -> bool:
    """A question counting ``asked`` reads an answer counting ``typed``."""
    return typed == asked or typed in ALSO.get(asked, frozenset())


def counted(number: str, noun: Noun) -> tuple[str, str]:
    """``16 requests`` / ``16 个请求`` (``16 个 token``, ``1 request``): a count with its noun, in English and Chinese."""
    classifier, name = ZH_WORDS[noun]
    spaced = " " if name.isascii() and classifier else ""
    english = SPELLINGS[noun][1] if number == "1" else noun.value  # the second spelling is the singular
    return f"{number} {english}", f"{number} {classifier}{spaced}{name}"


def name_zh(noun: Noun) -> str:
    """What the noun is called in Chinese after a Chinese word: spaced from it when it is a Latin word (`` GPU``)."""
    name = ZH_WORDS[noun][1]
    return f" {name}" if name.isascii() else name
