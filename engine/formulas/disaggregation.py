"""Disaggregated serving and moving the KV cache: the transfer from a prefill to a decode instance, how
many instances of each a traffic mix needs, what a shared prefix saves, and offloading KV to host memory.

Prefill is compute-bound and decode memory-bound, so serving systems split them (DistServe,
Splitwise) and keep or move KV caches rather than recompute them; each formula here prices one move.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    ARRIVAL_RATE,
    BETA,
    INSTANCE_TPS,
    KV_MOVED,
    KV_PER_TOKEN,
    KV_SHARDED,
    KV_SHARDS,
    OUTPUT_TOKENS,
    PHI,
    PREFILL_TIME,
    PREFIX_TOKENS,
    PROMPT_TOKENS,
    REQUESTS,
    UTILISATION,
)
from .registry import register

LINK = BETA.as_("link_bandwidth", "BW_link")
ROUNDED_DOWN = ("rounded down instead of up", "向下取整了，应向上取整")
NO_HEADROOM = ("sized for 100% utilisation (left out the planned headroom)", "按 100% 利用率估算（漏了预留的余量）")

register(
    Formula("kv_transfer_time", (KV_PER_TOKEN, PROMPT_TOKENS, LINK, KV_SHARDS, KV_SHARDED),
            "kv_bytes_per_token*prompt_tokens/(link_bandwidth*(1 + kv_sharded*(kv_shards - 1)))",
            "time", "time to send a prompt's KV cache from the prefill instance to the decode instance: each of the "
            "instance's GPUs sends its own shard over its own NIC, in parallel", "zhong2024, patel2024",
            (Misconception("bits_link", "read a link's Gb/s as GB/s (bits for bytes: 8 times too fast)",
                           "kv_bytes_per_token*prompt_tokens/(8*link_bandwidth*(1 + kv_sharded*(kv_shards - 1)))",
                           "把链路的 Gb/s 当成了 GB/s（比特当字节：快了 8 倍）"),),
            "T_KV",
            decomposition=("prefill builds the prompt's KV cache, KV/token × S_prompt bytes, and the decode instance needs "
                           "all of it before its first step; tensor parallelism splits it by KV head over min(TP, n_kv) "
                           "GPUs, each sending its shard over its own NIC at once: bytes ÷ (min(TP, n_kv) × link "
                           "bandwidth)",),
            decomposition_zh=("prefill 生成整个 prompt 的 KV Cache，共 KV/token × S_prompt 字节；decode 实例在第一步之前"
                              "要收到全部；张量并行按 KV 头把它分到 min(TP, n_kv) 张卡上，每张卡同时用自己的网卡发送自己的分片："
                              "字节数 ÷（min(TP, n_kv) × 链路带宽）",),
            parts=(Part("kv", "KV_prompt", "kv_bytes_per_token*prompt_tokens", "bytes", "the prompt's KV cache",
                        "整个 prompt 的 KV Cache"),
                   Part("nics", "n_NIC", "1 + kv_sharded*(kv_shards - 1)", "count",
                        "NICs sending distinct shards at once: min(TP, n_kv)", "同时发送不同分片的网卡数：min(TP, n_kv)")),
            via="kv/(link_bandwidth*nics)",
            takeaway="the transfer adds to TTFT unless it is pipelined layer by layer with the prefill: GQA, fp8 KV and "
                     "one NIC per GPU shrink it, and a slow link can erase what disaggregation gains.",
            takeaway_zh="这次传输会加到 TTFT 上，除非与 prefill 逐层流水；GQA、fp8 KV 和每卡一块网卡能把它缩小，"
                        "链路太慢会抵消分离带来的收益。",
            example={"kv_bytes_per_token": 327680, "prompt_tokens": 4096, "link_bandwidth": 50e9, "kv_shards": 4},
            meaning_zh="把一个 prompt 的 KV Cache 从 prefill 实例发送到 decode 实例的时间：实例的每张卡用自己的网卡并行发送自己的分片",
            plain_expr="kv_bytes_per_token*prompt_tokens/(link_bandwidth*kv_shards)"),
    Formula("prefill_instances", (ARRIVAL_RATE, PREFILL_TIME, UTILISATION),
            "ceil(arrival_rate*prefill_time/utilisation)", "count",
            "prefill instances a traffic mix needs: busy instance-seconds per second (λ × prefill time) at the planned "
            "utilisation, rounded up", "zhong2024",
            (Misconception("rounded_down", ROUNDED_DOWN[0], "floor(arrival_rate*prefill_time/utilisation)", ROUNDED_DOWN[1]),
             Misconception("no_headroom", NO_HEADROOM[0], "ceil(arrival_rate*prefill_time)", NO_HEADROOM[1])),
            "N_prefill",
            decomposition=("each request keeps one prefill instance busy for T_prefill: λ requests per second need "
                           "λ × T_prefill busy instances (Little's law); planned at utilisation u, ÷ u; round UP",),
            decomposition_zh=("每个请求占用一个 prefill 实例 T_prefill 的时间：每秒 λ 个请求需要 λ × T_prefill 个忙碌实例"
                              "（Little 定律）；按计划利用率 u 再 ÷ u；向上取整",),
            parts=(Part("busy", "λ·T_prefill", "arrival_rate*prefill_time", "count", "instances busy on average",
                        "平均忙碌的实例数"),),
            simplification=("utilisation 1 is only the stability floor: with queueing, a TTFT target needs a lower "
                            "utilisation, as DistServe sizes it",),
            simplification_zh=("利用率 1 只是稳定性的下限：考虑排队时，TTFT 目标需要更低的利用率，DistServe 就是这样定规模的",),
            takeaway="size prefill by requests × prefill time and decode by output tokens ÷ tok/s: the two pools scale "
                     "with different traffic features, which is why disaggregation pays.",
            takeaway_zh="prefill 按 请求数 × prefill 时间 定规模，decode 按 输出 token 数 ÷ tok/s 定规模：两个池随不同的流量特征"
                        "伸缩，这正是分离的价值。",
            example={"arrival_rate": 10, "prefill_time": 0.25, "utilisation": 0.7},
            meaning_zh="一种流量所需的 prefill 实例数：每秒忙碌的实例秒数（λ × prefill 时间）按计划利用率折算，向上取整"),
    Formula("decode_instances", (ARRIVAL_RATE, OUTPUT_TOKENS, INSTANCE_TPS),
            "ceil(arrival_rate*output_tokens/tokens_per_s_per_instance)", "count",
            "decode instances a traffic mix needs: output tokens asked for per second ÷ one instance's tok/s, rounded up",
            "zhong2024",
            (Misconception("rounded_down", ROUNDED_DOWN[0], "floor(arrival_rate*output_tokens/tokens_per_s_per_instance)",
                           ROUNDED_DOWN[1]),
             Misconception("requests_not_tokens", "divided requests per second, not tokens per second, by the instance's "
                           "tok/s", "ceil(arrival_rate/tokens_per_s_per_instance)",
                           "用每秒请求数而不是每秒 token 数去除实例的 tok/s")),
            "N_decode",
            decomposition=("every request asks for n_out tokens: λ × n_out tokens per second in all; one decode instance "
                           "sustains tok/s_inst at its batch; divide and round UP",),
            decomposition_zh=("每个请求要 n_out 个 token：总共每秒 λ × n_out 个 token；一个 decode 实例在其批大小下能持续"
                              "输出 tok/s_inst；相除后向上取整",),
            parts=(Part("demand", "λ·n_out", "arrival_rate*output_tokens", "tok_rate", "output tokens asked for per second",
                        "每秒需要的输出 token 数"),),
            takeaway="decode capacity is counted in tokens, not requests: long answers need more decode instances even at "
                     "the same request rate.",
            takeaway_zh="decode 容量按 token 算而不是按请求算：同样的请求率，回答越长需要的 decode 实例越多。",
            example={"arrival_rate": 10, "output_tokens": 500, "tokens_per_s_per_instance": 2000},
            meaning_zh="一种流量所需的 decode 实例数：每秒需要的输出 token 数 ÷ 单实例 tok/s，向上取整"),
    Formula("prefix_cache_saved_flops", (PHI, PREFIX_TOKENS, REQUESTS), "2*phi*prefix_tokens*(requests - 1)", "flop",
            "prefill FLOPs a prefix cache saves: the shared prefix is computed once instead of once per request",
            "kwon2023, zheng2024",
            (Misconception("every_request", "counted the prefix saved for every request, including the first, which "
                           "computes it", "2*phi*prefix_tokens*requests", "把每个请求（包括负责计算它的第一个）都算成节省了"),
             Misconception("training_flops", "used 6Φ per token (training) for a forward-only prefill",
                           "6*phi*prefix_tokens*(requests - 1)", "对只做前向的 prefill 用了训练的每 token 6Φ")),
            "FLOPs_saved",
            decomposition=("a forward pass costs 2Φ FLOPs per token; the first request computes the P-token prefix and "
                           "caches its KV; the other R − 1 reuse it",),
            decomposition_zh=("前向每 token 2Φ FLOPs；第一个请求计算 P 个 token 的前缀并缓存其 KV；其余 R − 1 个直接复用",),
            parts=(Part("once", "2ΦP", "2*phi*prefix_tokens", "flop", "prefill FLOPs of the prefix, once",
                        "前缀 prefill 一次的 FLOPs"),),
            via="once*(requests - 1)",
            takeaway="a long shared system prompt is prefilled once: the saving grows with requests × prefix length, and "
                     "TTFT drops to the prefill of the new tokens only.",
            takeaway_zh="很长的共享系统提示只需 prefill 一次：节省量与请求数 × 前缀长度成正比，TTFT 也降到只算新 token 的 prefill。",
            example={"phi": 8e9, "prefix_tokens": 2000, "requests": 100},
            meaning_zh="前缀缓存节省的 prefill FLOPs：共享前缀只算一次，而不是每个请求算一次"),
    Formula("kv_offload_time", (KV_MOVED, LINK), "kv_bytes/link_bandwidth", "time",
            "time to move KV cache to or from host memory over PCIe or a chip-to-chip link", "sheng2023",
            (Misconception("bits_link", "read a link's Gb/s as GB/s (bits for bytes: 8 times too fast)",
                           "kv_bytes/(8*link_bandwidth)", "把链路的 Gb/s 当成了 GB/s（比特当字节：快了 8 倍）"),
             Misconception("two_way", "used the link's two-way total (PCIe Gen5 x16's 128 GB/s, NVLink-C2C's 900 GB/s) "
                           "for a copy that goes one way", "kv_bytes/(2*link_bandwidth)",
                           "单向拷贝却用了链路的双向合计带宽（PCIe 5.0 x16 的 128 GB/s、NVLink-C2C 的 900 GB/s）")),
            "T_offload",
            decomposition=("the bytes cross the host link at its one-way bandwidth (PCIe Gen5 x16 ≈ 64 GB/s, Grace "
                           "Hopper's C2C ≈ 450 GB/s each way): bytes ÷ bandwidth",),
            decomposition_zh=("这些字节以主机链路的单向带宽传输（PCIe 5.0 x16 约 64 GB/s，Grace Hopper 的 NVLink-C2C 每个方向约 "
                              "450 GB/s）：字节数 ÷ 带宽",),
            takeaway="offloading pays when reloading the KV is faster than recomputing it by prefill: compare bytes ÷ "
                     "link bandwidth with 2Φ × tokens ÷ FLOP/s.",
            takeaway_zh="当重新载入 KV 比用 prefill 重算更快时，卸载才划算：比较「字节数 ÷ 链路带宽」与「2Φ × token 数 ÷ FLOP/s」。",
            example={"kv_bytes": 10e9, "link_bandwidth": 64e9},
            meaning_zh="经 PCIe 或芯片间链路把 KV Cache 移入或移出主机内存的时间"),
)
