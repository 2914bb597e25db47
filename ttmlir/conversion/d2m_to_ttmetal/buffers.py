"""Where the Metal path's tensors live on the device: the grid each is computed on, its shards in L1 or its pages
interleaved over the DRAM banks, and the fixed address of each (a bump allocator per memory space from the chip's
unreserved base, refusing what does not fit); each placed tensor is a `ttmetal.create_buffer` of its memref."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, TensorType, i64
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects import ttcore, ttmetal, ttnn
from ttmlir.errors import PassFailure
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.conversion.d2m_to_ttnn.convert_d2m_to_ttnn import device_of
from ttmlir.transforms.ttnn.ttnn_utils import ttnn_empty
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import DTYPES, TILE, Placed, ShardLayout, fold_grid, grid_maps
from ttmlir.transforms.d2m.d2m_grid_selection import grid_for


@dataclass
class DevicePlacement:
    """The buffers of one function: placed on `device_grid` of `chip`, their create_buffer ops appended to `ops`."""

    func: FuncOp
    device_grid: tuple[int, int]
    chip: dict
    ops: list[Operation]
    ttnn_mode: bool = False
    stream_buffers: int = 2  # pages of a CB tiles are streamed through (num-stream-buffers; 2: double buffering)
    buffers: list[SSAValue] = field(default_factory=list)
    layouts: dict[SSAValue, ShardLayout] = field(default_factory=dict)  # each buffer's (the CBs of a ttnn.generic)

    def __post_init__(self):
        self.next = {"l1": int(self.chip["l1_unreserved_base"]), "dram": int(self.chip["dram_unreserved_base"])}

    def shape_of(self, t: Attribute, op: Operation) -> tuple[int, int, str]:
        if not isinstance(t, TensorType):
            raise PassFailure(op, f"{t} is not a ranked tensor; the Metal path lowers tensors")
        shape = t.get_shape()
        dtype = str(t.element_type)
        if dtype not in DTYPES:
            raise PassFailure(op, f"a tensor of {t.element_type} is not lowered to TTMetal yet (f32, bf16 and i32 are)")
        if len(shape) < 2:
            shape = (1,) * (2 - len(shape)) + tuple(shape)
        # each matrix of a batch is padded to whole tiles, then the batch folds into rows
        return math.prod(shape[:-2]) * -(-shape[-2] // TILE) * TILE, shape[-1], DTYPES[dtype]

    def allocate(self, memory: str, size: int, op: Operation) -> int:
        """A fixed address: in each core's L1, or in each DRAM bank (a bump allocator per space); `size` is the
        bytes each core or bank holds."""
        address = self.next[memory]
        self.next[memory] += -(-size // 32) * 32
        limit = int(self.chip["l1_size"]) if memory == "l1" else int(self.chip["dram_unreserved_end"])
        if self.next[memory] > limit:
            raise PassFailure(op, f"the tensors of @{self.func.sym_name.data} need {self.next[memory]} B of "
                                  f"{memory.upper()} per {'core' if memory == 'l1' else 'bank'} ({limit} B)")
        return address

    def place(self, t: Attribute, op: Operation, memory: str) -> Placed:
        if self.ttnn_mode:  # a result in the memory its TTNN layout names, allocated by TTNN
            empty = ttnn_empty(t, device_of(self.ops, self.func), op)
            self.ops.append(empty)
            return self.place_ttnn(empty.results[0], op)
        rows, cols, dtype = self.shape_of(t, op)
        ht, wt = -(-rows // TILE), -(-cols // TILE)
        grid = grid_for((ht, wt), self.device_grid)
        layout = ShardLayout(grid, (ht // grid[0], wt // grid[1]), dtype, 0, memory)
        per_bank = -(-ht * wt // int(self.chip["num_dram_channels"]))  # interleaved pages each DRAM bank holds
        layout.address = self.allocate(memory, (per_bank if memory == "dram" else layout.tiles) * layout.page, op)
        return Placed(self.create_buffer(layout), layout)

    def staging(self, layout: ShardLayout, op: Operation) -> Placed:
        staged = layout.staged()
        staged.address = self.allocate("l1", staged.tiles * staged.page, op)
        return Placed(self.create_buffer(staged), staged)

    def create_buffer(self, layout: ShardLayout) -> SSAValue:
        props = {"address": IntegerAttr(layout.address, i64)}
        if layout.origin != (0, 0) or layout.fold or layout.nd:  # shards on other cores than the grid's own
            props.update(zip(("virtualGridForwardMapping", "virtualGridInverseMapping"), grid_maps(layout)))
        create = ttmetal.CreateBufferOp.create(properties=props, result_types=[layout.memref()])
        self.ops.append(create)
        self.buffers.append(create.result)
        self.layouts[create.result] = layout
        return create.result

    def cb_of(self, placed: Placed, op: Operation) -> SSAValue:
        """The L1 buffer a CB works in: the tensor's own shards in L1, or an L1 copy of a DRAM tensor's."""
        if placed.layout.memory == "l1":
            return placed.buffer
        return self.l1_buffer(placed.layout, placed.layout.shard, placed.layout.dtype, op)

    def place_d2m(self, value: SSAValue, op: Operation, tensor: SSAValue | None = None) -> Placed:
        """A device tensor of a D2M program where its type and the op making it (a d2m.empty, or in ttnn-mode the
        cast of TTNN tensor `tensor`) put it: a grid of shards of tiles (`tensor<GY x GX x SY x SX x
        !ttcore.tile<...>, #ttcore.metal_layout<...>>`) in L1 from the core its virtual grid mapping names, or
        interleaved in DRAM (computed on that grid)."""
        t, maker = value.type, value.owner
        layout_attr = getattr(t, "encoding", None)
        shape = t.get_shape() if isinstance(t, TensorType) else ()
        if not isinstance(layout_attr, ttcore.MetalLayoutAttr) or len(shape) < 4 or len(shape) % 2 or \
                not isinstance(t.element_type, ttcore.TileType):
            raise PassFailure(op, f"only tensors of tiles on a grid are lowered to TTMetal yet, not {t}")
        if len(shape) > 4:
            return self.place_ranked(t, op)
        memory = layout_attr.data.memory_space
        if (memory, layout_attr.data.memory_layout) not in (("l1", "sharded"), ("dram", "interleaved")):
            raise PassFailure(op, "only L1-sharded and DRAM-interleaved D2M tensors are lowered to TTMetal yet")
        dtype = DTYPES.get(t.element_type.data_type.data.value)
        if dtype is None:
            raise PassFailure(op, f"tiles of {t.element_type.data_type.data.value} are not lowered to TTMetal yet")
        grid = tuple(shape[:2])
        mapping = maker.attributes.get("virtualGridForwardMapping") if maker.name in ("d2m.empty", "ttir.empty") else \
            maker.virtual_grid_forward_mapping if isinstance(maker, TTNNMetalLayoutCastOp) else None
        if mapping is not None:
            placement = ttcore.grid_placement(mapping, grid)
            if placement is None:
                raise PassFailure(maker, "only virtual grids laid onto a rectangle of cores row by row are lowered "
                                         "to TTMetal yet")
            origin, cores = placement
        else:
            origin, cores = (0, 0), fold_grid(grid, self.device_grid)
        if any(o < 0 or o + g > d for o, g, d in zip(origin, cores, self.device_grid)):
            raise PassFailure(op, f"a {shape[0]}x{shape[1]} grid from core {origin} does not fit the "
                                  f"{self.device_grid[0]}x{self.device_grid[1]} worker grid")
        layout = ShardLayout(grid, tuple(shape[2:]), dtype, 0, memory, origin, None if cores == grid else cores)
        if tensor is not None:  # the TTNN tensor's own buffer, wherever the runtime allocates it
            self.layouts[tensor] = layout
            return Placed(tensor, layout)
        banks = int(self.chip["num_dram_channels"])
        layout.address = self.allocate(memory, (layout.tiles if memory == "l1" else -(-math.prod(shape) // banks))
                                       * layout.page, op)
        return Placed(self.create_buffer(layout), layout)

    def place_ranked(self, t: TensorType, op: Operation) -> Placed:
        """A device tensor kept at its rank (a grid dim per dim, shards of one matrix along the batch dims): the
        batch's matrices on their own rows of cores, laid onto a rectangle of cores when the grid is larger."""
        shape, n = t.get_shape(), len(t.get_shape()) // 2
        grid, shard = tuple(shape[:n]), tuple(shape[n:])
        memory = t.encoding.data.memory_space
        if memory != "l1" or set(shard[:-2]) != {1}:
            raise PassFailure(op, "tensors kept above two dims live in L1, a matrix per shard along the batch, in this "
                                  "build; set default-input-memspace/default-output-memspace to l1")
        flat = (math.prod(grid[:-1]), grid[-1])
        cores = fold_grid(flat, self.device_grid)
        if cores[0] > self.device_grid[0] or cores[1] > self.device_grid[1]:
            raise PassFailure(op, f"a batch of {math.prod(grid[:-2])} matrices needs more than the "
                                  f"{self.device_grid[0]}x{self.device_grid[1]} worker grid's cores")
        layout = ShardLayout(flat, shard[-2:], DTYPES[t.element_type.data_type.data.value], 0, memory, (0, 0),
                             None if cores == flat else cores, (grid, shard))
        layout.address = self.allocate(memory, layout.tiles * layout.page, op)
        return Placed(self.create_buffer(layout), layout)

    def place_ttnn(self, value: SSAValue, op: Operation) -> Placed:
        """A TTNN tensor where its layout puts it: L1 shards on the cores it names (each the layout's memref of
        tiles), or interleaved in DRAM (computed on the largest grid dividing its tiles, as `place` chooses)."""
        layout_attr = getattr(value.type, "encoding", None)
        if not isinstance(layout_attr, ttnn.TTNNLayoutAttr) or not layout_attr.is_tiled:
            raise PassFailure(op, f"an operand of type {value.type} is not a tiled TTNN tensor; ttnn-mode lowers those")
        rows, cols, dtype = self.shape_of(value.type, op)
        ht, wt = -(-rows // TILE), -(-cols // TILE)
        memory, memory_layout = layout_attr.buffer_type, layout_attr.memory_layout
        if memory == "dram":
            grid = grid_for((ht, wt), self.device_grid)
            layout = ShardLayout(grid, (ht // grid[0], wt // grid[1]), dtype, 0, "dram")
        elif memory == "l1" and getattr(memory_layout, "data", None) is not None and \
                memory_layout.data.value != "interleaved":
            shard = tuple(layout_attr.memref.get_shape())
            origin, grid = layout_attr.shard_cores
            if (grid[0] * shard[0], grid[1] * shard[1]) != (ht, wt):
                raise PassFailure(op, f"the L1 shards of {value.type} do not tile its {ht}x{wt} tiles")
            layout = ShardLayout(grid, shard, dtype, 0, "l1", origin)
        else:
            raise PassFailure(op, f"a TTNN tensor in {memory.upper()} {getattr(memory_layout, 'data', '')} is not "
                                  "lowered in ttnn-mode yet (DRAM-interleaved and L1-sharded tensors are)")
        self.layouts[value] = layout
        return Placed(value, layout)

    def l1_buffer(self, on: ShardLayout, shard: tuple[int, int], dtype: str, op: Operation) -> SSAValue:
        """An L1 buffer of `shard` tiles of `dtype` on each core holding a shard of `on` (a CB's pages)."""
        layout = ShardLayout(on.grid, shard, dtype, 0, "l1", on.origin, on.fold)
        layout.address = self.allocate("l1", layout.tiles * layout.page, op)
        return self.create_buffer(layout)

    def streaming_cb(self, like: ShardLayout, op: Operation, on: ShardLayout | None = None) -> SSAValue:
        """A two-page L1 buffer per core (double buffering) for tiles of `like`'s format streamed through a CB, on
        the grid of `on` (default: `like`'s)."""
        return self.l1_buffer(on or like, (1, self.stream_buffers), like.dtype, op)

    def gather_cb(self, source: Placed, out: Placed, op: Operation) -> SSAValue:
        """An L1 buffer shaped like the output's shards, in the source's format, that the reader fills."""
        return self.l1_buffer(out.layout, out.layout.shard, source.layout.dtype, op)
