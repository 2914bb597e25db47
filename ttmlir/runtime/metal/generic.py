"""Running a `ttnn.generic` (a program of the compiler's own kernels inside a `.ttnn` graph) on the simulated grid.

The op's tensors are placed as TTNN holds them: DRAM-interleaved a page (tile) per bank in turn from the
unreserved base, or L1-sharded on the cores their layout names, allocated from the top of L1 down as tt-metal's
allocator does; the program's own CBs are allocated from the bottom up (an overlap with an L1 tensor is refused).
The kernels run with their arguments bound to those places; then every tensor is read back, as the op writes its
tensors in place."""

from __future__ import annotations

import math

import torch

from ttmlir import hardware
from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.core import SEMAPHORE_SLOTS, CBConfig, KernelLaunch, MetalError, Program
from ttmlir.runtime.metal.program import DeviceBuffer, arg_words, fidelity_name, read_buffer, write_buffer
from ttmlir.target import binary_generated as fb
from ttmlir.target import flatbuffer as fbu
from ttmlir.target import metal_generated as fbm

ALIGN = 32
_PROCESSORS = {fb.DataMovementType.Riscv0: "brisc", fb.DataMovementType.Riscv1: "ncrisc"}


def _cores(ranges: fb.CoreRangeSetT | None) -> list[tuple[int, int]]:
    """The cores (y, x) of a TTNN core range set (inclusive (x, y) corners), in order."""
    cores = []
    for r in fbu.as_list(ranges.coreRanges if ranges is not None else None):
        (x0, y0), (x1, y1) = (r.startCoord.x, r.startCoord.y), (r.endCoord.x, r.endCoord.y)
        cores += [(y, x) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1) if (y, x) not in cores]
    return cores


class _Allocator:
    """Addresses for one op's buffers: DRAM from the unreserved base, L1 tensors from the top, CBs from the bottom."""

    def __init__(self, grid: Grid):
        facts = grid.facts
        self.dram, self.l1_top, self.l1_bottom = facts.dram_unreserved_base, facts.l1_size, facts.l1_unreserved_base

    def take(self, memory: str, size: int) -> int:
        size = -(-size // ALIGN) * ALIGN
        if memory == "dram":
            self.dram += size
            return self.dram - size
        if memory == "l1_top":
            self.l1_top -= size
            address = self.l1_top
        else:
            address, self.l1_bottom = self.l1_bottom, self.l1_bottom + size
        if self.l1_bottom > self.l1_top:
            raise MetalError(f"the program's CBs and L1 tensors need more than the {self.l1_top} B of L1 a core has")
        return address


def _place(ref: fb.TensorRefT, index: int, grid: Grid, allocator: _Allocator) -> DeviceBuffer:
    """Operand `index` of the op as a device buffer where TTNN holds it."""
    layout = ref.desc.layout
    dtype = fbu.enum_names(fb.DataType)[layout.dataType]
    tiled = layout.tileShape is not None and layout.tileShape.y > 0
    page = hardware.tile_bytes(dtype) if tiled else hardware.DTYPE_BYTES[dtype]
    config = layout.memoryConfig
    shape = tuple(int(d) for d in fbu.as_list(ref.desc.shape))
    if config.bufferType == fb.BufferType.Dram:
        pages = math.prod(hardware.tile_padded(shape)) // (32 * 32) if tiled else math.prod(shape)  # a page each
        banks = grid.facts.num_dram_channels
        address = allocator.take("dram", -(-pages // banks) * page)
        return DeviceBuffer(index, address, shape, dtype, tiled, fbm.BufferLayout.Interleaved, page)
    if config.bufferType != fb.BufferType.L1 or config.tensorMemoryLayout == fb.TensorMemoryLayout.Interleaved:
        raise MetalError(f"operand {index}: only DRAM-interleaved and L1-sharded tensors are given to a generic op's "
                         "kernels here")
    cores = _cores(layout.coreRangeSet)
    origin = min(cores) if cores else (0, 0)
    grid_shape = ((max(y for y, _ in cores) - origin[0] + 1, max(x for _, x in cores) - origin[1] + 1) if cores
                  else (layout.grid.y, layout.grid.x))
    shard = tuple(int(d) for d in fbu.as_list(layout.memrefShape))
    if len(shard) > 2:  # an ND shard: its outer dims fold into its rows, one shard on each core of the grid
        unit = (32, 32) if tiled else (1, 1)
        logical = (*shape[:-2], -(-shape[-2] // unit[0]), -(-shape[-1] // unit[1])) if len(shape) >= 2 else shape
        count = math.prod(-(-d // s) for d, s in zip(logical[-len(shard):], shard))
        if count != math.prod(grid_shape):
            raise MetalError(f"operand {index}: {count} ND shard(s) of {'x'.join(map(str, shard))} on "
                             f"{math.prod(grid_shape)} core(s): only one shard per core is run here")
        shard = (math.prod(shard[:-1]), shard[-1])
    address = allocator.take("l1_top", math.prod(shard) * page)
    return DeviceBuffer(index, address, (*grid_shape, *shard), dtype, tiled, fbm.BufferLayout.Sharded, page, origin)


def _launch(table: fb.GenericOpT, buffers: list[DeviceBuffer], grid: Grid, allocator: _Allocator,
            additional: list[int]) -> Program:
    """`additional`: the word each further operand gives a kernel (a global semaphore's address, a scalar's bits)."""
    program = table.program
    cbs = []
    for cb in fbu.as_list(program.cbs):
        cores = tuple(_cores(cb.coreRange))
        if cb.buffer is not None and not 0 <= cb.buffer.tensorOperandIndex < len(buffers):
            raise MetalError(f"a CB lives in operand {cb.buffer.tensorOperandIndex}; the op has {len(buffers)}")
        address = buffers[cb.buffer.tensorOperandIndex].address if cb.buffer is not None else \
            allocator.take("l1_bottom", cb.totalSize)
        for fmt in fbu.as_list(cb.formats):
            if not 0 <= fmt.bufferIndex < grid.facts.num_cbs:
                raise MetalError(f"a CB on index {fmt.bufferIndex}; a core has {grid.facts.num_cbs} CB indices")
            cbs.append(CBConfig(fmt.bufferIndex, address, fmt.pageSize, cb.totalSize // fmt.pageSize,
                                fbu.enum_names(fb.DataType)[fmt.dtype], cores))
    semaphores = [0] * SEMAPHORE_SLOTS
    for semaphore in fbu.as_list(program.semaphores):
        if not 0 <= semaphore.id < SEMAPHORE_SLOTS:
            raise MetalError(f"semaphore {semaphore.id}: a core has {SEMAPHORE_SLOTS} semaphores")
        semaphores[semaphore.id] = semaphore.initialValue

    def value(arg: fb.KernelArgT, kernel: str) -> int | tuple[int, ...]:
        entry, kind = arg.arg, type(arg.arg).__name__.removesuffix("T")
        if kind == "KernelArgCBBufferIndex":
            return entry.bufferIndex
        if kind == "KernelArgNamedArgument":
            return entry.value
        if kind == "KernelArgSemaphoreAt":
            return entry.semaphoreIndex
        index = entry.operandIndex
        if kind in ("KernelArgGlobalSemaphore", "KernelArgScalar"):  # counted after the tensors, as the operands are
            if not 0 <= index - len(buffers) < len(additional):
                raise MetalError(f"kernel '{kernel}' binds operand {index}; the op has {len(additional)} after its "
                                 f"{len(buffers)} tensors")
            return additional[index - len(buffers)]
        if not 0 <= index < len(buffers):
            raise MetalError(f"kernel '{kernel}' binds operand {index}; the op has {len(buffers)}")
        if kind == "KernelArgBufferAddressOfTensor":
            return buffers[index].address
        return buffers[index].accessor_words(grid)

    kernels = []
    for kernel in fbu.as_list(program.kernels):
        cores = tuple(_cores(kernel.coreRanges))
        def words(args: fb.KernelCoreArgsT | None) -> tuple[int, ...]:
            return tuple(word for a in fbu.as_list(args.args if args else None) for word in arg_words(value(a, kernel.symbol)))

        ct, common = words(kernel.ctArgs), words(kernel.commonRtArgs)
        per_core = {core: () for core in cores}
        for entry in fbu.as_list(kernel.rtArgs):
            core = (entry.coreCoord.y, entry.coreCoord.x)
            if core not in per_core:
                raise MetalError(f"kernel '{kernel.symbol}': runtime args for core ({core[1]}, {core[0]}), which does not "
                                 "run it")
            per_core[core] = words(entry.args)
        config = kernel.config
        if isinstance(config, fb.ComputeKernelConfigT):
            processor, fp32 = "compute", bool(config.fp32DestAccEn)
            fidelity, approx = fidelity_name(config.mathFidelity), bool(config.mathApproxMode)
        else:
            processor = _PROCESSORS[config.processor] if isinstance(config, fb.DataMovementKernelConfigT) else \
                "ncrisc" if isinstance(config, fb.ReaderKernelConfigT) else "brisc"
            fp32, fidelity, approx = False, "hifi4", False
        kernels.append(KernelLaunch(kernel.symbol or "kernel", kernel.source, processor, cores, ct_args=ct,
                                    common_rt_args=common, rt_args=per_core,
                                    fp32_dest_acc_en=fp32, math_approx_mode=approx, math_fidelity=fidelity))
    return Program(tuple(kernels), tuple(cbs), semaphores=tuple(semaphores))


def run_generic(table: fb.GenericOpT, values: list[torch.Tensor], arch: str, exact: bool = False,
                additional: list[tuple[str, int]] = ()) -> tuple[list[torch.Tensor], list[int]]:
    """The op's tensors and global semaphore values after its program ran on a fresh grid of `arch` (in f32 tile
    math with `exact`), given their values before. `additional` gives each further operand: ("semaphore", value)
    or ("scalar", its 32 bits). A global semaphore is one L1 word, at the same address on every core of the
    program, set to its value before the run; its value after is the first core's."""
    grid = Grid(arch, exact=exact)
    allocator = _Allocator(grid)
    refs = fbu.as_list(table.inputsAndOutputs)
    buffers = [_place(ref, i, grid, allocator) for i, ref in enumerate(refs)]
    for buffer, value in zip(buffers, values):
        write_buffer(grid, value.float(), buffer)
    words = [allocator.take("l1_top", 4) if kind == "semaphore" else value for kind, value in additional]
    program = _launch(table, buffers, grid, allocator, words)
    cores = sorted({core for kernel in program.kernels for core in kernel.cores})
    semaphores = [(address, value) for address, (kind, value) in zip(words, additional) if kind == "semaphore"]
    for address, value in semaphores:
        for core in cores:
            grid.write(grid.l1_addr(*core, address), torch.tensor([value], dtype=torch.int32).view(torch.uint8))
    grid.run(program)
    after = [int(grid.read(grid.l1_addr(*cores[0], address), 4).view(torch.int32)[0]) if cores else value
             for address, value in semaphores]
    return [read_buffer(grid, buffer, tuple(value.shape)) for buffer, value in zip(buffers, values)], after
