"""Serving capacity: requests in flight (Little's law), a request's latency from TTFT and TPOT, replicas
for a traffic target, and the memory-bandwidth utilisation of a measured decode.

Capacity planning questions of an LLM serving interview: each answer is a rate times a time, or a
demand divided by what one replica sustains at a planned utilisation.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    ARRIVAL_RATE,
    BW,
    FIRST_TOKEN_IN_TTFT,
    LATENCY,
    OUTPUT_TOKENS,
    REPLICA_TPS,
    STEP_BYTES,
    STEPS_PER_S,
    TOKENS_PER_REQUEST,
    TPOT,
    TTFT,
    UTILISATION,
)
from .registry import register

ROUNDED_DOWN = ("rounded down instead of up", "向下取整了，应向上取整")
NO_HEADROOM = ("sized for 100% utilisation (left out the planned headroom)", "按 100% 利用率估算（漏了预留的余量）")

register(
    Formula("concurrency", (ARRIVAL_RATE, LATENCY), "arrival_rate*latency", "count",
            "requests in the system at once (Little's law: L = λ·W)", "little1961",
            (Misconception("divided", "divided the arrival rate by the latency (L = λ·W, a product)",
                           "arrival_rate/latency", "用到达率除以了延迟（L = λ·W 是乘积）"),),
            "L",
            decomposition=("Little's law: in a steady state the average number in the system L is the arrival rate λ "
                           "times the average time each request spends in it W, whatever the queueing discipline",),
            decomposition_zh=("Little 定律：稳态下系统中的平均请求数 L 等于到达率 λ 乘以每个请求的平均停留时间 W，"
                              "与排队方式无关",),
            takeaway="concurrency = rate × latency: {arrival_rate} for {latency} each keeps {result} requests in flight, "
                     "which is the batch (and the KV cache) the servers must hold.",
            takeaway_zh="并发数 = 速率 × 延迟：{arrival_rate}、每个停留 {latency}，同时在途 {result} 个请求，"
                        "这就是服务器要容纳的批大小（和 KV Cache）。",
            example={"arrival_rate": 50, "latency": 4},
            meaning_zh="系统中同时存在的请求数（Little 定律：L = λ·W）"),
    Formula("request_latency", (TTFT, OUTPUT_TOKENS, TPOT, FIRST_TOKEN_IN_TTFT),
            "ttft + (output_tokens - first_token_in_ttft)*tpot", "time",
            "end-to-end latency of one request: the first token at TTFT, then one TPOT per further token",
            "vllm_metrics",
            (Misconception("no_ttft", "left out the time to the first token (n·TPOT only)", "output_tokens*tpot",
                           "漏了首 token 延迟（只算了 n·TPOT）"),),
            "T_request",
            decomposition=("the first output token arrives after TTFT (queueing + prefill + one decode step); each of the "
                           "other n − 1 tokens takes one TPOT: TTFT + (n − 1)·TPOT",),
            decomposition_zh=("第一个输出 token 在 TTFT 后到达（排队 + prefill + 一个 decode 步）；其余 n − 1 个 token "
                              "每个耗时一个 TPOT：TTFT + (n − 1)·TPOT",),
            simplification=("for long outputs the TPOT term dominates: latency ≈ n·TPOT, so decode speed, not prefill, "
                            "sets it",),
            simplification_zh=("输出很长时 TPOT 项占主导：延迟 ≈ n·TPOT，决定它的是 decode 速度而不是 prefill",),
            takeaway="TTFT is what a user waits to see text, TPOT how fast it streams: a chat SLO states both, and "
                     "the request's latency is TTFT + (n − 1)·TPOT.",
            takeaway_zh="TTFT 是用户等到第一个字的时间，TPOT 是输出的流速：聊天 SLO 同时规定两者，请求延迟 = TTFT + (n − 1)·TPOT。",
            example={"ttft": 0.5, "output_tokens": 256, "tpot": 0.02},
            meaning_zh="一个请求的端到端延迟：第一个 token 在 TTFT 到达，之后每个 token 一个 TPOT"),
    Formula("replicas_needed", (ARRIVAL_RATE, TOKENS_PER_REQUEST, REPLICA_TPS, UTILISATION),
            "ceil(arrival_rate*tokens_per_request/(tokens_per_s_per_replica*utilisation))", "count",
            "replicas that serve a traffic target: token demand ÷ (one replica's tok/s × planned utilisation), "
            "rounded up", "databricks2023",
            (Misconception("rounded_down", ROUNDED_DOWN[0],
                           "floor(arrival_rate*tokens_per_request/(tokens_per_s_per_replica*utilisation))", ROUNDED_DOWN[1]),
             Misconception("no_headroom", NO_HEADROOM[0],
                           "ceil(arrival_rate*tokens_per_request/tokens_per_s_per_replica)", NO_HEADROOM[1])),
            "N_replicas",
            decomposition=("demand = λ × tokens per request (tok/s); one replica sustains its tok/s only up to the planned "
                           "utilisation u; divide and round UP",),
            decomposition_zh=("需求 = λ × 每请求 token 数（tok/s）；一个副本按计划利用率 u 只能用到其 tok/s 的 u 倍；相除后向上取整",),
            parts=(Part("demand", "λ·n_tok", "arrival_rate*tokens_per_request", "tok_rate", "tokens per second asked for",
                        "需要的 token/s"),
                   Part("usable", "u·tok/s_replica", "tokens_per_s_per_replica*utilisation", "tok_rate",
                        "tokens per second one replica is planned to give", "一个副本计划提供的 token/s")),
            takeaway="plan replicas at 60-80% utilisation, not 100%: queueing delay explodes as utilisation nears 1, "
                     "and a fraction of a replica is a whole replica.",
            takeaway_zh="副本数按 60-80% 利用率规划，而不是 100%：利用率接近 1 时排队延迟会爆炸；不足一个副本也得算一个。",
            example={"arrival_rate": 20, "tokens_per_request": 500, "tokens_per_s_per_replica": 5000, "utilisation": 0.7},
            meaning_zh="满足流量目标所需的副本数：token 需求 ÷（单副本 tok/s × 计划利用率），向上取整"),
    Formula("mbu", (STEP_BYTES, STEPS_PER_S, BW), "bytes_per_step*steps_per_s/bandwidth", "ratio",
            "model bandwidth utilisation: bytes a decode step reads × steps per second ÷ peak memory bandwidth",
            "databricks2023",
            (Misconception("batch_tokens", "used the batch's tokens per second as steps per second (one step makes a "
                           "token for every sequence)", "bytes_per_step*steps_per_s*batch/bandwidth",
                           "把整批的 token/s 当成了每秒步数（一步为每条序列各生成一个 token）"),),
            "MBU",
            decomposition=("a decode step reads the weights and every sequence's KV cache once; bytes per step × steps per "
                           "second is the bandwidth achieved; ÷ the peak gives the utilisation",),
            decomposition_zh=("一个 decode 步把权重和每条序列的 KV Cache 各读一遍；每步字节数 × 每秒步数就是实际带宽；"
                              "÷ 峰值带宽得到利用率",),
            parts=(Part("achieved", "BW_achieved", "bytes_per_step*steps_per_s", "bandwidth", "bandwidth the decode "
                        "achieves", "decode 实际达到的带宽"),),
            via="achieved/bandwidth",
            takeaway="MBU is to decode what MFU is to training: 60-80% is good; low MBU at small batch means overheads "
                     "(kernel launches, communication), not the memory, set the speed.",
            takeaway_zh="MBU 之于 decode，就像 MFU 之于训练：60-80% 算好；小批量时 MBU 低说明速度被开销（kernel 启动、通信）"
                        "而不是显存带宽限制。",
            example={"bytes_per_step": 150e9, "steps_per_s": 15, "bandwidth": 3.35e12},
            meaning_zh="模型带宽利用率：一个 decode 步读取的字节数 × 每秒步数 ÷ 峰值显存带宽"),
)
