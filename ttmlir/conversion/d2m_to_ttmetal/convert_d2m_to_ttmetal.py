"""`--convert-d2m-to-ttmetal`: D2M programs to a TTMetal host program and its TTKernel kernels.

It takes what `--ttir-to-d2m`, `--d2m-grid-selection` and `--d2m-generic-fusion` write (or D2M written by hand): host
tensors moved onto the device (`d2m.to_layout`) into the layout their metal-layout type and d2m.empty give them
(grid, shards of tiles, L1 or DRAM, the cores a virtual grid mapping moves them to, a tensor kept at its rank
written row-major and tilized by a program on the device), and each `d2m.generic` (alone, or the regions of a
`d2m.spatial` as one program) as the program computing it: its region and indexing maps
(`conversion/d2m_to_ttmetal/generics.py`) say what — elementwise tile ops or a fused graph of them, on operands read
as they are, transposed or broadcast along a matrix's rows or columns (each output tile's source tile gathered and
spread by unary_bcast); a transpose (in the dst register); an f32/bf16 typecast (by the packer); a sum/mean/max
over a matrix's rows or columns (reduce_tile with the scaler tile its fill generic makes, written by the host to each
core); a block matmul (each core's output shard from a block of A and one of B, multicast along the grid's rows and
columns with semaphore handshakes; tile or block matmuls per `use-tile-matmul`); a block filled with a constant
(host data written to it); a block copy (a regrid). `ttir.constant`s and `ttir.arange`s are host data (a
`memref.global`) the moves write. Anything else is refused naming the op.

Upstream reaches the same place through more D2M stages (bufferization, allocation, thread split, DMA lowering,
`convert-d2m-to-ttkernel`); here those are modules this pass drives per function: placement and addresses
(`conversion/d2m_to_ttmetal/buffers.py`: a bump allocator per memory space from the chip's unreserved base), the
data-movement and compute kernels (`conversion/d2m_to_ttkernel/datamovement.py`, `compute.py`, over
`kernel_builder.py`'s shard layouts and op builder) and the host program's launches
(`conversion/d2m_to_ttmetal/program.py`). Each program is one `ttmetal.enqueue_program` of three kernels per core: a
reader that hands L1-resident input shards to their CBs or reads DRAM pages into them, a compute kernel that walks
the shard tile by tile through the dst register, and a writer that waits for the output shard (and writes it to
DRAM pages). f32 ops run on the SFPU (both inputs copied into dst), bf16 add/subtract/multiply on the FPU
(`add_tiles`), as upstream chooses.

With `ttnn-mode` the function's tensors are TTNN's and stay so: a D2M program on their `ttir.ttnn_metal_layout_cast`s
computes where their `#ttnn.ttnn_layout` holds them (L1 shards on the cores it names, or DRAM pages), each result a
`ttnn.empty`, and each program becomes a `ttnn.generic` (`convert_d2m_to_ttnn`) whose kernels take every address as
a runtime argument, since TTNN allocates at run time."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (BytesAttr, DenseIntOrFPElementsAttr, FunctionType, IntegerType, MemRefType, ModuleOp,
                                   NoneAttr, StringAttr, TensorType, UnitAttr)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.memref import AllocOp, CopyOp, GetGlobalOp, GlobalOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore, ttkernel, ttmetal, ttnn
from ttmlir.ir.sizes import elements_error
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.errors import PassFailure
from ttmlir.conversion.d2m_to_ttnn.convert_d2m_to_ttnn import device_of, generic_of
from ttmlir.transforms.ttnn.ttnn_utils import ttnn_empty
from ttmlir.conversion.d2m_to_ttkernel.compute import ComputeKernels
from ttmlir.conversion.d2m_to_ttkernel.datamovement import DataMovementKernels
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import TILE, ArgPlan, ELEMENTS, ShardLayout
from ttmlir.transforms.ttcore.register_device import device_module_of
from ttmlir.conversion.d2m_to_ttmetal.buffers import DevicePlacement, Placed
from ttmlir.conversion.d2m_to_ttmetal.generics import plan_generic
from ttmlir.dialects.d2m_tile_reduce import TileReduceOp
from ttmlir.conversion.d2m_to_ttmetal.program import enqueue, kernel_function, launch_configs, one_program

HOST_DATA = ("ttir.constant", "ttir.arange")  # tensors whose values are known when compiling: written by the host
LAYOUT_MOVES = ("d2m.to_layout", "ttir.to_layout")  # a tensor moved into another layout (host <-> device, regridded)


def _host_layout(t: Attribute) -> ttcore.HostLayoutAttr | None:
    """The padded host layout a tensor not in whole tiles is staged in: each matrix of the batch padded to whole
    tiles, as the device holds it; None when nothing is padded."""
    shape = tuple(t.get_shape())
    batch, rows, cols = hardware.tile_padded(shape)
    if len(shape) >= 2 and (rows, cols) == shape[-2:]:
        return None
    return ttcore.HostLayoutAttr(ttcore.HostLayout(shape, hardware.tile_padded_strides(shape), batch * rows * cols))


def _scales_a_reduction(user: Operation) -> bool:
    """Whether a tensor used by `user` (a generic, or a load in its region) is only read as a reduction's scaler."""
    generic = user if isinstance(user, d2m.GenericOp) else user.parent_op()
    while generic is not None and not isinstance(generic, d2m.GenericOp):
        generic = generic.parent_op()
    return generic is not None and any(isinstance(o, TileReduceOp) for o in generic.region.walk())


FIDELITIES = ("LoFi", "HiFi2", "HiFi3", "HiFi4")  # math-fidelity (the pipeline's set-math-fidelity), as upstream spells them


@dataclass
class _FunctionLowering:
    """One function's D2M ops as buffers, host transfers and programs (the kernels go into `kernels`)."""

    func: FuncOp
    device_grid: tuple[int, int]
    chip: dict
    kernels: list[FuncOp]
    use_tile_matmul: bool = False
    accessor_dma: bool = False
    ttnn_mode: bool = False  # the function's tensors are TTNN's: each program becomes a ttnn.generic on them
    force_ct_args: bool = False
    fold_layouts: bool = True  # back-to-back to_layouts moved once
    fidelity: str = "hifi4"  # every compute kernel's math fidelity
    stream_buffers: int = 2
    dst_physical_tiles: int = 16

    def __post_init__(self):
        self.globals: list[Operation] = []  # constants' host data, module-level memref.global ops
        self.scales: dict[SSAValue, float] = {}  # reductions' scalers (tiles of a constant): their values
        self.ops: list[Operation] = []
        self.alloc = DevicePlacement(self.func, self.device_grid, self.chip, self.ops, self.ttnn_mode,
                                         self.stream_buffers)
        self.buffers, self.layouts = self.alloc.buffers, self.alloc.layouts
        self.dm = DataMovementKernels(self.chip)
        self.compute = ComputeKernels(self.use_tile_matmul, self.dst_physical_tiles)

    def write_input(self, host: SSAValue, placed: Placed, op: Operation) -> None:
        """A host tensor onto its device tensor: written as it is, or, for a tensor kept at its rank, written
        row-major into shards of its own and tilized there by a program, as upstream moves host data."""
        if placed.layout.nd is None:
            self.write_host(host, placed.buffer)
            return
        staged = self.alloc.staging(placed.layout, op)
        self.write_host(host, staged.buffer)
        self.ops.append(self.launch("tilize", [staged], placed, op))

    def read_output(self, placed: Placed, t: TensorType, op: Operation) -> SSAValue:
        """A device tensor read back to the host (untilized by a program first when kept at its rank)."""
        if placed.layout.nd is None:
            return self.read_host(placed.buffer, t)
        staged = self.alloc.staging(placed.layout, op)
        self.ops.append(self.launch("untilize", [placed], staged, op))
        return self.read_host(staged.buffer, t)

    def lower(self) -> None:
        func, block = self.func, self.func.body.block
        if self.ttnn_mode:  # TTNN tensors in and out, as they are
            host_types = [a.type for a in block.args]
        else:
            host_types = [MemRefType(a.type.element_type, a.type.get_shape()) for a in block.args
                          if self.alloc.shape_of(a.type, func)]
        new_block = Block(arg_types=host_types)
        placed: dict[SSAValue, Placed] = {}
        self.hosts = {} if self.ttnn_mode else dict(zip(block.args, new_block.args))
        self.folded: dict[SSAValue, SSAValue] = {}  # a to_layout's result moved on by the next: its own source
        for old, new in zip(block.args, new_block.args):
            if self.ttnn_mode:
                old.replace_all_uses_with(new)
        results: list[SSAValue] = []
        for op in list(block.ops):
            if isinstance(op, ReturnOp):
                for value in op.operands:
                    if value in self.hosts and value not in block.args:  # host data copied on the host
                        results.append(self.hosts[value])
                        continue
                    if self.ttnn_mode and value not in placed:  # a TTNN op's result, or an argument
                        results.append(value)
                        continue
                    if value not in placed or value in block.args:
                        raise PassFailure(op, "a returned value must be computed on the device")
                    results.append(placed[value].buffer if self.ttnn_mode else
                                   self.read_output(placed[value], value.type, op))
            elif op.name.startswith("d2m.") or op.name in (*LAYOUT_MOVES, "ttir.empty"):
                self.lower_d2m(op, placed)
            elif self.ttnn_mode and (op.name.startswith("ttnn.") or isinstance(op, TTNNMetalLayoutCastOp)):
                self.bridge(op, placed)
            elif op.name in HOST_DATA:  # a memref.global, written to the device by the moves reading it
                self.hosts[op.results[0]] = self.constant(op)
            else:
                raise PassFailure(op, f"'{op.name}' is not lowered to TTMetal yet; the conversion takes D2M programs "
                                      "(--ttir-to-d2m converts TTIR ops to them)")
        if self.ttnn_mode:  # each program a ttnn.generic on the TTNN tensors; its CBs' buffers the runtime's
            self.ops = [generic_of(op, self.layouts, self.kernels) if isinstance(op, ttmetal.EnqueueProgramOp) else op
                        for op in self.ops if not isinstance(op, ttmetal.CreateBufferOp)]
        else:  # a buffer nothing reads or writes (a to_layout folded away) is not created
            self.ops = [op for op in self.ops if not isinstance(op, ttmetal.CreateBufferOp) or op.result.uses]
            self.ops += [ttmetal.DeallocateBufferOp.create(operands=[b]) for b in self.buffers if b.uses]
            self.ops.append(ttmetal.FinishOp.create())
        self.ops.append(ReturnOp(*results))
        new_block.add_ops(self.ops)
        func.body.detach_block(block)
        func.body.add_block(new_block)
        func.function_type = FunctionType.from_lists(host_types, [r.type for r in results])

    def write_host(self, host: SSAValue, buffer: SSAValue) -> None:
        """A host tensor written to its device buffer; one not in whole tiles is first copied into a host buffer
        padded to them (`#ttcore.host_layout`), as upstream stages unaligned host data."""
        layout = _host_layout(host.type)
        if layout is not None:
            staging = AllocOp.get(host.type.element_type, shape=host.type.get_shape(), layout=layout)
            self.ops += [staging, CopyOp(host, staging.memref)]
            host = staging.memref
        self.ops.append(ttmetal.EnqueueWriteBufferOp.create(operands=[host, buffer]))

    def read_host(self, buffer: SSAValue, t: TensorType) -> SSAValue:
        """A device buffer read into a new host tensor of type `t` (through a padded host buffer when `t` is not
        in whole tiles)."""
        layout = _host_layout(t)
        staging = AllocOp.get(t.element_type, shape=t.get_shape(), layout=layout or NoneAttr())
        self.ops += [staging, ttmetal.EnqueueReadBufferOp.create(operands=[buffer, staging.memref])]
        if layout is None:
            return staging.memref
        result = AllocOp.get(t.element_type, shape=t.get_shape())
        self.ops += [result, CopyOp(staging.memref, result.memref)]
        return result.memref

    def lower_d2m(self, op: Operation, placed: dict[SSAValue, Placed]) -> None:
        """One op of a D2M program: a host tensor moved onto the device into the layout its target names (grid,
        shards, L1 or DRAM, the cores a virtual grid mapping moves it to), views and moves back to the host as the
        tensor they stand for, each generic (alone, or in a spatial op's regions) as the program it computes."""
        if op.name in ("d2m.empty", "ttir.empty"):  # a device tensor is placed where it is made; a host one is the
            # return's
            encoding = getattr(op.result.type, "encoding", None)
            if isinstance(encoding, ttcore.MetalLayoutAttr):
                placed[op.result] = self.alloc.place_d2m(op.result, op)
            elif isinstance(encoding, ttnn.TTNNLayoutAttr) and self.ttnn_mode:  # a TTNN tensor a program writes
                empty = ttnn_empty(op.result.type, device_of(self.ops, self.func), op)
                op.result.replace_all_uses_with(empty.results[0])
                self.ops.append(empty)
            return
        if op.name in LAYOUT_MOVES:
            source, dest, result = self.folded.get(op.operands[0], op.operands[0]), op.operands[1], op.results[0]
            uses = list(result.uses)
            if self.fold_layouts and len(uses) == 1 and uses[0].operation.name in LAYOUT_MOVES and uses[0].index == 0:
                self.folded[result] = source  # back-to-back moves: the next one moves from where this one would
                return
            if source in self.hosts and not isinstance(getattr(result.type, "encoding", None), ttcore.MetalLayoutAttr):
                copy = AllocOp.get(result.type.element_type, shape=result.type.get_shape())  # all of it folded away
                self.ops += [copy, CopyOp(self.hosts[source], copy.memref)]
                self.hosts[result] = copy.memref
                return
            if source in self.hosts and dest in placed:
                placed[result] = placed[dest]
                self.write_input(self.hosts[source], placed[result], op)
            elif source in placed and not isinstance(getattr(result.type, "encoding", None), ttcore.MetalLayoutAttr):
                placed[result] = placed[source]  # read back where the function returns it
            elif source in placed and dest in placed:  # a device tensor into another layout: copied over
                if replace(placed[source].layout, address=0) == replace(placed[dest].layout, address=0):
                    placed[result] = placed[source]
                else:
                    self.ops.append(self.launch("typecast", [placed[source]], placed[dest], op, ["same"]))
                    placed[result] = placed[dest]
            else:
                raise PassFailure(op, "only to_layouts between the host and the device are lowered to TTMetal yet")
            return
        if isinstance(op, d2m.ViewLayoutOp):
            if op.remapping.data != AffineMap.identity(op.remapping.data.num_dims) or \
                    op.input.type != op.result.type:
                raise PassFailure(op, "only identity view_layouts are lowered to TTMetal yet")
            placed[op.result] = placed[op.input]
            return
        fills = [o for o in op.region.walk() if isinstance(o, d2m.TileFillOp)] if isinstance(op, d2m.GenericOp) else []
        if fills and op.results[0].uses and all(_scales_a_reduction(u.operation) for u in op.results[0].uses):
            self.scales[op.results[0]] = self.fill_value(op, fills)  # a reduction's scaler: written per core there
            return
        if fills:
            placed[op.results[0]] = self.fill(op, fills, placed)
            return
        generics = [op] if isinstance(op, d2m.GenericOp) else []
        if isinstance(op, d2m.SpatialOp):
            for region in op.regions:
                body = list(region.block.ops)
                if len(body) != 2 or not isinstance(body[0], d2m.GenericOp) or \
                        not isinstance(body[1], d2m.SpatialYieldOp):
                    raise PassFailure(op, "a spatial region lowered to TTMetal holds one d2m.generic")
                generics.append(body[0])
        if not generics:
            raise PassFailure(op, f"'{op.name}' is not lowered to TTMetal yet")
        launches = [self.launch_generic(generic, placed) for generic in generics]
        self.ops.append(one_program(launches, op) if len(launches) > 1 else launches[0])
        for generic in generics:
            placed[generic.results[0]] = placed[generic.outputs[0]]
        for result, generic in zip(op.results, generics) if op is not generics[0] else ():
            placed[result] = placed[generic.results[0]]

    def fill(self, generic: d2m.GenericOp, fills: list[d2m.TileFillOp], placed: dict[SSAValue, Placed]) -> Placed:
        """A generic filling its output with a constant (`d2m.tile_fill` of an arith.constant): the value is known
        when compiling, so the filled tensor is host data written to the output, as a TTIR full is."""
        out, layout = placed[generic.outputs[0]], generic.outputs[0].type.encoding.data
        host_type = TensorType(ELEMENTS[out.layout.dtype], layout.logical_shape)
        value = self.fill_value(generic, fills)
        self.write_host(self.host_constant(host_type, DenseIntOrFPElementsAttr.from_list(host_type, [value])),
                        out.buffer)
        return out

    @staticmethod
    def fill_value(generic: d2m.GenericOp, fills: list[d2m.TileFillOp]) -> float | int:
        constant = fills[0].value.owner
        if len(fills) != 1 or not isinstance(constant, arith.ConstantOp) or generic.inputs:
            raise PassFailure(generic, "only generics filling their output with one constant are lowered to TTMetal")
        return constant.value.value.data

    def bridge(self, op: Operation, placed: dict[SSAValue, Placed]) -> None:
        """ttnn-mode: a TTNN op stays; a cast of a TTNN tensor to a metal layout places that tensor as
        the metal type says (refused if the two disagree on its memory); a cast back is the tensor itself."""
        if not isinstance(op, TTNNMetalLayoutCastOp):  # on the tensors the programs before it wrote
            op.operands = [placed[v].buffer if v in placed else v for v in op.operands]
            op.detach()
            self.ops.append(op)
            return
        if op.input in placed:
            placed[op.result] = placed[op.input]
            return
        source, target = op.input.type.encoding, op.result.type.encoding
        if isinstance(target, ttcore.MetalLayoutAttr) and isinstance(source, ttnn.TTNNLayoutAttr) and \
                source.buffer_type != target.data.memory_space:
            raise PassFailure(op, f"the TTNN tensor is in {source.buffer_type.upper()}, its metal layout in "
                                  f"{target.data.memory_space.upper()}")
        placed[op.result] = self.alloc.place_d2m(op.result, op, tensor=op.input)

    def launch_generic(self, generic: d2m.GenericOp, placed: dict[SSAValue, Placed]) -> ttmetal.EnqueueProgramOp:
        """A generic op's program: its region loads whole shards of its inputs, computes one tile op on them
        (elementwise in a linalg.generic, or a matmul) and stores the whole output shard."""
        out = placed[generic.outputs[0]]
        grid = generic.attributes.get("grid")
        factors = generic.attributes.get("block_factors")
        if len(generic.outputs) != 1 or not isinstance(grid, ttcore.GridAttr) or \
                tuple(grid.data.shape) != (out.layout.nd[0] if out.layout.nd else out.layout.grid) or factors is None or \
                any(f.value.data != 1 for f in factors.data):
            raise PassFailure(generic, "only generics with one output, on its tensor's grid and with block factors "
                                       "of 1 are lowered to TTMetal yet")
        loads = {op.result: op for op in generic.region.walk() if isinstance(op, d2m.RemoteLoadOp)}
        stores = [op for op in generic.region.walk() if isinstance(op, d2m.RemoteStoreOp)]
        if len(loads) == 1 and [s.local for s in stores] == list(loads):  # a copy
            (load,) = loads.values()
            return self.launch("typecast", [placed[load.source]], out, generic, ["same"])
        plan = plan_generic(generic)
        sources = [placed[v] for v in plan.sources]
        if plan.kind == "matmul":
            if plan.transpose_b and self.use_tile_matmul:
                raise PassFailure(generic, "'d2m.tile_matmul' op transpose_b is only supported by tile_matmul_block "
                                           "lowering")
            return self.launch_matmul(*sources, out, generic, plan.transpose_b)
        if plan.scaler is not None:
            if plan.scaler not in self.scales:
                raise PassFailure(generic, "a reduction's scaler is a tile filled with a constant")
            return self.launch_reduction(sources[0], out, generic, plan.kind, plan.reduce_dim,
                                         self.scales[plan.scaler])
        # an input on other cores than the output's (or in another grid) is fetched tile by tile
        gathers = [g if g else None if s.layout.near(out.layout) else "same" for s, g in zip(sources, plan.gathers)]
        return self.launch(plan.kind, sources, out, generic, gathers)

    def kernel(self, base: str, thread: str, body: list[Operation]) -> str:
        return kernel_function(self.kernels, base, thread, body)

    def constant(self, op: Operation) -> SSAValue:
        """A `ttir.constant`, or the tensor a `ttir.arange` makes (their values are known when compiling), as a
        private constant `memref.global` of the module and its `memref.get_global`."""
        t = op.results[0].type
        self.alloc.shape_of(t, op)
        if op.name == "ttir.arange":
            if (error := elements_error(t)) is not None:  # its values are listed one by one
                raise PassFailure(op, error)
            start, step, dim = (op.properties[n].value.data for n in ("start", "step", "arange_dimension"))
            values = [start + step * index[dim] for index in itertools.product(*map(range, t.get_shape()))]
            if isinstance(t.element_type, IntegerType):
                values = [int(v) for v in values]
            return self.host_constant(t, DenseIntOrFPElementsAttr(t, BytesAttr(t.element_type.pack(values))))
        value = op.properties["value"]
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise PassFailure(op, "only dense constants are lowered to TTMetal yet")
        return self.host_constant(t, value)

    def host_constant(self, t: TensorType, value: DenseIntOrFPElementsAttr) -> SSAValue:
        memref = MemRefType(t.element_type, t.get_shape())
        name = f"{self.func.sym_name.data}_constant{len(self.globals)}"
        self.globals.append(GlobalOp.get(StringAttr(name), memref, value, sym_visibility=StringAttr("private"),
                                         constant=UnitAttr()))
        get = GetGlobalOp(name, memref)
        self.ops.append(get)
        return get.memref

    def launch_reduction(self, source: Placed, out: Placed, op: Operation, kind: str, dim: str,
                         scale: float) -> ttmetal.EnqueueProgramOp:
        """Each output tile reduced from the input tiles along the dim (streamed to its core over the NoC) with
        reduce_tile, times a scaler tile the host writes to every core."""
        layout = out.layout
        grid_shape = [layout.grid[0] * TILE, layout.grid[1] * TILE]
        element = ELEMENTS[source.layout.dtype]
        scaler_type = TensorType(element, grid_shape)
        scaler_host = self.host_constant(scaler_type, DenseIntOrFPElementsAttr.from_list(scaler_type, [scale]))
        scaler = self.alloc.place(scaler_type, op, "l1")
        self.ops.append(ttmetal.EnqueueWriteBufferOp.create(operands=[scaler_host, scaler.buffer]))
        k_tiles = source.layout.tensor_tiles[1 if dim == "row" else 0]
        cbs = [self.alloc.streaming_cb(source.layout, op, layout), scaler.buffer, self.alloc.cb_of(out, op)]
        stream = ttkernel.CBType(ttkernel.IntAttr(self.alloc.stream_buffers), source.layout.tile)
        single = ttkernel.CBType(ttkernel.IntAttr(1), source.layout.tile)
        shard = ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile)
        layouts = [source.layout, scaler.layout, layout]
        reader_plan, reader_args = self.dm_args([0, 1, 2], [0], layouts)
        writer_plan, writer_args = self.dm_args([0, 1, 2], [2] if layout.memory == "dram" else [], layouts)
        reader = self.kernel("datamovement", "noc", self.dm.reduction_reader(stream, single, source.layout, layout,
                                                                           dim, k_tiles, reader_plan))
        writer = self.kernel("datamovement", "noc", self.dm.writer_body(shard, layout, 2, writer_plan))
        compute = self.kernel("compute", "compute",
                              self.compute.reduction_compute(stream, single, shard, layout, kind, dim, k_tiles))
        configs = launch_configs(layout, (reader, reader_args), (writer, writer_args), compute, [0, 1, 2],
                                 self.fidelity)
        return enqueue([source.buffer, scaler.buffer, out.buffer], cbs, [0, 1, 2], configs, op)

    def dm_args(self, ports: list[int], addresses: list[int],
                operands: list[ShardLayout]) -> tuple[ArgPlan, ttmetal.KernelArgsAttr]:
        """A data-movement kernel's argument plan and bindings: CB ports then buffer addresses (indices into
        `operands`) as common runtime args, as upstream binds arguments every core shares (compile-time args
        under force-compile-time-args; never in ttnn-mode, where TTNN allocates at run time); under
        use-tensor-accessor-dma each buffer it moves pages of has its TensorAccessor description among the
        compile-time args (after those), its pages found through it."""
        accessed = list(addresses) if self.accessor_dma else []
        args = (*(("cb_port", i) for i in ports), *(("buffer_address", i) for i in addresses))
        common = self.ttnn_mode or not self.force_ct_args
        slots = itertools.accumulate((hardware.tensor_accessor_size(operands[j].memory == "l1") for j in accessed),
                                     initial=0 if common else len(args))
        slot_of = dict(zip(accessed, slots))
        positions = {len(ports) + k: j for k, j in enumerate(addresses) if j in accessed}
        plan = ArgPlan(common, {p: slot_of[j] for p, j in positions.items()},
                        {p: operands[j].page for p, j in positions.items()})
        described = tuple(("tensor_accessor_args", j) for j in accessed)
        return plan, ttmetal.KernelArgsAttr((args, (), described) if common else ((), (), (*args, *described)))

    def launch_matmul(self, a: Placed, b: Placed, out: Placed, op: Operation,
                      transpose_b: bool) -> ttmetal.EnqueueProgramOp:
        """out = a @ b (b given as its transpose when `transpose_b`). Each core computes its output shard from a
        block of A (its rows, all of K) and one of B (all of K, its columns). In each row of the grid the core in
        column 0 reads the A block and multicasts it along the row (NoC 0); in each column the core in row 0 reads
        the B block and multicasts it down the column (NoC 1), each after its receivers count themselves ready
        on a semaphore, then flags the data valid on theirs, as upstream's matmul moves its operands."""
        layout, k_tiles = out.layout, a.layout.tensor_tiles[1]
        sy, sx = layout.shard
        if layout.fold:
            raise PassFailure(op, "a matmul whose output grid is folded onto other cores is not lowered to TTMetal "
                                  "yet (its operands are multicast along the grid's rows and columns)")
        cbs = [self.alloc.l1_buffer(layout, (sy, k_tiles), a.layout.dtype, op),
               self.alloc.l1_buffer(layout, (k_tiles, sx), b.layout.dtype, op), self.alloc.cb_of(out, op)]
        cb_a = ttkernel.CBType(ttkernel.IntAttr(sy * k_tiles), a.layout.tile)
        cb_b = ttkernel.CBType(ttkernel.IntAttr(k_tiles * sx), b.layout.tile)
        shard = ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile)
        layouts = [a.layout, b.layout, layout]
        plan_a, args_a = self.dm_args([0, 1, 2], [0], layouts)
        plan_b, args_b = self.dm_args([0, 1, 2], [1, 2] if layout.memory == "dram" else [1], layouts)
        mover_a = self.kernel("datamovement", "noc", self.dm.matmul_mover(True, cb_a, a.layout, layout, k_tiles, False,
                                                                       plan_a))
        movers_b = self.dm.matmul_mover(False, cb_b, b.layout, layout, k_tiles, transpose_b, plan_b)
        self.dm.write_output(movers_b, shard, layout, cb_arg=2, address_arg=4)
        mover_b = self.kernel("datamovement", "noc", movers_b)
        compute = self.kernel("compute", "compute", self.compute.matmul_compute(cb_a, cb_b, shard, layout, k_tiles,
                                                                        transpose_b))
        configs = launch_configs(layout, (mover_a, args_a), (mover_b, args_b), compute, [0, 1, 2], self.fidelity)
        return enqueue([a.buffer, b.buffer, out.buffer], cbs, [0, 1, 2], configs, op)

    def launch(self, kind: str, inputs: list[Placed], out: Placed, op: Operation,
               gathers: list[str | None] | None = None) -> ttmetal.EnqueueProgramOp:
        """One op's program. Per input, `gathers` says how its reader fills the input's CB: None, from the input's
        own shard (in L1, or its DRAM pages); "transpose", "row", "col", "scalar": each output tile's source tile,
        fetched from wherever it is."""
        gathers = gathers or [None] * len(inputs)
        tensors = [*inputs, out]
        cbs = [self.alloc.gather_cb(t, out, op) if g else self.alloc.cb_of(t, op) for t, g in zip(inputs, gathers)]
        cbs.append(self.alloc.cb_of(out, op))
        layout = out.layout
        ports = list(range(len(tensors)))
        # each CB holds a shard's tiles in its tensor's format (an input of a typecast differs from the output)
        cb_types = [ttkernel.CBType(ttkernel.IntAttr(layout.tiles), t.layout.tile) for t in tensors]
        in_dram = [i for i, (t, g) in enumerate(zip(inputs, gathers)) if g or t.layout.memory == "dram"]
        layouts = [t.layout for t in tensors]
        reader_plan, reader_args = self.dm_args(list(range(len(inputs))), in_dram, layouts)
        writer_plan, writer_args = self.dm_args([len(inputs)], [len(inputs)] if out.layout.memory == "dram" else [],
                                                layouts)
        reader = self.kernel("datamovement", "noc", self.dm.reader_body(cb_types, inputs, layout, gathers, reader_plan))
        writer = self.kernel("datamovement", "noc", self.dm.writer_body(cb_types[-1], out.layout, 0, writer_plan))
        compute = self.kernel("compute", "compute", self.compute.tilize_body(kind, cb_types, layout)
                              if kind in ("tilize", "untilize") else
                              self.compute.compute_body(kind, cb_types, layout, gathers))
        configs = launch_configs(layout, (reader, reader_args), (writer, writer_args), compute, ports, self.fidelity)
        return enqueue([t.buffer for t in tensors], cbs, ports, configs, op)


@dataclass(frozen=True)
class ConvertD2MToTTMetalPass(ModulePass):
    """D2M programs to a TTMetal host program and TTKernel kernels (see the module doc)."""

    name: ClassVar[str] = "convert-d2m-to-ttmetal"
    override_device_shape: tuple[int, ...] = ()
    math_fidelity: str = "HiFi4"
    num_stream_buffers: int = 2
    max_dst_physical_size_tiles: int = 0  # 0: the chip's dst size
    use_tile_matmul: bool = False
    use_tensor_accessor_dma: bool = False
    ttnn_mode: bool = False
    force_compile_time_args: bool = False
    disable_tolayout_folding: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        module = device_module_of(op)
        system = module.attributes.get("ttcore.system_desc")
        if not isinstance(system, ttcore.SystemDescAttr):
            raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
        chip = system.data.chip(0)
        grid = tuple(chip["grid"])
        if self.override_device_shape:
            if len(self.override_device_shape) != 2 or any(d < 1 for d in self.override_device_shape):
                raise PassFailure(op, "override-device-shape is a grid YxX, e.g. override-device-shape=1,1")
            grid = tuple(self.override_device_shape)
        if self.math_fidelity not in FIDELITIES:
            raise PassFailure(op, f"math-fidelity is one of {', '.join(FIDELITIES)}, not '{self.math_fidelity}'")
        if self.num_stream_buffers < 1:
            raise PassFailure(op, "num-stream-buffers is at least 1")
        dst = int(chip.get("dst_physical_size_tiles") or 16)
        if self.max_dst_physical_size_tiles:
            dst = min(dst, self.max_dst_physical_size_tiles)
        if dst < 2:
            raise PassFailure(op, "max-dst-physical-size-tiles leaves the math thread no dst tile (at least 2)")
        kernels: list[FuncOp] = []  # named by their index in the module: datamovement_kernel0, compute_kernel2, ...
        for func in [f for f in module.ops if isinstance(f, FuncOp) and f.body.blocks and
                     "ttkernel.thread" not in f.attributes]:
            lowering = _FunctionLowering(
                func, grid, chip, kernels, use_tile_matmul=self.use_tile_matmul,
                accessor_dma=self.use_tensor_accessor_dma, ttnn_mode=self.ttnn_mode,
                force_ct_args=self.force_compile_time_args, fold_layouts=not self.disable_tolayout_folding,
                fidelity=self.math_fidelity.lower(), stream_buffers=self.num_stream_buffers, dst_physical_tiles=dst)
            lowering.lower()
            module.body.block.add_ops(lowering.globals)
        module.body.block.add_ops(kernels)
