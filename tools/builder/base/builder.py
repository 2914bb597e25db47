"""The builder core shared by TTIRBuilder and TTNNBuilder: functions, calls, device modules, locations
and goldens.

A builder builds an xDSL module op by op. Every op's golden is computed as the op is built (its
result type is the golden's shape), from random inputs unless `set_goldens` says otherwise; goldens
are one tensor per device of the mesh (`{device_id: tensor}`). Changing an input golden re-evaluates
the function, so `set_goldens` may come after the ops it feeds.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict
from typing import Callable, ClassVar, Sequence

import torch
from xdsl.dialects.builtin import (BFloat16Type, DenseIntOrFPElementsAttr, Float16Type, Float32Type, Float64Type,
                                   FunctionType, IntegerType, ModuleOp, NameLoc, NoneAttr, Signedness, StringAttr,
                                   TensorType, UnitAttr, UnknownLoc)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, TypeAttribute

from golden.mapping import MOVES_VALUES, GoldenMap, evaluate
from ttmlir.asm import print_module
from ttmlir.dialects import ttcore
from ttmlir.ir.op_table import IN_PLACE_OPERAND
from ttmlir.ir.props import KINDS
from ttmlir.dialects.quant import UniformQuantizedType
from ttmlir.ir.tt_op import TTOp

Operand = SSAValue
BUILDER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TORCH_TO_MLIR: dict[torch.dtype, Attribute] = {
    torch.float32: Float32Type(), torch.bfloat16: BFloat16Type(), torch.float16: Float16Type(),
    torch.float64: Float64Type(), torch.int32: IntegerType(32, Signedness.SIGNED),
    torch.int64: IntegerType(64, Signedness.SIGNED), torch.int16: IntegerType(16, Signedness.SIGNED),
    torch.int8: IntegerType(8, Signedness.SIGNED), torch.uint8: IntegerType(8, Signedness.UNSIGNED),
    torch.bool: IntegerType(1),
}
MLIR_TO_TORCH = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16, "f64": torch.float64,
                 "i1": torch.bool, "i8": torch.int8, "si8": torch.int8, "ui8": torch.uint8, "i16": torch.int16,
                 "si16": torch.int16, "ui16": torch.int32, "i32": torch.int32, "si32": torch.int32,
                 "ui32": torch.int64, "i64": torch.int64, "si64": torch.int64, "ui64": torch.int64}


class BuilderError(Exception):
    """A builder call that cannot make a valid op; the message names the op and the reason."""


def mlir_type(dtype) -> Attribute:
    if isinstance(dtype, Attribute):
        return dtype
    if dtype not in TORCH_TO_MLIR:
        raise BuilderError(f"unsupported data type {dtype}")
    return TORCH_TO_MLIR[dtype]


def torch_dtype(element: Attribute) -> torch.dtype:
    if isinstance(element, UniformQuantizedType):  # held as its storage integers
        q = element.data
        return MLIR_TO_TORCH.get(f"{'si' if q.signed else 'ui'}{q.width}", torch.int64)
    return MLIR_TO_TORCH.get(str(element), torch.float32)


def random_tensor(shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
    if dtype.is_floating_point:
        return torch.randn(tuple(shape), dtype=dtype)  # drawn in its own type: no f32 copy of a large table
    if dtype == torch.bool:
        return torch.randint(0, 2, tuple(shape)).bool()
    return torch.randint(0, 10, tuple(shape)).to(dtype)


class Module:
    """What `build_module` returns: an xDSL module printed the way tt-mlir's Python bindings print one."""

    def __init__(self, module_op: ModuleOp):
        self.module_op = module_op

    @property
    def operation(self) -> Module:
        return self

    @property
    def body(self) -> Block:
        return self.module_op.body.block

    def get_asm(self, enable_debug_info: bool = False) -> str:
        return print_module(self.module_op, debuginfo=enable_debug_info)

    def __str__(self) -> str:
        return self.get_asm()


class Builder:
    """Builds functions of `OPS` ops with goldens; subclasses add one method per op."""

    DIALECT: ClassVar[str]
    OPS: ClassVar[dict[str, type[TTOp]]]

    def __init__(self, location: Attribute | None = None, mesh_name: str = "mesh",
                 mesh_dict: OrderedDict[str, int] | None = None, module: ModuleOp | None = None,
                 name: str = "test"):
        self.name = name  # names the artifacts compiled from this builder's module
        self._location = location or UnknownLoc()
        self._mesh_name = mesh_name
        self._mesh_dict = OrderedDict(mesh_dict or [("x", 1), ("y", 1)])
        self._module = module or ModuleOp([])
        self._module.location = self._location
        self._container = self._module.body.block
        self._block: Block | None = None
        self._goldens: dict[SSAValue, GoldenMap] = {}
        self._written: dict[SSAValue, GoldenMap] = {}  # a value's golden after ops that write it in place
        self._overrides: dict[SSAValue, GoldenMap] = {}
        self._nested: dict[Callable, FuncOp] = {}
        self._locs: set[str] = set()
        self._bypass_ops: list[str] = []
        if self.mesh_shape != (1, 1):
            self._module.attributes["ttcore.meshes"] = ttcore.MeshesAttr(((mesh_name, self.mesh_shape),))

    # --- module structure ----------------------------------------------------------------------

    @property
    def mesh_shape(self) -> tuple[int, int]:
        dims = list(self._mesh_dict.values())
        return (dims[0], dims[1]) if len(dims) == 2 else (1, dims[0]) if dims else (1, 1)

    @property
    def devices(self) -> range:
        return range(self.mesh_shape[0] * self.mesh_shape[1])

    def func(self, input_shapes: Sequence[Sequence[int]], input_types: Sequence | None = None):
        """`@builder.func(shapes, dtypes)`: build the decorated function into the module now."""
        dtypes = list(input_types or [torch.float32] * len(input_shapes))
        if len(dtypes) != len(input_shapes):
            raise BuilderError(f"{len(input_shapes)} input shapes but {len(dtypes)} input types")

        def decorate(fn: Callable) -> Callable:
            types = [self.tensor_type(mlir_type(t), s) for s, t in zip(input_shapes, dtypes)]
            self._build_function(fn, types, [self.input_golden(t) for t in types], private=False)
            return fn
        return decorate

    def device_module(self, fn: Callable) -> Callable:
        """`@builder.device_module`: functions built inside go into `ttcore.device_module { builtin.module }`."""
        inner = ModuleOp([])
        inner.location = self._location
        self._container.add_op(ttcore.DeviceModuleOp(Region(Block([inner]))))
        outer, self._container = self._container, inner.body.block
        try:
            fn(self)
        finally:
            self._container = outer
        return fn

    def call(self, fn: Callable, operands: Sequence[Operand], loc: str | None = None):
        """Call `fn` as a private function (built on its first call) from the function being built."""
        callee = self._nested.get(fn)
        goldens = [self._goldens[v] for v in operands]
        if callee is None:
            callee = self._build_function(fn, [v.type for v in operands], goldens, private=True)
            self._nested[fn] = callee
        call = CallOp(callee.sym_name.data, list(operands), callee.function_type.outputs.data)
        call.location = self._location_of(loc)
        self._insert(call)
        for result, golden in zip(call.results, self._evaluate_block(callee.body.block, goldens)):
            self._goldens[result] = golden
        return call.results[0] if len(call.results) == 1 else tuple(call.results)

    def _build_function(self, fn: Callable, types: list[Attribute], goldens: list[GoldenMap],
                        private: bool) -> FuncOp:
        block = Block(arg_types=types)
        func = FuncOp(fn.__name__, (types, []), Region(block), "private" if private else None)
        func.location = self._location
        self._container.add_op(func)
        for i, (arg, golden) in enumerate(zip(block.args, goldens)):
            arg.name_hint = f"arg{i}"  # as MLIR names them
            arg.location = self._location  # as MLIR's builder gives arguments their function's location
            self._goldens[arg] = golden
        outer, self._block = self._block, block
        try:
            results = fn(*block.args, self)
        finally:
            self._block = outer
        results = list(results) if isinstance(results, (tuple, list)) else [results] if results is not None else []
        ret = ReturnOp(*results)
        ret.location = self._location
        block.add_op(ret)
        func.function_type = FunctionType.from_lists(types, [r.type for r in results])
        return func

    def _insert(self, op: Operation) -> None:
        if self._block is None:
            raise BuilderError(f"'{op.name}' built outside a function: call builder ops inside @builder.func")
        self._block.add_op(op)

    # --- locations -----------------------------------------------------------------------------

    def _location_of(self, loc: str | Attribute | None) -> Attribute:
        """`loc=` as given, else `file:line` of the Python call site, made unique within the module."""
        if isinstance(loc, Attribute):
            return loc
        if loc is None:
            frame = sys._getframe(1)
            while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(BUILDER_DIR):
                frame = frame.f_back
            site = f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else "builder"
            loc, count = site, 0
            while loc in self._locs:  # two ops on one line keep goldens apart
                count += 1
                loc = f"{site}#{count}"
        self._locs.add(loc)
        return NameLoc(StringAttr(loc), NoneAttr())

    # --- goldens -------------------------------------------------------------------------------

    def tensor_type(self, element: Attribute, shape: Sequence[int]) -> TensorType:
        """The type of a value this builder makes (TTNNBuilder adds a layout)."""
        return TensorType(element, list(shape))

    def input_golden(self, tensor_type: TensorType, value=None) -> GoldenMap:
        """An input's golden: `value` (a tensor) in the input's data type, else random."""
        dtype = torch_dtype(tensor_type.element_type)
        shape = tuple(tensor_type.get_shape())
        tensor = torch.as_tensor(value).to(dtype) if value is not None else random_tensor(shape, dtype)
        if tuple(tensor.shape) != shape:
            raise BuilderError(f"golden of shape {list(tensor.shape)} for an input of shape {list(shape)}")
        return self._replicated(tensor)

    def _replicated(self, tensor: torch.Tensor) -> GoldenMap:
        return {d: tensor for d in self.devices}

    def set_goldens(self, goldens: dict, outputs: dict | None = None) -> None:
        """Input goldens: a tensor or a function of the shape (`torch.zeros`) per operand."""
        for operand, value in {**goldens, **(outputs or {})}.items():
            value = value(tuple(operand.type.get_shape())) if callable(value) else value
            self._overrides[operand] = self.input_golden(operand.type, value)
        self._reevaluate()

    def set_operand_goldens(self, goldens: dict) -> None:
        """Replace the computed golden of any operand (an op result or an input)."""
        self.set_goldens(goldens)

    def _reevaluate(self) -> None:
        for func in self.functions():
            if not is_private(func):
                block = func.body.block
                self._evaluate_block(block, [self._goldens[a] for a in block.args])

    def _evaluate_block(self, block: Block, inputs: list[GoldenMap]) -> list[GoldenMap]:
        """Goldens of every value in a function body, given its arguments' goldens; returns the results'."""
        for arg, golden in zip(block.args, inputs):
            self._goldens[arg] = self._overrides.get(arg, golden)
            self._written.pop(arg, None)
        for op in block.ops:
            if isinstance(op, ReturnOp):
                return [self.current_golden(v) for v in op.operands]
            if isinstance(op, (CallOp, ttcore.CompositeOp)):  # a composite computes what its decomposition does
                callee = op.callee() if isinstance(op, ttcore.CompositeOp) else self._symbol(op.callee.string_value())
                results = self._evaluate_block(callee.body.block, [self.current_golden(v) for v in op.operands])
            elif isinstance(op, TTOp) and op.ROW.family in IN_PLACE_OPERAND:
                self._write_in_place(op, self._evaluate_op(op))
                results = []
            elif isinstance(op, TTOp):
                results = self._cast(op.results, self._evaluate_op(op))
            else:
                results = self._cast(op.results, self._evaluate_foreign(op))
            for result, golden in zip(op.results, results):
                self._goldens[result] = self._overrides.get(result, golden)
                self._written.pop(result, None)
        return []

    def _evaluate_foreign(self, op: Operation) -> list[GoldenMap]:
        """Goldens of an op that is not a table-built tt op (StableHLOBuilder's ops)."""
        raise BuilderError(f"'{op.name}' has no golden")

    def current_golden(self, value: SSAValue) -> GoldenMap:
        """A value's golden as it stands now: after the in-place writes evaluated so far."""
        return self._written.get(value, self._goldens[value])

    def _write_in_place(self, op: TTOp, goldens: list[GoldenMap]) -> SSAValue:
        groups = op.operand_groups()
        targets = [groups[name][0] for name in IN_PLACE_OPERAND[op.ROW.family] if groups.get(name)]
        for target, golden in zip(targets, self._cast(targets, goldens)):
            self._written[target] = golden
        return targets[0]

    def _evaluate_op(self, op: TTOp) -> list[GoldenMap]:
        inputs, widen = {}, _stored if op.ROW.name in MOVES_VALUES else _compute
        for (name, values), spec in zip(op.operand_groups().items(), op.ROW.operands):
            maps = [_each_distinct(self.current_golden(v), widen) for v in values]
            inputs[name] = maps if spec.endswith("*") else maps[0] if maps else None
        shape = list(op.results[0].type.get_shape()) if op.results else []
        try:
            return evaluate(op, inputs, self.mesh_shape, {"result_shape": shape})
        except (RuntimeError, ValueError, IndexError, TypeError, KeyError) as exc:
            raise BuilderError(f"'{op.name}': cannot compute its golden: {exc}") from None

    @staticmethod
    def _cast(values: Sequence[SSAValue], results: list[GoldenMap]) -> list[GoldenMap]:
        dtypes = [torch_dtype(v.type.element_type) for v in values]
        return [_each_distinct(golden, lambda t: t.to(dtype)) for golden, dtype in zip(results, dtypes)]

    def functions(self) -> list[FuncOp]:
        """Functions with bodies in program order (the order `ttmlir-translate` numbers programs)."""
        from ttmlir.transforms.ttcore.register_device import device_module_of

        return [op for op in device_module_of(self._module).ops if isinstance(op, FuncOp) and op.body.blocks]

    def _symbol(self, name: str) -> FuncOp:
        for func in self.functions():
            if func.sym_name.data == name:
                return func
        raise BuilderError(f"call to unknown function @{name}")

    def program_goldens(self) -> list[tuple[FuncOp, dict[str, GoldenMap], dict[str, GoldenMap]]]:
        """Per function in program order: its input/output goldens (`input_N`, `output_N`) and its ops'
        goldens keyed by location, as the binary keys them."""
        from ttmlir.target.ttnn import ProgramWriter

        programs = []
        for func in self.functions():
            block = func.body.block
            known = [(f"input_{i}", a) for i, a in enumerate(block.args)]
            known += [(f"output_{i}", v) for i, v in enumerate(block.last_op.operands)]
            known += [(ProgramWriter.loc(op), op.results[0]) for op in block.ops if isinstance(op, TTOp) and op.results]
            goldens = {key: self.current_golden(v) if key.startswith("output_") else self._goldens[v]
                       for key, v in known if v in self._goldens}  # uncalled callees have none
            io = {k: v for k, v in goldens.items() if k.startswith(("input_", "output_"))}
            ops = {k: v for k, v in goldens.items() if k.startswith("loc(")}
            programs.append((func, io, ops))
        return programs

    def golden_maps(self) -> tuple[dict[int, dict[str, GoldenMap]], dict[str, GoldenMap]]:
        """(input/output goldens per program index, intermediate goldens by op location)."""
        programs = self.program_goldens()
        return {i: io for i, (_, io, _) in enumerate(programs)}, {k: v for *_, ops in programs for k, v in ops.items()}

    # --- ops -----------------------------------------------------------------------------------

    def _build_op(self, name: str, operands: list, props: dict, output_type=None, loc=None,
                  unit_attrs: Sequence[str] | None = None, shape: Sequence[int] | None = None):
        """One op of `OPS[name]`: properties from Python values, result types from its golden."""
        cls = self.OPS[name]
        row = cls.ROW
        properties = {}
        for pname, kind, _, required in row.props:
            value = props.get(pname)
            if value is None:
                if required:
                    raise BuilderError(f"'{cls.name}' requires the '{pname}' argument")
                continue
            properties[pname] = _property(kind, value)
        groups = [v if spec.endswith("*") else [] if v is None else [v] for spec, v in zip(row.operands, operands)]
        element = self._result_element(name, operands, output_type, props)
        placeholder = self.tensor_type(element, shape if shape is not None else [1])
        op = cls.build(operands=groups, result_types=[placeholder] * len(row.results), properties=properties)
        goldens = self._evaluate_op(op)
        if len(goldens) < len(op.results):  # an optional last result the op does not produce here
            op = cls.build(operands=groups, result_types=[placeholder] * len(goldens) + [[]], properties=properties)
        for result, result_name, golden in zip(op.results, row.results, goldens):
            # types of a fresh op with no uses may be set in place
            result._type = self.tensor_type(element if result is op.results[0] else self.RESULT_ELEMENTS.get(
                result_name, _value_element(operands, element)), golden[0].shape)
        op.location = self._location_of(loc)
        for attr in unit_attrs or []:
            op.attributes[attr] = UnitAttr()
        if len(op.results) > 1:  # MLIR names several results after their definitions
            for result, result_name in zip(op.results, row.results):
                result.name_hint = result_name.rstrip("?")
        try:
            op.verify()
        except Exception as exc:
            raise BuilderError(str(exc)) from None
        self._insert(op)
        if row.family in IN_PLACE_OPERAND:  # no result: the written operand stands for what the op computed
            return self._write_in_place(op, goldens)
        for result, golden in zip(op.results, self._cast(op.results, goldens)):
            self._goldens[result] = golden
        return op.results[0] if len(op.results) == 1 else tuple(op.results)

    # --- the debug dialect (upstream's signatures) -------------------------------------------------

    def annotate(self, operand: Operand, annotation: str, loc: str | None = None) -> Operand:
        """`debug.annotate`: `operand` with a note attached; the same values."""
        return self._debug("annotate", operand, loc, annotation=annotation)

    def breakpoint(self, operand: Operand, loc: str | None = None) -> Operand:
        """`debug.breakpoint`: the run stops in Python's debugger here (`breakpoint()`: PYTHONBREAKPOINT=0 or
        sys.breakpointhook decide), with `operand`'s tensor at hand. Upstream's builder returns None; this one
        returns `operand`, so that `return builder.breakpoint(x)` returns `x`."""
        return self._debug("breakpoint", operand, loc)

    def print(self, operand: Operand, message: str, loc: str | None = None) -> Operand:
        """`debug.print`: the runtime logs `message` when the run gets here. Returns `operand` (see breakpoint)."""
        return self._debug("print", operand, loc, message=message)

    def memory_snapshot(self, operand: Operand, file_path: str, loc: str | None = None) -> Operand:
        """`debug.memory_snapshot`: the runtime writes the device's DRAM, L1, L1_SMALL and TRACE memory state to
        `file_path` when the run gets here. Returns `operand` (see breakpoint)."""
        return self._debug("memory_snapshot", operand, loc, file_path=file_path)

    def dump(self, operand: Operand, file_path: str, loc: str | None = None) -> Operand:
        """`debug.dump` (`ttnn.dump_tensor` once lowered): the runtime saves `operand`'s tensor to `file_path`, a
        `.tensorbin` file. Returns `operand` (see breakpoint)."""
        return self._debug("dump", operand, loc, file_path=file_path)

    def region_start(self, operand: Operand, region_id: str, loc: str | None = None) -> Operand:
        """`debug.region_start`: marks where region `region_id` starts; the same values."""
        return self._debug("region_start", operand, loc, region_id=region_id)

    def region_end(self, operand: Operand, region_id: str, loc: str | None = None) -> Operand:
        """`debug.region_end`: marks where region `region_id` ends; the same values."""
        return self._debug("region_end", operand, loc, region_id=region_id)

    def _debug(self, name: str, operand: Operand, loc: str | Attribute | None, **props: str) -> Operand:
        """A debug op (or TTNN's dump_tensor) on `operand`: its result (of the operand's type and golden), or the
        operand itself."""
        from ttmlir.dialects.debug import DEBUG_OP_CLASSES

        cls = DEBUG_OP_CLASSES.get(name) or self.OPS[name]
        op = cls.build(operands=[operand], result_types=[operand.type] * len(cls.ROW.results),
                       properties={k: StringAttr(v) for k, v in props.items()})
        op.location = self._location_of(loc)
        self._insert(op)
        if not op.results:
            return operand
        self._goldens[op.results[0]] = self.current_golden(operand)
        return op.results[0]

    # element types by op name (a first result) or by result name (sort's and topk's `indices`, a pool's)
    RESULT_ELEMENTS: ClassVar[dict[str, Attribute]] = {"argmax": IntegerType(32, Signedness.SIGNED),
                                                       "get_dimension_size": IntegerType(32),
                                                       "indices": IntegerType(32, Signedness.SIGNED),
                                                       "result_indices": IntegerType(32, Signedness.SIGNED),
                                                       "intermediates?": Float32Type()}  # ttml's log-sum-exp rows
    VALUE_OPERAND: ClassVar[dict[str, int]] = {"embedding": 1, "where": 1, "embedding_backward": 2, "embedding_bw": 2}

    def _result_element(self, name: str, operands: list, output_type, props: dict) -> Attribute:
        if output_type is not None:
            return mlir_type(output_type)
        if name in self.RESULT_ELEMENTS:
            return self.RESULT_ELEMENTS[name]
        if isinstance(props.get("dtype"), TypeAttribute):
            return props["dtype"]
        values = [v for v in operands if isinstance(v, SSAValue)] or [v[0] for v in operands if isinstance(v, list)]
        index = self.VALUE_OPERAND.get(name, 0)
        element = values[min(index, len(values) - 1)].type.element_type if values else Float32Type()
        if name.startswith("dequantize") and isinstance(element, UniformQuantizedType):
            return element.data.expressed  # dequantized values are of the type the quantized ones express
        return element


def is_private(func: FuncOp) -> bool:
    return func.sym_visibility is not None and func.sym_visibility.data == "private"


def _value_element(operands: list, fallback: Attribute) -> Attribute:
    return operands[0].type.element_type if operands and isinstance(operands[0], SSAValue) else fallback


def _each_distinct(golden: GoldenMap, fn: Callable[[torch.Tensor], torch.Tensor]) -> GoldenMap:
    """`fn` of every device's tensor, computed once for devices sharing one (a replicated value stays shared)."""
    done: dict[int, torch.Tensor] = {}
    return {d: done[id(t)] if id(t) in done else done.setdefault(id(t), fn(t)) for d, t in golden.items()}


def _compute(t: torch.Tensor) -> torch.Tensor:
    """Goldens compute in f32 (or int64), as the op's definition does, then round to the result type."""
    return t.float() if t.is_floating_point() else _stored(t)


def _stored(t: torch.Tensor) -> torch.Tensor:
    return t if t.is_floating_point() or t.dtype == torch.bool else t.long()


def _property(kind: str, value) -> Attribute:
    if isinstance(value, Attribute):
        return value
    if kind == "type":
        return mlir_type(value)
    if kind in ("elements", "pairs"):
        return elements_attr(value)
    if kind in ("shard_type", "shard_direction", "reduce_type"):
        value = str(value).rsplit("<", 1)[-1].rstrip(">")  # `#ttcore.shard_type<devices>` or `devices`
    try:
        return KINDS[kind].build(value)
    except (ValueError, TypeError) as exc:
        raise BuilderError(f"invalid value {value!r}: {exc}") from None


def elements_attr(value) -> DenseIntOrFPElementsAttr:
    tensor = torch.as_tensor(value)
    element = mlir_type(tensor.dtype if tensor.dtype != torch.float64 else torch.float32)
    if tensor.dtype == torch.int64:
        element = IntegerType(64)
    values = tensor.flatten().tolist()
    return DenseIntOrFPElementsAttr.from_list(TensorType(element, list(tensor.shape)), values)


DESTINATIONS = "output*"  # upstream's optional destination operands: the builder makes the results itself


def op_method(name: str, row, extra: Sequence[str] = ()) -> Callable:
    """A builder method for one op-table row: operands positionally, then the op's properties, then
    `output_type`, `loc` and `unit_attrs` (and `extra` keyword-only arguments such as `shape`)."""
    from inspect import Parameter, Signature

    operands = [spec.rstrip("?*") for spec in row.operands]
    props = [p[0] for p in row.props]
    params = [Parameter("self", Parameter.POSITIONAL_ONLY)]
    optional = False
    for spec, operand in zip(row.operands, operands):
        if spec == DESTINATIONS:
            continue
        optional = optional or spec.endswith("?")
        params.append(Parameter(operand, Parameter.POSITIONAL_OR_KEYWORD, default=None if optional else
                                Parameter.empty))
    params += [Parameter(p, Parameter.POSITIONAL_OR_KEYWORD, default=None) for p in props]
    params += [Parameter(k, Parameter.KEYWORD_ONLY, default=None)
               for k in (*extra, "output_type", "loc", "unit_attrs")]
    signature = Signature(params)

    def method(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as exc:
            raise BuilderError(f"{name}: {exc}") from None
        bound.apply_defaults()
        values = bound.arguments
        return self._build_op(name, [values.get(o, []) for o in operands], {p: values[p] for p in props},
                              values["output_type"], values["loc"], values["unit_attrs"], values.get("shape"))

    method.__name__ = method.__qualname__ = name
    method.__signature__ = signature
    described = ", ".join(f"{n}: {k}" + ("" if req else " (optional)") for n, k, _, req in row.props)
    method.__doc__ = f"{row.summary}\n\nOperands: {', '.join(row.operands) or 'none'}. " \
                     f"Properties: {described or 'none'}."
    return method
