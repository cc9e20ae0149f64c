"""Failures and checkpoints at scale: checkpoint size and write time, the cluster's MTBF, the Young-Daly
interval, the time a checkpoint interval wastes, and the goodput left once restarts are counted.

At thousands of GPUs something fails every few hours (Meta's Llama 3 run saw 419 interruptions in 54
days): how often to checkpoint is a square-root trade between writing too often and redoing work.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    CKPT_BYTES,
    CKPT_BYTES_PER_PARAM,
    CKPT_INTERVAL,
    CKPT_TIME,
    HOST_LINK_BW,
    MTBF,
    N_GPUS,
    N_NODES,
    NODE_MTBF,
    PHI,
    RATE_PER_GPU_HOUR,
    RESTART_TIME,
    RUN_HOURS,
    SHARD_BYTES,
    WITH_RESTART,
    WRITE_BW,
)
from .registry import register

NO_RESTART = ("left out the restart time after each failure", "漏了每次故障后的重启时间")

register(
    Formula("checkpoint_bytes", (PHI, CKPT_BYTES_PER_PARAM), "phi*bytes_per_param", "bytes",
            "size of a resumable checkpoint: bf16 weights + fp32 master weights, momentum and variance = 14 bytes per "
            "parameter (gradients are not saved)", "rajbhandari2020, llama3_2024",
            (Misconception("with_grads", "saved the gradients too (16 bytes): they are recomputed after a restart",
                           "16*phi", "把梯度也存了（16 字节）：重启后梯度会重新计算"),
             Misconception("weights_only", "saved only the bf16 weights (2Φ): an export, not a checkpoint training "
                           "resumes from", "2*phi", "只存了 bf16 权重（2Φ）：那是导出的模型，不是能恢复训练的检查点")),
            "C_bytes",
            decomposition=("to resume, training needs the bf16 weights (2 B), the fp32 master weights (4 B) and Adam's m and "
                           "v (4 B + 4 B): 14 B per parameter; the gradients are rebuilt by the next step",),
            decomposition_zh=("恢复训练需要 bf16 权重（2 B）、fp32 主权重（4 B）以及 Adam 的 m、v（4 B + 4 B）：每参数 14 B；"
                              "梯度由下一步重新算出",),
            takeaway="a resumable checkpoint is ~14 bytes per parameter (12 with fp32 parameters and no bf16 copy), "
                     "seven times the 2-byte model people download.",
            takeaway_zh="能恢复训练的检查点约每参数 14 字节（fp32 参数、无 bf16 副本时为 12），是大家下载的 2 字节模型的七倍。",
            example={"phi": 70e9},
            meaning_zh="能恢复训练的检查点大小：bf16 权重 + fp32 主权重、动量、方差 = 每参数 14 字节（梯度不保存）"),
    Formula("checkpoint_write_time", (CKPT_BYTES, WRITE_BW), "checkpoint_bytes/write_bandwidth", "time",
            "time to write a checkpoint at the storage's aggregate write bandwidth", "llama3_2024",
            (), "δ",
            decomposition=("every rank writes its shard in parallel; the whole checkpoint goes out at the storage's "
                           "aggregate bandwidth: bytes ÷ bandwidth",),
            decomposition_zh=("每个 rank 并行写自己的分片；整个检查点以存储的总带宽写出：字节数 ÷ 带宽",),
            takeaway="checkpoint time is bytes ÷ storage bandwidth: asynchronous checkpointing (copy to host memory, then "
                     "write in the background) hides most of it from training.",
            takeaway_zh="检查点时间 = 字节数 ÷ 存储带宽：异步检查点（先拷到主机内存再后台写出）能把大部分时间从训练中藏起来。",
            example={"checkpoint_bytes": 980e9, "write_bandwidth": 100e9},
            meaning_zh="以存储的总写入带宽写一个检查点的时间"),
    Formula("cluster_mtbf", (NODE_MTBF, N_NODES), "node_mtbf/n_nodes", "time",
            "mean time between failures of a job on n nodes that fail independently: the node's MTBF ÷ n",
            "llama3_2024",
            (Misconception("multiplied", "multiplied by the node count: more nodes fail more often, not less",
                           "node_mtbf*n_nodes", "乘了节点数：节点越多故障越频繁，而不是越少"),),
            "M",
            decomposition=("independent failures add their rates: n nodes each failing 1/MTBF_node per second fail "
                           "n/MTBF_node per second together, so the job's MTBF is MTBF_node ÷ n",),
            decomposition_zh=("独立故障的发生率相加：n 个节点每个每秒以 1/MTBF_node 的速率出故障，合起来每秒 n/MTBF_node，"
                              "所以作业的平均无故障时间是 MTBF_node ÷ n",),
            takeaway="a node that fails once a year becomes a job that fails every few hours at a thousand nodes: at "
                     "scale, failure is the normal case the training loop must plan for.",
            takeaway_zh="一个一年才坏一次的节点，放到一千个节点的作业里就是每几小时坏一次：在大规模下，故障是训练循环必须"
                        "预先考虑的常态。",
            example={"node_mtbf": 31536000, "n_nodes": 1000},
            meaning_zh="n 个独立故障的节点上作业的平均无故障时间：节点的 MTBF ÷ n"),
    Formula("young_daly_interval", (CKPT_TIME, MTBF, RESTART_TIME, WITH_RESTART),
            "(2*checkpoint_time*(mtbf + with_restart*restart_time))^0.5",
            "time", "checkpoint interval that minimises the time lost: √(2·δ·(M + R)) with the restart time (Daly), "
            "√(2·δ·M) without it (Young)", "young1974, daly2006",
            (Misconception("no_two", "left out the factor 2 (√(δ·(M + R)))",
                           "(checkpoint_time*(mtbf + with_restart*restart_time))^0.5", "漏了因子 2（√(δ·(M + R))）"),
             Misconception("no_root", "forgot the square root (2·δ·(M + R))",
                           "2*checkpoint_time*(mtbf + with_restart*restart_time)", "漏了平方根（2·δ·(M + R)）")),
            "τ_opt",
            decomposition=("checkpointing every τ costs δ/τ of the time; a failure loses on average τ/2 of work, and "
                           "with the restart R it comes once per M + R of wall time: the waste δ/τ + τ/(2(M + R)) is "
                           "smallest where the two terms are equal, at τ = √(2·δ·(M + R)) (Daly; Young's √(2·δ·M) "
                           "leaves R out)",),
            decomposition_zh=("每隔 τ 存一次检查点，占用 δ/τ 的时间；每次故障平均丢掉 τ/2 的工作，算上重启 R，每 M + R 的墙钟"
                              "时间一次：浪费 δ/τ + τ/(2(M + R)) 在两项相等时最小，即 τ = √(2·δ·(M + R))（Daly；Young 的 "
                              "√(2·δ·M) 不计 R）",),
            simplification=("it grows only as the square root: a 4× more reliable cluster checkpoints half as often",),
            simplification_zh=("它只按平方根增长：集群可靠 4 倍，检查点间隔只拉长 2 倍",),
            takeaway="checkpoint every √(2·δ·(M + R)): faster checkpoints (async, in host memory) and a better MTBF "
                     "both shrink the waste, by the square root.",
            takeaway_zh="每隔 √(2·δ·(M + R)) 存一次检查点：更快的检查点（异步、存主机内存）和更长的 MTBF 都能减少浪费，按平方根。",
            example={"checkpoint_time": 60, "mtbf": 10800, "restart_time": 600},
            meaning_zh="使损失时间最小的检查点间隔：计入重启时间为 √(2·δ·(M + R))（Daly），不计为 √(2·δ·M)（Young）",
            plain_expr="(2*checkpoint_time*(mtbf + restart_time))^0.5"),
    Formula("checkpoint_waste", (CKPT_TIME, CKPT_INTERVAL, MTBF), "checkpoint_time/interval + interval/(2*mtbf)", "ratio",
            "share of time lost to checkpoints and to redone work at a checkpoint interval (first order)", "young1974",
            (Misconception("whole_interval", "counted the whole interval lost at a failure (τ/M): on average half of it "
                           "is", "checkpoint_time/interval + interval/mtbf", "把每次故障都算成丢掉整个间隔（τ/M）：平均只丢一半"),
             Misconception("save_only", "counted only the time spent writing checkpoints (δ/τ)", "checkpoint_time/interval",
                           "只算了写检查点花的时间（δ/τ）")),
            "waste",
            decomposition=("writing a checkpoint every τ pauses training δ/τ of the time; a failure every M on average "
                           "throws away half an interval: τ/(2M)",),
            decomposition_zh=("每隔 τ 写一次检查点，训练有 δ/τ 的时间在暂停；平均每 M 一次故障，丢掉半个间隔：τ/(2M)",),
            parts=(Part("save", "δ/τ", "checkpoint_time/interval", "ratio", "writing checkpoints", "写检查点"),
                   Part("redo", "τ/(2M)", "interval/(2*mtbf)", "ratio", "work redone after failures", "故障后重做的工作")),
            via="save + redo",
            simplification=("at the Young interval τ = √(2·δ·M) the two terms are equal and the waste is √(2·δ/M)",),
            simplification_zh=("在 Young 间隔 τ = √(2·δ·M) 处两项相等，浪费为 √(2·δ/M)",),
            takeaway="checkpointing too often wastes δ/τ, too rarely τ/(2M): the optimum balances the two.",
            takeaway_zh="检查点太频繁浪费 δ/τ，太稀疏浪费 τ/(2M)：最优点让两者相等。",
            example={"checkpoint_time": 60, "interval": 1200, "mtbf": 10800},
            meaning_zh="在某个检查点间隔下，写检查点和重做工作损失的时间比例（一阶近似）"),
    Formula("training_goodput", (CKPT_TIME, CKPT_INTERVAL, MTBF, RESTART_TIME),
            "1 - checkpoint_time/interval - (interval/2 + restart_time)/mtbf", "ratio",
            "share of wall-clock time that is useful training once checkpoints, redone work and restarts are counted "
            "(first order)", "llama3_2024, young1974",
            (Misconception("no_restart", NO_RESTART[0], "1 - checkpoint_time/interval - interval/(2*mtbf)", NO_RESTART[1]),),
            "goodput",
            decomposition=("from 1 take the checkpoint pauses δ/τ and, per failure (one every M), half an interval of redone "
                           "work plus the restart: (τ/2 + R)/M",),
            decomposition_zh=("从 1 中减去检查点暂停 δ/τ，以及每次故障（每 M 一次）重做的半个间隔加上重启时间：(τ/2 + R)/M",),
            parts=(Part("save", "δ/τ", "checkpoint_time/interval", "ratio", "writing checkpoints", "写检查点"),
                   Part("fail", "(τ/2 + R)/M", "(interval/2 + restart_time)/mtbf", "ratio",
                        "redone work and restarts", "重做的工作和重启")),
            via="1 - save - fail",
            takeaway="at thousands of GPUs the restart time matters as much as the checkpoint interval: fast failure "
                     "detection and warm spares are what keep goodput above 90%.",
            takeaway_zh="在数千张卡的规模上，重启时间和检查点间隔一样重要：快速发现故障和热备节点才能让有效训练时间保持在 90% 以上。",
            example={"checkpoint_time": 60, "interval": 1200, "mtbf": 10800, "restart_time": 600},
            meaning_zh="计入检查点、重做的工作和重启之后，墙钟时间中有效训练的比例（一阶近似）"),
)

# Asynchronous checkpoints and silent errors: "how long does async checkpointing stall a 405B run? how many silent
# corruptions in a 100k-GPU month?"
register(
    Formula("async_checkpoint_stall", (SHARD_BYTES, HOST_LINK_BW), "bytes_per_gpu/host_link_bandwidth", "time",
            "time training blocks for an asynchronous checkpoint: each GPU copies its own shard to host memory over "
            "its host link; the write to storage overlaps the following steps", "pytorch_dcp",
            (Misconception("storage_write", "gave the storage write time (the part that runs in the background)",
                           "checkpoint_bytes/write_bandwidth", "给出的是写入存储的时间（这部分在后台进行）"),
             Misconception("whole_checkpoint", "copied the whole checkpoint through one GPU's link, not its own shard",
                           "bytes_per_gpu*n_gpus/host_link_bandwidth", "让整个检查点都走一张卡的链路，而不是只拷它自己的那份")),
            "T_stall",
            decomposition=("async_save stages a copy of the state dict in CPU memory, then resumes training: the stall "
                           "is each GPU's shard over its own GPU-to-host link (all GPUs in parallel); the storage "
                           "write happens later, during training",),
            decomposition_zh=("async_save 先把 state dict 复制到 CPU 内存，然后继续训练：停顿时间是每张 GPU 的那一份通过"
                              "它自己的 GPU 到主机链路的拷贝时间（所有 GPU 并行）；写入存储在之后、训练进行时完成",),
            simplification=("PCIe Gen5 x16 achieves ~50 GB/s of its ~64 GB/s: 10 GB a GPU stalls ~0.2 s; NVLink-C2C "
                            "(GH200, GB200) at 450 GB/s per direction is ~9× faster",),
            simplification_zh=("PCIe Gen5 x16 理论约 64 GB/s，实际约 50 GB/s：每卡 10 GB 约停 0.2 秒；NVLink-C2C"
                               "（GH200、GB200）每方向 450 GB/s，快约 9 倍",),
            takeaway="an async checkpoint stalls training only {result}, the host copy of each GPU's shard: the "
                     "storage write, often minutes, is hidden behind the next steps.",
            takeaway_zh="异步检查点只让训练停 {result}，也就是每张卡把自己那份拷到主机的时间：写存储往往要几分钟，"
                        "但被藏在了后面的训练步里。",
            example={"bytes_per_gpu": 10e9, "host_link_bandwidth": 50e9},
            meaning_zh="异步检查点让训练阻塞的时间：每张 GPU 通过自己的主机链路把自己那份拷到主机内存；写入存储与之后的"
                       "训练步重叠"),
    Formula("expected_interruptions", (N_GPUS, RUN_HOURS, RATE_PER_GPU_HOUR), "n_gpus*hours*rate_per_gpu_hour", "count",
            "expected events (interruptions, silent data corruptions) in a run: GPUs × hours × the rate per GPU-hour, "
            "events independent", "llama3_2024",
            (Misconception("one_gpu", "used the rate of one GPU, not of the whole fleet", "hours*rate_per_gpu_hour",
                           "用了单张 GPU 的事件率，而不是整个集群的"),
             Misconception("days_for_hours", "counted days where the rate is per hour", "n_gpus*hours/24*rate_per_gpu_hour",
                           "事件率按小时计，却用了天数")),
            "E[events]",
            decomposition=("the events of independent GPUs add: the fleet sees N × r events per hour, for the run's "
                           "hours. Llama 3: 419 unexpected interruptions and 6 silent data corruptions in 54 days on "
                           "16,384 H100s, 2.0e-5 and 2.8e-7 per GPU-hour",),
            decomposition_zh=("独立 GPU 的事件相加：整个集群每小时 N × r 次，再乘以运行的小时数。Llama 3：16,384 张 H100、"
                              "54 天里有 419 次意外中断和 6 次静默数据损坏，即每 GPU 小时 2.0e-5 和 2.8e-7 次",),
            parts=(Part("gpu_hours", "GPU-h", "n_gpus*hours", "count", "GPU-hours of the run", "这次运行的 GPU 小时数"),),
            via="gpu_hours*rate_per_gpu_hour",
            takeaway="{gpu_hours} GPU-hours at {rate_per_gpu_hour} per GPU-hour is {result} events: at this scale a "
                     "one-in-a-million fault is a routine event the job must detect and survive.",
            takeaway_zh="{gpu_hours} 个 GPU 小时、每 GPU 小时 {rate_per_gpu_hour} 次，就是 {result} 次：在这个规模上，"
                        "百万分之一的故障也是作业必须能发现、能扛过去的日常事件。",
            example={"n_gpus": 100000, "hours": 720, "rate_per_gpu_hour": 2.8e-7},
            meaning_zh="一次运行中预期的事件数（中断、静默数据损坏）：GPU 数 × 小时数 × 每 GPU 小时的事件率，事件相互独立"),
)
