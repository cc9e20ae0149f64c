"""Vision tokens: how many tokens a ViT encoder turns an image into (plain ViT / LLaVA one per patch; Qwen2-VL
merges 2 × 2 patches).  Resolution, not text, sets a VLM's sequence length."""

from __future__ import annotations

from ...spec import Ask, Spec, World, given
from ...template import template
from ..chip_givens import an

# (encoder, patch, merge): a plain ViT-L/14 as in LLaVA, a ViT with 16-px patches, and Qwen2-VL's merged 14-px ones
ENCODERS = (("a ViT-L/14 encoder (LLaVA-style, one token per patch)", "ViT-L/14 编码器（LLaVA 式，每个 patch 一个 token）",
             14, 1),
            ("a ViT with 16-px patches, one token per patch", "16 像素 patch 的 ViT，每个 patch 一个 token", 16, 1),
            ("Qwen2-VL's encoder (14-px patches, 2 × 2 merged into one token)",
             "Qwen2-VL 的编码器（14 像素 patch，2 × 2 合并成一个 token）", 14, 2))
SIDES = (224, 336, 448, 512, 672, 768, 896, 1024, 1280, 1344, 1536, 2048)
CONV_EN = "Patches cover the image on a grid, a partial patch at an edge counting whole; special tokens are not counted."
CONV_ZH = "patch 按网格铺满图像，边缘不满的 patch 也算一个；不计特殊 token。"


@template("inference.vision_tokens", topic="inference", title="Vision tokens of an image", title_zh="一张图像的视觉 token 数",
          difficulty=1, target_seconds=60, source="dosovitskiy2021, wang2024")
def vision_tokens(rng):
    enc_en, enc_zh, patch, merge = rng.choice(ENCODERS)
    h, w = rng.choice(SIDES), rng.choice(SIDES)
    return Spec(
        givens=(given("height", "Image height (px)", "图像高度（像素）", h), given("width", "Image width (px)", "图像宽度（像素）", w),
                given("patch", "Patch side (px)", "patch 边长（像素）", patch),
                given("merge", "Patches merged per side", "每个方向合并的 patch 数", merge)),
        asks=(Ask(formula="vision_tokens_per_image", unit="",
                  prompt_en=f"{an(f'{h:,}', cap=True)} × {w:,} image goes through {enc_en}. How many vision tokens does it become?",
                  prompt_zh=f"一张 {h:,} × {w:,} 的图像经过{enc_zh}。它变成多少个视觉 token？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(),
    )
