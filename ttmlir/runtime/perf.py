"""The perf model: an estimate of each op's device time from the chip's facts.

    compute_ns   = work / (rate per core per cycle x cores used) / clock
    bandwidth_ns = bytes read and written / (DRAM bandwidth, or the NoC's 64 B/cycle per core for L1)
    ideal_ns     = max(compute_ns, bandwidth_ns)
    kernel_ns    = ideal_ns + OP_LAUNCH_NS

Work is FLOPs for matmul/convolution/attention (rate by math fidelity: the op's compute_config's, else the operand
format's) and
tiles for everything else (cycles per tile by family). Cores used: the output's tile count, capped by
the worker grid. Host transfers (to_device/from_device) move their bytes over PCIe. Collectives and
mesh_shard (family "ccl") also send their output's bytes over one ethernet link between chips (on a
single chip nothing crosses). Host-only ops (both operands in system memory) cost no device time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ttmlir import hardware

OP_LAUNCH_NS = 1500
NOC_BYTES_PER_CYCLE = 64
FLOPS_PER_CYCLE = {"LoFi": 4096, "HiFi2": 2048, "HiFi3": 1365, "HiFi4": 1024}
FIDELITY_NAMES = {name.lower(): name for name in FLOPS_PER_CYCLE}  # compute_config's spelling
FIDELITY = {"bfp_bf4": "LoFi", "bfp_f4": "LoFi", "bfp_bf2": "LoFi", "bfp_f2": "LoFi", "bfp_bf8": "HiFi2",
            "bfp_f8": "HiFi2", "bf16": "HiFi2", "f16": "HiFi2"}  # f32 and integers: HiFi4
CYCLES_PER_TILE = {"matmul": 0, "unary": 64, "binary": 32, "reduction": 48, "softmax": 160, "norm": 192}
MATMUL_OPS = {"matmul", "linear", "conv2d", "conv_transpose2d", "conv3d"}
TRANSFER_OPS = {"to_device", "from_device", "write_tensor"}


@dataclass
class OpPerf:
    op: str
    cores: int
    fidelity: str
    compute_ns: float
    bandwidth_ns: float
    ideal_ns: float
    kernel_ns: float


def _tiles(shape: list[int]) -> int:
    if not shape:
        return 1
    rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
    return max(1, math.ceil(rows / 32) * math.ceil(shape[-1] / 32))


def estimate(op: str, family: str, inputs: list, outputs: list, arch: str, chips: int = 1,
             math_fidelity: str | None = None) -> OpPerf:
    """Inputs and outputs are runtime Tensors (shape, dtype, buffer_type, size); `chips` in the mesh;
    `math_fidelity` as a compute_config spells it (`hifi4`), when the op has one."""
    facts = hardware.CHIPS[arch]
    tensors = inputs + outputs
    dtype = inputs[0].dtype if inputs else (outputs[0].dtype if outputs else "f32")
    fidelity = FIDELITY_NAMES.get(math_fidelity or "") or FIDELITY.get(dtype, "HiFi4")
    if not any(t.on_device for t in tensors):
        return OpPerf(op, 0, fidelity, 0.0, 0.0, 0.0, 0.0)
    cycle_ns = 1 / facts.clock_ghz
    out_tiles = sum(_tiles(t.shape) for t in outputs) or 1
    cores = min(facts.grid[0] * facts.grid[1], out_tiles)
    if op in TRANSFER_OPS:
        nbytes = sum(t.size for t in tensors) / 2
        bandwidth = nbytes / facts.pcie_gbps
        return OpPerf(op, 0, fidelity, 0.0, bandwidth, bandwidth, bandwidth + OP_LAUNCH_NS)
    if op in MATMUL_OPS and len(inputs) >= 2:
        out = outputs[0].shape
        inner = (inputs[0].shape[-1] if op in ("matmul", "linear") else
                 inputs[1].shape[0] if op == "conv3d" else math.prod(inputs[1].shape[1:]))  # conv3d's weight is 2D
        flops = 2 * math.prod(out) * inner
        compute = flops / (FLOPS_PER_CYCLE[fidelity] * cores) * cycle_ns
    elif family == "attention":  # q kᵀ and the weights times v: 2 flops per query row, key and head feature
        rows, keys = math.prod(outputs[0].shape[:-1]), inputs[1].shape[-2]
        flops = 2 * rows * keys * (inputs[0].shape[-1] + outputs[0].shape[-1])
        compute = flops / (FLOPS_PER_CYCLE[fidelity] * cores) * cycle_ns
    else:
        compute = out_tiles * CYCLES_PER_TILE.get(family, 16) / cores * cycle_ns
    dram_bytes = sum(t.size for t in tensors if t.buffer_type == "dram")
    l1_bytes = sum(t.size for t in tensors if t.buffer_type in ("l1", "l1_small"))
    bandwidth = dram_bytes / facts.dram_gbps + l1_bytes / (NOC_BYTES_PER_CYCLE * cores * facts.clock_ghz)
    if family == "ccl" and chips > 1:
        bandwidth += sum(t.size for t in outputs) / facts.eth_gbps
    ideal = max(compute, bandwidth)
    return OpPerf(op, cores, fidelity, compute, bandwidth, ideal, ideal + OP_LAUNCH_NS)
