"""Asynchronous checkpoints and silent errors: a blocking write against the async stall, then the events a
month of a large run should expect (Llama 3's rates).

"How long does async checkpointing stall a 405B run? How many silent corruptions in a 100k-GPU month?"
"""

from __future__ import annotations

from .. import hardware, models
from ..spec import Ask, Spec, World, given
from ..template import template
from . import model_params

CKPT_MODELS = ("llama3_70b", "llama3_405b", "llama31_70b", "qwen3_235b_a22b", "deepseek_v3", "kimi_k2")
# the GPU-to-host link and what it achieves (PCIe Gen5 x16: ~64 GB/s theoretical, ~50 achieved; NVLink-C2C 450)
HOST_LINKS = (("h100_sxm", 50e9, "PCIe Gen5 x16 (~50 GB/s achieved)", "PCIe（Gen5，16 通道，实际约 50 GB/s）"),
              ("gb200", 450e9, "NVLink-C2C (450 GB/s per direction)", "NVLink-C2C（每方向 450 GB/s）"))
# events per GPU-hour, Llama 3's Table 5: 419 unexpected interruptions and 6 silent corruptions in 54 days, 16,384 GPUs
EVENTS = ((2.0e-5, "unexpected interruptions", "意外中断"), (2.8e-7, "silent data corruptions", "静默数据损坏"))
CONV_EN = ("A resumable checkpoint saves ~14 B per parameter (bf16 weights + fp32 master, m, v), sharded evenly "
           "over the GPUs. Async: each GPU copies its own shard to host memory, then training resumes while the host "
           "writes to storage. GB = 10⁹ B; a month is 720 hours; events are independent.")
CONV_ZH = ("可恢复的检查点每个参数约存 14 B（bf16 权重 + fp32 主权重、m、v），平均切分到各 GPU。异步：每张 GPU 把自己那份拷到"
           "主机内存后训练继续，由主机在后台写入存储。GB = 10⁹ B；一个月按 720 小时算；事件相互独立。")


@template("reliability.async_checkpoint_chain", topic="reliability",
          title="Blocking checkpoint → async stall → events in a month", title_zh="阻塞式检查点 → 异步停顿 → 一个月的事件数",
          difficulty=2, target_seconds=180, source="pytorch_dcp, llama3_2024")
def async_checkpoint_chain(rng):
    m = models.get(rng.choice(CKPT_MODELS))
    phi = model_params.nominal_phi(m)
    # each GPU's shard 1-50 GB (the spec's range), shown to 10 MB so the givens are exact
    n = rng.choice([n for n in (256, 512, 1024, 2048, 4096, 8192, 16384) if 1e9 <= 14 * phi / n <= 50e9])
    shard = round(14 * phi / n, -7)
    total = shard * n
    chip, host, host_en, host_zh = rng.choice(HOST_LINKS)
    gpu = hardware.get(chip)
    # the job's file system takes the whole checkpoint in 30-120 s (the realism `stall` rule: at least ~10 s; the
    # goodput and checkpoint chains draw the same range), at a round GB/s
    write = max(1e9, round(total / rng.choice((30, 45, 60, 90, 120)) / 1e9) * 1e9)
    rate, ev_en, ev_zh = rng.choice(EVENTS)
    fleet = n * rng.choice([k for k in (4, 8, 16) if n * k <= 131072])  # at most ~100k-GPU fleets
    return Spec(
        scenario_en=f"{m.name} (Φ = {model_params.phi_text(phi)}) trains on {n:,} {gpu.name} GPUs, each linked to its host by "
                    f"{host_en}; the storage takes {write / 1e9:,.0f} GB/s of writes in all.",
        scenario_zh=f"{m.name}（Φ = {model_params.phi_text(phi)}）在 {n:,} 张 {gpu.name} 上训练，每张 GPU 与主机之间是 {host_zh}；"
                    f"存储的总写入带宽为 {write / 1e9:,.0f} GB/s。",
        givens=(given("checkpoint_bytes", "Checkpoint size", "检查点大小", total, "bytes", "GB"),
                given("bytes_per_gpu", "Checkpoint bytes per GPU", "每张 GPU 的检查点字节数", shard, "bytes", "GB"),
                given("write_bandwidth", "Storage write bandwidth", "存储写入带宽", write, "bandwidth", "GB/s"),
                given("host_link_bandwidth", "GPU-to-host bandwidth", "GPU 到主机的带宽", host, "bandwidth", "GB/s"),
                given("rate_per_gpu_hour", f"Rate of {ev_en} per GPU-hour", f"每 GPU 小时的{ev_zh}率", rate)),
        asks=(Ask(formula="checkpoint_write_time", unit="s",
                  prompt_en="A blocking checkpoint pauses training while the whole checkpoint is written to storage. "
                            "How long is the pause, in s?",
                  prompt_zh="阻塞式检查点在整个检查点写入存储期间暂停训练。暂停多久（秒）？"),
              Ask(formula="async_checkpoint_stall", unit="s", extras={"n_gpus": n, "checkpoint_bytes": total, "write_bandwidth": write},
                  prompt_en="With asynchronous checkpointing instead, how long does training stall, in s?",
                  prompt_zh="改用异步检查点，训练要停多久（秒）？"),
              Ask(formula="expected_interruptions", unit="", inputs={"n_gpus": fleet, "hours": 720, "rate_per_gpu_hour": rate},
                  prompt_en=f"The team scales to {fleet:,} GPUs. How many {ev_en} should they expect in a month?",
                  prompt_zh=f"团队扩展到 {fleet:,} 张 GPU。一个月里预计会有多少次{ev_zh}？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m, gpu=gpu),
    )
