"""The data pipeline: the tokens per second a training run consumes, the storage bandwidth that feeds them, and
the tokens an image becomes.

"A 16k-GPU run at 40 % MFU on a 405B model: how many tokens/s and GB/s from storage?"  The answers are small
next to the network's (a pre-tokenised corpus is 2-4 B per token), which is the point an interviewer wants
made; images are another matter.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import BYTES_PER_TOKEN, IMAGE_HEIGHT, IMAGE_WIDTH, LOADER_TPS, MERGE, MFU, N_GPUS, PATCH, PEAK, PHI
from .registry import register

register(
    Formula("training_tokens_per_s", (N_GPUS, PEAK, MFU, PHI), "n_gpus*peak_flops*mfu/(6*phi)", "tok_rate",
            "tokens per second a training run consumes, so the data loader must deliver: the fleet's useful FLOP/s ÷ "
            "6Φ per token (the MFU definition solved for tokens/s)", "C§3.2",
            (Misconception("forward_only", "used the forward pass's 2Φ per token, not training's 6Φ",
                           "n_gpus*peak_flops*mfu/(2*phi)", "用了前向的每 token 2Φ，而不是训练的 6Φ"),),
            "tok/s",
            decomposition=("the fleet does N × peak × MFU useful FLOP/s; each training token costs 6Φ (2Φ forward + "
                           "4Φ backward)",),
            decomposition_zh=("整个集群每秒做 N × 峰值 × MFU 次有效 FLOP；每个训练 token 要 6Φ（前向 2Φ + 反向 4Φ）",),
            parts=(Part("useful", "N F MFU", "n_gpus*peak_flops*mfu", "flop_rate", "the fleet's useful FLOP/s",
                        "整个集群的有效算力"),),
            via="useful/(6*phi)",
            takeaway="{n_gpus} GPUs at {mfu} MFU consume {result}: multiply by the bytes per token and the loader's "
                     "bandwidth is tiny next to the network's.",
            takeaway_zh="{n_gpus} 张 GPU 在 {mfu} 的 MFU 下每秒消耗 {result}：乘上每 token 的字节数，数据加载的带宽和网络"
                        "带宽比起来很小。",
            example={"n_gpus": 16384, "peak_flops": 989e12, "mfu": 0.4, "phi": 405e9},
            meaning_zh="训练每秒消耗、也就是数据加载器必须供给的 token 数：集群的有效 FLOP/s ÷ 每 token 6Φ"
                       "（把 MFU 的定义反解成 tokens/s）"),
    Formula("data_read_bandwidth", (LOADER_TPS, BYTES_PER_TOKEN), "tokens_per_s*bytes_per_token", "bandwidth",
            "storage read bandwidth a training run needs: tokens per second × stored bytes per token (for images: "
            "images per second × bytes per stored image)", "megatron_indexed",
            (Misconception("bits_for_bytes", "counted the bits of a token id as bytes (16 for uint16)",
                           "tokens_per_s*bytes_per_token*8", "把 token id 的位数当成了字节数（uint16 当成 16）"),),
            "BW_read",
            decomposition=("the loader reads each token once per epoch: pre-tokenised ids are 2 B (uint16, a "
                           "vocabulary up to 65,536) or 4 B (uint32, e.g. Llama 3's 128k); raw text is ~4 B per "
                           "token before tokenisation (a rule of thumb, not verified)",),
            decomposition_zh=("加载器每个 epoch 把每个 token 读一次：预分词的 id 是 2 B（uint16，词表不超过 65,536）"
                              "或 4 B（uint32，例如 Llama 3 的 128k 词表）；分词前的原始文本约每 token 4 B（经验值，未核实）",),
            takeaway="{tokens_per_s} at {bytes_per_token} per token is {result} from storage: text training is "
                     "never storage-bound; images and video, at 100 KB-1 MB each, can be.",
            takeaway_zh="每秒 {tokens_per_s}、每个 {bytes_per_token}，从存储读 {result}：文本训练从不受存储限制；"
                        "每张 100 KB-1 MB 的图像和视频才可能受限。",
            example={"tokens_per_s": 3.2e6, "bytes_per_token": 4},
            meaning_zh="训练需要的存储读带宽：每秒 token 数 × 每 token 存储的字节数（图像：每秒图像数 × 每张存储字节数）"),
    Formula("vision_tokens_per_image", (IMAGE_HEIGHT, IMAGE_WIDTH, PATCH, MERGE),
            "ceil(height/patch)*ceil(width/patch)/merge^2", "count",
            "tokens a ViT encoder turns one image into: patches along each side, multiplied, ÷ merge² (Qwen2-VL merges "
            "2 × 2 patches; special tokens not counted)", "dosovitskiy2021, wang2024",
            (Misconception("no_merge", "forgot the 2 × 2 patch merge (counted one token per patch)",
                           "ceil(height/patch)*ceil(width/patch)", "忘了 2 × 2 的 patch 合并（按每个 patch 一个 token 算了）"),
             Misconception("patch_area", "divided the pixels by the patch side, not by its area",
                           "height*width/patch/merge^2", "用像素数除以 patch 的边长，而不是面积")),
            "n_vis",
            decomposition=("⌈H / p⌉ × ⌈W / p⌉ patches of p × p pixels; a merge of m × m neighbouring patches makes "
                           "one token of m² patches (Qwen2-VL: p = 14, m = 2, a 28-px grid: 224 × 224 gives 64 tokens "
                           "plus 2 special tokens)",),
            decomposition_zh=("⌈H / p⌉ × ⌈W / p⌉ 个 p × p 像素的 patch；把相邻 m × m 个 patch 合并成一个 token，"
                              "每个 token 含 m² 个 patch（Qwen2-VL：p = 14、m = 2，即 28 像素的网格：224 × 224 得 64 个 "
                              "token，另加 2 个特殊 token）",),
            parts=(Part("patches", "patches", "ceil(height/patch)*ceil(width/patch)", "count", "patches of the image",
                        "图像的 patch 数"),),
            via="patches/merge^2",
            takeaway="the {height} × {width} image is {patches} patches and {result} tokens: vision tokens grow with the "
                     "pixels, so resolution, not the text, sets a VLM's sequence length.",
            takeaway_zh="{height} × {width} 的图像是 {patches} 个 patch、{result} 个 token：视觉 token 随像素数增长，"
                        "所以决定 VLM 序列长度的是分辨率，而不是文本。",
            example={"height": 224, "width": 224, "patch": 14, "merge": 2},
            meaning_zh="ViT 编码器把一张图像变成的 token 数：两边的 patch 数相乘，÷ merge²（Qwen2-VL 合并 2 × 2 个 patch；"
                       "不含特殊 token）"),
)
