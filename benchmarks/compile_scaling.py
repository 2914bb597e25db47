"""How compile time grows with graph size, pass by pass (issue 54).

Runs each named pipeline on generated TTIR graphs of 1k, 10k and 100k ops (`--sizes` to choose): an
add/relu/multiply chain on 64x128 tensors (in TTIR, and in StableHLO for the StableHLO pipeline), and chains of the
blocks the fusions look for (matmul + bias + activation, softmax, RMS norm, attention, RoPE). Every run is `ttmlir-opt --mlir-timing --mlir-timing-display=list`
in its own process, its timers reading CPU time (what other work on the machine does not inflate); the report gives
each pass's time, printed here per op (microseconds). A pass whose time per op grows by more
than `--flag-ratio` (default 2) from one size to the next is flagged: its cost is not linear in the graph.

Each pipeline's output is then written to a flatbuffer (`ttmlir-translate --ttnn-to-flatbuffer`, its own process), timed
and flagged the same way. Beside each graph, `xdsl-opt`'s parse+print round trip of the same file: the acceptance is the 10k chain (and each
fusion's chain) through the backend pipeline within 2x of it, and time(10k) / time(1k) <= 12, compared in CPU time.
Figures only; nothing is asserted.

    python benchmarks/compile_scaling.py --sizes 1000,10000 --graphs chain,linear --pipelines backend
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
PIPELINES = {  # the graphs' dialect, and what ttmlir-opt runs on them
    "backend": ("ttir", ["--ttir-to-ttnn-backend-pipeline"]),
    "backend-O2": ("ttir", ["--ttir-to-ttnn-backend-pipeline=optimization-level=2"]),
    "fusing": ("ttir", ["--ttir-fusing"]),
    "stablehlo": ("stablehlo", ["--stablehlo-pipeline", "--stablehlo-to-ttir-pipeline",
                                "--ttir-to-ttnn-backend-pipeline"]),
}
# ttmlir-opt with its --mlir-timing timers reading CPU time: per-pass figures a busy machine leaves comparable
TTMLIR_OPT_CPU_TIMED = [sys.executable, "-c", "import sys, time, ttmlir.timing, ttmlir_opt; "
                        "ttmlir.timing.clock = time.process_time; sys.exit(ttmlir_opt.main(sys.argv[1:]))"]
# the pipelines' TTNN output written to a flatbuffer, in a process of its own (not served: its CPU time is counted)
TTMLIR_TRANSLATE = [sys.executable, "-c", "import sys, ttmlir_translate; sys.exit(ttmlir_translate.main())",
                    "--ttnn-to-flatbuffer"]
T = "tensor<64x128xf32>"


class Graph:
    """A function body written op by op; `block` functions append one pattern reading and returning one value."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.args: list[tuple[str, str]] = [("x", T)]
        self.count = 0  # ops written
        self.next = 0

    def arg(self, name: str, type_: str) -> str:
        if (name, type_) not in self.args:
            self.args.append((name, type_))
        return "%" + name

    def op(self, name: str, operands: list[str], types: list[str], result: str, props: str = "") -> str:
        value = f"%v{self.next}"
        self.next += 1
        self.count += 1
        props = f" <{{{props}}}>" if props else ""
        self.lines.append(f'    {value} = "ttir.{name}"({", ".join(operands)}){props} : '
                          f'({", ".join(types)}) -> {result}')
        return value

    def text(self, result: str, result_type: str) -> str:
        args = ", ".join(f"%{n}: {t}" for n, t in self.args)
        return "\n".join(["module {", f"  func.func @main({args}) -> {result_type} {{", *self.lines,
                          f"    return {result} : {result_type}", "  }", "}", ""])


def elementwise(g: Graph, x: str) -> str:
    """add, relu, multiply: nothing to fuse, so every pass sees every op."""
    y = g.op("add", [x, g.arg("a", T)], [T, T], T)
    y = g.op("relu", [y], [T], T)
    return g.op("multiply", [y, g.arg("b", T)], [T, T], T)


def linear(g: Graph, x: str) -> str:
    """matmul + bias → linear, x * sigmoid(x) → silu (the activation matcher), then silu into the matmul (ttnn)."""
    w, bias = g.arg("w", "tensor<128x128xf32>"), g.arg("bias", "tensor<1x128xf32>")
    y = g.op("matmul", [x, w], [T, "tensor<128x128xf32>"], T)
    y = g.op("add", [y, bias], [T, "tensor<1x128xf32>"], T)
    s = g.op("sigmoid", [y], [T], T)
    return g.op("multiply", [y, s], [T, T], T)


def softmax(g: Graph, x: str) -> str:
    """exp(x - max) / sum(exp(x - max)) → a numerically stable softmax."""
    row = "tensor<64x1xf32>"
    peak = g.op("max", [x], [T], row, "dim_arg = [1 : i32], keep_dim = true")
    y = g.op("subtract", [x, peak], [T, row], T)
    e = g.op("exp", [y], [T], T)
    total = g.op("sum", [e], [T], row, "dim_arg = [1 : i32], keep_dim = true")
    return g.op("div", [e, total], [T, row], T)


def rms_norm(g: Graph, x: str) -> str:
    """gamma * x * rsqrt(mean(x * x) + eps) → rms_norm."""
    row = "tensor<64x1xf32>"
    eps = g.op("full", [], [], row, "fill_value = 1.0e-05 : f32, shape = array<i32: 64, 1>")
    sq = g.op("multiply", [x, x], [T, T], T)
    m = g.op("mean", [sq], [T], row, "dim_arg = [-1 : i32], keep_dim = true")
    a = g.op("add", [m, eps], [row, row], row)
    r = g.op("rsqrt", [a], [row], row)
    y = g.op("multiply", [x, r], [T, row], T)
    return g.op("multiply", [g.arg("gamma", "tensor<1x128xf32>"), y], ["tensor<1x128xf32>", T], T)


def attention(g: Graph, x: str) -> str:
    """q, k, v projections of one x (→ one wide matmul), softmax(q k^T) v."""
    w = "tensor<128x128xf32>"
    q, k, v = (g.op("matmul", [x, g.arg(n, w)], [T, w], T) for n in ("wq", "wk", "wv"))
    s = "tensor<64x64xf32>"
    scores = g.op("matmul", [q, k], [T, T], s, "transpose_a = false, transpose_b = true")
    row = "tensor<64x1xf32>"
    peak = g.op("max", [scores], [s], row, "dim_arg = [1 : i32], keep_dim = true")
    e = g.op("exp", [g.op("subtract", [scores, peak], [s, row], s)], [s], s)
    p = g.op("div", [e, g.op("sum", [e], [s], row, "dim_arg = [1 : i32], keep_dim = true")], [s, row], s)
    return g.op("matmul", [p, v], [s, T], T)


R = "tensor<1x2x32x64xf32>"
HALF = "tensor<1x2x32x32xf32>"


def rope(g: Graph, x: str) -> str:
    """x * cos + rotate_half(x) * sin, rotate_half by slices, neg and concat (RoPE; fused in TTNN with the
    optimizer)."""
    table = "tensor<1x1x32x64xf32>"
    cos, sin = g.arg("cos", table), g.arg("sin", table)

    def half(begin: int) -> str:
        props = (f"begins = [0 : i32, 0 : i32, 0 : i32, {begin} : i32], ends = [1 : i32, 2 : i32, 32 : i32, "
                 f"{begin + 32} : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]")
        return g.op("slice_static", [x], [R], HALF, props)

    a = g.op("multiply", [x, cos], [R, table], R)
    hi = g.op("neg", [half(32)], [HALF], HALF)
    rot = g.op("concat", [hi, half(0)], [HALF, HALF], R, "dim = 3 : si32")
    return g.op("add", [a, g.op("multiply", [rot, sin], [R, table], R)], [R, R], R)


def stablehlo_chain(ops: int) -> str:
    """The elementwise chain as JAX writes it: add, max with a zero constant (relu), multiply."""
    lines, value = [f"    %zero = stablehlo.constant dense<0.000000e+00> : {T}"], "%x"
    for i in range(0, ops - 1, 3):
        lines += [f"    %v{i} = stablehlo.add {value}, %a : {T}", f"    %v{i + 1} = stablehlo.maximum %v{i}, %zero : {T}",
                  f"    %v{i + 2} = stablehlo.multiply %v{i + 1}, %b : {T}"]
        value = f"%v{i + 2}"
    return "\n".join(["module {", f"  func.func @main(%x: {T}, %a: {T}, %b: {T}) -> {T} {{", *lines,
                      f"    return {value} : {T}", "  }", "}", ""])


GRAPHS = {"chain": (elementwise, T), "linear": (linear, T), "softmax": (softmax, T), "rms_norm": (rms_norm, T),
          "attention": (attention, T), "rope": (rope, R), "stablehlo_chain": (stablehlo_chain, T)}


def dialect(kind: str) -> str:
    return "stablehlo" if kind.startswith("stablehlo") else "ttir"


def generate(kind: str, ops: int) -> str:
    """About `ops` ops of blocks of one kind, each block reading the previous one's result."""
    block, type_ = GRAPHS[kind]
    if dialect(kind) == "stablehlo":
        return block(ops)
    g = Graph()
    g.args = [("x", type_)]
    value = "%x"
    while g.count < ops:
        value = block(g, value)
    return g.text(value, type_)


ROW = re.compile(r"^\s+(-?\d+\.\d+) \(\s*-?\d+\.\d+%\)  (\S.*)$")


def timed(cmd: list[str]) -> tuple[float, float, dict[str, float]]:
    """Wall and CPU time of `cmd` (CPU time: user + system, what a busy machine does not inflate), and the times
    its --mlir-timing list report gives by name."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    report = {}
    for line in done.stderr.splitlines():
        if m := ROW.match(line):
            report[m.group(2).strip()] = float(m.group(1))
    return wall, cpu, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="op counts, comma-separated")
    parser.add_argument("--graphs", default=",".join(GRAPHS), help=f"of {', '.join(GRAPHS)}")
    parser.add_argument("--pipelines", default="backend,backend-O2,stablehlo", help=f"of {', '.join(PIPELINES)}")
    parser.add_argument("--flag-ratio", type=float, default=2.0,
                        help="flag a pass whose time per op grows more than this from one size to the next")
    parser.add_argument("--min-share", type=float, default=0.02,
                        help="flag only passes taking at least this share of the larger run (noise below it)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    flagged = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.graphs.split(","):
            files = {}
            for n in sizes:
                files[n] = Path(tmp, f"{kind}{n}.mlir")
                files[n].write_text(generate(kind, n))
            xdsl = {}
            for n in sizes if dialect(kind) == "ttir" else ():  # xdsl-opt cannot read StableHLO's custom syntax
                xdsl[n] = timed([str(BIN / "xdsl-opt"), "--allow-unregistered-dialect", str(files[n])])
                print(f"{kind}, {n} ops: xdsl-opt parse+print {xdsl[n][0]:.2f} s (CPU {xdsl[n][1]:.2f} s)")
            for pipeline in args.pipelines.split(","):
                if PIPELINES[pipeline][0] != dialect(kind):
                    continue
                runs, translated = {}, {}
                for n in sizes:
                    out = Path(tmp, "out.mlir")
                    runs[n] = timed([*TTMLIR_OPT_CPU_TIMED, *PIPELINES[pipeline][1], "--mlir-timing",
                                     "--mlir-timing-display=list", str(files[n]), "-o", str(out)])
                    translated[n] = timed([*TTMLIR_TRANSLATE, str(out), "-o", str(out.with_suffix(".ttnn"))])[1]
                print(f"\n{kind} / {pipeline}:")
                for n in sizes:
                    wall, cpu, _ = runs[n]
                    print(f"  {n} ops: {wall:.2f} s (CPU {cpu:.2f} s)" +
                          (f", {cpu / xdsl[n][1]:.2f}x xdsl-opt's CPU time" if n in xdsl else ""))
                for a, b in zip(sizes, sizes[1:]):
                    print(f"  time({b}) / time({a}) = {runs[b][1] / runs[a][1]:.1f} (CPU)")
                last = runs[sizes[-1]][2]
                names = sorted(last, key=lambda k: -last[k])
                print(f"  {'us per op':>10} " + "".join(f"{n:>10}" for n in sizes) + "  name")
                for name in names:
                    if name == "Total":
                        continue
                    per_op = [runs[n][2].get(name, 0.0) / n * 1e6 for n in sizes]
                    mark = ""
                    for (a, pa), (b, pb) in zip(zip(sizes, per_op), zip(sizes[1:], per_op[1:])):
                        share = runs[b][2].get(name, 0.0) / max(runs[b][2].get("Total", 1.0), 1e-9)
                        if pa > 0 and pb / pa > args.flag_ratio and share >= args.min_share:
                            mark = f"  <-- grows {pb / pa:.1f}x per op from {a} to {b}"
                            flagged.append(f"{kind} / {pipeline}: {name} ({pb / pa:.1f}x per op, {a} -> {b})")
                    print(f"  {'':>10} " + "".join(f"{p:>10.1f}" for p in per_op) + f"  {name}{mark}")
                # the flatbuffer writer too (whole process, start-up included, so small sizes read high per op)
                per_op = [translated[n] / n * 1e6 for n in sizes]
                grows = [(a, b, pb / pa) for (a, pa), (b, pb) in zip(zip(sizes, per_op), zip(sizes[1:], per_op[1:]))
                         if pb / pa > args.flag_ratio]
                flagged += [f"{kind} / {pipeline}: ttmlir-translate ({r:.1f}x per op, {a} -> {b})" for a, b, r in grows]
                print(f"  {'':>10} " + "".join(f"{p:>10.1f}" for p in per_op) + "  ttmlir-translate --ttnn-to-flatbuffer"
                      + (f"  <-- grows {grows[-1][2]:.1f}x per op" if grows else ""))
    print("\nPasses above linear: " + ("; ".join(flagged) if flagged else "none"))


if __name__ == "__main__":
    main()
