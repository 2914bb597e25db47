"""Where the Metal path's tensors live on the device: the grid each is computed on, its shards in L1 or its pages
interleaved over the DRAM banks, and the fixed address of each (given by liveness once the host program is complete: `addresses.py`); each placed
tensor is a `ttmetal.create_buffer` of its memref."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr, TensorType, i64
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects import ttmetal, ttnn
from ttmlir.errors import PassFailure
from ttmlir.conversion.d2m_to_ttnn.convert_d2m_to_ttnn import device_of
from ttmlir.transforms.ttnn.ttnn_utils import ttnn_empty
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import DTYPES, TILE, Placed, ShardLayout, grid_maps
from ttmlir.conversion.d2m_to_ttkernel.layouts import device_layout
from ttmlir.transforms.d2m.d2m_grid_selection import grid_for
from ttmlir.transforms.d2m.virtual_grid import core_virt_maps


@dataclass
class DevicePlacement:
    """The buffers of one function: placed on `device_grid` of `chip`, their create_buffer ops appended to `ops`."""

    func: FuncOp
    device_grid: tuple[int, int]
    chip: dict
    ops: list[Operation]
    ttnn_mode: bool = False
    buffers: list[SSAValue] = field(default_factory=list)
    layouts: dict[SSAValue, ShardLayout] = field(default_factory=dict)  # each buffer's (the CBs of a ttnn.generic)
    sizes: dict[SSAValue, tuple[str, int, Operation]] = field(default_factory=dict)  # memory, bytes, where made

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
        return Placed(self.create_buffer(layout, (per_bank if memory == "dram" else layout.tiles) * layout.page, op),
                      layout)

    def create_buffer(self, layout: ShardLayout, size: int, op: Operation) -> SSAValue:
        """A buffer of `layout` taking `size` bytes per core (L1) or bank (DRAM); its address is given once the
        program is complete (`addresses.assign_addresses`), `op` is where it is reported if it does not fit."""
        props = {"address": IntegerAttr(layout.address, i64)}
        if layout.nd is not None and not layout.tiled and layout.origin == (0, 0):
            # row-major shards kept at their rank: upstream's createCoreVirtMaps, as their d2m.empty has them
            maps = (AffineMapAttr(m) for m in core_virt_maps(layout.nd[0], layout.cores))
            props.update(zip(("virtualGridForwardMapping", "virtualGridInverseMapping"), maps))
        elif layout.origin != (0, 0) or layout.fold or layout.nd:  # shards on other cores than the grid's own
            props.update(zip(("virtualGridForwardMapping", "virtualGridInverseMapping"), grid_maps(layout)))
        create = ttmetal.CreateBufferOp.create(properties=props, result_types=[layout.memref()])
        self.ops.append(create)
        self.buffers.append(create.result)
        self.layouts[create.result] = layout
        self.sizes[create.result] = (layout.memory, size, op)
        return create.result

    def cb_of(self, placed: Placed, op: Operation) -> SSAValue:
        """The L1 buffer a CB works in: the tensor's own shards in L1, or an L1 copy of a DRAM tensor's."""
        if placed.layout.memory == "l1":
            return placed.buffer
        return self.l1_buffer(placed.layout, placed.layout.shard, placed.layout.dtype, op)

    def place_d2m(self, value: SSAValue, op: Operation, tensor: SSAValue | None = None) -> Placed:
        """A device tensor of a D2M program where its type and the op making it (a d2m.empty, or in ttnn-mode the
        cast of TTNN tensor `tensor`) put it (see `device_layout`), at an address of its own (none for a TTNN
        tensor: the runtime allocates it)."""
        layout = device_layout(value, op, self.device_grid)
        if tensor is not None:  # the TTNN tensor's own buffer, wherever the runtime allocates it
            self.layouts[tensor] = layout
            return Placed(tensor, layout)
        per_bank = -(-layout.tensor_tiles[0] * layout.tensor_tiles[1] // int(self.chip["num_dram_channels"]))
        return Placed(self.create_buffer(layout, (layout.tiles if layout.memory == "l1" else per_bank) * layout.page,
                                         op), layout)

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
            origin, grid, fold = layout_attr.shard_grid()
            if ht % grid[0] or wt % grid[1]:
                raise PassFailure(op, f"the L1 shards of {value.type} do not tile its {ht}x{wt} tiles")
            layout = ShardLayout(grid, (ht // grid[0], wt // grid[1]), dtype, 0, "l1", origin, fold)
        else:
            raise PassFailure(op, f"a TTNN tensor in {memory.upper()} {getattr(memory_layout, 'data', '')} is not "
                                  "lowered in ttnn-mode yet (DRAM-interleaved and L1-sharded tensors are)")
        self.layouts[value] = layout
        return Placed(value, layout)
