"""`--convert-ttir-to-ttmetal`: TTIR elementwise graphs straight to a TTMetal host program and TTKernel kernels.

This is the first cut of the Metal path; upstream reaches the same place through D2M (`d2m.generic` per op,
grid selection, bufferization, allocation, thread split, DMA lowering), which this pass does in one step for
what it covers: elementwise unary and binary ops on f32, bf16 and si32 tensors (each matrix padded to whole
tiles, leading dims folded into rows), every operand of an op the same shape. Anything else is refused
naming the op.

Per function: each tensor lives in L1, sharded over the largest grid that divides its tile rows and columns
and fits the device's worker grid, at an address fixed here (a bump allocator from the chip's unreserved L1
base). Each op is one `ttmetal.enqueue_program` of three kernels per core: a reader that hands the
L1-resident input shards to their CBs, a compute kernel that walks the shard tile by tile through the dst
register, and a writer that waits for the output shard. f32 ops run on the SFPU (both inputs copied into
dst), bf16 add/subtract/multiply on the FPU (`add_tiles`), as upstream chooses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (ArrayAttr, DenseArrayBase, DictionaryAttr, FunctionType, IndexType, IntegerAttr,
                                   MemRefType, ModuleOp, StringAttr, SymbolRefAttr, TensorType, UnitAttr, i32, i64)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.memref import AllocOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects import ttcore, ttkernel, ttmetal
from ttmlir.passes import PassFailure

TILE = 32
_DTYPES = {"f32": "f32", "bf16": "bf16", "i32": "si32", "si32": "si32"}
# TTIR op -> SFPU op (binary: `<op>(dst0, dst1, dst0)`; unary: `<op>_tile(dst0)`)
SFPU_BINARY = {"add": "add_binary_tile", "subtract": "sub_binary_tile", "multiply": "mul_binary_tile",
               "div": "div_binary_tile", "maximum": "binary_max_tile", "minimum": "binary_min_tile",
               "pow": "power_binary_tile", "eq": "eq_binary_tile", "ne": "ne_binary_tile", "gt": "gt_binary_tile",
               "ge": "ge_binary_tile"}
# a < b is b > a, a <= b is b >= a: lowered with their operands swapped, as upstream canonicalizes them
SWAPPED = {"lt": "gt", "le": "ge"}
SFPU_UNARY = {"exp": "exp", "log": "log", "sqrt": "sqrt", "rsqrt": "rsqrt", "reciprocal": "recip", "abs": "abs",
              "neg": "negative", "relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "sin": "sin", "cos": "cos",
              "tan": "tan", "ceil": "ceil", "floor": "floor", "sign": "sign", "gelu": "gelu", "erf": "erf",
              "logical_not": "logical_not", "atan": "atan", "expm1": "expm1", "log1p": "log1p"}
INT_VARIANTS = {"abs": "abs_tile_int32"}  # SFPU ops with their own entry point for si32 tiles
SHARED_INITS = {"ceil": "rounding_op_tile_init", "floor": "rounding_op_tile_init"}  # inits one op family shares
FPU_BINARY = {"add": "add_tiles", "subtract": "sub_tiles", "multiply": "mul_tiles"}


@dataclass
class _Layout:
    """A tensor's device buffer: grid, shard (in tiles), element tile and its address."""
    grid: tuple[int, int]
    shard: tuple[int, int]
    dtype: str
    address: int

    @property
    def tile(self) -> ttcore.TileType:
        return ttcore.TileType((TILE, TILE), self.dtype)

    @property
    def tiles(self) -> int:
        return self.shard[0] * self.shard[1]

    def memref(self) -> MemRefType:
        page = hardware.tile_bytes(self.dtype)
        layout = ttcore.ShardLayoutAttr(((self.shard[1] * page, page), 1))
        return MemRefType(self.tile, [*self.grid, *self.shard], layout, ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type("l1")))


def _largest_divisor(n: int, limit: int) -> int:
    return max(d for d in range(1, min(n, limit) + 1) if n % d == 0)


@dataclass
class _FunctionLowering:
    func: FuncOp
    device_grid: tuple[int, int]
    l1_base: int
    l1_size: int
    kernels: list[FuncOp]

    def shape_of(self, t: Attribute, op: Operation) -> tuple[int, int, str]:
        if not isinstance(t, TensorType):
            raise PassFailure(op, f"{t} is not a ranked tensor; the Metal path lowers tensors")
        shape = t.get_shape()
        dtype = str(t.element_type)
        if dtype not in _DTYPES:
            raise PassFailure(op, f"a tensor of {t.element_type} is not lowered to TTMetal yet (f32, bf16 and i32 are)")
        if len(shape) < 2:
            shape = (1,) * (2 - len(shape)) + tuple(shape)
        # each matrix of a batch is padded to whole tiles, then the batch folds into rows
        return math.prod(shape[:-2]) * -(-shape[-2] // TILE) * TILE, shape[-1], _DTYPES[dtype]

    def layout(self, t: Attribute, op: Operation, next_address: list[int]) -> _Layout:
        rows, cols, dtype = self.shape_of(t, op)
        ht, wt = -(-rows // TILE), -(-cols // TILE)
        grid = (_largest_divisor(ht, self.device_grid[0]), _largest_divisor(wt, self.device_grid[1]))
        layout = _Layout(grid, (ht // grid[0], wt // grid[1]), dtype, next_address[0])
        size = layout.tiles * hardware.tile_bytes(dtype)
        next_address[0] += -(-size // 32) * 32
        if next_address[0] > self.l1_size:
            raise PassFailure(op, f"the tensors of @{self.func.sym_name.data} need {next_address[0]} B of L1 per core "
                                  f"({self.l1_size} B); DRAM-resident tensors come with the D2M path")
        return layout

    def lower(self) -> None:
        func, block = self.func, self.func.body.block
        next_address = [self.l1_base]
        host_types = []
        for arg in block.args:
            rows, cols, dtype = self.shape_of(arg.type, func)
            host_types.append(MemRefType(arg.type.element_type, arg.type.get_shape()))
        new_block = Block(arg_types=host_types)
        ops: list[Operation] = []
        layouts: dict[SSAValue, tuple[SSAValue, _Layout]] = {}
        device_buffers: list[SSAValue] = []

        def device_buffer(layout: _Layout) -> SSAValue:
            create = ttmetal.CreateBufferOp.create(properties={"address": IntegerAttr(layout.address, i64)},
                                                   result_types=[layout.memref()])
            ops.append(create)
            device_buffers.append(create.result)
            return create.result

        for old, new in zip(block.args, new_block.args):
            layout = self.layout(old.type, func, next_address)
            buffer = device_buffer(layout)
            ops.append(ttmetal.EnqueueWriteBufferOp.create(operands=[new, buffer]))
            layouts[old] = (buffer, layout)
        results: list[SSAValue] = []
        for op in list(block.ops):
            if isinstance(op, ReturnOp):
                for value in op.operands:
                    if value not in layouts:
                        raise PassFailure(op, "a returned value must be computed on the device")
                    buffer, layout = layouts[value]
                    alloc = AllocOp.get(value.type.element_type, shape=value.type.get_shape())
                    ops.append(alloc)
                    ops.append(ttmetal.EnqueueReadBufferOp.create(operands=[buffer, alloc.memref]))
                    results.append(alloc.memref)
                continue
            kind = op.name.removeprefix("ttir.")
            inputs = list(op.operands)
            if kind in SWAPPED:
                kind, inputs = SWAPPED[kind], inputs[::-1]
            if not op.name.startswith("ttir.") or (kind not in SFPU_BINARY and kind not in SFPU_UNARY):
                raise PassFailure(op, f"'{op.name}' is not lowered to TTMetal yet (elementwise unary and binary ops "
                                      "are)")
            binary = kind in SFPU_BINARY
            if len(inputs) != (2 if binary else 1) or len(op.results) != 1:
                raise PassFailure(op, f"'{op.name}' with {len(inputs)} operand(s) is not lowered to TTMetal yet")
            result_type = op.results[0].type
            for value in inputs:
                if value.type != result_type:
                    raise PassFailure(op, f"'{op.name}' broadcasts or casts ({value.type} -> {result_type}); only "
                                          "same-shape elementwise ops are lowered to TTMetal yet")
            out_layout = self.layout(result_type, op, next_address)
            out = device_buffer(out_layout)
            operands = [layouts[v][0] for v in inputs] + [out]
            ops.append(self.launch(kind, operands, out_layout, op))
            layouts[op.results[0]] = (out, out_layout)
        for buffer in device_buffers:
            ops.append(ttmetal.DeallocateBufferOp.create(operands=[buffer]))
        ops.append(ttmetal.FinishOp.create())
        ops.append(ReturnOp(*results))
        new_block.add_ops(ops)
        func.body.detach_block(block)
        func.body.add_block(new_block)
        func.function_type = FunctionType.from_lists(host_types, [r.type for r in results])

    def launch(self, kind: str, operands: list[SSAValue], layout: _Layout, op: Operation) -> ttmetal.EnqueueProgramOp:
        inputs = len(operands) - 1
        core_range = ttmetal.CoreRangeAttr(((0, 0), layout.grid))
        ports = list(range(len(operands)))
        cb = ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile)
        reader = self.kernel("datamovement", "noc", [self.reader_body(cb, inputs, layout.tiles)])
        writer = self.kernel("datamovement", "noc", [self.writer_body(cb, layout.tiles)])
        compute = self.kernel("compute", "compute", [self.compute_body(kind, cb, inputs, layout)])
        args = lambda indices: ttmetal.KernelArgsAttr(((), (), tuple(("cb_port", i) for i in indices)))
        configs = [
            ttmetal.NocConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(reader), core_range, args(range(inputs)),
                                                       (1, "noc0", None))),
            ttmetal.NocConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(writer), core_range, args([inputs]),
                                                       (0, "noc1", None))),
            ttmetal.ComputeConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(compute), core_range, args(ports),
                                                           ("hifi4", layout.dtype == "f32", False, False,
                                                            ("default",)))),
        ]
        launch = ttmetal.EnqueueProgramOp.create(
            operands=[*operands, *operands],
            properties={"cb_ports": DenseArrayBase.from_list(i64, ports), "kernelConfigs": ArrayAttr(configs),
                        "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(operands), len(operands)])})
        launch.location = op.location
        return launch

    def kernel(self, base: str, thread: str, body: list[list[Operation]]) -> str:
        name = f"{base}_kernel{len(self.kernels)}"
        func = FuncOp(name, ((), ()), Region(Block()), visibility="private")
        func.attributes["ttkernel.thread"] = ttkernel.ThreadAttr(ttkernel.ThreadAttr.enum_type(thread))
        func.attributes["tt.function_type"] = StringAttr("kernel")
        func.body.block.add_ops([*body[0], ReturnOp()])
        self.kernels.append(func)
        return name

    @staticmethod
    def _cb_args(cb: Attribute, count: int) -> list[Operation]:
        return [ttkernel.OP_CLASSES["get_compile_time_arg_val"].create(
            properties={"arg_index": IntegerAttr(i, i32)}, result_types=[cb]) for i in range(count)]

    @staticmethod
    def _call(name: str, *operands: SSAValue, **props) -> Operation:
        return ttkernel.OP_CLASSES[name].create(operands=list(operands), properties=props)

    def reader_body(self, cb: Attribute, inputs: int, tiles: int) -> list[Operation]:
        count = arith.ConstantOp(IntegerAttr(tiles, i32))
        ops: list[Operation] = [count, *(cbs := self._cb_args(cb, inputs))]
        for c in cbs:  # the shard is already in L1: hand its pages to the CB
            ops += [self._call("cb_reserve_back", c.results[0], count.result),
                    self._call("cb_push_back", c.results[0], count.result)]
        return ops

    def writer_body(self, cb: Attribute, tiles: int) -> list[Operation]:
        count = arith.ConstantOp(IntegerAttr(tiles, i32))
        (out,) = self._cb_args(cb, 1)
        return [count, out, self._call("cb_wait_front", out.results[0], count.result)]

    def compute_body(self, kind: str, cb: Attribute, inputs: int, layout: _Layout) -> list[Operation]:
        count = arith.ConstantOp(IntegerAttr(layout.tiles, i32))
        zero, one = arith.ConstantOp(IntegerAttr(0, IndexType())), arith.ConstantOp(IntegerAttr(1, IndexType()))
        upper = arith.ConstantOp(IntegerAttr(layout.tiles, IndexType()))
        cbs = self._cb_args(cb, inputs + 1)
        ins, out = [c.results[0] for c in cbs[:-1]], cbs[-1].results[0]
        fpu = layout.dtype == "bf16" and kind in FPU_BINARY
        ops: list[Operation] = [count, zero, one, upper, *cbs]
        ops.append(self._call("binary_op_init_common", ins[0], ins[1], out) if fpu else
                   self._call("init_sfpu", ins[0], out))
        ops += [self._call("cb_wait_front", c, count.result) for c in ins]
        ops.append(self._call("cb_reserve_back", out, count.result))
        body = Block(arg_types=[IndexType()])
        i = body.args[0]
        step: list[Operation] = [self._call("tile_regs_acquire")]
        if fpu:
            step += [self._call(f"{FPU_BINARY[kind]}_init", ins[0], ins[1]),
                     self._call(FPU_BINARY[kind], ins[0], ins[1], i, i, zero.result)]
        else:
            for slot, c in enumerate(ins):
                step += [self._call("copy_tile_init", c),
                         self._call("copy_tile", c, i, zero.result if slot == 0 else one.result)]
            if kind in SFPU_BINARY:
                step += [self._call(f"{SFPU_BINARY[kind]}_init"),
                         self._call(SFPU_BINARY[kind], zero.result, one.result, zero.result)]
            else:
                name = SFPU_UNARY[kind]
                entry = INT_VARIANTS.get(kind, f"{name}_tile") if layout.dtype == "si32" else f"{name}_tile"
                step += [self._call(SHARED_INITS.get(kind, f"{name}_tile_init")), self._call(entry, zero.result)]
        step += [self._call("tile_regs_commit"), self._call("tile_regs_wait"),
                 self._call("pack_tile", zero.result, out, i, out_of_order=IntegerAttr(0, 1)),
                 self._call("tile_regs_release"), scf.YieldOp()]
        body.add_ops(step)
        ops.append(scf.ForOp(zero.result, upper.result, one.result, [], body))
        ops.append(self._call("cb_push_back", out, count.result))
        ops += [self._call("cb_pop_front", c, count.result) for c in ins]
        return ops


@dataclass(frozen=True)
class ConvertTTIRToTTMetalPass(ModulePass):
    """Lower TTIR elementwise functions to a TTMetal host program and TTKernel kernels (see the module doc)."""

    name: ClassVar[str] = "convert-ttir-to-ttmetal"
    override_device_shape: tuple[int, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from ttmlir.passes.register_device import device_module_of

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
        kernels: list[FuncOp] = []  # named by their index in the module: datamovement_kernel0, compute_kernel2, ...
        for func in [f for f in module.ops if isinstance(f, FuncOp) and f.body.blocks and
                     "ttkernel.thread" not in f.attributes]:
            _FunctionLowering(func, grid, int(chip["l1_unreserved_base"]), int(chip["l1_size"]), kernels).lower()
        module.body.block.add_ops(kernels)
