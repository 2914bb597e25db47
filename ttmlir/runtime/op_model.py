"""The op model: whether a TTNN op may run with given operand and result layouts on a chip, and how long it takes.

Torch-free, so the optimizer (compiler side) and `ttrt perf` share it. A layout is a `TensorSpec` (what a
`#ttnn.ttnn_layout` or a flatbuffer tensor descriptor says). Legality is judged per worker core:

    l1 per core = L1 banks' size (l1_size - unreserved base - l1_small) x the tensor L1 usage cap
    used        = the result's bytes on its busiest core (a shard, or its interleaved pages)
                  + circular buffers: two pages (double buffered) per interleaved operand and result, and for
                    matmul a block of in0, in1 and the result as its program config blocks them
    legal       = used <= l1 per core, every shard the grid shape its kernel accepts (below)

Sharded results the kernels accept (tt-metal's sharded program factories): eltwise ops shard their result any way
when their sharded operands share its spec; matmul/linear height-shard (1D, in0 multicast), width-shard (1D, in1
multicast) or block-shard (2D multicast); softmax and norms over the last dim height-shard only (whole rows on a
core); conv2d height-shards its flattened NHW rows. A matmul/linear's weight may be width-sharded over the DRAM banks
(tt-metal's DRAM-sharded matmul), every other sharded operand is in L1. Data movement and reductions read sharded operands and write
interleaved results; every other op reads and writes interleaved tensors.
Runtimes are `ttmlir.runtime.perf.estimate`'s: the one perf model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ttmlir import hardware
from ttmlir.runtime import perf

L1_SMALL_SIZE = 32768  # tt-metal's default l1_small region per core (the runtime's allocator reserves the same)
TILE = 32
SHARDED = ("height_sharded", "width_sharded", "block_sharded")
# which sharded results an op family's kernels produce; a family not named reads and writes interleaved tensors
SHARDABLE = {"unary": SHARDED, "binary": SHARDED, "ternary": SHARDED, "matmul": SHARDED,
             "softmax": ("height_sharded",), "norm": ("height_sharded",), "conv": ("height_sharded",)}
# families whose kernels also read sharded operands (gathering shards as they go) but write interleaved results
READS_SHARDED = {*SHARDABLE, "reshape", "permute", "concat", "slice", "reduction", "repeat", "pad"}


@dataclass(frozen=True)
class TensorSpec:
    """A tensor as the op model sees it: logical shape, data type, tiled or row-major, buffer and memory layout, and
    for a sharded layout the (rows, columns) core grid it is spread over."""

    shape: tuple[int, ...]
    dtype: str
    buffer_type: str = "dram"
    memory_layout: str | None = "interleaved"
    grid: tuple[int, int] = (1, 1)
    tiled: bool = True

    @property
    def on_device(self) -> bool:
        return self.buffer_type != "system_memory"

    @property
    def sharded(self) -> bool:
        return self.memory_layout in SHARDED

    @property
    def physical(self) -> tuple[int, int]:
        """(rows, columns) of the 2-d collapsed tensor, in tiles when tiled, else in elements."""
        shape = self.shape or (1,)
        rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
        if self.tiled:
            inner = shape[-2] if len(shape) > 1 else 1
            rows = rows // max(inner, 1) * math.ceil(inner / TILE) if len(shape) > 1 else 1
            return rows, math.ceil(shape[-1] / TILE)
        return rows, shape[-1]

    @property
    def page_bytes(self) -> int:
        unit = hardware.DTYPE_BYTES[self.dtype]
        return math.ceil(TILE * TILE * unit) if self.tiled else math.ceil(self.shape[-1] * unit) if self.shape else 4

    @property
    def size(self) -> int:
        rows, cols = self.physical
        return rows * cols * self.page_bytes if self.tiled else rows * self.page_bytes

    def shard_shape(self) -> tuple[int, int]:
        """Pages (tiles) per core in (rows, columns) of a sharded tensor."""
        rows, cols = self.physical
        cores = self.grid[0] * self.grid[1]
        if self.memory_layout == "height_sharded":
            return math.ceil(rows / cores), cols
        if self.memory_layout == "width_sharded":
            return rows, math.ceil(cols / cores)
        return math.ceil(rows / self.grid[0]), math.ceil(cols / self.grid[1])

    def l1_per_core(self, arch: str) -> int:
        """Bytes on the busiest L1 bank (0 unless in L1)."""
        if self.buffer_type != "l1":
            return 0
        if self.sharded:
            r, c = self.shard_shape()
            return r * c * self.page_bytes if self.tiled else r * self.page_bytes
        banks = hardware.CHIPS[arch].grid[0] * hardware.CHIPS[arch].grid[1]
        pages = self.physical[0] * (self.physical[1] if self.tiled else 1)
        return math.ceil(pages / banks) * self.page_bytes


def l1_budget(arch: str, usage_cap: float = 0.95) -> int:
    """Bytes per core the optimizer may fill with tensors and circular buffers."""
    facts = hardware.CHIPS[arch]
    return int((facts.l1_size - facts.l1_unreserved_base - L1_SMALL_SIZE) * usage_cap)


def core_grid(cores: int, arch: str) -> tuple[int, int] | None:
    """The (rows, columns) worker rectangle a shard grid of `cores` occupies: a row of them, or whole rows."""
    gy, gx = hardware.CHIPS[arch].grid
    if cores <= gx:
        return 1, cores
    return (cores // gx, gx) if cores % gx == 0 and cores // gx <= gy else None


def shardings(spec: TensorSpec, kinds: tuple[str, ...], arch: str) -> list[TensorSpec]:
    """The sharded L1 layouts of `spec` whose shards split its tiles evenly, most cores first."""
    if not spec.tiled or len(spec.shape) < 1:
        return []
    rows, cols = spec.physical
    gy, gx = hardware.CHIPS[arch].grid
    out: list[TensorSpec] = []
    for kind in kinds:
        if kind == "block_sharded":
            grids = [(y, x) for y in range(gy, 0, -1) for x in range(gx, 0, -1)
                     if rows % y == 0 and cols % x == 0 and y * x > 1 and y > 1 and x > 1]
        else:
            extent = rows if kind == "height_sharded" else cols
            grids = [g for n in range(gy * gx, 1, -1) if extent % n == 0 and (g := core_grid(n, arch))]
        out += [TensorSpec(spec.shape, spec.dtype, "l1", kind, g, True) for g in grids]
    return sorted(out, key=lambda s: -s.grid[0] * s.grid[1])


@dataclass(frozen=True)
class Verdict:
    legal: bool
    reason: str = ""
    l1_per_core: int = 0      # the result's bytes on its busiest core plus the op's circular buffers
    cb_per_core: int = 0


def circular_buffers(op: str, family: str, inputs: list[TensorSpec], output: TensorSpec,
                     blocks: tuple[int, int, int] | None = None) -> int:
    """Bytes of circular buffers per core: a sharded operand's CB is its shard (already counted), an interleaved
    one streams through two pages; matmul holds its in0/in1/out blocks (`blocks` = out_block_h, in0_block_w,
    out_block_w in tiles), the inputs double buffered."""
    total = sum(2 * t.page_bytes for t in (*inputs, output) if t.on_device and not t.sharded)
    if family == "matmul" and blocks is not None and len(inputs) >= 2:
        m, k, n = blocks
        total += 2 * (m * k * inputs[0].page_bytes + k * n * inputs[1].page_bytes) + m * n * output.page_bytes
    return total


def check(op: str, family: str, inputs: list[TensorSpec], output: TensorSpec, arch: str,
          usage_cap: float = 0.95, blocks: tuple[int, int, int] | None = None) -> Verdict:
    """Whether `op` may run reading `inputs` and writing `output` as laid out."""
    if output.sharded:
        kinds = SHARDABLE.get(family, ())
        if output.memory_layout not in kinds:
            return Verdict(False, f"'{op}' cannot produce a {output.memory_layout} result"
                                  f"{' (it supports ' + ', '.join(kinds) + ')' if kinds else ''}")
        if output.buffer_type != "l1":
            return Verdict(False, f"a {output.memory_layout} result must be in L1, not {output.buffer_type}")
        gy, gx = hardware.CHIPS[arch].grid
        if output.grid[0] > gy or output.grid[1] > gx:
            return Verdict(False, f"a {output.grid[0]}x{output.grid[1]} shard grid exceeds the {gy}x{gx} worker cores")
        rows, cols = output.physical
        cores = output.grid[0] * output.grid[1]
        even = {"height_sharded": rows % cores == 0, "width_sharded": cols % cores == 0,
                "block_sharded": rows % output.grid[0] == 0 and cols % output.grid[1] == 0}[output.memory_layout]
        if not output.tiled or not even:
            return Verdict(False, f"a {rows}x{cols}-tile tensor does not split evenly into {output.memory_layout} "
                                  f"shards over {output.grid[0]}x{output.grid[1]} cores")
    for i, t in enumerate(inputs):
        if t.sharded and family not in READS_SHARDED:
            return Verdict(False, f"'{op}' reads interleaved operands only; operand {i} is {t.memory_layout}")
        if t.sharded and output.sharded and (t.memory_layout, t.grid, t.physical) != \
                (output.memory_layout, output.grid, output.physical) and not (family == "matmul" and i > 0):
            return Verdict(False, f"operand {i}'s {t.memory_layout} shards over {t.grid[0]}x{t.grid[1]} cores do not "
                                  f"match the result's {output.memory_layout} over {output.grid[0]}x{output.grid[1]}")
        dram_weight = i == 1 and op in ("matmul", "linear") and t.memory_layout == "width_sharded"
        if t.sharded and t.buffer_type == "dram" and not dram_weight:
            return Verdict(False, f"'{op}' cannot read operand {i} sharded over DRAM banks (only a matmul's weight)")
        if t.sharded and family == "matmul" and i > 0 and not (dram_weight and t.buffer_type == "dram"):
            return Verdict(False, f"'{op}' reads its weight (operand {i}) interleaved or width-sharded over DRAM banks")
    cbs = circular_buffers(op, family, inputs, output, blocks)
    used = output.l1_per_core(arch) + cbs  # operands already in L1 are the spill manager's to count
    budget = l1_budget(arch, usage_cap)
    if used > budget:
        return Verdict(False, f"needs {used} bytes of L1 per core, more than the {budget} available", used, cbs)
    return Verdict(True, "", used, cbs)


def runtime_ns(op: str, family: str, inputs: list[TensorSpec], outputs: list[TensorSpec], arch: str,
               math_fidelity: str | None = None) -> float:
    """The op's modelled kernel time (the perf model's), in nanoseconds."""
    return perf.estimate(op, family, list(inputs), list(outputs), arch, 1, math_fidelity).kernel_ns


def matmul_blocks(out: TensorSpec, inner_tiles: int, arch: str) -> dict[str, int | tuple[int, int] | bool]:
    """A matmul program config for a result laid out as `out`: the core grid, per-core output block (per_core_m x
    per_core_n tiles), in0 block width (the largest divisor of K up to 8 tiles) and the largest output subblock that
    fits the 8-tile half of the destination register."""
    rows, cols = out.physical
    if out.sharded:
        grid = out.grid
        cores = grid[0] * grid[1]
        per_m, per_n = {"height_sharded": (rows // cores, cols), "width_sharded": (rows, cols // cores),
                        "block_sharded": (rows // grid[0], cols // grid[1])}[out.memory_layout]
    else:
        gy, gx = hardware.CHIPS[arch].grid
        grid = (min(gy, rows), min(gx, cols))
        per_m, per_n = math.ceil(rows / grid[0]), math.ceil(cols / grid[1])
    in0_block_w = _divisor_up_to(inner_tiles, 8)
    # a core works through its per_core_m x per_core_n tiles in output blocks of at most 8x8 (what its CBs hold)
    block_h, block_w = _divisor_up_to(per_m, 8), _divisor_up_to(per_n, 8)
    sub_h, sub_w = max(((h, w) for h in range(1, block_h + 1) for w in range(1, block_w + 1)
                        if block_h % h == 0 and block_w % w == 0 and h * w <= 8), key=lambda hw: (hw[0] * hw[1], hw[1]))
    return {"grid": grid, "per_core_m": per_m, "per_core_n": per_n, "in0_block_w": in0_block_w,
            "out_block_h": block_h, "out_block_w": block_w, "out_subblock_h": sub_h, "out_subblock_w": sub_w}


def _divisor_up_to(n: int, limit: int) -> int:
    return max(d for d in range(1, min(n, limit) + 1) if n % d == 0)


@dataclass(frozen=True)
class Conv2dWork:
    """What a conv2d (or transposed conv2d) moves through L1: its input as (batch, height, width, channels) -- for a
    transposed conv the stride-dilated input it slides over --, its output rows (batch x height x width) and
    channels, the kernel and the element type."""

    batch: int
    height: int
    width: int
    channels: int
    out_rows: int
    out_channels: int
    kernel: tuple[int, int]
    dtype: str

    def l1_per_core(self, arch: str, slices: int = 1, along: str = "height", act_block_h: int = 0) -> int:
        """Bytes per core with the output cut into `slices` along its height or width, each slice height-sharded
        over the worker grid: the slice's input resharded into L1 and its halo'd copy (each core's rows plus the
        kernel's overlap), its output shard, one activation block of `act_block_h` rows (0: the whole shard) by a
        kernel row of channels, and the weights of that kernel row for the output channels one grid column computes
        (wide convolutions split their output channels over the columns). Channels are padded to whole tiles."""
        gy, gx = hardware.CHIPS[arch].grid
        cores = gy * gx
        unit = hardware.DTYPE_BYTES[self.dtype]
        channels, out_channels = (math.ceil(c / TILE) * TILE for c in (self.channels, self.out_channels))
        kh, kw = self.kernel
        width = math.ceil(self.width / slices) if along == "width" else self.width
        in_rows = math.ceil(self.batch * self.height * self.width / slices / cores)
        halo = (kh - 1) * width + kw - 1
        out_rows = math.ceil(self.out_rows / slices / cores / TILE) * TILE
        block = min(act_block_h, out_rows) if act_block_h else out_rows
        return unit * ((2 * in_rows + halo) * channels + out_rows * out_channels
                       + block * kw * channels + kw * channels * math.ceil(out_channels / gx / TILE) * TILE)

    def slices_needed(self, arch: str, slice_type: str, act_block_h: int = 0, slices: int = 0,
                      usage_cap: float = 0.95) -> int | None:
        """How many slices the conv runs in as `slice_type` says (`slices` 0: the fewest that fit), None if it does
        not fit L1 so: `l1_full` is one slice."""
        budget = l1_budget(arch, usage_cap)
        along = "width" if slice_type == "dram_width" else "height"
        extent = self.width if along == "width" else self.height
        counts = [1] if slice_type == "l1_full" else [slices] if slices else range(1, extent + 1)
        return next((n for n in counts if self.l1_per_core(arch, n, along, act_block_h) <= budget), None)
