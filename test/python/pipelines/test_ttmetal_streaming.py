"""Programs whose operands do not fit L1 on the Metal path: a matmul's K streamed through double-buffered CBs block
by block (partial sums kept between blocks), tensors too large for L1 kept in DRAM, and copies of them (a DRAM
tensor's shard, a gathered input) streamed through CBs of a few pages a tile at a time; compiled by
`--ttir-to-ttmetal-pipeline`, translated and run on the simulated grid against torch; a weight larger than all L1
costs the run's host about its own bytes."""

import json
import math
import os
import subprocess
import sys

import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

TORCH = {"f32": torch.float32, "bf16": torch.bfloat16}


def compile_module(text: str, options: str = ""):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", options).apply(ctx, module)
    return module


def matmul_module(m: int, k: int, n: int, dtype: str, transpose_b: bool = False, options: str = ""):
    ta, tb, tc = (f"tensor<{r}x{c}x{dtype}>" for r, c in ((m, k), (n, k) if transpose_b else (k, n), (m, n)))
    flags = " <{transpose_b = true}>" if transpose_b else ""
    return compile_module(f"func.func @mm(%a: {ta}, %b: {tb}) -> {tc} {{\n"
                          f"  %0 = \"ttir.matmul\"(%a, %b){flags} : ({ta}, {tb}) -> {tc}\n  return %0 : {tc}\n}}\n",
                          options)


def buffers(module) -> list[str]:
    return [str(op.results[0].type) for op in module.walk() if op.name == "ttmetal.create_buffer"]


def matmul_launch(module, stats: list):
    """The matmul's launch: after the tilize of each operand the host writes row-major into L1."""
    row_major = [op for op in module.walk() if op.name == "ttmetal.enqueue_write_buffer" and
                 "!ttcore.tile" not in str(op.operands[1].type)]
    return stats[len(row_major)]


def operands(m: int, k: int, n: int, dtype: str, transpose_b: bool) -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(5)
    a, b = (torch.randn(shape, generator=generator).to(TORCH[dtype]).float()
            for shape in ((m, k), (n, k) if transpose_b else (k, n)))
    return a, b


@pytest.mark.parametrize("dtype, transpose_b", [("f32", False), ("bf16", True)])
def test_a_long_k_is_streamed_block_by_block(dtype, transpose_b):
    m, k, n = 64, 4096, 64  # all of K would take over a quarter of a core's L1
    module = matmul_module(m, k, n, dtype, transpose_b)
    a, b = operands(m, k, n, dtype, transpose_b)
    (out,), stats = run_program(translate(module), [a, b], exact=dtype == "f32")
    expected = a @ (b.T if transpose_b else b)
    if dtype == "f32":
        assert torch.allclose(out, expected, rtol=1e-4, atol=1e-3)
    else:  # a 16-bit dst (and partial sums) accumulating 128 K tiles in bf16: the golden gate's PCC
        assert torch.corrcoef(torch.stack([out.flatten(), expected.flatten()]))[0, 1] > 0.99
    products = (m // 32) * (n // 32) * (k // 32)
    # more tiles than the products: each block after the first reloads its partial sums into dst (the matmul's launch
    # follows its operands' tilizes, those in L1)
    assert matmul_launch(module, stats).tiles_computed > products


def test_a_short_k_is_moved_in_one_block():
    m, k, n = 64, 256, 64
    module = matmul_module(m, k, n, "f32")
    a, b = operands(m, k, n, "f32", False)
    (out,), stats = run_program(translate(module), [a, b], exact=True)
    assert torch.allclose(out, a @ b, rtol=1e-4, atol=1e-4)
    assert matmul_launch(module, stats).tiles_computed == (m // 32) * (n // 32) * (k // 32)


def test_a_weight_larger_than_l1_lives_in_dram():
    m, k, n = 32, 8192, 64  # B's shard (all of K, a tile wide) is 1 MiB of f32 on each core of the output grid
    module = matmul_module(m, k, n, "f32")
    assert any("memory_space<dram>" in t and "256x2x" in t for t in buffers(module))  # the weight, interleaved in DRAM
    a, b = operands(m, k, n, "f32", False)
    (out,), _ = run_program(translate(module), [a, b], exact=True)
    assert torch.allclose(out, a @ b, rtol=1e-4, atol=1e-3)


# A run of a compiled matmul in a process of its own, a bf16 weight made in place (no f32 copy before the run): the
# host memory the run adds, its peak RSS (the kernel's high-water mark, reset when the run starts) over the RSS before
# it; glibc's mmap threshold is fixed so freed staging goes back to the system and RSS follows live memory.
_RUN_IN_A_PROCESS = """
import json, sys, torch
from ttmlir.runtime.metal.program import run_program
def status(key):
    with open("/proc/self/status") as lines:
        return next(int(line.split()[1]) * 1024 for line in lines if line.startswith(key))
m, k, n = map(int, sys.argv[2:5])
generator = torch.Generator().manual_seed(3)
a = torch.empty(m, k, dtype=torch.bfloat16).normal_(generator=generator)
b = torch.empty(k, n, dtype=torch.bfloat16).normal_(0, k ** -0.5, generator=generator)
data = open(sys.argv[1], "rb").read()
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")
before = status("VmRSS:")
(out,), _ = run_program(data, [a, b])
added = status("VmHWM:") - before
expected = a.float() @ b.float()
print(json.dumps({"added": added, "pcc": torch.corrcoef(torch.stack([out.flatten(), expected.flatten()]))[0, 1].item()}))
"""


def _run_in_a_process(tmp_path, data: bytes, m: int, k: int, n: int) -> dict:
    binary = tmp_path / f"mm_{k}x{n}.ttm"
    binary.write_bytes(data)
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    run = subprocess.run([sys.executable, "-c", _RUN_IN_A_PROCESS, str(binary), str(m), str(k), str(n)],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(run.stdout.splitlines()[-1])


def test_a_weight_larger_than_all_l1_streams_from_dram_in_host_memory_of_its_size(tmp_path):
    """On one core (1.5 MB of L1), bf16 weights of 8 and 16 MiB stay in DRAM and reach the core a K block of tiles
    at a time through CBs; the result is right, and what a run adds to the host's memory grows with the weight by
    about its bytes (the DRAM copy; the host tensor is staged a slice at a time), not by its f32 copies."""
    m, n = 32, 4096
    runs = {}
    for k in (1024, 2048):
        module = matmul_module(m, k, n, "bf16", options="override-device-shape=1,1")
        weight = [t for t in buffers(module) if f"{k // 32}x{n // 32}x!ttcore.tile" in t]
        assert weight and all("memory_space<dram>" in t for t in weight)
        # bf16 tiles of 2 KiB, or (the result untilized for the host) bf16 elements of 2 bytes
        l1_bytes = [math.prod(int(d) for d in t.split("<")[1].split("x!")[0].split("xbf16")[0].split("x")) *
                    (2048 if "x!" in t else 2) for t in buffers(module) if "memory_space<l1>" in t]
        assert sum(l1_bytes) < 1536 * 1024 < k * n * 2  # the core's buffers (CBs) hold a few blocks of it
        runs[k] = _run_in_a_process(tmp_path, translate(module), m, k, n)
        assert runs[k]["pcc"] > 0.999
    weight_bytes = {k: k * n * 2 for k in runs}
    # the larger run's weight is 8 MiB more: its host memory may grow by that and a half more, where whole-tensor
    # f32 staging (the input widened, padded and tilized at once) grew by over six times it
    grown = runs[2048]["added"] - runs[1024]["added"]
    assert grown <= 1.5 * (weight_bytes[2048] - weight_bytes[1024]), runs
    assert runs[2048]["added"] <= 1.5 * weight_bytes[2048] + (16 << 20), runs


def test_a_4096_square_weight_compiles_to_a_streamed_program():
    module = matmul_module(32, 4096, 4096, "bf16")
    # the 32 MiB weight in DRAM; on each of the 8 cores, K blocks of B (2 buffers) and the partial sums in L1
    assert any("memory_space<dram>" in t and "128x128x" in t for t in buffers(module))
    assert len(translate(module)) > 0


def test_elementwise_ops_on_dram_tensors_stream_a_tile_at_a_time():
    t = "tensor<384x1024xf32>"  # 1.5 MiB on the one core: in DRAM, moved through CBs of 2 pages
    module = compile_module(f"func.func @f(%x: {t}, %y: {t}) -> {t} {{\n"
                            f"  %0 = \"ttir.exp\"(%x) : ({t}) -> {t}\n"
                            f"  %1 = \"ttir.add\"(%0, %y) : ({t}, {t}) -> {t}\n  return %1 : {t}\n}}\n",
                            "override-device-shape=1,1")
    kinds = buffers(module)
    assert any("memory_space<dram>" in k and "12x32x" in k for k in kinds)
    assert all("12x32x" not in k for k in kinds if "memory_space<l1>" in k)  # no whole-shard L1 copies
    generator = torch.Generator().manual_seed(2)
    x, y = torch.randn(384, 1024, generator=generator), torch.randn(384, 1024, generator=generator)
    (out,), _ = run_program(translate(module), [x, y], exact=True)
    assert torch.allclose(out, torch.exp(x) + y, rtol=1e-4, atol=1e-4)
