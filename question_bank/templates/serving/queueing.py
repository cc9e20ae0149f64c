"""Queueing and tail latency: utilisation, the M/M/1 wait and response time, the M/D/1 and Kingman waits, a
percentile of the response time, and the largest arrival rate a percentile target allows.

"At 90 % utilisation, how long do requests wait? What is p99? Why not run at 95 %?"  Draws stay inside the 2026
ranges an interview uses: utilisation 0.5-0.95, mean service 50 ms-5 s, a service-time coefficient of variation of
0.5-3 (heavy-tailed LLM output lengths), percentiles p90, p99 and p99.9 (p95 is left out: its factor
ln 20 = 3.0 coincides with the "mean + 2 standard deviations" slip, so the slip could not be named).
"""

from __future__ import annotations

import math

from ...spec import Ask, Spec, given
from ...template import template

SERVICE_TIMES = (0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0,
                 5.0)  # s
RHOS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.95)
PERCENTILES = ((0.9, "p90"), (0.99, "p99"), (0.999, "p99.9"))
# What is queued: (English, Chinese); a replica is one server taking one request (or one batch) at a time.
WORKLOADS = (("an embedding endpoint", "一个 embedding 服务"), ("a reranker replica", "一个 rerank 模型副本"),
             ("a chat model replica", "一个对话模型副本"), ("a code-completion replica", "一个代码补全模型副本"),
             ("a speech-to-text replica", "一个语音转写模型副本"), ("an image-captioning replica", "一个图像描述模型副本"))
CONV_EN = ("One server, first come first served; Poisson arrivals and exponential service times (M/M/1) unless the "
           "problem says otherwise; ρ = λ·E[S] < 1. The wait is the time in the queue; the response time is the wait "
           "plus the service. ms = 10⁻³ s.")
CONV_ZH = ("单服务台，先来先服务；除非题目另有说明，到达为泊松过程、服务时间服从指数分布（M/M/1）；ρ = λ·E[S] < 1。"
           "等待时间指在队列中的时间；响应时间 = 等待时间 + 服务时间。ms = 10⁻³ s。")


def _service_given(s: float):
    return given("service_time", "Mean service time E[S]", "平均服务时间 E[S]", s, "time", "ms" if s < 1 else "s")


def _rho_given(rho: float):
    return given("utilisation", "Utilisation ρ", "利用率 ρ", rho, "ratio")


def _shown(s: float) -> str:
    return f"{s * 1000:g} ms" if s < 1 else f"{s:g} s"


def _workload(rng) -> tuple[str, str]:
    return rng.choice(WORKLOADS)


def _tail_clear(rho: float, p: float) -> bool:
    """The queue-wait percentile, mean × ln(ρ / (1 − p)), is 6 %+ off the response percentile (else the slip
    could not be told from the answer)."""
    return math.log(1 / rho) / math.log(1 / (1 - p)) > 0.06


@template("serving.queue_utilisation", topic="serving", title="Utilisation of a pool of replicas",
          title_zh="一组副本的利用率", difficulty=1, target_seconds=60, source="kleinrock1975")
def queue_utilisation(rng):
    en, zh = _workload(rng)
    while True:
        s, c = rng.choice(SERVICE_TIMES), rng.choice((2, 3, 4, 6, 8, 12, 16))
        lam = float(f"{rng.choice(RHOS) * c / s:.2g}")
        if 0.5 <= lam * s / c <= 0.95:
            break
    return Spec(
        givens=(given("arrival_rate", "Arrival rate λ", "到达率 λ", lam, "req_rate", "req/s"), _service_given(s),
                given("servers", "Replicas c", "副本数 c", c)),
        asks=(Ask(formula="utilisation", unit="%",
                  prompt_en=f"{en[0].upper()}{en[1:]} is scaled out to {c} identical replicas; requests reach the "
                            f"pool at {lam:g} per second in total, each taking {_shown(s)} of service on average. How "
                            "busy is each replica, as a utilisation in %?",
                  prompt_zh=f"{zh}扩展为 {c} 个相同的副本；请求以每秒共 {lam:g} 个的速率到达，每个请求平均需要 {_shown(s)} "
                            "的服务时间。每个副本的利用率是多少（%）？"),),
        conventions_en="Load is spread evenly over the replicas; ρ = λ·E[S] / c.",
        conventions_zh="负载均匀分摊到各个副本；ρ = λ·E[S] / c。",
    )


def _wait_spec(rng, formula: str, question_en: str, question_zh: str, rhos=RHOS) -> Spec:
    en, zh = _workload(rng)
    s, rho = rng.choice(SERVICE_TIMES), rng.choice(rhos)
    return Spec(
        givens=(_rho_given(rho), _service_given(s)),
        asks=(Ask(formula=formula, unit="ms" if s < 1 else "s",
                  prompt_en=f"{en[0].upper()}{en[1:]} runs at {rho:.0%} utilisation with a mean service time of "
                            f"{_shown(s)}. {question_en}",
                  prompt_zh=f"{zh}的利用率为 {rho:.0%}，平均服务时间 {_shown(s)}。{question_zh}"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )


@template("serving.mm1_wait", topic="serving", title="M/M/1: the mean wait in the queue",
          title_zh="M/M/1：平均排队等待时间", difficulty=1, target_seconds=60, source="kleinrock1975")
def mm1_wait(rng):
    # up to 0.92: at 0.95 the response time is within 5 % of the wait, and the slip could not be named
    return _wait_spec(rng, "mm1_wait", "How long does a request wait in the queue before its service starts, on "
                      "average?", "一个请求在开始服务前平均要在队列里等多久？", RHOS[:-1])


@template("serving.mm1_response_time", topic="serving", title="M/M/1: the mean response time",
          title_zh="M/M/1：平均响应时间", difficulty=1, target_seconds=60, source="kleinrock1975")
def mm1_response_time(rng):
    return _wait_spec(rng, "mm1_response_time", "What is a request's mean response time, queue and service together?",
                      "一个请求的平均响应时间（排队加服务）是多少？", RHOS[:-1])


@template("serving.md1_wait", topic="serving", title="M/D/1: the wait with a fixed service time",
          title_zh="M/D/1：服务时间固定时的排队等待", difficulty=2, target_seconds=90, source="kleinrock1975")
def md1_wait(rng):
    return _wait_spec(rng, "md1_wait", "Every request takes exactly that service time (fixed-length batches), "
                      "arrivals are Poisson. How long does a request wait in the queue on average?",
                      "每个请求的服务时间都恰好是这么长（固定长度的批次），到达为泊松过程。一个请求平均要在队列里等多久？")


@template("serving.kingman_wait", topic="serving", title="Kingman: the wait with variable service times",
          title_zh="Kingman 公式：服务时间有波动时的排队等待", difficulty=2, target_seconds=120, source="kingman1961")
def kingman_wait(rng):
    en, zh = _workload(rng)
    while True:
        s, rho = rng.choice(SERVICE_TIMES), rng.choice(RHOS)
        ca, cs = rng.choice((0.5, 0.8, 1.0, 1.0, 1.2, 1.5)), rng.choice((0.5, 0.8, 1.2, 1.5, 2.0, 2.5, 3.0))
        # squaring must matter: (c_a + c_s) / 2 is 6 %+ off (c_a² + c_s²) / 2
        if abs((ca + cs) - (ca * ca + cs * cs)) / max(ca + cs, ca * ca + cs * cs) > 0.06:
            break
    return Spec(
        givens=(_rho_given(rho), _service_given(s),
                given("cv_arrival", "Coefficient of variation of inter-arrival times c_a", "到达间隔的变异系数 c_a", ca),
                given("cv_service", "Coefficient of variation of service times c_s", "服务时间的变异系数 c_s", cs)),
        asks=(Ask(formula="kingman_wait", unit="ms" if s < 1 else "s",
                  prompt_en=f"{en[0].upper()}{en[1:]} runs at {rho:.0%} utilisation with a mean service time of "
                            f"{_shown(s)}; output lengths vary, so service times have c_s = {cs:g}, and gaps between "
                            f"arrivals have c_a = {ca:g}. By Kingman's approximation, how long does a request wait in "
                            "the queue on average?",
                  prompt_zh=f"{zh}的利用率为 {rho:.0%}，平均服务时间 {_shown(s)}；输出长度参差不齐，服务时间的变异系数 "
                            f"c_s = {cs:g}，到达间隔的变异系数 c_a = {ca:g}。用 Kingman 近似，一个请求平均要在队列里等多久？"),),
        conventions_en="One server, first come first served (G/G/1); c = standard deviation ÷ mean. ms = 10⁻³ s.",
        conventions_zh="单服务台，先来先服务（G/G/1）；c = 标准差 ÷ 均值。ms = 10⁻³ s。",
    )


@template("serving.mm1_response_percentile", topic="serving", title="M/M/1: a percentile of the response time",
          title_zh="M/M/1：响应时间的百分位", difficulty=2, target_seconds=90, source="kleinrock1975")
def mm1_response_percentile(rng):
    en, zh = _workload(rng)
    while True:
        s, rho = rng.choice(SERVICE_TIMES), rng.choice(RHOS)
        p, name = rng.choice(PERCENTILES)
        if _tail_clear(rho, p):
            break
    return Spec(
        givens=(_rho_given(rho), _service_given(s), given("percentile", f"Percentile ({name})", f"百分位（{name}）", p,
                                                          "ratio")),
        asks=(Ask(formula="mm1_response_percentile", unit="ms" if s < 1 else "s",
                  prompt_en=f"{en[0].upper()}{en[1:]} runs at {rho:.0%} utilisation with a mean service time of "
                            f"{_shown(s)}. What is the {name} response time (queue and service)?",
                  prompt_zh=f"{zh}的利用率为 {rho:.0%}，平均服务时间 {_shown(s)}。{name} 响应时间（排队加服务）是多少？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )


def _slo(rng, s: float, p: float) -> float:
    """A latency target a 2026 SLO would set: one that caps the utilisation between 0.5 and 0.95, to 2 figures, and
    where meeting it with the mean instead of the percentile gives a rate 6 %+ off."""
    factor = math.log(1 / (1 - p))
    while True:
        target = float(f"{factor * s / (1 - rng.choice(RHOS)):.2g}")
        right, mean = 1 / s - factor / target, 1 / s - 1 / target
        if 0.5 <= 1 - factor * s / target <= 0.95 and (mean - right) / mean > 0.06:
            return target


@template("serving.mm1_max_rate_for_slo", topic="serving", title="M/M/1: the largest arrival rate a tail SLO allows",
          title_zh="M/M/1：尾延迟目标允许的最大到达率", difficulty=3, target_seconds=120, source="kleinrock1975")
def mm1_max_rate_for_slo(rng):
    en, zh = _workload(rng)
    s = rng.choice(SERVICE_TIMES)
    p, name = rng.choice(PERCENTILES)
    target = _slo(rng, s, p)
    return Spec(
        givens=(_service_given(s), given("percentile", f"Percentile ({name})", f"百分位（{name}）", p, "ratio"),
                given("latency_target", f"{name} latency target", f"{name} 延迟目标", target, "time",
                      "ms" if target < 1 else "s")),
        asks=(Ask(formula="mm1_max_rate_for_slo", unit="req/s",
                  prompt_en=f"{en[0].upper()}{en[1:]} has a mean service time of {_shown(s)} and an SLO of "
                            f"{name} ≤ {_shown(target)}. What is the largest arrival rate that meets it?",
                  prompt_zh=f"{zh}的平均服务时间为 {_shown(s)}，SLO 要求 {name} ≤ {_shown(target)}。满足它的最大到达率是多少？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )


@template("serving.queueing_chain", topic="serving",
          title="Chain: at high utilisation: wait → response → tail → the rate an SLO allows",
          title_zh="追问链：高利用率下：等待 → 响应 → 尾延迟 → SLO 允许的到达率", difficulty=3, target_seconds=360,
          source="kleinrock1975")
def queueing_chain(rng):
    en, zh = _workload(rng)
    s, rho = rng.choice(SERVICE_TIMES), rng.choice((0.8, 0.85, 0.88, 0.9, 0.9, 0.92))
    p, name = rng.choice(PERCENTILES[1:] + PERCENTILES[1:2])  # mostly p99
    target = _slo(rng, s, p)
    unit = "ms" if s < 1 else "s"
    return Spec(
        scenario_en=f"\"{en[0].upper()}{en[1:]} runs at {rho:.0%} utilisation with a mean service time of {_shown(s)}: "
                    f"how long do requests wait, what is {name}, and how much traffic meets an SLO of {name} ≤ "
                    f"{_shown(target)}?\"",
        scenario_zh=f"「{zh}的利用率为 {rho:.0%}，平均服务时间 {_shown(s)}：请求要等多久？{name} 是多少？要满足 {name} ≤ "
                    f"{_shown(target)} 的 SLO，能承受多大的流量？」",
        givens=(_rho_given(rho), _service_given(s),
                given("percentile", f"Percentile ({name})", f"百分位（{name}）", p, "ratio"),
                given("latency_target", f"{name} latency target", f"{name} 延迟目标", target, "time",
                      "ms" if target < 1 else "s")),
        asks=(Ask(formula="mm1_wait", unit=unit, inputs={"utilisation": rho, "service_time": s},
                  prompt_en="How long does a request wait in the queue on average?",
                  prompt_zh="一个请求平均要在队列里等多久？"),
              Ask(formula="mm1_response_time", unit=unit, inputs={"utilisation": rho, "service_time": s},
                  prompt_en="What is the mean response time, queue and service together?",
                  prompt_zh="平均响应时间（排队加服务）是多少？"),
              Ask(formula="mm1_response_percentile", unit=unit,
                  inputs={"utilisation": rho, "service_time": s, "percentile": p},
                  prompt_en=f"What is the {name} response time?",
                  prompt_zh=f"{name} 响应时间是多少？"),
              Ask(formula="mm1_max_rate_for_slo", unit="req/s",
                  inputs={"service_time": s, "latency_target": target, "percentile": p},
                  prompt_en=f"What is the largest arrival rate at which {name} stays within {_shown(target)}?",
                  prompt_zh=f"{name} 不超过 {_shown(target)} 时，最大到达率是多少？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )
