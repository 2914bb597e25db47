"""The perf model: each op's device time on a simulated chip, from the chip's facts and a calibration fitted once
to published silicon figures (benchmarks/calibration_bench.py prints each figure, the prediction and the ratio).

Per op (`estimate`, the public cost function; the optimizer's op model calls it):

    compute_ns   matrix-engine ops (matmul, linear, convolutions, attention): tile products per core x
                 (fidelity cycles + the two source tiles' bytes / unpack rate), cores = the output tiles the grid
                 (or the cores the call confines the op to) can take; convolutions pay their im2col reads at CONV_EFFICIENCY. Other ops: output tiles per core
                 x the family's cycles per tile.
    bandwidth_ns DRAM tensors: bytes / (peak x efficiency at the transfer size: a page, or for a DRAM-sharded
                 tensor a row of its shard's tiles, contiguous in its bank); L1 tensors over the NoC
                 at 64 B/cycle per core; a collective also crosses one ethernet link (bytes / link rate + latency)
    kernel_ns    max(compute, bandwidth) + the program's launch on its cores
    bound        which of compute / dram / noc / eth set the time

Between ops the device idles for `gap_ns(traced)`: the traced op-to-op gap, or an untraced op's host dispatch.
A single op run from a trace also pays the trace's launch (`TRACE_LAUNCH_NS`). Host-only ops cost nothing on the
device; host transfers move their bytes over PCIe.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ttmlir import hardware

FIDELITY_CYCLES = {"LoFi": 16, "HiFi2": 32, "HiFi3": 48, "HiFi4": 64}  # one 32x32x32 tile product
FIDELITY_NAMES = {name.lower(): name for name in FIDELITY_CYCLES}  # compute_config's spelling
# TTNN's defaults when an op's compute_config names no fidelity: bfp8/bfp4 operands LoFi, f32 HiFi4, else HiFi2
FIDELITY = {"bfp_bf4": "LoFi", "bfp_f4": "LoFi", "bfp_bf8": "LoFi", "bfp_f8": "LoFi", "bfp_bf2": "LoFi",
            "bfp_f2": "LoFi", "f32": "HiFi4"}
CYCLES_PER_TILE = {"unary": 64, "binary": 32, "reduction": 48, "softmax": 160, "norm": 192}
MATMUL_OPS = {"matmul", "linear", "conv2d", "conv_transpose2d", "conv3d"}
CONV_OPS = {"conv2d", "conv_transpose2d", "conv3d"}
TRANSFER_OPS = {"to_device", "from_device", "write_tensor", "dump_tensor"}
# ops writing a few rows into their first operand in place: they move the update, not the whole cache
# bookkeeping on the host (the debug dialect's ops and load_cached among them): no program runs on the device
# host-side ops: what they run is charged op by op (a call's callee, a trace's recorded ops), never they themselves
NO_PROGRAM_OPS = {"deallocate", "annotate", "region_start", "region_end", "breakpoint", "print", "memory_snapshot",
                  "load_cached", "call", "capture_or_execute_trace", "begin_trace_capture", "end_trace_capture"}
CACHE_UPDATES = {"update_cache", "paged_update_cache", "fill_cache", "paged_fill_cache"}
ROW_GATHERS = {"embedding"}  # read only the table rows their indices name
NOC_BYTES_PER_CYCLE = 64
TRACE_LAUNCH_NS = 8_050


@dataclass(frozen=True)
class Calibration:
    """Per-architecture constants fitted to published figures (see the README's calibration table)."""

    unpack_bytes_per_cycle: float  # srcA/srcB fill per tile product, not hidden behind the math
    dram_efficiency: float         # of the channels' peak, for large transfers
    dram_half_bytes: float         # transfer size whose rate is half the large-transfer rate
    launch_ns: float               # a program's start and finish on its cores
    gap_traced_ns: float           # device idle between two ops of a trace
    dispatch_ns: float             # host dispatch of an untraced op (program cache hit)
    eth_latency_ns: float          # one ethernet hop


CALIBRATION = {
    "wormhole_b0": Calibration(unpack_bytes_per_cycle=250.0, dram_efficiency=0.93, dram_half_bytes=869.0,
                               launch_ns=1500.0, gap_traced_ns=2050.0, dispatch_ns=39_100.0, eth_latency_ns=1000.0),
    "blackhole": Calibration(unpack_bytes_per_cycle=465.0, dram_efficiency=0.977, dram_half_bytes=720.0,
                             launch_ns=1500.0, gap_traced_ns=2050.0, dispatch_ns=39_100.0, eth_latency_ns=700.0),
}
# Convolutions gather their im2col rows from neighbouring cores (halo) and run narrower blocks than a GEMM:
# the fraction of a GEMM's rate they reach, fitted to ResNet-50.
CONV_EFFICIENCY = 0.39


@dataclass
class OpPerf:
    op: str
    cores: int
    fidelity: str
    compute_ns: float
    bandwidth_ns: float
    ideal_ns: float
    kernel_ns: float
    bound: str = "none"
    flops: float = 0.0
    dram_bytes: float = 0.0
    noc_bytes: float = 0.0
    input_bytes: float = 0.0
    output_bytes: float = 0.0
    arch: str = "wormhole_b0"

    def gap_ns(self, traced: bool) -> float:
        """Device idle before this op: the traced op-to-op gap, or the host's dispatch of an untraced op."""
        if not self.kernel_ns or self.bound == "launch":  # a trace's launch is its own host command
            return 0.0
        calib = CALIBRATION[self.arch]
        return calib.gap_traced_ns if traced else calib.dispatch_ns

    @property
    def fpu_util(self) -> float:
        """Percent of the matrix engine's LoFi peak the op's flops use over its kernel time."""
        if not self.flops or not self.kernel_ns:
            return 0.0
        facts = hardware.CHIPS[self.arch]
        peak = 2 * 32 ** 3 / FIDELITY_CYCLES["LoFi"] * facts.grid[0] * facts.grid[1] * facts.clock_ghz
        return 100.0 * self.flops / self.kernel_ns / peak


def tiles(shape: list[int]) -> int:
    if not shape:
        return 1
    rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
    return max(1, math.ceil(rows / 32) * math.ceil(shape[-1] / 32))


def dram_gbps(arch: str, transfer_bytes: float) -> float:
    """The DRAM rate a stream of `transfer_bytes` requests reaches (bytes per ns)."""
    facts, calib = hardware.CHIPS[arch], CALIBRATION[arch]
    return facts.dram_gbps * calib.dram_efficiency * transfer_bytes / (transfer_bytes + calib.dram_half_bytes)


def page_bytes(t) -> float:
    """The size of one DRAM request for a tensor: a tile, or a row of a row-major tensor; a DRAM-sharded tensor (one
    shard per DRAM bank) is read a row of its shard's tiles at a time, which lie one after another in the bank."""
    if getattr(t, "layout", "tile") == "tile" or not t.shape:
        tile = hardware.tile_bytes(t.dtype)
        return tile * dram_shard_width_tiles(t) if t.buffer_type == "dram" else tile
    return max(1.0, t.shape[-1] * hardware.DTYPE_BYTES.get(t.dtype, 4))


def dram_shard_width_tiles(t) -> int:
    """Tiles in a row of a DRAM-sharded tensor's shard (1 for an interleaved one): its columns' tiles over the banks
    it is width-sharded across (all of them when height-sharded)."""
    layout = getattr(t, "memory_layout", None) or ""
    grid = getattr(t, "shard_grid", None) or getattr(t, "grid", None)
    if not layout.endswith("sharded") or not grid or not t.shape:
        return 1
    cols = math.ceil(t.shape[-1] / 32)
    if layout == "height_sharded":
        return cols
    return math.ceil(cols / (grid[1] if layout == "block_sharded" else grid[0] * grid[1]))


def _fidelity(dtypes: list[str], math_fidelity: str | None) -> str:
    if math_fidelity in FIDELITY_NAMES:
        return FIDELITY_NAMES[math_fidelity]
    if dtypes and all(FIDELITY.get(d) == "LoFi" for d in dtypes[:2]):
        return "LoFi"
    return "HiFi4" if dtypes and all(d == "f32" for d in dtypes[:2]) else "HiFi2"


def _products(op: str, inputs: list, outputs: list) -> tuple[int, int]:
    """(tile products, the inner dimension's length) of a matrix-engine op."""
    out = outputs[0].shape
    if op in ("matmul", "linear"):
        inner = inputs[0].shape[-1]
    elif op == "conv3d":  # the prepared weight is (blocks x kD x kH x kW x block, O)
        inner = inputs[1].shape[0]
    elif _prepared_conv2d_weight(inputs[1].shape, out):  # (1, 1, kH*kW*C_in, O) from prepare_conv2d_weights
        inner = inputs[1].shape[2]
    else:  # conv2d weights (O, C/groups, kH, kW): each window position's channels padded to a tile
        weight = inputs[1].shape
        inner = math.ceil(weight[1] / 32) * 32 * math.prod(weight[2:])
    return tiles(out) * math.ceil(inner / 32), inner


def _prepared_conv2d_weight(weight, out) -> bool:
    return len(weight) == 4 and tuple(weight[:2]) == (1, 1) and weight[3] == out[-1] > 1


def estimate(op: str, family: str, inputs: list, outputs: list, arch: str, chips: int = 1,
             math_fidelity: str | None = None, max_cores: int | None = None) -> OpPerf:
    """The modelled device time of one op. Inputs and outputs are tensors with `shape`, `dtype`, `buffer_type`,
    `size` (bytes in its buffer), `on_device` and optionally `layout`; `chips` in the mesh; `math_fidelity` as a
    compute_config spells it (`hifi4`), when the op has one; `max_cores` the cores the op is confined to (a core
    grid, sub-core grids or a program config's grid), else the chip's whole worker grid."""
    facts, calib = hardware.CHIPS[arch], CALIBRATION[arch]
    tensors = inputs + outputs
    dtypes = [t.dtype for t in inputs] or [t.dtype for t in outputs] or ["f32"]
    fidelity = _fidelity(dtypes, math_fidelity)
    in_bytes, out_bytes = float(sum(t.size for t in inputs)), float(sum(t.size for t in outputs))
    perf = OpPerf(op, 0, fidelity, 0.0, 0.0, 0.0, 0.0, "none", 0.0, 0.0, 0.0, in_bytes, out_bytes, arch)
    if op == "execute_trace":  # one command for the whole trace; its ops are charged as they replay
        perf.kernel_ns = perf.ideal_ns = TRACE_LAUNCH_NS
        perf.bound = "launch"
        return perf
    if op in NO_PROGRAM_OPS or not any(t.on_device for t in tensors):
        return perf
    cycle_ns = 1 / facts.clock_ghz
    if op in TRANSFER_OPS:
        perf.bandwidth_ns = perf.ideal_ns = (in_bytes + out_bytes) / 2 / facts.pcie_gbps
        perf.kernel_ns, perf.bound = perf.ideal_ns + calib.launch_ns, "pcie"
        return perf
    out_tiles = sum(tiles(t.shape) for t in outputs) or 1
    grid = facts.grid[0] * facts.grid[1]
    cores = perf.cores = min(grid if max_cores is None else min(max_cores, grid), out_tiles)
    if op in MATMUL_OPS and len(inputs) >= 2:
        products, inner = _products(op, inputs, outputs)
        source = hardware.tile_bytes(inputs[0].dtype) + hardware.tile_bytes(inputs[1].dtype)
        per_product = FIDELITY_CYCLES[fidelity] + source / calib.unpack_bytes_per_cycle
        perf.flops = 2.0 * math.prod(outputs[0].shape) * inner
        perf.compute_ns = math.ceil(products / cores) * per_product * cycle_ns
        if op in CONV_OPS:
            perf.compute_ns /= CONV_EFFICIENCY
    elif family == "attention":  # q kᵀ and the weights times v: 2 flops per query row, key and head feature
        rows, keys = math.prod(outputs[0].shape[:-1]), inputs[1].shape[-2]
        perf.flops = 2.0 * rows * keys * (inputs[0].shape[-1] + outputs[0].shape[-1])
        source = hardware.tile_bytes(inputs[0].dtype) + hardware.tile_bytes(inputs[1].dtype)
        per_product = FIDELITY_CYCLES[fidelity] + source / calib.unpack_bytes_per_cycle
        perf.compute_ns = math.ceil(perf.flops / (2 * 32 ** 3) / cores) * per_product * cycle_ns
    else:
        perf.compute_ns = math.ceil(out_tiles / cores) * CYCLES_PER_TILE.get(family, 16) * cycle_ns
    if op in CACHE_UPDATES and len(inputs) > 1:  # the update is read, then written into the cache
        tensors = [t for t in tensors if t is not inputs[0]] + inputs[1:2]
    traffic = [(t, t.size) for t in tensors]
    if op in ROW_GATHERS and len(inputs) > 1:  # a row of the table per output row: as many bytes as the output
        traffic = [(t, min(size, out_bytes) if t is inputs[1] else size) for t, size in traffic]
    dram = [(t, size) for t, size in traffic if t.buffer_type == "dram"]
    perf.dram_bytes = float(sum(size for _, size in dram))
    perf.noc_bytes = float(sum(size for t, size in traffic if t.buffer_type in ("l1", "l1_small")))
    dram_ns = sum(size / dram_gbps(arch, page_bytes(t)) for t, size in dram)
    noc_ns = perf.noc_bytes / (NOC_BYTES_PER_CYCLE * cores * facts.clock_ghz)
    eth_ns = out_bytes / facts.eth_gbps + calib.eth_latency_ns if family == "ccl" and chips > 1 else 0.0
    perf.bandwidth_ns = dram_ns + noc_ns + eth_ns
    bounds = {"compute": perf.compute_ns, "dram": dram_ns, "noc": noc_ns, "eth": eth_ns}
    perf.bound = max(bounds, key=bounds.get)
    perf.ideal_ns = max(perf.compute_ns, perf.bandwidth_ns)
    perf.kernel_ns = perf.ideal_ns + calib.launch_ns
    return perf


def program_ns(perfs: list[OpPerf], traced: bool) -> float:
    """A program's device time: its ops' kernels and the gaps between them (one trace launch when traced)."""
    device = [p for p in perfs if p.kernel_ns]
    total = sum(p.kernel_ns + p.gap_ns(traced) for p in device)
    return total + (TRACE_LAUNCH_NS if traced and device else 0.0)
