"""The bank's topics, in the order the bank shows them, with their names in English and Chinese."""

from __future__ import annotations

TOPICS: tuple[str, ...] = ("roofline", "memory", "communication", "mfu", "inference", "serving", "moe", "pipeline",
                           "parallelism",
                           "reliability", "cost", "concepts")
TOPIC_NAMES: dict[str, tuple[str, str]] = {
    "roofline": ("Roofline", "Roofline 模型"),
    "memory": ("Training memory", "训练显存"),
    "communication": ("Communication", "集合通信"),
    "mfu": ("MFU / HFU", "MFU / HFU"),
    "inference": ("Inference", "推理"),
    "serving": ("Serving", "推理服务"),
    "moe": ("Mixture of experts", "混合专家"),
    "pipeline": ("Pipeline bubbles", "流水线气泡"),
    "parallelism": ("Parallelism planning", "并行规划"),
    "reliability": ("Failures & checkpoints", "故障与检查点"),
    "cost": ("Cost & energy", "成本与能耗"),
    "concepts": ("Concepts", "概念判断"),
}
