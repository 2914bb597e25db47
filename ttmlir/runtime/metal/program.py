"""Running a `.ttm` program on the simulated grid: its command queue, command by command.

Buffer conventions (what `--ttmetal-to-flatbuffer` writes and the compiler allocates):
- a host buffer is a torch tensor of the memref's shape (bf16 and f16 in their own type, other formats as f32),
  let go after the last command that reads it; a program's results are returned as f32;
- a sharded device buffer of shape `GY x GX x SY x SX` lives at the same address in the L1 of cores (0..GY-1,
  0..GX-1), core (y, x) holding elements (tiles, when tiled) [y*SY, (y+1)*SY) x [x*SX, (x+1)*SX) row-major;
- an interleaved DRAM buffer is paged round-robin over the banks, a tile per page (tiled) or the page its layout
  names (row-major: a row of its shard), its storage dropped when it is deallocated; the host moves a large
  tensor to and from it a slice of pages at a time;
- a CB is backed by an L1 buffer: one page per shard element, on the buffer's cores;
- a kernel argument `cb_port[i]` is the port of the launch's i-th CB, `buffer_address[i]` the address of its
  i-th operand.
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy
import torch

from ttmlir import hardware
from ttmlir.hardware import tile_padded, tile_padded_strides
from ttmlir.runtime.host_memory import host_memory_available
from ttmlir.runtime.metal import tile_math
from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.mesh import MESH_COMMANDS, fabric_ns, mesh_of
from ttmlir.runtime.metal.core import SEMAPHORE_SLOTS, CBConfig, KernelLaunch, MetalError, Program, ProgramStats
from ttmlir.target import flatbuffer as fbu
from ttmlir.target import metal_generated as fbm

_PROCESSORS = {0: "brisc", 1: "ncrisc"}
_FIDELITIES = {value: name for name, value in vars(fbm.MathFidelity).items() if not name.startswith("_")}


@dataclass
class DeviceBuffer:
    """A buffer on the grid: `shape` is the host's for a host buffer, `GY x GX x SY x SX` for a sharded one (shards
    of elements or tiles on cores from `origin`; a row-major grid kept at its rank, its grid dims then its shard
    dims), the tensor's pages for an interleaved DRAM one."""
    id: int
    address: int
    shape: tuple[int, ...]
    dtype: str
    tiled: bool
    layout: int  # fbm.BufferLayout
    page: int
    origin: tuple[int, int] = (0, 0)
    cores_shape: tuple[int, int] | None = None  # the rectangle of cores its shards fill row by row (default: grid)

    @classmethod
    def of(cls, ref: fbm.BufferRefT) -> "DeviceBuffer":
        desc = ref.desc
        return cls(ref.globalId, int(ref.address), tuple(int(d) for d in fbu.as_list(desc.shape)),
                   fbu.enum_names(fbm.DataType)[desc.dataType], desc.tileShape is not None and desc.tileShape.y > 0,
                   desc.layout, int(desc.pageSize),
                   (desc.coreOffset.y, desc.coreOffset.x) if desc.coreOffset is not None else (0, 0),
                   (desc.coreGrid.y, desc.coreGrid.x) if desc.coreGrid is not None else None)

    def cb_pages(self) -> tuple[int, int]:
        """The pages of a CB over this buffer's shard, (bytes each, count): its tiles, or for row-major elements
        tile-sized pages (a 32-row block of a shard W tiles wide is W pages, as tilize reads it)."""
        count = math.prod(self.shard)
        if self.tiled:
            return self.page, count
        tile = tile_math.TILE * tile_math.TILE
        if count % tile:
            raise MetalError(f"buffer {self.id}: a row-major shard of {count} elements is not whole tiles' worth")
        return tile * self.page, count // tile

    def accessor_words(self, device: Grid) -> tuple[int, ...]:
        """What a TensorAccessorArgs of this buffer reads (see `hardware.tensor_accessor_words`)."""
        if self.layout == fbm.BufferLayout.Interleaved:
            return hardware.tensor_accessor_words()
        if self.layout != fbm.BufferLayout.Sharded:
            raise MetalError(f"buffer {self.id}: a host buffer has no tensor accessor")
        self.shards(device)  # checks it is on the device
        return hardware.tensor_accessor_words(self.grid, self.shard, self.origin, self.cores_shape or self.grid)

    @property
    def grid(self) -> tuple[int, ...]:
        return self.shape[:len(self.shape) // 2]

    @property
    def shard(self) -> tuple[int, ...]:
        return self.shape[len(self.shape) // 2:]

    def cores(self, device: Grid) -> list[tuple[int, int]]:
        return [core for _, core in self.shards(device)]

    @property
    def flat_grid(self) -> tuple[int, int]:
        """The grid as rows and columns of shards (a grid kept at its rank: its leading dims folded into rows)."""
        return math.prod(self.grid[:-1]), self.grid[-1]

    def shards(self, device: Grid) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """Each shard's place in the (flat) grid and the core holding it (row by row over its rectangle of
        cores)."""
        grid = self.flat_grid
        cores = self.cores_shape or grid
        if cores[0] * cores[1] != grid[0] * grid[1] or \
                not all(0 < g and 0 <= o and o + g <= d for g, o, d in zip(cores, self.origin, device.shape)):
            raise MetalError(f"buffer {self.id}: its {'x'.join(map(str, self.grid))} grid of shards on {cores[0]}x"
                             f"{cores[1]} cores from core {self.origin} does not fit the {device.shape[0]}x"
                             f"{device.shape[1]} worker grid")
        (oy, ox), columns = self.origin, cores[1]
        return [((y, x), (oy + (y * grid[1] + x) // columns, ox + (y * grid[1] + x) % columns))
                for y in range(grid[0]) for x in range(grid[1])]

    def nd_shards(self, host: torch.Tensor):
        """A row-major buffer of a grid kept at its rank (shards of several matrices): `host` (its elements, of the
        buffer's padded shape) as each shard's block in the flat grid's order."""
        n = len(self.grid)
        blocks = host.reshape([d for g, s in zip(self.grid, self.shard) for d in (g, s)])
        blocks = blocks.permute(*range(0, 2 * n, 2), *range(1, 2 * n, 2))
        return blocks.reshape(math.prod(self.grid), *self.shard)


@contextlib.contextmanager
def located(command: fbm.CommandT):
    """A command's failure names the command and its location."""
    try:
        yield
    except MetalError as error:
        raise MetalError(f"{type(command.type).__name__[:-8]} at {command.loc}: {error}") from None


@contextlib.contextmanager
def _naming(buffer: DeviceBuffer):
    """A transfer's failure names the device buffer it moves."""
    try:
        yield
    except MetalError as error:
        raise MetalError(f"buffer {buffer.id}: {error}") from None


def _matrices(shape: tuple[int, ...]) -> tuple[int, int, int]:
    """A tensor as a batch of matrices: (batch, rows, cols)."""
    shape = (1,) * max(0, 2 - len(shape)) + tuple(shape)
    return math.prod(shape[:-2]), shape[-2], shape[-1]


def _held_shape(ref: fbm.BufferRefT) -> tuple[int, ...]:
    """The shape the simulation holds a host buffer in: its own, or for one padded to whole tiles
    (`#ttcore.host_layout`) its padded matrices, (batch, rows, cols); a padding other than that is refused."""
    shape = tuple(int(d) for d in fbu.as_list(ref.desc.shape))
    strides = tuple(int(s) for s in fbu.as_list(ref.desc.hostStrides))
    if not strides:
        return shape
    batch, rows, cols = tile_padded(shape)
    if strides != tile_padded_strides(shape) or ref.desc.hostVolume != batch * rows * cols:
        raise MetalError(f"host buffer {ref.globalId}: a padding of strides {list(strides)} (volume "
                         f"{ref.desc.hostVolume}) is not each matrix padded to whole tiles")
    return batch, rows, cols


# elements of f32 a host transfer converts at once: a large tensor moves between host and DRAM a slice of pages at a
# time, so its staging costs a slice, not whole-tensor float copies
TRANSFER_ELEMENTS = 1 << 20


def held_dtype(dtype: str) -> torch.dtype:
    """The torch type a host buffer of `dtype` is held in: 16-bit floats in their own type (exactly, at half an
    f32's bytes), integers as f64 (every 32-bit integer exactly), every other format as f32."""
    if dtype in ("bf16", "f16"):
        return tile_math.FORMATS[dtype]
    return torch.float64 if tile_math.is_integer(dtype) else torch.float32


def _hold(tensor: torch.Tensor, dtype: str) -> torch.Tensor:
    """A host tensor as this simulation holds a buffer of `dtype` (`held_dtype`; a tensor of that type as it is, no
    copy)."""
    return tensor if tensor.dtype == held_dtype(dtype) else tensor.to(held_dtype(dtype))


def _result(tensor: torch.Tensor, dtype: str) -> torch.Tensor:
    """A program's result as the host returns it: floats as f32, integers as int32."""
    return tensor.to(torch.int32 if tile_math.is_integer(dtype) else torch.float32)


def _tile_slices(batch: int, rows: int, cols: int):
    """A batch of (rows x cols) tile-padded matrices in slices of about TRANSFER_ELEMENTS, in page order: (first
    matrix, end matrix, first row, end row); a slice is whole matrices, or row blocks of one."""
    if rows * cols <= TRANSFER_ELEMENTS:
        step = TRANSFER_ELEMENTS // (rows * cols)
        for b in range(0, batch, step):
            yield b, min(b + step, batch), 0, rows
        return
    step = max(tile_math.TILE, TRANSFER_ELEMENTS // cols // tile_math.TILE * tile_math.TILE)
    for b in range(batch):
        for r in range(0, rows, step):
            yield b, b + 1, r, min(r + step, rows)


def _page_slices(host: torch.Tensor, buffer: DeviceBuffer):
    """A host tensor as the device buffer's bytes in page order, a slice at a time: its tiles (each matrix of the
    batch padded with zeros to whole tiles), or its rows' elements."""
    if not buffer.tiled:
        matrix = host.reshape(-1, host.shape[-1]) if host.dim() > 1 else host.reshape(1, -1)
        step = max(1, TRANSFER_ELEMENTS // matrix.shape[1])
        for r in range(0, matrix.shape[0], step):
            yield tile_math.to_bytes(matrix[r:r + step], buffer.dtype).reshape(-1)
        return
    batch, rows, cols = tile_padded(tuple(host.shape))
    matrices = host.reshape(batch, *((1,) * max(0, 2 - host.dim()) + tuple(host.shape))[-2:])
    for b0, b1, r0, r1 in _tile_slices(batch, rows, cols):
        part = matrices[b0:b1, r0:r1]
        part = torch.nn.functional.pad(part, (0, cols - part.shape[2], 0, r1 - r0 - part.shape[1]))
        yield tile_math.tilize(part.reshape(-1, cols), buffer.dtype)


def _pages(host: torch.Tensor, buffer: DeviceBuffer) -> torch.Tensor:
    """A host tensor as the device buffer's elements (tiles) in row-major order over the whole tensor: shape
    (rows, cols, bytes per element). Tiled, the batch folds into rows."""
    if buffer.tiled:
        batch, rows, cols = tile_padded(tuple(host.shape))
        units = batch * rows // tile_math.TILE, cols // tile_math.TILE
    else:
        units = (math.prod(host.shape[:-1]) if host.dim() > 1 else 1), host.shape[-1]
    return torch.cat(list(_page_slices(host, buffer))).reshape(*units, -1)


def _row_major_nd(buffer: DeviceBuffer) -> None:
    """A buffer of a grid kept at its rank the host moves shard by shard holds row-major elements (tiled ones come
    with one matrix per shard, as 2-d grids)."""
    if buffer.tiled:
        raise MetalError(f"buffer {buffer.id}: a tiled buffer of a {'x'.join(map(str, buffer.grid))} grid is moved "
                         "with one matrix per shard")


def write_buffer(grid: Grid, host: torch.Tensor, buffer: DeviceBuffer) -> None:
    """A host tensor written into its device buffer (tilized, each matrix padded to whole tiles, when tiled); into
    DRAM a slice of pages at a time."""
    if buffer.layout == fbm.BufferLayout.Interleaved:
        page, carry = 0, torch.zeros(0, dtype=torch.uint8)
        held, width = _tile_width(host, buffer)
        for data in _page_slices(host, buffer):
            if width > held:  # a layout aligned to its grid pads each row of tiles at its end: zero tiles there
                data = torch.nn.functional.pad(data.reshape(-1, held, buffer.page), (0, 0, 0, width - held))
                data = data.reshape(-1)
            data = torch.cat([carry, data]) if carry.numel() else data
            whole = data.numel() // buffer.page * buffer.page
            grid.write_interleaved(buffer.address, data[:whole], buffer.page, page)
            page, carry = page + whole // buffer.page, data[whole:]
        if carry.numel():
            grid.write_interleaved(buffer.address, carry, buffer.page, page)
        if buffer.tiled and len(buffer.shape) == 4 and page < math.prod(buffer.shape):  # rows of tiles padding its end
            zeros = torch.zeros((math.prod(buffer.shape) - page) * buffer.page, dtype=torch.uint8)
            grid.write_interleaved(buffer.address, zeros, buffer.page, page)
        return
    if len(buffer.grid) > 2:  # a row-major grid kept at its rank: each shard's block of the padded tensor
        _row_major_nd(buffer)
        for (block, (_, core)) in zip(buffer.nd_shards(host), buffer.shards(grid)):
            grid.write(grid.l1_addr(*core, buffer.address), tile_math.to_bytes(block, buffer.dtype).reshape(-1))
        return
    (gy, gx), (sy, sx) = buffer.grid, buffer.shard[:2]
    if not buffer.tiled and host.numel() != gy * sy * gx * sx:  # row-major shards: each matrix padded to whole tiles
        batch, rows, cols = tile_padded(tuple(host.shape))
        _, kept_rows, kept_cols = _matrices(tuple(host.shape))
        host = torch.nn.functional.pad(host.reshape(batch, kept_rows, kept_cols),
                                       (0, cols - kept_cols, 0, rows - kept_rows)).reshape(batch * rows, cols)
    pages = _pages(host, buffer)
    if pages.shape[0] <= gy * sy and pages.shape[1] <= gx * sx:
        # a layout aligned to its grid pads the tensor's end (rows after the last matrix, columns after the last):
        # zeros there, as in each tile's padding
        pages = torch.nn.functional.pad(pages, (0, 0, 0, gx * sx - pages.shape[1], 0, gy * sy - pages.shape[0]))
    if pages.shape[0] != gy * sy or pages.shape[1] != gx * sx:
        raise MetalError(f"a host tensor of {tuple(host.shape)} does not fill the {gy}x{gx} grid of {sy}x{sx} "
                         f"shards of buffer {buffer.id}")
    for (y, x), core in buffer.shards(grid):
        shard = pages[y * sy:(y + 1) * sy, x * sx:(x + 1) * sx].reshape(-1)
        grid.write(grid.l1_addr(*core, buffer.address), shard)


def _tile_width(host: torch.Tensor, buffer: DeviceBuffer) -> tuple[int, int]:
    """Tiles per row of a tiled interleaved buffer: the host tensor's (each matrix in whole tiles), and the buffer's
    (more when its layout pads the tensor's end to its grid; a buffer of other than 2-d tiles holds the host's)."""
    held = tile_padded(tuple(host.shape))[2] // tile_math.TILE
    if not buffer.tiled or len(buffer.shape) != 4:
        return held, held
    return held, max(held, buffer.shape[1] * buffer.shape[3])


def _read_tiles(grid: Grid, buffer: DeviceBuffer, shape: tuple[int, ...], out: torch.Tensor) -> torch.Tensor:
    """An interleaved tiled buffer into `out` (`shape`), a slice of tile rows at a time, each matrix's padding
    dropped (and the columns of tiles padding the tensor's end)."""
    batch, rows, cols = tile_padded(shape)
    matrix = ((1,) * max(0, 2 - len(shape)) + tuple(shape))[-2:]
    matrices, width = out.reshape(batch, *matrix), _tile_width(out, buffer)[1]
    for b0, b1, r0, r1 in _tile_slices(batch, rows, cols):
        first = (b0 * rows + r0) // tile_math.TILE * width
        count = (b1 - b0) * (r1 - r0) // tile_math.TILE * width
        data = grid.read_interleaved(buffer.address, count * buffer.page, buffer.page, first)
        part = tile_math.untilize(data, ((b1 - b0) * (r1 - r0), width * tile_math.TILE), buffer.dtype)
        part = part[:, :cols].reshape(b1 - b0, r1 - r0, cols)
        kept = min(r1, matrix[0]) - r0
        matrices[b0:b1, r0:r0 + kept] = part[:, :kept, :matrix[1]]
    return out


def read_buffer(grid: Grid, buffer: DeviceBuffer, shape: tuple[int, ...]) -> torch.Tensor:
    """A device buffer read back as a host tensor of `shape` (held as `held_dtype` says)."""
    out = torch.empty(shape, dtype=held_dtype(buffer.dtype))
    if buffer.layout == fbm.BufferLayout.Interleaved:
        if buffer.tiled:
            return _read_tiles(grid, buffer, shape, out)
        flat, unit = out.reshape(-1), int(hardware.DTYPE_BYTES[buffer.dtype])
        step = TRANSFER_ELEMENTS // buffer.page * buffer.page or buffer.page  # whole pages of bytes
        for start in range(0, flat.numel() * unit, step):
            size = min(step, flat.numel() * unit - start)
            data = grid.read_interleaved(buffer.address, size, buffer.page, start // buffer.page)
            flat[start // unit:(start + size) // unit] = tile_math.from_bytes(data, buffer.dtype)
        return out
    if len(buffer.grid) > 2:  # a row-major grid kept at its rank: each shard's block into the padded tensor
        _row_major_nd(buffer)
        blocks = buffer.nd_shards(torch.empty(math.prod(buffer.grid) * math.prod(buffer.shard), dtype=out.dtype))
        size = math.prod(buffer.shard) * buffer.page
        for block, (_, core) in zip(blocks, buffer.shards(grid)):
            block.copy_(tile_math.from_bytes(grid.read(grid.l1_addr(*core, buffer.address), size), buffer.dtype)
                        .reshape(block.shape))
        n = len(buffer.grid)
        whole = blocks.reshape(*buffer.grid, *buffer.shard).permute(*(k for d in range(n) for k in (d, n + d)))
        out.copy_(whole.reshape(shape))
        return out
    if buffer.tiled:
        batch, rows, cols = tile_padded(shape)
        rows *= batch
    unit = tile_math.TILE if buffer.tiled else 1
    (gy, gx), (sy, sx) = buffer.grid, buffer.shard[:2]
    grid.check_l1(buffer.address, sy * sx * buffer.page, f"buffer {buffer.id}'s shard")
    pages = torch.zeros(gy * sy, gx * sx, buffer.page, dtype=torch.uint8)
    for (y, x), core in buffer.shards(grid):
        data = grid.read(grid.l1_addr(*core, buffer.address), sy * sx * buffer.page)
        pages[y * sy:(y + 1) * sy, x * sx:(x + 1) * sx] = data.reshape(sy, sx, -1)
    if buffer.tiled:  # each matrix's padding dropped, and the rows and columns padding the tensor's end
        whole = tile_math.untilize(pages.reshape(-1), (gy * sy * unit, gx * sx * unit), buffer.dtype)
        padded = whole[:rows, :cols].reshape(batch, rows // batch, cols)
        matrix = ((1,) * max(0, 2 - len(shape)) + tuple(shape))[-2:]
        out.copy_(padded[:, :matrix[0], :matrix[1]].reshape(shape))
        return out
    values = tile_math.from_bytes(pages.reshape(-1), buffer.dtype)
    if values.numel() != out.numel():  # row-major shards of each matrix padded to whole tiles (and the tensor's
        # end to its grid): the padding dropped
        batch, rows, cols = tile_padded(shape)
        _, kept_rows, kept_cols = _matrices(shape)
        values = values.reshape(gy * sy, gx * sx)[:batch * rows, :cols]
        values = values.reshape(batch, rows, cols)[:, :kept_rows, :kept_cols]
    out.copy_(values.reshape(shape))
    return out


class ProgramRunner:
    """One `.ttm` program's command queue on a grid, with its host buffers: one chip of a `MeshProgramRunner`,
    which binds its inputs and steps it through the commands."""

    def __init__(self, grid: Grid, program: fbm.ProgramT):
        self.grid, self.program = grid, program
        self.host: dict[int, torch.Tensor] = {}
        self.device: dict[int, DeviceBuffer] = {}
        self.stats: list[ProgramStats] = []
        self.launches: list[dict] = []  # per enqueue_program: its location, math fidelity and host times (ns)

    def bind(self, inputs: list[torch.Tensor]) -> None:
        program_inputs = fbu.as_list(self.program.inputs)
        if len(inputs) != len(program_inputs):
            raise MetalError(f"program '{self.program.name}' takes {len(program_inputs)} input(s), given {len(inputs)}")
        for ref, tensor in zip(program_inputs, inputs):
            self.host[ref.globalId] = _hold(tensor, DeviceBuffer.of(ref).dtype)

    def step(self, command: fbm.CommandT) -> list[torch.Tensor] | None:
        """One command, a launch's host times and fidelity recorded."""
        start = time.perf_counter_ns()
        results = self.command(command.type)
        if isinstance(command.type, fbm.EnqueueProgramCommandT):
            fidelities = [k.type.mathFidelity for k in fbu.as_list(command.type.kernels)
                          if isinstance(k.type, fbm.ComputeConfigT)]
            self.launches.append({
                "loc": command.loc or "", "host_start": start, "host_end": time.perf_counter_ns(),
                "math_fidelity": _FIDELITIES[fidelities[0]] if fidelities else ""})
        return results

    def command(self, table) -> list[torch.Tensor] | None:
        if isinstance(table, fbm.CreateBufferCommandT):
            self.device[table.ref.globalId] = DeviceBuffer.of(table.ref)
        elif isinstance(table, fbm.HostAllocCommandT):  # with data: a constant
            buffer = self.host_buffer(table.dst)
            if table.data is not None and len(table.data):  # flatbuffers reads the bytes as a numpy array
                data = torch.tensor(numpy.asarray(table.data, dtype=numpy.uint8))
                self.host[buffer.id] = _hold(data.view(tile_math.FORMATS[buffer.dtype]), buffer.dtype).reshape(
                    buffer.shape)
            else:  # zeros that take no memory until a transfer reads them
                self.host[buffer.id] = torch.zeros((), dtype=held_dtype(buffer.dtype)).expand(_held_shape(table.dst))
        elif isinstance(table, fbm.MemrefCopyCommandT):
            source, shape = self.host_of(table.src), tuple(int(d) for d in fbu.as_list(table.dst.desc.shape))
            held_src, held_dst = _held_shape(table.src), _held_shape(table.dst)
            batch, rows, cols = _matrices(shape)
            if held_src == held_dst:  # host buffers are never written in place: the copy shares the source's data
                self.host[table.dst.globalId] = source
            elif held_src == tuple(int(d) for d in fbu.as_list(table.src.desc.shape)) and held_dst == shape:
                self.host[table.dst.globalId] = source.reshape(shape)  # neither padded: a view in the new shape
            elif held_dst != shape:  # into a buffer padded to whole tiles
                padded = torch.zeros(held_dst, dtype=source.dtype)
                padded[:, :rows, :cols] = source.reshape(batch, rows, cols)
                self.host[table.dst.globalId] = padded
            else:  # a copy of its own, so the padded source can be released
                self.host[table.dst.globalId] = source[:, :rows, :cols].reshape(shape).clone()
        elif isinstance(table, fbm.EnqueueWriteBufferCommandT):
            device = self._device(table.dst)
            with _naming(device):
                write_buffer(self.grid, self.host_of(table.src), device)
        elif isinstance(table, fbm.EnqueueReadBufferCommandT):
            self.host_buffer(table.dst)
            device = self._device(table.src)
            with _naming(device):
                self.host[table.dst.globalId] = read_buffer(self.grid, device, _held_shape(table.dst))
        elif isinstance(table, fbm.EnqueueProgramCommandT):
            self.stats.append(self.grid.run(self.launch(table)))
        elif isinstance(table, fbm.DeallocateBufferCommandT):
            self.release(self.device.pop(table.ref.globalId, None))
        elif isinstance(table, fbm.ReturnCommandT):
            return [_result(self.host_of(ref), DeviceBuffer.of(ref).dtype) for ref in fbu.as_list(table.results)]
        elif not isinstance(table, fbm.FinishCommandT):
            raise MetalError(f"command {type(table).__name__[:-1]} is not run by this simulator")
        return None

    def release(self, buffer: DeviceBuffer | None) -> None:
        """A deallocated DRAM buffer's storage dropped: each bank's whole pages in its range no live buffer shares."""
        if buffer is None or buffer.layout != fbm.BufferLayout.Interleaved:
            return
        start, end = self._dram_range(buffer)
        for other in self.device.values():
            if other.layout == fbm.BufferLayout.Interleaved:
                lo, hi = self._dram_range(other)
                if lo < end and start < hi:  # shares the range: only what lies beyond it goes
                    start, end = (hi, end) if lo <= start else (start, min(end, lo))
                if start >= end:
                    return
        self.grid.release_dram(start, end)

    def _dram_range(self, buffer: DeviceBuffer) -> tuple[int, int]:
        """The addresses an interleaved buffer takes in each bank: its pages round-robin over the banks."""
        unit = buffer.page if buffer.tiled else hardware.DTYPE_BYTES[buffer.dtype]
        pages = -(-int(math.prod(buffer.shape) * unit) // buffer.page)
        return buffer.address, buffer.address + -(-pages // self.grid.facts.num_dram_channels) * buffer.page

    @staticmethod
    def host_buffer(ref: fbm.BufferRefT) -> DeviceBuffer:
        """A host buffer the simulation will hold (in `held_dtype`), refused past a quarter of this machine's
        available memory: a run holds the caller's tensor, its held copy, the device's bytes and the result at once
        (at half, a large input left the host out of memory converting it)."""
        buffer, available = DeviceBuffer.of(ref), host_memory_available()
        need = math.prod(buffer.shape) * held_dtype(buffer.dtype).itemsize
        if available is not None and need > available // 4:
            raise MetalError(f"host buffer {buffer.id} of shape {list(buffer.shape)} needs {need / 2**30:.1f} GiB; this "
                             f"machine has {available / 2**30:.1f} GiB available")
        return buffer

    def host_of(self, ref: fbm.BufferRefT) -> torch.Tensor:
        if ref.globalId not in self.host:
            raise MetalError(f"host buffer {ref.globalId} is used before it is written or allocated")
        return self.host[ref.globalId]

    def _device(self, ref: fbm.BufferRefT) -> DeviceBuffer:
        if ref.globalId not in self.device:
            raise MetalError(f"buffer {ref.globalId} was not created (or was deallocated) before its use")
        return self.device[ref.globalId]


    def launch(self, table: fbm.EnqueueProgramCommandT) -> Program:
        operands = [self._device(ref) for ref in fbu.as_list(table.operands)]
        cbs = [(int(ref.port), self._device(ref.buffer)) for ref in fbu.as_list(table.cbs)]
        for port, buffer in cbs:
            if not 0 <= port < self.grid.facts.num_cbs:
                raise MetalError(f"buffer {buffer.id} is given to cb {port}; a core has {self.grid.facts.num_cbs} CB "
                                 f"ports (0-{self.grid.facts.num_cbs - 1})")
        cb_configs = tuple(CBConfig(port, buffer.address, *buffer.cb_pages(), buffer.dtype, tuple(buffer.cores(self.grid)))
                           for port, buffer in cbs)

        def value(arg: fbm.KernelArgT, kernel: str) -> int:
            kind = fbu.enum_names(fbm.ArgType)[arg.type]
            index = int(arg.operandIndex)
            if kind == "cb_port":
                if index >= len(cbs):
                    raise MetalError(f"kernel '{kernel}' binds cb_port[{index}]; the launch has {len(cbs)} CB(s)")
                return cbs[index][0]
            if kind == "buffer_address":
                if index >= len(operands):
                    raise MetalError(f"kernel '{kernel}' binds buffer_address[{index}]; the launch has "
                                     f"{len(operands)} operand(s)")
                return operands[index].address
            if kind == "tensor_accessor_args":  # the buffer's description, a word or more
                if index >= len(operands):
                    raise MetalError(f"kernel '{kernel}' binds tensor_accessor_args[{index}]; the launch has "
                                     f"{len(operands)} operand(s)")
                return operands[index].accessor_words(self.grid)
            raise MetalError(f"kernel '{kernel}': {kind} arguments are not run by this simulator yet")

        kernels = []
        for config in fbu.as_list(table.kernels):
            args = config.args or fbm.KernelArgsT()
            bind = {group: tuple(word for a in fbu.as_list(getattr(args, group)) for word in
                                 arg_words(value(a, config.symbol))) for group in ("commonRtArgs", "rtArgs", "ctArgs")}
            (oy, ox), (sy, sx) = (config.coreOffset.y, config.coreOffset.x), (config.coreSize.y, config.coreSize.x)
            cores = tuple((y, x) for y in range(oy, oy + sy) for x in range(ox, ox + sx))
            if isinstance(config.type, fbm.ComputeConfigT):
                processor, fp32 = "compute", bool(config.type.fp32DestAccEn)
                fidelity, approx = fidelity_name(config.type.mathFidelity), bool(config.type.mathApproxMode)
            else:
                processor, fp32 = _PROCESSORS.get(int(config.type.dmCore), "brisc"), False
                fidelity, approx = "hifi4", False
            kernels.append(KernelLaunch(config.symbol, config.source, processor, cores, ct_args=bind["ctArgs"],
                                        common_rt_args=bind["commonRtArgs"],
                                        rt_args={core: bind["rtArgs"] for core in cores}, fp32_dest_acc_en=fp32,
                                        math_approx_mode=approx, math_fidelity=fidelity))
        # every program starts with its cores' semaphores at 0, as tt-metal creates a program's semaphores
        return Program(tuple(kernels), cb_configs, semaphores=(0,) * SEMAPHORE_SLOTS)


class MeshProgramRunner:
    """One program on every chip of its mesh: each chip a grid of its own with its own host buffers, running the
    program's commands in lockstep; the commands that see every chip (`mesh.MESH_COMMANDS`) run over the mesh.
    `stats` and `launches` are chip 0's (every chip runs the same launches), `collectives` the fabric's; the
    results are chip 0's host buffers (the whole tensor once a shard_to_full mesh_shard has joined the pieces),
    `chip_results` every chip's."""

    def __init__(self, make_grid: Callable[[], Grid], program: fbm.ProgramT):
        self.program, self.mesh = program, mesh_of(program)
        self.chips = [ProgramRunner(make_grid(), program) for _ in range(self.mesh[0] * self.mesh[1])]
        self.stats, self.launches = self.chips[0].stats, self.chips[0].launches
        self.chip_results: list[list[torch.Tensor]] = []
        self.collectives: list[dict] = []  # per collective: its location, kind and modelled time on the fabric

    def run(self, inputs: list[torch.Tensor | list[torch.Tensor]]) -> list[torch.Tensor]:
        """Each input is given to every chip, or (a list of one tensor per chip) a piece to each."""
        for i, value in enumerate(inputs):
            if isinstance(value, (list, tuple)) and len(value) != len(self.chips):
                raise MetalError(f"input {i} gives {len(value)} piece(s) to the {len(self.chips)} chips of program "
                                 f"'{self.program.name}' ({self.mesh[0]}x{self.mesh[1]} mesh)")
        refs = fbu.as_list(self.program.inputs)  # an input every chip gets is held once, for all of them
        inputs = [value if isinstance(value, (list, tuple)) or i >= len(refs) else
                  _hold(value, DeviceBuffer.of(refs[i]).dtype) for i, value in enumerate(inputs)]
        for chip, runner in enumerate(self.chips):
            runner.bind([value[chip] if isinstance(value, (list, tuple)) else value for value in inputs])
        results = [[] for _ in self.chips]
        commands = fbu.ttm_commands(self.program)
        last_uses = _host_last_uses(commands)
        for index, command in enumerate(commands):
            for runner in self.chips:  # host buffers no later command reads are let go
                for buffer in last_uses.get(index - 1, ()):
                    runner.host.pop(buffer, None)
            with located(command):
                handler = MESH_COMMANDS.get(type(command.type))
                if handler is None and self._run_replicated(command):
                    continue
                if handler is None:
                    for chip, runner in enumerate(self.chips):
                        results[chip] = runner.step(command) or results[chip]
                        if chip and isinstance(command.type, fbm.EnqueueReadBufferCommandT):
                            self._share_if_equal(runner, command.type.dst.globalId)
                    continue
                dst = command.type.dst
                shape = tuple(int(d) for d in fbu.as_list(dst.desc.shape))
                source = [runner.host_of(command.type.src) for runner in self.chips]
                if isinstance(command.type, fbm.CollectiveCommandT):  # reductions add in f32, as they always have
                    source = [value.float() for value in source]
                for chip, (runner, value) in enumerate(zip(self.chips, handler(source, command.type, self.mesh))):
                    runner.host_buffer(dst)
                    if tuple(value.shape) != shape:
                        raise MetalError(f"chip {chip} holds a {list(value.shape)} tensor where host buffer "
                                         f"{dst.globalId} is {list(shape)}: the program was compiled for another mesh "
                                         f"than its {self.mesh[0]}x{self.mesh[1]}")
                    runner.host[dst.globalId] = value
                if isinstance(command.type, fbm.CollectiveCommandT):
                    self.collectives.append({
                        "loc": command.loc or "", "kind": fbu.enum_names(fbm.CollectiveKind)[command.type.kind],
                        "fabric_ns": fabric_ns(command.type, self.mesh, self.chips[0].grid.facts.arch)})
        self.chip_results = results
        return results[0]


    def _share_if_equal(self, runner: ProgramRunner, buffer: int) -> None:
        """A chip's host buffer read back equal to chip 0's held as chip 0's (one tensor for both), so what every
        chip computes alike is held once and the host commands after it run once for the mesh."""
        mine, first = runner.host[buffer], self.chips[0].host[buffer]
        if mine.dtype == first.dtype and mine.shape == first.shape and torch.equal(mine, first):
            runner.host[buffer] = first

    def _run_replicated(self, command: fbm.CommandT) -> bool:
        """A host copy or DRAM write of a host tensor every chip holds alike, run once for all the chips: a copy's
        result held once (host buffers are never written in place); a write into a DRAM buffer made by chip 0, its
        pages shared by the other chips (copied by a chip only when it writes them). A replicated weight so takes
        its host and DRAM bytes once, not once per chip."""
        table, first = command.type, self.chips[0]
        if not isinstance(table, (fbm.EnqueueWriteBufferCommandT, fbm.MemrefCopyCommandT)) or len(self.chips) == 1:
            return False
        source = first.host_of(table.src)
        if any(runner.host_of(table.src) is not source for runner in self.chips[1:]):
            return False
        if isinstance(table, fbm.MemrefCopyCommandT):
            first.step(command)
            for runner in self.chips[1:]:
                runner.host[table.dst.globalId] = first.host[table.dst.globalId]
            return True
        buffer = first._device(table.dst)
        if buffer.layout != fbm.BufferLayout.Interleaved:
            return False
        first.step(command)
        start, end = first._dram_range(buffer)
        for runner in self.chips[1:]:
            runner._device(table.dst)
            runner.grid.share_dram(first.grid, start, end)
        return True


def _host_last_uses(commands: list) -> dict[int, list[int]]:
    """Per command index, the host buffers it is the last to write or read (a program's results are read by its
    return, the last command)."""
    last = {}
    for index, command in enumerate(commands):
        table = command.type
        refs = [getattr(table, field, None) for field in ("src", "dst")]
        refs += fbu.as_list(table.results) if isinstance(table, fbm.ReturnCommandT) else []
        for ref in refs:
            if ref is not None:
                last[ref.globalId] = index
    uses: dict[int, list[int]] = {}
    for buffer, index in last.items():
        uses.setdefault(index, []).append(buffer)
    return uses


def fidelity_name(value: int) -> str:
    if value not in _FIDELITIES:
        raise MetalError(f"unknown math fidelity {value} in a compute kernel's config")
    return _FIDELITIES[value].lower()


def arg_words(value: int | tuple[int, ...]) -> tuple[int, ...]:
    return value if isinstance(value, tuple) else (value,)


def binary_arch(root: fbm.TTMetalBinaryT) -> str:
    """The chip a `.ttm` was compiled for (its system descriptor's first chip)."""
    chips = fbu.as_list(root.systemDesc.chipDescs) if root.systemDesc is not None else []
    return fbu.enum_names(fbm.Arch)[chips[0].arch] if chips else "wormhole_b0"


def input_shapes(program: fbm.ProgramT) -> list[tuple[int, ...]]:
    """The shapes of a program's inputs (each refused if this machine cannot hold it)."""
    return [ProgramRunner.host_buffer(ref).shape for ref in fbu.as_list(program.inputs)]


def run_program(data: bytes, inputs: list[torch.Tensor], *, name: str = "<buffer>", program: int = 0,
                arch: str | None = None, exact: bool = False) -> tuple[list[torch.Tensor], list[ProgramStats]]:
    """Run program `program` of the `.ttm` in `data` on fresh grids of `arch` (default: the binary's chip), one per
    chip of its mesh, with the hardware's numerics or (`exact`) f32 tile math: chip 0's results."""
    chips, stats = run_program_on_mesh(data, inputs, name=name, program=program, arch=arch, exact=exact)
    return chips[0], stats


def run_program_on_mesh(data: bytes, inputs: list, *, name: str = "<buffer>", program: int = 0,
                        arch: str | None = None, exact: bool = False) -> tuple[list[list[torch.Tensor]],
                                                                              list[ProgramStats]]:
    """`run_program`, every chip's results (one list per chip, row-major over the mesh); an input is given to
    every chip, or as a list of one piece per chip."""
    _, root = fbu.load_bytes(data, name, expect="ttm")
    programs = fbu.as_list(root.programs)
    if not 0 <= program < len(programs):
        raise MetalError(f"{name} has {len(programs)} program(s); program {program} does not exist")
    runner = MeshProgramRunner(lambda: Grid(arch or binary_arch(root), exact=exact), programs[program])
    runner.run(inputs)
    return runner.chip_results, runner.stats
