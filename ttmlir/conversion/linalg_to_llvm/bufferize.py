"""The linalg-to-LLVM pipeline's bufferization, as MLIR's one-shot bufferization with function boundaries and
identity layouts followed by its deallocation pipeline, for what `--convert-ttir-to-linalg` emits in linalg:
tensor arguments and results become memrefs, `tensor.empty` and splat constants fresh buffers, each structured op on
tensors the same op on buffers writing its init's buffer (in place when the init is a fresh buffer nothing else
reads, else a copy; a tensor its body reads with `tensor.extract` is loaded from its buffer), static slices,
inserts and pads a copy from or into a strided view (`memref.subview`) of the buffer, and every buffer the function
does not return is freed before it returns. A returned
argument (or a buffer returned twice) is copied, so each result owns its memory."""

from __future__ import annotations

from xdsl.dialects import arith, func, memref, tensor
from xdsl.dialects.builtin import AffineMapAttr, DenseIntOrFPElementsAttr, MemRefType, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir.errors import PassFailure

SEGMENTS = ("operandSegmentSizes", "resultSegmentSizes")


def buffer_type(t):
    return MemRefType(t.element_type, t.get_shape()) if isinstance(t, TensorType) else t


class _Bufferizer:
    def __init__(self, function: func.FuncOp):
        self.func = function
        self.block = Block(arg_types=[buffer_type(a.type) for a in function.body.block.args])
        self.values: dict[SSAValue, SSAValue] = dict(zip(function.body.block.args, self.block.args))
        self.fresh: set[SSAValue] = set()  # buffers this function allocated

    def add(self, op: Operation, at: Operation) -> Operation:
        op.location = at.location
        self.block.add_op(op)
        return op

    def alloc(self, t: MemRefType, at: Operation) -> SSAValue:
        buffer = self.add(memref.AllocOp.get(t.element_type, shape=t.get_shape()), at).memref
        self.fresh.add(buffer)
        return buffer

    def copy_of(self, buffer: SSAValue, at: Operation) -> SSAValue:
        new = self.alloc(buffer.type, at)
        self.add(memref.CopyOp(buffer, new), at)
        return new

    def init_buffer(self, init: SSAValue, read: bool, at: Operation) -> SSAValue:
        """The buffer a structured op writes for its init `init`: the init's own when it is a fresh buffer no later
        op reads, else a new one (holding the init's values when the op reads them)."""
        buffer = self.values[init]
        if buffer in self.fresh and init.has_one_use():
            return buffer
        return self.copy_of(buffer, at) if read else self.alloc(buffer.type, at)

    def structured(self, op: LinalgStructuredOperation) -> None:
        ins = [self.values.get(v, v) for v in op.inputs]
        outs = []
        for index, init in enumerate(op.outputs):
            reads = bool(op.body.block.args[len(op.inputs) + index].uses) if op.body.blocks else True
            outs.append(self.init_buffer(init, reads, op) if isinstance(init.type, TensorType)
                        else self.values.get(init, init))
        body = Region()
        op.body.clone_into(body, value_mapper=dict(self.values))  # captured tensors read as their buffers
        for extract in [o for o in body.walk() if isinstance(o, tensor.ExtractOp)]:
            load = memref.LoadOp.get(extract.tensor, list(extract.indices))
            extract.parent_block().insert_op_before(load, extract)
            extract.result.replace_all_uses_with(load.res)
            extract.detach()
            extract.erase()
        new = type(op).build(operands=[ins, outs], result_types=[[]],
                             properties={k: v for k, v in op.properties.items() if k not in SEGMENTS},
                             attributes={k: v for k, v in op.attributes.items() if k not in SEGMENTS},
                             regions=[body])
        self.add(new, op)
        for result, buffer in zip(op.results, outs):
            self.values[result] = buffer

    def copy(self, source: SSAValue, target: SSAValue, source_map: AffineMap, target_map: AffineMap,
             at: Operation) -> None:
        """A generic copying each element of `source` to `target`; the first map's dimensions are the loops'."""
        block = Block(arg_types=[source.type.element_type, target.type.element_type])
        block.add_op(YieldOp(block.args[0]))
        self.add(GenericOp([source], [target], Region(block), [AffineMapAttr(source_map), AffineMapAttr(target_map)],
                           [IteratorTypeAttr.parallel()] * source_map.num_dims, []), at)

    def view(self, op: Operation, buffer: SSAValue) -> SSAValue:
        """The part of `buffer` a static slice op names, as a strided view of it (`memref.subview`)."""
        if op.offsets or op.sizes or op.strides:
            raise PassFailure(op, f"failed to bufferize op '{op.name}': dynamic offsets, sizes or strides")
        offsets, sizes, strides = (list(a.get_values()) for a in (op.static_offsets, op.static_sizes,
                                                                   op.static_strides))
        t = memref.SubviewOp.infer_result_type(buffer.type, offsets, sizes, strides)
        return self.add(memref.SubviewOp.get(buffer, offsets, sizes, strides, t), op).result

    @staticmethod
    def view_map(full: list[int], part: list[int]) -> AffineMap:
        """A view of `full`'s rank read at the index of its (possibly rank-reduced) slice of shape `part`: a size-1
        dimension the slice drops is read at 0."""
        dropped = len(full) - len(part)
        exprs, k = [], 0
        for size in full:
            if dropped and size == 1 and (len(full) - len(exprs)) > (len(part) - k):
                exprs.append(AffineConstantExpr(0))
                dropped -= 1
            else:
                exprs.append(AffineDimExpr(k))
                k += 1
        return AffineMap(len(part), 0, tuple(exprs))

    def extract_slice(self, op: tensor.ExtractSliceOp) -> None:
        out = buffer_type(op.result.type)
        part = self.view(op, self.values[op.source])
        buffer = self.alloc(out, op)
        rank = len(out.get_shape())
        self.copy(part, buffer, self.view_map(part.type.get_shape(), out.get_shape()), AffineMap.identity(rank), op)
        self.values[op.result] = buffer

    def insert_slice(self, op: tensor.InsertSliceOp) -> None:
        buffer = self.init_buffer(op.dest, True, op)
        part = self.view(op, buffer)
        shape = op.source.type.get_shape()
        self.copy(self.values[op.source], part, AffineMap.identity(len(shape)),
                  self.view_map(part.type.get_shape(), shape), op)
        self.values[op.result] = buffer

    def pad(self, op: tensor.PadOp) -> None:
        if op.low or op.high:
            raise PassFailure(op, "failed to bufferize op 'tensor.pad': dynamic padding")
        (value,) = op.region.block.last_op.operands
        if value.owner.parent_op() is op:
            if not isinstance(value.owner, arith.ConstantOp):
                raise PassFailure(op, "failed to bufferize op 'tensor.pad': a padding value computed per element")
            value = self.add(value.owner.clone(), op).result
        out = buffer_type(op.result.type)
        buffer = self.alloc(out, op)
        self.add(FillOp([self.values.get(value, value)], [buffer], []), op)
        shape = op.source.type.get_shape()
        low = list(op.static_low.get_values())
        t = memref.SubviewOp.infer_result_type(out, low, list(shape), [1] * len(shape))
        part = self.add(memref.SubviewOp.get(buffer, low, list(shape), [1] * len(shape), t), op).result
        self.copy(self.values[op.source], part, AffineMap.identity(len(shape)), AffineMap.identity(len(shape)), op)
        self.values[op.result] = buffer

    def constant(self, op: arith.ConstantOp) -> None:
        value = op.value
        if not (isinstance(value, DenseIntOrFPElementsAttr) and value.is_splat()):
            raise PassFailure(op, "failed to bufferize op: only splat tensor constants have a buffer form here")
        buffer = self.alloc(buffer_type(op.result.type), op)
        scalar = self.add(arith.ConstantOp(value.get_attrs()[0]), op).result
        self.add(FillOp([scalar], [buffer], []), op)
        self.values[op.result] = buffer

    def returned(self, op: func.ReturnOp) -> None:
        results, seen = [], set()
        for value in op.operands:
            buffer = self.values.get(value, value)
            if isinstance(buffer.type, MemRefType) and (buffer not in self.fresh or buffer in seen):
                buffer = self.copy_of(buffer, op)
            seen.add(buffer)
            results.append(buffer)
        for buffer in [b for b in self.fresh if b not in seen]:
            self.add(memref.DeallocOp.get(buffer), op)
        self.add(func.ReturnOp(*results), op)

    def run(self) -> None:
        for op in self.func.body.block.ops:
            if isinstance(op, LinalgStructuredOperation):
                self.structured(op)
            elif isinstance(op, tensor.ExtractSliceOp):
                self.extract_slice(op)
            elif isinstance(op, tensor.InsertSliceOp):
                self.insert_slice(op)
            elif isinstance(op, tensor.PadOp):
                self.pad(op)
            elif isinstance(op, tensor.EmptyOp):
                self.values[op.tensor] = self.alloc(buffer_type(op.tensor.type), op)
            elif isinstance(op, arith.ConstantOp) and isinstance(op.result.type, TensorType):
                self.constant(op)
            elif isinstance(op, func.ReturnOp):
                self.returned(op)
            elif any(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)) or op.regions:
                raise PassFailure(op, f"failed to bufferize op '{op.name}': the CPU pipeline bufferizes linalg "
                                      "structured ops, tensor.empty and splat constants")
            else:
                self.block.add_op(clone := op.clone(value_mapper=dict(self.values)))
                self.values.update(zip(op.results, clone.results))
        old = self.func.body.block
        self.func.body.insert_block_before(self.block, old)
        for op in reversed(list(old.ops)):
            op.drop_all_references()
        self.func.body.detach_block(old)
        self.func.function_type = func.FunctionType.from_lists(
            [a.type for a in self.block.args], [buffer_type(t) for t in self.func.function_type.outputs.data])


def bufferize(module: ModuleOp) -> None:
    for function in [f for f in module.walk() if isinstance(f, func.FuncOp) and f.body.blocks]:
        if len(function.body.blocks) != 1:
            raise PassFailure(function, "failed to bufferize: a function of one block is expected")
        _Bufferizer(function).run()
