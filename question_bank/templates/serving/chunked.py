"""Chunked prefill (Sarathi-Serve): how long a long prompt waits for its first token when it shares each
iteration's token budget with the running decodes."""

from __future__ import annotations

from ...spec import Ask, Spec, World, given
from ...template import template

BUDGETS = (512, 1024, 2048, 4096, 8192)
PROMPTS = (1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
CONV_EN = ("Stall-free batching: every iteration gives each running decode one token and fills the rest of the token "
           "budget with the prompt's next chunk; each iteration takes the same time; no queueing before the prompt "
           "starts.")
CONV_ZH = ("无停顿批处理：每次迭代给每个正在 decode 的序列一个 token，预算剩下的部分用来处理 prompt 的下一块；"
           "每次迭代耗时相同；prompt 开始前不排队。")


@template("serving.chunked_prefill_ttft", topic="serving", title="TTFT of a chunked prefill",
          title_zh="分块 prefill 的首 token 延迟", difficulty=2, target_seconds=90, source="agrawal2024")
def chunked_prefill_ttft(rng):
    # drawn again until the decodes' share of the budget costs the prompt a tenth more iterations (the lesson)
    while True:
        budget = rng.choice(BUDGETS)
        decodes = rng.choice([b for b in (16, 32, 48, 64, 96, 128, 192, 256) if b <= budget // 2])
        prompt = rng.choice([p for p in PROMPTS if p >= budget]) + rng.choice((0, 0, 100, 500))
        if -(-prompt // (budget - decodes)) >= 1.1 * -(-prompt // budget):
            break
    step = rng.choice((0.02, 0.025, 0.03, 0.04, 0.05, 0.06, 0.08))
    return Spec(
        givens=(given("prompt_tokens", "Prompt tokens", "prompt 的 token 数", prompt),
                given("token_budget", "Token budget per iteration", "每次迭代的 token 预算", budget),
                given("decode_batch", "Running decodes", "正在 decode 的序列数", decodes),
                given("step_time", "Time of one iteration", "一次迭代的时间", step, "time", "ms")),
        asks=(Ask(formula="chunked_prefill_ttft", unit="s",
                  prompt_en=f"A prompt of {prompt:,} tokens arrives at a replica running {decodes} decodes with a token "
                            f"budget of {budget:,} per iteration. How long until its first token, in s?",
                  prompt_zh=f"一个 {prompt:,} token 的 prompt 到达一个副本，副本上正有 {decodes} 个序列在 decode，"
                            f"每次迭代的 token 预算为 {budget:,}。它的首 token 要等多久（秒）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(),
    )
