"""Compiled vs hand-tuned (issue 53): each model of upstream tt-mlir's test/ttmlir/models graphs that a hand-written
tt-metal model corresponds to, compiled at optimization-level=0 and =2 and run on the simulated n150, beside the
hand-tuned figure tt-metal publishes for that model.

usage: python benchmarks/hand_tuned_bench.py DIR [--values] [--filter REGEX] [--level-options "..."]

DIR is the models directory (upstream's test/ttmlir/models). Per model: modelled device time of one call (`ttrt
perf`'s total: the perf model's kernel time summed over the program's ops, const-eval ops left out), the speedup of
level 2 over level 0, and the hand-tuned reference brought to the graph's work (below). `--values` also runs the
values and prints the lowest PCC of level 2's outputs against level 0's (slow: minutes per model); without it the
simulator runs in meta mode (same allocations and times, no values). Last, the geometric mean of the speedups over
the issue's seven models (mnist, llama_attention, resnet_hf, segformer, bert_encoder_layer, llama_3_2_1b_decode_layer,
vit_vision_layer); llama_3_1_8b_decode_block is reported beside them. Figures only; nothing is asserted.

Reference figures: tt-metal's models/README.md ("TT-Metalium / TT-NN Models", last update Nov 3, 2025), n150
(Wormhole) rows, each measured by tt-metal's own demo of the model. A whole-model figure is brought to one graph's
work by dividing per-batch time by the layers the hand-tuned model runs (its embeddings and head included, so a
per-layer reference is slightly generous to the hand-tuned model):
  Llama-3.1-8B     26.0 t/s/u at batch 32  -> 1e6 / 26.0 / 32 layers = 1202 us per decode layer (bfp8/bfp4 weights)
  Llama-3.2-1B     80.5 t/s/u at batch 32  -> 1e6 / 80.5 / 16 layers = 776 us per decode layer
  ResNet-50        4,700 img/s at batch 16 -> 8 images (resnet_hf's batch) = 1702 us
  ViT-base         1,370 img/s at batch 8  -> 8 / 1370 s / 12 layers = 487 us per encoder layer
  Sentence-BERT    433 sentences/s at batch 8 (bert-base) -> 8 / 433 s / 12 layers = 1540 us per encoder layer
  SegFormer        132 frames/s at 512x512, batch 1 -> 7576 us per image
mnist and llama_attention have no hand-written counterpart.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools"), str(ROOT / "benchmarks")]

# (graph, reference us per graph or None, what the reference is)
MODELS = [
    ("mnist.mlir", None, "-"),
    ("llama_attention.mlir", None, "-"),
    ("resnet_hf.mlir", 8 / 4700 * 1e6, "ResNet-50 4,700 img/s b16"),
    ("segformer.mlir", 1 / 132 * 1e6, "SegFormer 132 fps 512x512"),
    ("single_blocks_and_layers/bert_encoder_layer.mlir", 8 / 433 / 12 * 1e6, "Sentence-BERT 433 sent/s b8, /12"),
    ("single_blocks_and_layers/llama_3_2_1b_decode_layer.mlir", 1 / 80.5 / 16 * 1e6, "Llama-3.2-1B 80.5 t/s/u, /16"),
    ("single_blocks_and_layers/vit_vision_layer.mlir", 8 / 1370 / 12 * 1e6, "ViT-base 1,370 img/s b8, /12"),
    ("single_blocks_and_layers/llama_3_1_8b_decode_block.mlir", 1 / 26.0 / 32 * 1e6, "Llama-3.1-8B 26.0 t/s/u, /32"),
]
GEOMEAN_OVER = 7  # the issue's seven models: the first seven rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--values", action="store_true", help="run values too and print level 2's PCC vs level 0")
    parser.add_argument("--filter", default="", help="only the models whose path matches")
    parser.add_argument("--level-options", default="", help="more pipeline options for the level-2 compile")
    args = parser.parse_args()
    from optimizer_bench import run
    from ttmlir.runtime.golden import pcc

    print(f"{'model':34} {'L0 us':>9} {'L2 us':>9} {'speedup':>7} {'ref us':>7} {'L2/ref':>6} {'min PCC':>8}  reference")
    speedups = []
    for index, (relative, reference, source) in enumerate(MODELS):
        if not re.search(args.filter, relative):
            continue
        path = Path(args.directory, relative)
        text = path.read_text()
        name = Path(relative).stem
        try:
            base, base_ns, *_ = run(text, str(path), 0, args.values)
            outs, ns, *_ = run(text, str(path), f"2 {args.level_options}".strip(), args.values)
        except Exception as error:  # a figure table: one model's failure is reported, the others still measured
            print(f"{name:34} FAIL {str(error).splitlines()[0][:100]}")
            continue
        speedup = base_ns / ns if ns else 1.0
        if index < GEOMEAN_OVER:
            speedups.append(speedup)
        worst = f"{min((pcc(a, b) for a, b in zip(outs, base)), default=1.0):8.4f}" if args.values else f"{'-':>8}"
        ref = f"{reference:7.0f} {ns / 1e3 / reference:6.2f}" if reference else f"{'-':>7} {'-':>6}"
        print(f"{name:34} {base_ns / 1e3:9.1f} {ns / 1e3:9.1f} {speedup:7.2f} {ref} {worst}  {source}", flush=True)
    if speedups:
        geomean = math.exp(sum(map(math.log, speedups)) / len(speedups))
        print(f"geometric-mean speedup L0/L2 over {len(speedups)} of the issue's {GEOMEAN_OVER} models: {geomean:.2f}x")


if __name__ == "__main__":
    main()
