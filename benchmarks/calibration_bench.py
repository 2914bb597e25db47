"""The perf model against published silicon figures: each figure, our prediction, the ratio, and whether it is
within the tolerance (GEMM and DRAM figures 15%, the rest 25%).

usage: python benchmarks/calibration_bench.py [--markdown]

Every prediction comes from `ttmlir.runtime.perf` applied to the ops a workload runs (shapes, data types,
placement, math fidelity), as the runtime applies it to a binary's ops. Workload assumptions, stated once:
GEMMs are 8192^3 with both operands in the named format and a bf16 result in DRAM; DRAM bandwidth is a large
(64 KiB-request) stream; the eltwise add is 4096 x 4096 bf16 tiles in DRAM; ResNet-50 is batch 16, bf16
activations in L1, bfp8 weights, LoFi, traced; Llama-3.1-8B decode is batch 32 at position 128: bfp8 weights
(HiFi2) but bfp4 MLP up/gate projections (LoFi), a bfp8 KV cache, weights read as interleaved DRAM tiles,
traced. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from ttmlir import hardware
from ttmlir.runtime import perf


@dataclass
class T:
    """A tensor as the perf model sees one."""

    shape: tuple
    dtype: str = "bf16"
    buffer_type: str = "dram"
    layout: str = "tile"
    memory_layout: str | None = None
    nbytes: int | None = None  # a buffer laid out otherwise than its shape (a prepared conv weight)

    @property
    def size(self) -> int:
        return self.nbytes or perf.tiles(list(self.shape)) * hardware.tile_bytes(self.dtype)

    @property
    def on_device(self) -> bool:
        return True


def gemm_tflops(arch: str, dtype: str, fidelity: str, n: int = 8192) -> float:
    p = perf.estimate("matmul", "matmul", [T((n, n), dtype), T((n, n), dtype)], [T((n, n))], arch,
                      math_fidelity=fidelity)
    return p.flops / p.kernel_ns / 1e3


def matmul_us(arch: str, traced: bool, n: int = 512) -> float:
    p = perf.estimate("matmul", "matmul", [T((n, n)), T((n, n))], [T((n, n))], arch, math_fidelity="hifi2")
    return perf.program_ns([p], traced) / 1e3


def eltwise_add_us(arch: str) -> float:
    x = T((4096, 4096))
    return perf.estimate("add", "binary", [x, x], [x], arch).kernel_ns / 1e3


def resnet50_ops(batch: int = 16) -> list[tuple]:
    """(op, family, inputs, outputs, fidelity) of ResNet-50's inference: convolutions (relu fused), the residual
    adds, the pools and the classifier."""
    ops = []

    def conv(h: int, c_in: int, c_out: int, k: int, stride: int) -> int:
        out = (h + 2 * (k // 2) - k) // stride + 1
        prepared = k * k * math.ceil(c_in / 32) * math.ceil(c_out / 32) * hardware.tile_bytes("bfp_bf8")
        ops.append(("conv2d", "matmul", [T((1, 1, batch * h * h, c_in), buffer_type="l1"),
                                         T((c_out, c_in, k, k), "bfp_bf8", nbytes=prepared)],
                    [T((1, 1, batch * out * out, c_out), buffer_type="l1")], "lofi"))
        return out

    h = conv(224, 3, 64, 7, 2)
    ops.append(("max_pool2d", "data_movement", [T((1, 1, batch * h * h, 64), buffer_type="l1")],
                [T((1, 1, batch * (h // 2) ** 2, 64), buffer_type="l1")], None))
    h, c = h // 2, 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for block in range(blocks):
            s = stride if block == 0 else 1
            conv(h, c, width, 1, 1)
            out = conv(h, width, width, 3, s)
            conv(out, width, 4 * width, 1, 1)
            if block == 0:
                conv(h, c, 4 * width, 1, s)
            y = T((1, 1, batch * out * out, 4 * width), buffer_type="l1")
            ops.append(("add", "binary", [y, y], [y], None))
            h, c = out, 4 * width
    ops.append(("global_avg_pool2d", "reduction", [T((1, 1, batch * h * h, c), buffer_type="l1")],
                [T((1, 1, batch, c), buffer_type="l1")], None))
    ops.append(("linear", "matmul", [T((batch, c), buffer_type="l1"), T((c, 1000), "bfp_bf8")],
                [T((batch, 1000), buffer_type="l1")], "lofi"))
    return ops


def llama8b_decode_ops(users: int = 32, position: int = 128) -> list[tuple]:
    """One decode step of Llama-3.1-8B for `users` users: 32 layers and the LM head."""
    d, ff, heads, kv, head_dim, vocab = 4096, 14336, 32, 8, 128, 128256
    x = T((1, 1, users, d), buffer_type="l1")

    def linear(k: int, n: int, dtype: str, fidelity: str) -> tuple:
        return ("matmul", "matmul", [T((1, 1, users, k), buffer_type="l1"), T((k, n), dtype)],
                [T((1, 1, users, n), buffer_type="l1")], fidelity)

    cache = T((users, kv, position, head_dim), "bfp_bf8")
    q = T((1, users, heads, head_dim), buffer_type="l1")
    layer = [("rms_norm", "norm", [x], [x], None), linear(d, (heads + 2 * kv) * head_dim, "bfp_bf8", "hifi2"),
             ("rotary_embedding_llama", "binary", [q], [q], None),
             ("paged_update_cache", "data_movement", [cache, T((1, users, kv, head_dim), buffer_type="l1")], [], None),
             ("paged_update_cache", "data_movement", [cache, T((1, users, kv, head_dim), buffer_type="l1")], [], None),
             ("scaled_dot_product_attention_decode", "attention", [q, cache, cache], [q], "hifi2"),
             linear(d, d, "bfp_bf8", "hifi2"), ("add", "binary", [x, x], [x], None),
             ("rms_norm", "norm", [x], [x], None), linear(d, ff, "bfp_bf4", "lofi"), linear(d, ff, "bfp_bf4", "lofi"),
             ("multiply", "binary", [T((1, 1, users, ff), buffer_type="l1")] * 2,
              [T((1, 1, users, ff), buffer_type="l1")], None),
             linear(ff, d, "bfp_bf8", "hifi2"), ("add", "binary", [x, x], [x], None)]
    return layer * 32 + [("rms_norm", "norm", [x], [x], None), linear(d, vocab, "bfp_bf8", "hifi2")]


def run_ms(ops: list[tuple], arch: str, traced: bool = True) -> float:
    perfs = [perf.estimate(op, family, ins, outs, arch, math_fidelity=fid) for op, family, ins, outs, fid in ops]
    return perf.program_ns(perfs, traced) / 1e6


# (figure, published low, published high, unit, tolerance, prediction)
FIGURES = [
    ("n150 BF16 HiFi4 GEMM", 50, 54, "TFLOPs", 0.15, lambda: gemm_tflops("wormhole_b0", "bf16", "hifi4")),
    ("n150 BF8 HiFi2 GEMM", 100, 100, "TFLOPs", 0.15, lambda: gemm_tflops("wormhole_b0", "bfp_bf8", "hifi2")),
    ("n150 BF8 LoFi GEMM", 155, 163, "TFLOPs", 0.15, lambda: gemm_tflops("wormhole_b0", "bfp_bf8", "lofi")),
    ("n150 BF4 LoFi GEMM", 193, 200, "TFLOPs", 0.15, lambda: gemm_tflops("wormhole_b0", "bfp_bf4", "lofi")),
    ("p150 BF16 HiFi2 GEMM", 282, 282, "TFLOPs", 0.15, lambda: gemm_tflops("blackhole", "bf16", "hifi2")),
    ("n150 DRAM bandwidth", 267, 267, "GB/s", 0.15, lambda: perf.dram_gbps("wormhole_b0", 65536)),
    ("p150 DRAM bandwidth", 500, 500, "GB/s", 0.15, lambda: perf.dram_gbps("blackhole", 65536)),
    ("n150 512^3 BF16 HiFi2 matmul, untraced", 49, 49, "us", 0.25, lambda: matmul_us("wormhole_b0", False)),
    ("n150 512^3 BF16 HiFi2 matmul, traced", 20, 20, "us", 0.25, lambda: matmul_us("wormhole_b0", True)),
    ("n150 op-to-op gap, traced", 2.05, 2.05, "us", 0.25,
     lambda: perf.CALIBRATION["wormhole_b0"].gap_traced_ns / 1e3),
    ("n150 eltwise add, 16.78M bf16", 534, 534, "us", 0.25, lambda: eltwise_add_us("wormhole_b0")),
    ("p150 eltwise add, 16.78M bf16", 272, 272, "us", 0.25, lambda: eltwise_add_us("blackhole")),
    ("n150 ResNet-50 batch 16", 4700, 4700, "img/s", 0.25, lambda: 16 / run_ms(resnet50_ops(), "wormhole_b0") * 1e3),
    ("p150 ResNet-50 batch 16", 12600, 12600, "img/s", 0.25, lambda: 16 / run_ms(resnet50_ops(), "blackhole") * 1e3),
    ("n150 Llama-3.1-8B batch 32 decode", 26, 26, "t/s/u", 0.25,
     lambda: 1e3 / run_ms(llama8b_decode_ops(), "wormhole_b0")),
    ("p150 Llama-3.1-8B batch 32 decode", 33.1, 33.1, "t/s/u", 0.25,
     lambda: 1e3 / run_ms(llama8b_decode_ops(), "blackhole")),
]


def table() -> list[tuple]:
    """(figure, published text, unit, prediction, ratio to the published midpoint, within tolerance)."""
    rows = []
    for name, low, high, unit, tolerance, predict in FIGURES:
        value, mid = predict(), (low + high) / 2
        published = f"{low:g}" if low == high else f"{low:g}-{high:g}"
        rows.append((name, published, unit, value, value / mid, abs(value / mid - 1) <= tolerance, tolerance))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (the README's)")
    args = parser.parse_args()
    rows = table()
    if args.markdown:
        print("| figure | published | predicted | ratio | within |")
        print("|---|---|---|---|---|")
        for name, published, unit, value, ratio, ok, tol in rows:
            print(f"| {name} | {published} {unit} | {value:.4g} {unit} | {ratio:.2f} | "
                  f"{'yes' if ok else 'NO'} (±{tol:.0%}) |")
        return
    width = max(len(r[0]) for r in rows)
    for name, published, unit, value, ratio, ok, tol in rows:
        print(f"{name:{width}s}  published {published:>9s} {unit:6s} predicted {value:9.4g}  ratio {ratio:5.2f}  "
              f"{'ok' if ok else 'OUT'} (±{tol:.0%})")
    print(f"{sum(r[5] for r in rows)}/{len(rows)} figures within tolerance")


if __name__ == "__main__":
    main()
