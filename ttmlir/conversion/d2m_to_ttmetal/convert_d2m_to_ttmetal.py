"""`--convert-d2m-to-ttmetal`: D2M programs whose kernels are made (`--convert-d2m-to-ttkernel`) to a TTMetal host
program.

Host tensors moved onto the device (`d2m.to_layout`) go into the layout their metal-layout type and d2m.empty give
them (grid, shards of tiles, L1 or DRAM, the cores a virtual grid mapping moves them to): each device tensor a
`ttmetal.create_buffer` at its address (`conversion/d2m_to_ttmetal/addresses.py`: by liveness, each buffer freed by
a `ttmetal.deallocate_buffer` after the last command using it), each move from or to the host an `enqueue_write_buffer`/`enqueue_read_buffer`
(through a host buffer padded to whole tiles when the tensor is not in them); as upstream's host neither tilizes nor
untilizes, every tiled L1 input (and a tensor kept at its rank) is written row-major into shards of its own and
tilized there by a program, every tiled L1 result untilized into row-major shards on its cores by a program before it
is read back (DRAM tensors still cross as tiles), a device tensor
moved into another device layout is copied by a program; those programs' kernels are built here
(`conversion/d2m_to_ttkernel/programs.py`). Each generic naming its kernels in its threads (alone, or the regions of a
`d2m.spatial` as one program) becomes a `ttmetal.enqueue_program` of its `ins`/`outs` and of its `additionalArgs` as
the CBs, port by port, each kernel on the output's cores with the arguments its `ttkernel.arg_spec` names (runtime
args every core shares as common runtime args), its data-movement cores on their NoCs (core 1 on NoC 0, core 0 on
NoC 1), its compute at `math-fidelity` (a 32-bit dst for f32 and si32 outputs). A generic filling a tensor with a
constant, `ttir.constant`s and `ttir.arange`s are host data (a `memref.global`) the host writes. A `d2m.mesh_shard`
and the TTIR collectives are host commands on every chip's host buffers (`ccl.py`). Anything else is refused naming
the op.

With `ttnn-mode` the function's tensors are TTNN's and stay so: a D2M program on their `ttir.ttnn_metal_layout_cast`s
computes where their `#ttnn.ttnn_layout` holds them (L1 shards on the cores it names, or DRAM pages), each result a
`ttnn.empty`, and each program becomes a `ttnn.generic` (`convert_d2m_to_ttnn`) whose kernels take every address as
a runtime argument, since TTNN allocates at run time."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (BytesAttr, DenseIntOrFPElementsAttr, FunctionType, IntegerType, MemRefType, ModuleOp,
                                   NoneAttr, StringAttr, TensorType, UnitAttr)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.memref import AllocOp, CopyOp, GetGlobalOp, GlobalOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore, ttmetal, ttnn
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.errors import PassFailure
from ttmlir.conversion.d2m_to_ttnn.convert_d2m_to_ttnn import device_of, generic_of
from ttmlir.transforms.ttnn.ttnn_utils import ttnn_empty
from ttmlir.conversion.d2m_to_ttkernel.convert_d2m_to_ttkernel import LAYOUT_MOVES, kernel_functions
from ttmlir.conversion.d2m_to_ttkernel.generics import fill_value, fills_of
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import ELEMENTS, ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.layouts import device_facts
from ttmlir.transforms.ttcore.register_device import device_module_of
from ttmlir.conversion.d2m_to_ttmetal.addresses import assign_addresses
from ttmlir.conversion.d2m_to_ttmetal.buffers import DevicePlacement, Placed
from ttmlir.conversion.d2m_to_ttmetal.ccl import HOST_COMMANDS, host_command
from ttmlir.conversion.d2m_to_ttmetal.memref_programs import MemrefProgramLowering, is_memref_form
from ttmlir.conversion.d2m_to_ttmetal.program import enqueue, launch_configs, one_program
from ttmlir.conversion.d2m_to_ttmetal.host_view import host_view
from ttmlir.conversion.ttir_to_d2m.host_view import HOST_VIEWS
from ttmlir.ir.sizes import elements_error

HOST_DATA = ("ttir.constant", "ttir.arange")  # tensors whose values are known when compiling: written by the host


def _host_layout(t: Attribute) -> ttcore.HostLayoutAttr | None:
    """The padded host layout a tensor not in whole tiles is staged in: each matrix of the batch padded to whole
    tiles, as the device holds it; None when nothing is padded."""
    shape = tuple(t.get_shape())
    batch, rows, cols = hardware.tile_padded(shape)
    if len(shape) >= 2 and (rows, cols) == shape[-2:]:
        return None
    return ttcore.HostLayoutAttr(ttcore.HostLayout(shape, hardware.tile_padded_strides(shape), batch * rows * cols))


FIDELITIES = ("LoFi", "HiFi2", "HiFi3", "HiFi4")  # math-fidelity (the pipeline's set-math-fidelity), as upstream spells them


@dataclass
class _FunctionLowering:
    """One function's D2M ops as buffers, host transfers and programs (the kernels go into `kernels`)."""

    func: FuncOp
    device_grid: tuple[int, int]
    chip: dict
    kernels: list[FuncOp]  # the module's kernel functions
    ttnn_mode: bool = False  # the function's tensors are TTNN's: each program becomes a ttnn.generic on them
    fidelity: str = "hifi4"  # every compute kernel's math fidelity

    def __post_init__(self):
        self.globals: list[Operation] = []  # constants' host data, module-level memref.global ops
        self.ops: list[Operation] = []
        self.alloc = DevicePlacement(self.func, self.device_grid, self.chip, self.ops, self.ttnn_mode)
        self.buffers, self.layouts = self.alloc.buffers, self.alloc.layouts
        self.named: dict[str, FuncOp] = {}  # `kernels` by name, extended as kernels are made (see `kernel_index`)

    def kernel_index(self) -> dict[str, FuncOp]:
        """The kernels by name; the kernels made here are appended to `kernels`, so only those are indexed anew (a
        model's thousands of programs would otherwise each walk every kernel)."""
        for kernel in self.kernels[len(self.named):]:
            self.named[kernel.sym_name.data] = kernel
        return self.named

    def write_input(self, host: SSAValue, placed: Placed, op: Operation) -> None:
        """A host tensor onto its device tensor, as it is (an L1 tensor of tiles is tilized on the device from a
        row-major one the host writes: convert-d2m-to-ttkernel makes that program)."""
        if placed.layout.nd is not None and placed.layout.tiled:
            raise PassFailure(op, "a tensor kept at its rank is written row-major and tilized by a program "
                                  "(--convert-d2m-to-ttkernel makes it)")
        self.write_host(host, placed.buffer)

    def read_output(self, placed: Placed, t: TensorType, op: Operation) -> SSAValue:
        """A device tensor read back to the host (a tiled L1 one from the row-major shards a program untilized it
        into)."""
        if placed.layout.nd is not None and placed.layout.tiled:
            raise PassFailure(op, "a tensor kept at its rank is untilized into a row-major one by a program before "
                                  "it is read (--convert-d2m-to-ttkernel makes it)")
        return self.read_host(placed.buffer, t)

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
            elif op.name in HOST_COMMANDS and not self.ttnn_mode:  # on every chip's host buffer
                source = op.operands[0]
                if source not in self.hosts:  # a program's result, read back first
                    if source not in placed:
                        raise PassFailure(op, f"'{op.name}' takes host data or a program's result")
                    self.hosts[source] = self.read_output(placed[source], source.type, op)
                self.ops.append(host_command(op, self.hosts[source], ttcore.registered_mesh(func) or (1, 1)))
                self.hosts[op.results[0]] = self.ops[-1].results[0]
            elif op.name.startswith("d2m.") or op.name in (*LAYOUT_MOVES, "ttir.empty"):
                self.lower_d2m(op, placed)
            elif self.ttnn_mode and (op.name.startswith("ttnn.") or isinstance(op, TTNNMetalLayoutCastOp)):
                self.bridge(op, placed)
            elif op.name in HOST_VIEWS and op.operands[0] in self.hosts:  # an argument reshaped on the host
                self.ops.append(host_view(self.hosts[op.operands[0]], op.results[0].type))
                self.hosts[op.results[0]] = self.ops[-1].results[0]
            elif op.name in HOST_DATA:  # a memref.global, written to the device by the moves reading it
                self.hosts[op.results[0]] = self.constant(op)
            else:
                raise PassFailure(op, f"'{op.name}' is not lowered to TTMetal yet; the conversion takes D2M programs "
                                      "(--ttir-to-d2m converts TTIR ops to them)")
        if self.ttnn_mode:  # each program a ttnn.generic on the TTNN tensors; its CBs' buffers the runtime's
            self.ops = [generic_of(op, self.layouts, self.kernels) if isinstance(op, ttmetal.EnqueueProgramOp) else op
                        for op in self.ops if not isinstance(op, ttmetal.CreateBufferOp)]
        else:  # a buffer nothing reads or writes is not created; the others are freed when dead
            self.ops = [op for op in self.ops if not isinstance(op, ttmetal.CreateBufferOp) or op.result.uses]
            self.ops = assign_addresses(self.ops, self.alloc.sizes, self.chip, func.sym_name.data, self.layouts)
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
            source, dest, result = op.operands[0], op.operands[1], op.results[0]
            if source in self.hosts and not isinstance(getattr(result.type, "encoding", None), ttcore.MetalLayoutAttr):
                copy = AllocOp.get(result.type.element_type, shape=result.type.get_shape())  # moved on the host
                self.ops += [copy, CopyOp(self.hosts[source], copy.memref)]
                self.hosts[result] = copy.memref
                return
            if source in self.hosts and dest in placed:
                placed[result] = placed[dest]
                self.write_input(self.hosts[source], placed[result], op)
            elif source in placed and not isinstance(getattr(result.type, "encoding", None), ttcore.MetalLayoutAttr):
                placed[result] = placed[source]  # read back where the function returns it
            elif source in placed and dest in placed and \
                    not isinstance(getattr(source.type, "encoding", None), ttcore.MetalLayoutAttr) and \
                    replace(placed[source].layout, address=0) != replace(placed[dest].layout, address=0):
                # a device tensor moved to the host and into a layout no program moves it into (a row-major tensor
                # kept at its rank and a tiled one kept at its rank): read back and written
                placed[result] = placed[dest]
                self.write_input(self.read_output(placed[source], source.type, op), placed[result], op)
            elif source in placed and dest in placed:  # a device tensor into the same layout: itself
                if replace(placed[source].layout, address=0) != replace(placed[dest].layout, address=0):
                    raise PassFailure(op, "a device tensor moved into another layout is copied by a program "
                                          "(--convert-d2m-to-ttkernel makes it)")
                placed[result] = placed[source]
            else:
                raise PassFailure(op, "only to_layouts between the host and the device are lowered to TTMetal yet")
            return
        if isinstance(op, d2m.ViewLayoutOp):
            if op.remapping.data != AffineMap.identity(op.remapping.data.num_dims) or \
                    op.input.type != op.result.type:
                raise PassFailure(op, "only identity view_layouts are lowered to TTMetal yet")
            placed[op.result] = placed[op.input]
            return
        if isinstance(op, d2m.MaskOp):
            moved = op.input.owner
            if isinstance(moved, d2m.GenericOp) and not moved.regions and len(moved.inputs) == 1:
                moved = moved.inputs[0].owner  # host data written row-major, tilized by a program
            if op.fill_value.data.value != "zero" or not isinstance(moved, d2m.ToLayoutOp) or \
                    moved.input not in self.hosts:
                raise PassFailure(op, "only d2m.masks filling the padding of host data with zeros are lowered to "
                                      "TTMetal yet")
            placed[op.result] = placed[op.input]  # host data is staged padded with zeros: nothing to change
            return
        if isinstance(op, d2m.GenericOp) and fills_of(op):
            placed[op.results[0]] = self.fill(op, placed)
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
        launches = [self.launch_threads(generic, placed) for generic in generics]
        self.ops.append(one_program(launches, op) if len(launches) > 1 else launches[0])
        for generic in generics:
            for result, output in zip(generic.results, generic.outputs):  # a topk's two
                placed[result] = placed[output]
        for result, generic in zip(op.results, generics) if op is not generics[0] else ():
            placed[result] = placed[generic.results[0]]

    def fill(self, generic: d2m.GenericOp, placed: dict[SSAValue, Placed]) -> Placed:
        """A generic filling its output with a constant (`d2m.tile_fill` of an arith.constant): the value is known
        when compiling, so the filled tensor is host data written to the output, as a TTIR full is."""
        out, layout = placed[generic.outputs[0]], generic.outputs[0].type.encoding.data
        host_type = TensorType(ELEMENTS[out.layout.dtype], layout.logical_shape)
        if (error := elements_error(host_type)) is not None:  # checked before the splat is expanded
            raise PassFailure(generic, error)
        value = fill_value(generic)
        self.write_host(self.host_constant(host_type, DenseIntOrFPElementsAttr.from_list(host_type, [value])),
                        out.buffer)
        return out

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

    def launch_threads(self, generic: d2m.GenericOp, placed: dict[SSAValue, Placed]) -> ttmetal.EnqueueProgramOp:
        """The program of a generic whose threads name its kernels (`--convert-d2m-to-ttkernel` makes them): its
        `ins` and `outs` the program's buffers, its `additionalArgs` the buffers its CBs work in, port by port."""
        threads = generic.attributes["threads"].data
        if generic.regions or any(t.kernel is None for t in threads):
            raise PassFailure(generic, "a d2m.generic is lowered to TTMetal once its threads name their kernels "
                                       "(--convert-d2m-to-ttkernel makes them)")
        made = self.kernel_index()
        if any(t.kernel.root_reference.data not in made for t in threads):
            raise PassFailure(generic, "a program's threads name kernel functions in the ttkernel dialect "
                                       "(--convert-d2m-to-ttkernel makes them)")
        missing = [v for v in generic.operands if v not in placed]
        if missing:
            raise PassFailure(generic, "a program's operands are device tensors made before it")
        buffers = [placed[v] for v in (*generic.inputs, *generic.outputs)]
        return self.enqueue_launch([p.buffer for p in buffers], [placed[v].buffer for v in generic.additional_args],
                                   threads, buffers[-1].layout, generic)

    def enqueue_launch(self, buffers: list[SSAValue], cbs: list[SSAValue], threads, layout: ShardLayout,
                       op: Operation) -> ttmetal.EnqueueProgramOp:
        configs = launch_configs(threads, self.kernel_index(), layout, self.fidelity)
        return enqueue(buffers, cbs, list(range(len(cbs))), configs, op)

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


def _check_dm_cores(generic: d2m.GenericOp) -> None:
    """A data-movement thread runs on one of a core's two data-movement RISCs (dm_core 0 or 1), each with its NoC."""
    threads = generic.attributes.get("threads") or generic.properties.get("threads")
    for thread in getattr(threads, "data", ()):
        if isinstance(thread, d2m.ThreadAttr) and thread.dm_core.data > 1:
            raise PassFailure(generic, "DM core indices greater than 1 are not supported by D2MToTTMetal lowering yet")


@dataclass(frozen=True)
class ConvertD2MToTTMetalPass(ModulePass):
    """D2M programs whose kernels are made to a TTMetal host program (see the module doc)."""

    name: ClassVar[str] = "convert-d2m-to-ttmetal"
    math_fidelity: str = "HiFi4"
    override_device_shape: tuple[int, ...] = ()
    ttnn_mode: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        module = device_module_of(op)
        chip, grid = device_facts(module, op, self.override_device_shape)
        if self.math_fidelity not in FIDELITIES:
            raise PassFailure(op, f"math-fidelity is one of {', '.join(FIDELITIES)}, not '{self.math_fidelity}'")
        for generic in [g for g in module.walk() if isinstance(g, d2m.GenericOp)]:
            _check_dm_cores(generic)
        kernels = kernel_functions(module)
        for func in [f for f in module.ops if isinstance(f, FuncOp) and f.body.blocks and
                     "ttkernel.thread" not in f.attributes and "d2m.thread" not in f.attributes]:
            if is_memref_form(func):  # allocated and with its kernels made, as upstream's pipeline stages it
                MemrefProgramLowering(func, {k.sym_name.data: k for k in kernels}, self.math_fidelity.lower()).lower()
                continue
            lowering = _FunctionLowering(func, grid, chip, kernels, ttnn_mode=self.ttnn_mode,
                                         fidelity=self.math_fidelity.lower())
            lowering.lower()
            module.body.block.add_ops(lowering.globals)
