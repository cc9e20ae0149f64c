"""Queueing and tail latency: utilisation, the M/M/1 wait, response time and its percentiles, the M/D/1
and Kingman waits, the largest arrival rate a percentile target allows, and chunked prefill's iteration,
time to first token and token budget.

What a serving interview asks after Little's law: "at 90 % utilisation, how long do requests wait? what
is p99? why not run at 95 %?".  One server (a replica taking requests one at a time, first come first
served) unless the formula says otherwise; ``utilisation`` is ρ = λ·E[S], which must stay below 1.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part, Requirement
from .inputs import (
    ARRIVAL_RATE,
    BUDGET,
    BW,
    CV_ARRIVAL,
    CV_SERVICE,
    DECODE_SEQS,
    ITERATION_TOKENS,
    KV_BYTES_READ,
    LATENCY_TARGET,
    MFU,
    MIXED_STEP_TIME,
    PEAK,
    PERCENTILE,
    PHI,
    PROMPT_TOKENS,
    RHO,
    SERVERS,
    SERVICE_TIME,
    TPOT_TARGET,
    WEIGHT_BYTES_READ,
)
from .registry import register

STABLE = Requirement("1 - utilisation", "positive", "unstable: at ρ ≥ 1 the queue grows without bound, so there is "
                     "no steady-state wait", "不稳定：ρ ≥ 1 时队列无限增长，不存在稳态等待时间")
WAIT_FOR_RESPONSE = ("gave the response time (wait + service) when the wait in the queue was asked",
                     "问的是排队等待时间，却给出了响应时间（等待 + 服务）")
RESPONSE_FOR_WAIT = ("gave the wait in the queue when the response time (wait + service) was asked",
                     "问的是响应时间（等待 + 服务），却只给出了排队等待时间")

register(
    Formula("utilisation", (ARRIVAL_RATE, SERVICE_TIME, SERVERS), "arrival_rate*service_time/servers", "ratio",
            "share of the time each server is busy: ρ = λ·E[S] / c (at 1 or more the queue grows without bound)",
            "kleinrock1975",
            (Misconception("one_server", "forgot to share the load among the servers", "arrival_rate*service_time",
                           "忘了把负载分摊到各个服务器上"),),
            "ρ",
            decomposition=("each request keeps a server busy for E[S] on average; λ requests a second bring λ·E[S] "
                           "seconds of work every second, shared by the c servers",),
            decomposition_zh=("每个请求平均占用一台服务器 E[S] 的时间；每秒到达 λ 个请求，就带来每秒 λ·E[S] 秒的工作量，"
                              "由 c 台服务器分担",),
            simplification=("ρ ≥ 1 means more work arrives than the servers can do: the queue, and the wait, grow "
                            "without bound; a serving fleet is planned well below 1",),
            simplification_zh=("ρ ≥ 1 意味着到达的工作量超过了服务器的处理能力：队列和等待时间会无限增长；"
                               "推理服务集群的规划会让 ρ 远低于 1",),
            takeaway="utilisation is offered work over capacity, λ·E[S] / c = {result}: every queueing delay below "
                     "grows as ρ / (1 − ρ), so the last few points towards 1 cost the most latency.",
            takeaway_zh="利用率 = 到达的工作量 / 处理能力 = λ·E[S] / c = {result}：下面每一种排队延迟都按 ρ / (1 − ρ) 增长，"
                        "越接近 1，每多一点利用率付出的延迟就越大。",
            example={"arrival_rate": 8, "service_time": 0.1, "servers": 1},
            requires=(Requirement("servers - arrival_rate*service_time", "positive",
                                  "unstable: ρ = λ·E[S] / c ≥ 1, so the queue grows without bound; add servers or "
                                  "shorten the service", "不稳定：ρ = λ·E[S] / c ≥ 1，队列会无限增长；"
                                  "需要增加服务器或缩短服务时间"),),
            meaning_zh="每台服务器忙碌的时间比例：ρ = λ·E[S] / c（达到或超过 1 时队列会无限增长）"),
    Formula("mm1_wait", (RHO, SERVICE_TIME), "utilisation*service_time/(1 - utilisation)", "time",
            "mean time a request waits in the queue of an M/M/1 server (Poisson arrivals, exponential service), "
            "service excluded", "kleinrock1975",
            (Misconception("response_for_wait", WAIT_FOR_RESPONSE[0], "service_time/(1 - utilisation)",
                           WAIT_FOR_RESPONSE[1]),),
            "W_q",
            decomposition=("an arriving request finds on average ρ / (1 − ρ) requests ahead of it (M/M/1), each "
                           "taking E[S] on average (the one in service has, by memorylessness, a full E[S] left)",),
            decomposition_zh=("到达的请求平均看到前面有 ρ / (1 − ρ) 个请求（M/M/1），每个平均要 E[S]"
                              "（正在服务的那个因为无记忆性，剩余时间仍是完整的 E[S]）",),
            parts=(Part("ahead", "ρ / (1 − ρ)", "utilisation/(1 - utilisation)", "count",
                        "requests found ahead on average", "平均排在前面的请求数"),),
            via="ahead*service_time",
            simplification=("ρ / (1 − ρ) is 1 at 50 %, 9 at 90 %, 19 at 95 %: going from 90 % to 95 % doubles the "
                            "wait",),
            simplification_zh=("ρ / (1 − ρ) 在 50% 时是 1，90% 时是 9，95% 时是 19：从 90% 到 95%，等待时间翻倍",),
            takeaway="at ρ = {utilisation} a request waits {ahead} service times in the queue before its own: "
                     "the wait, not the service, is what high utilisation costs.",
            takeaway_zh="在 ρ = {utilisation} 时，一个请求要先在队列里等 {ahead} 个服务时间才轮到自己："
                        "高利用率付出的代价是等待，而不是服务本身。",
            example={"utilisation": 0.9, "service_time": 0.2},
            requires=(STABLE,),
            meaning_zh="M/M/1 服务台（泊松到达、指数服务时间）中一个请求在队列里的平均等待时间，不含服务时间"),
    Formula("mm1_response_time", (RHO, SERVICE_TIME), "service_time/(1 - utilisation)", "time",
            "mean time a request spends in an M/M/1 system, queue and service: W_q + E[S]", "kleinrock1975",
            (Misconception("wait_for_response", RESPONSE_FOR_WAIT[0], "utilisation*service_time/(1 - utilisation)",
                           RESPONSE_FOR_WAIT[1]),),
            "W",
            decomposition=("the response time is the wait in the queue, ρ·E[S] / (1 − ρ), plus the request's own "
                           "service E[S]: E[S] / (1 − ρ)",),
            decomposition_zh=("响应时间 = 排队等待 ρ·E[S] / (1 − ρ) 加上自己的服务时间 E[S]，合起来是 E[S] / (1 − ρ)",),
            parts=(Part("wait", "W_q", "utilisation*service_time/(1 - utilisation)", "time",
                        "the wait in the queue", "排队等待时间"),),
            via="wait + service_time",
            simplification=("1 / (1 − ρ) is the slow-down over an idle server: 2× at 50 %, 10× at 90 %",),
            simplification_zh=("1 / (1 − ρ) 就是相对空闲服务器的放慢倍数：50% 时 2 倍，90% 时 10 倍",),
            takeaway="an M/M/1 request takes E[S] / (1 − ρ): at ρ = {utilisation} that is {result} for {service_time} of "
                     "work, the price of running the server that busy.",
            takeaway_zh="M/M/1 中一个请求耗时 E[S] / (1 − ρ)：在 ρ = {utilisation} 时，{service_time} 的工作要 {result}，"
                        "这就是让服务器这么忙的代价。",
            example={"utilisation": 0.9, "service_time": 0.2},
            requires=(STABLE,),
            meaning_zh="一个请求在 M/M/1 系统中的平均停留时间（排队加服务）：W_q + E[S]"),
    Formula("md1_wait", (RHO, SERVICE_TIME), "utilisation*service_time/(2*(1 - utilisation))", "time",
            "mean wait in the queue of an M/D/1 server (Poisson arrivals, a fixed service time): half the M/M/1 "
            "wait (Pollaczek-Khinchine)", "kleinrock1975",
            (Misconception("mm1_value", "used the M/M/1 wait (exponential service) for a fixed service time",
                           "utilisation*service_time/(1 - utilisation)", "服务时间固定，却用了 M/M/1（指数服务时间）的等待时间"),),
            "W_q",
            decomposition=("Pollaczek-Khinchine: W_q = ρ·E[S] / (1 − ρ) × (1 + c_s²) / 2; a fixed service time has "
                           "c_s = 0, so the factor is 1/2",),
            decomposition_zh=("Pollaczek-Khinchine 公式：W_q = ρ·E[S] / (1 − ρ) × (1 + c_s²) / 2；服务时间固定时 c_s = 0，"
                              "这个因子就是 1/2",),
            parts=(Part("mm1", "W_q(M/M/1)", "utilisation*service_time/(1 - utilisation)", "time",
                        "the M/M/1 wait at the same ρ", "同样 ρ 下 M/M/1 的等待时间"),),
            via="mm1/2",
            takeaway="a fixed service time halves the queueing delay of an exponential one ({mm1} → {result}): "
                     "variability, not only utilisation, makes requests wait.",
            takeaway_zh="固定服务时间的排队等待是指数服务时间的一半（{mm1} → {result}）：让请求排队的不只是利用率，"
                        "还有波动。",
            example={"utilisation": 0.9, "service_time": 0.2},
            requires=(STABLE,),
            meaning_zh="M/D/1 服务台（泊松到达、固定服务时间）的平均排队等待时间：M/M/1 的一半（Pollaczek-Khinchine）"),
    Formula("kingman_wait", (RHO, SERVICE_TIME, CV_ARRIVAL, CV_SERVICE),
            "utilisation/(1 - utilisation)*(cv_arrival^2 + cv_service^2)/2*service_time", "time",
            "mean wait in the queue of one server with general arrivals and service (Kingman's G/G/1 "
            "approximation, exact for M/M/1 and M/D/1): utilisation × variability × service time", "kingman1961",
            (Misconception("cv_not_squared", "used the coefficients of variation without squaring them",
                           "utilisation/(1 - utilisation)*(cv_arrival + cv_service)/2*service_time",
                           "变异系数没有平方"),
             Misconception("no_half", "dropped the 1/2 of the variability term",
                           "utilisation/(1 - utilisation)*(cv_arrival^2 + cv_service^2)*service_time",
                           "漏了变异项的 1/2")),
            "W_q",
            decomposition=("\"VUT\": variability (c_a² + c_s²) / 2 × utilisation ρ / (1 − ρ) × time E[S]; "
                           "c = std / mean, 1 for Poisson arrivals or exponential service, 0 for a fixed one",),
            decomposition_zh=("\"VUT\"：变异性 (c_a² + c_s²) / 2 × 利用率项 ρ / (1 − ρ) × 时间 E[S]；"
                              "c = 标准差 / 均值，泊松到达或指数服务为 1，固定值为 0",),
            parts=(Part("v", "V", "(cv_arrival^2 + cv_service^2)/2", "count", "the variability factor", "变异性因子"),
                   Part("u", "U", "utilisation/(1 - utilisation)", "count", "the utilisation factor", "利用率因子")),
            via="v*u*service_time",
            simplification=("with V = 1 it is the M/M/1 wait; heavy-tailed LLM output lengths (c_s 1-3) multiply "
                            "it by up to 5",),
            simplification_zh=("V = 1 时就是 M/M/1 的等待时间；LLM 输出长度的长尾（c_s 为 1-3）会让它变大最多 5 倍",),
            takeaway="the wait is V × U × E[S] = {v} × {u} × {service_time}: at a given utilisation, cutting the "
                     "service time's variability (similar-length batches, chunked prefill) cuts the wait as much as "
                     "adding capacity.",
            takeaway_zh="等待时间 = V × U × E[S] = {v} × {u} × {service_time}：在同样的利用率下，降低服务时间的波动"
                        "（长度相近的请求一起批处理、分块 prefill）和扩容一样能缩短等待。",
            example={"utilisation": 0.8, "service_time": 0.5, "cv_arrival": 1, "cv_service": 2},
            requires=(STABLE,),
            meaning_zh="一般到达、一般服务的单服务台的平均排队等待时间（Kingman 的 G/G/1 近似，对 M/M/1 和 M/D/1 精确）："
                       "利用率 × 变异性 × 服务时间"),
    Formula("mm1_response_percentile", (RHO, SERVICE_TIME, PERCENTILE),
            "service_time/(1 - utilisation)*ln(1/(1 - percentile))", "time",
            "response time an M/M/1 request stays under with probability p (first come first served: the response "
            "time is exponential with mean E[S] / (1 − ρ); p99 = 4.6 × the mean)", "kleinrock1975",
            (Misconception("mean_for_percentile", "gave the mean response time, not the percentile",
                           "service_time/(1 - utilisation)", "给出的是平均响应时间，不是百分位"),
             Misconception("mean_plus_two_sd", "took the percentile as the mean plus two standard deviations "
                           "(3 × the mean for an exponential)", "3*service_time/(1 - utilisation)",
                           "把百分位当成了均值加两个标准差（指数分布下是均值的 3 倍）"),
             Misconception("queue_wait_percentile", "used the percentile of the wait in the queue, not of the response",
                           "service_time/(1 - utilisation)*ln(utilisation/(1 - percentile))",
                           "用了排队等待时间的百分位，而不是响应时间的百分位")),
            "W_p",
            decomposition=("under FCFS the M/M/1 response time is exponential with rate μ − λ, i.e. mean "
                           "E[S] / (1 − ρ); P(W > t) = e^(−t / mean), so the p-quantile is mean × ln(1 / (1 − p))",),
            decomposition_zh=("先来先服务时，M/M/1 的响应时间服从速率为 μ − λ 的指数分布，均值 E[S] / (1 − ρ)；"
                              "P(W > t) = e^(−t / 均值)，所以 p 分位数 = 均值 × ln(1 / (1 − p))",),
            parts=(Part("mean", "W", "service_time/(1 - utilisation)", "time", "the mean response time",
                        "平均响应时间"),
                   Part("factor", "ln(1 / (1 − p))", "ln(1/(1 - percentile))", "count",
                        "how many means the percentile is", "这个百分位是均值的几倍")),
            via="mean*factor",
            simplification=("the factor depends on p alone: p50 0.69, p90 2.3, p99 4.6, p99.9 6.9 times the mean",),
            simplification_zh=("这个倍数只取决于 p：p50 是 0.69 倍，p90 是 2.3 倍，p99 是 4.6 倍，p99.9 是 6.9 倍",),
            takeaway="the tail is a multiple of the mean ({factor} × {mean} here): a latency SLO on p99 is met by "
                     "bringing the mean down, that is by lowering ρ.",
            takeaway_zh="尾延迟是均值的固定倍数（这里是 {factor} × {mean}）：要满足 p99 延迟目标，就得压低均值，"
                        "也就是降低 ρ。",
            example={"utilisation": 0.8, "service_time": 0.2, "percentile": 0.99},
            requires=(STABLE,),
            meaning_zh="M/M/1 中一个请求以概率 p 不超过的响应时间（先来先服务：响应时间服从均值为 E[S] / (1 − ρ) 的指数分布；"
                       "p99 = 均值的 4.6 倍）"),
    Formula("mm1_max_rate_for_slo", (SERVICE_TIME, LATENCY_TARGET, PERCENTILE),
            "1/service_time - ln(1/(1 - percentile))/latency_target", "req_rate",
            "largest arrival rate at which an M/M/1 server's p-th percentile response time meets the target "
            "(the inverse of mm1_response_percentile)", "kleinrock1975",
            (Misconception("mean_target", "met the target with the mean response time instead of the percentile",
                           "1/service_time - 1/latency_target", "用平均响应时间去满足目标，而不是百分位"),),
            "λ_max",
            decomposition=("the p-quantile is ln(1 / (1 − p)) / (μ − λ) with μ = 1 / E[S]; setting it equal to the "
                           "target T and solving for λ gives λ = μ − ln(1 / (1 − p)) / T",),
            decomposition_zh=("p 分位数是 ln(1 / (1 − p)) / (μ − λ)，其中 μ = 1 / E[S]；令它等于目标 T，解出 λ = "
                              "μ − ln(1 / (1 − p)) / T",),
            parts=(Part("mu", "μ", "1/service_time", "req_rate", "the service rate", "服务速率"),
                   Part("margin", "ln(1 / (1 − p)) / T", "ln(1/(1 - percentile))/latency_target", "req_rate",
                        "the rate the tail target holds back", "尾延迟目标要预留的速率")),
            via="mu - margin",
            simplification=("a target below ln(1 / (1 − p)) × E[S] cannot be met at any load: even an idle server "
                            "misses it",),
            simplification_zh=("目标若低于 ln(1 / (1 − p)) × E[S]，任何负载下都达不到：服务器空闲时也做不到",),
            takeaway="the server could take μ = {mu} but the tail target keeps {margin} of it back: a p99 SLO caps "
                     "the utilisation well below 1.",
            takeaway_zh="服务器本来能处理 μ = {mu}，但尾延迟目标要预留其中的 {margin}：p99 延迟目标把利用率限制在远低于 1 "
                        "的水平。",
            example={"service_time": 0.2, "latency_target": 2, "percentile": 0.99},
            requires=(Requirement("1/service_time - ln(1/(1 - percentile))/latency_target", "positive",
                                  "infeasible: even an idle server misses this percentile target "
                                  "(target < ln(1 / (1 − p)) × E[S])",
                                  "无法满足：即使服务器空闲也达不到这个百分位目标（目标 < ln(1 / (1 − p)) × E[S]）"),),
            meaning_zh="M/M/1 服务台第 p 百分位响应时间满足目标时所能承受的最大到达率（mm1_response_percentile 的反解）"),
)

# Chunked prefill (Sarathi-Serve): each iteration runs every running decode plus a chunk of a prompt, within a token
# budget chosen from the time-between-tokens target; attention FLOPs and queueing are left out.
register(
    Formula("chunked_step_time", (WEIGHT_BYTES_READ, KV_BYTES_READ, BW, PHI, ITERATION_TOKENS, PEAK),
            "max((weight_bytes + kv_bytes)/bandwidth, 2*phi*tokens_per_step/peak_flops)", "time",
            "time of one mixed iteration (running decodes + a prefill chunk): the slower of reading the weights and "
            "KV cache and computing 2Φ per token of the iteration (attention FLOPs ignored)", "agrawal2024",
            (Misconception("added", "added the memory and compute times (they overlap: the slower one sets the step)",
                           "(weight_bytes + kv_bytes)/bandwidth + 2*phi*tokens_per_step/peak_flops",
                           "把访存时间和计算时间相加了（两者重叠：由较慢的那个决定）"),),
            "T_iter",
            decomposition=("T = max(T_mem, T_math): the weights and the KV of every sequence are read once per "
                           "iteration; every token in it, decode or prefill, costs 2Φ FLOPs",),
            decomposition_zh=("T = max(T_mem, T_math)：每次迭代把权重和所有序列的 KV 各读一次；迭代里的每个 token，"
                              "无论 decode 还是 prefill，都要 2Φ 次 FLOP",),
            parts=(Part("t_mem", "T_mem", "(weight_bytes + kv_bytes)/bandwidth", "time", "reading weights and KV",
                        "读取权重和 KV"),
                   Part("t_math", "T_math", "2*phi*tokens_per_step/peak_flops", "time", "computing the tokens",
                        "计算这些 token")),
            via="max(t_mem, t_math)",
            takeaway="memory takes {t_mem} and compute {t_math}: adding prefill tokens to a decode batch is free until "
                     "T_math reaches T_mem, which is the budget chunked prefill aims for.",
            takeaway_zh="访存要 {t_mem}、计算要 {t_math}：在 T_math 追上 T_mem 之前，往 decode batch 里加 prefill token "
                        "是免费的，这正是分块 prefill 要凑满的预算。",
            example={"weight_bytes": 16e9, "kv_bytes": 8e9, "bandwidth": 3.35e12, "phi": 8e9, "tokens_per_step": 512,
                     "peak_flops": 989e12},
            meaning_zh="一次混合迭代（正在 decode 的序列 + 一个 prefill 块）的耗时：读权重和 KV Cache、按迭代中每 token "
                       "2Φ 计算，两者取较慢的（忽略注意力的 FLOPs）"),
    Formula("chunked_prefill_ttft", (PROMPT_TOKENS, BUDGET, DECODE_SEQS, MIXED_STEP_TIME),
            "ceil(prompt_tokens/(token_budget - decode_batch))*step_time", "time",
            "time to first token of a prompt prefilled in chunks: the iterations it needs, each taking the budget left "
            "after one token per running decode, × the iteration time (queueing ignored)", "agrawal2024",
            (Misconception("whole_budget", "divided by the whole token budget, forgetting the decode tokens that share "
                           "it", "ceil(prompt_tokens/token_budget)*step_time",
                           "除以了整个 token 预算，忘了 decode 的 token 也要占用预算"),),
            "TTFT",
            decomposition=("each iteration spends one token per running decode, so the prompt advances by budget − "
                           "B_dec tokens; the prompt needs ⌈S_prompt / (budget − B_dec)⌉ iterations",),
            decomposition_zh=("每次迭代要给每个正在 decode 的序列留一个 token，所以 prompt 每次前进 预算 − B_dec 个 token；"
                              "prompt 需要 ⌈S_prompt / (预算 − B_dec)⌉ 次迭代",),
            parts=(Part("chunk", "chunk", "token_budget - decode_batch", "count", "prompt tokens per iteration",
                        "每次迭代处理的 prompt token 数"),
                   Part("iterations", "iterations", "ceil(prompt_tokens/(token_budget - decode_batch))", "count",
                        "iterations the prompt needs", "prompt 需要的迭代次数")),
            via="iterations*step_time",
            takeaway="{iterations} iterations of {step_time}: chunking keeps every decode's time between tokens "
                     "steady, and a long prompt pays for it in TTFT.",
            takeaway_zh="{iterations} 次迭代、每次 {step_time}：分块让每个 decode 的 token 间隔保持平稳，代价是长 prompt "
                        "的首 token 延迟变长。",
            example={"prompt_tokens": 8192, "token_budget": 2048, "decode_batch": 64, "step_time": 0.03},
            requires=(Requirement("token_budget - decode_batch", "positive",
                                  "the running decodes use the whole budget: the prompt never advances",
                                  "正在 decode 的序列用光了整个预算：prompt 永远前进不了"),),
            meaning_zh="分块 prefill 时一个 prompt 的首 token 延迟：它需要的迭代次数（每次用去给每个 decode 留一个 token "
                       "后剩下的预算）× 每次迭代的时间（忽略排队）"),
    Formula("token_budget", (TPOT_TARGET, PHI, PEAK, MFU), "floor(tpot_target*peak_flops*mfu/(2*phi))", "count",
            "most tokens an iteration may hold so its compute fits the time-per-output-token target (valid only when "
            "reading the weights and KV alone takes less than the target)", "agrawal2024",
            (Misconception("training_flops", "used training's 6Φ per token, not inference's 2Φ",
                           "floor(tpot_target*peak_flops*mfu/(6*phi))", "用了训练的每 token 6Φ，而不是推理的 2Φ"),
             Misconception("no_mfu", "used the peak FLOP/s without the utilisation the kernels reach",
                           "floor(tpot_target*peak_flops/(2*phi))", "用了峰值算力，没乘上 kernel 实际达到的利用率")),
            "budget",
            decomposition=("an iteration of T tokens computes for 2Φ·T / (peak × MFU); setting that to the TPOT target "
                           "and solving for T gives the budget (Sarathi-Serve picks it from the TBT SLO)",),
            decomposition_zh=("T 个 token 的迭代计算时间是 2Φ·T / (峰值 × MFU)；令它等于 TPOT 目标，解出 T 就是预算"
                              "（Sarathi-Serve 按 TBT SLO 来选）",),
            parts=(Part("rate", "tokens/s", "peak_flops*mfu/(2*phi)", "tok_rate", "tokens per second the GPU computes",
                        "GPU 每秒能算的 token 数"),),
            via="floor(tpot_target*rate)",
            takeaway="the TPOT target of {tpot_target} allows {result} tokens per iteration: a tighter TPOT means smaller chunks "
                     "and a longer TTFT for long prompts.",
            takeaway_zh="{tpot_target} 的目标允许每次迭代 {result} 个 token：TPOT 越严，块越小，长 prompt 的首 token "
                        "延迟越长。",
            example={"tpot_target": 0.05, "phi": 8e9, "peak_flops": 989e12, "mfu": 0.5},
            meaning_zh="一次迭代最多能放的 token 数，使其计算时间满足每 token 时间（TPOT）目标（只在单读权重和 KV 的时间"
                       "低于目标时成立）"),
)
