"""The ttcore dialect: data types, tiles, grids, system/device descriptors and module wrappers."""

from __future__ import annotations

from xdsl.dialects.builtin import DictionaryAttr, FlatSymbolRefAttr, IndexType, IntegerAttr, ModuleOp, StringAttr, TensorType, TupleType
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def, region_def, traits_def, operand_def, var_operand_def, var_result_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, NoTerminator, Pure, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException
from ttmlir.dialects.ttcore_attrs import *  # noqa: F401,F403 - the dialect's attributes and types are ttcore.<Name> too
from ttmlir.dialects.ttcore_cb_layout import CBLayoutAttr


# marks a host function's converts of its results to the device's types: a value the device type cannot hold
# stops the run (`--ttir-element-type-normalization` puts it, the host interpreter honours it)
TO_DEVICE_TYPE = "ttcore.to_device_type"


# --- ops ---------------------------------------------------------------------------------------


class ModuleWrapperOp(IRDLOperation):
    """Base of the module-wrapper ops: one region holding one `builtin.module`."""

    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator(), SymbolTable())

    def __init__(self, region: Region):
        super().__init__(regions=[region])

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(parser.parse_region())
        if attrs:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        ops = list(self.body.ops)
        if len(ops) != 1 or ops[0].name != "builtin.module":
            raise VerifyException(f"'{self.name}' op expected a single builtin.module in its body")


@irdl_op_definition
class DeviceModuleOp(ModuleWrapperOp):
    """Wraps the module of functions that run on the device."""

    name = "ttcore.device_module"


@irdl_op_definition
class CPUModuleOp(ModuleWrapperOp):
    """Wraps the module of functions hoisted to the host CPU."""

    name = "ttcore.cpu_module"


def registered_device(op: Operation) -> Device | None:
    """The `ttcore.device` registered on the module holding `op`, if one is."""
    module = op.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    return next((d.device_attr.data for d in (module.ops if module else []) if isinstance(d, DeviceOp)), None)


def registered_mesh(op: Operation) -> tuple[int, ...] | None:
    """The mesh of the `ttcore.device` registered on the module holding `op`, if one is."""
    device = registered_device(op)
    return tuple(device.mesh_shape) if device else None


@irdl_op_definition
class DeviceOp(IRDLOperation):
    """A named device: `ttcore.device @default_device = <workerGrid = ..., chipIds = [0]>`."""

    name = "ttcore.device"
    sym_name = prop_def(StringAttr)
    device_attr = prop_def(DeviceAttr)
    traits = traits_def(SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser):
        sym = parser.parse_symbol_name()
        parser.parse_punctuation("=")
        with parser.in_angle_brackets():
            device = parse_device_body(parser)
        attrs = parser.parse_optional_attr_dict()
        return cls(properties={"sym_name": sym, "device_attr": DeviceAttr(device)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data} = <{device_body(self.device_attr.data)}>")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class LoadCachedOp(IRDLOperation):
    """Loads the cached results of a const-eval function: `ttcore.load_cached(@f, [%a]) : (...) -> ...`."""

    name = "ttcore.load_cached"
    callee = prop_def(FlatSymbolRefAttr)
    inputs = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)

    @classmethod
    def parse(cls, parser: Parser):
        with parser.in_parens():
            callee = parser.parse_attribute()
            parser.parse_punctuation(",")
            operands = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn_type = parser.parse_function_type()
        inputs = parser.resolve_operands(operands, fn_type.inputs.data, parser.pos)
        return cls(operands=[inputs], result_types=[fn_type.outputs.data],
                   properties={"callee": callee}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f"({self.callee}, [")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string("])")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.inputs.types, self.results_.types)

    def verify_(self) -> None:
        from xdsl.dialects.func import FuncOp
        if not isinstance(SymbolTable.lookup_symbol(self, self.callee.root_reference.data), FuncOp):
            raise VerifyException(f"'{self.name}' op '{self.callee.root_reference.data}' does not reference a "
                                  "function")


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """Passes its operands through unchanged, keeping optimisations from crossing it."""

    name = "ttcore.optimization_barrier"
    inputs = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)

    def verify_(self) -> None:
        if self.inputs.types != self.results_.types:
            raise VerifyException(f"'{self.name}' op result types must match operand types")


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A named global slot: `ttcore.global @name = tensor<...> [0]`."""

    name = "ttcore.global"
    sym_name = prop_def(StringAttr)
    type = prop_def(Attribute)
    index = opt_prop_def(IntegerAttr)
    traits = traits_def(SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser):
        sym = parser.parse_symbol_name()
        parser.parse_punctuation("=")
        props = {"sym_name": sym, "type": parser.parse_type()}
        if parser.parse_optional_punctuation("["):
            props["index"] = IntegerAttr(parser.parse_integer(), 32)
            parser.parse_punctuation("]")
        return cls(properties=props, attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data} = ")
        printer.print_attribute(self.type)
        if self.index is not None:
            printer.print_string(f" [{self.index.value.data}]")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class GetGlobalOp(IRDLOperation):
    """Reads the value of a named global: `ttcore.get_global @name : tensor<...>`."""

    name = "ttcore.get_global"
    sym_name = prop_def(StringAttr)
    result = result_def()

    @classmethod
    def parse(cls, parser: Parser):
        sym = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls(properties={"sym_name": sym}, attributes=attrs, result_types=[parser.parse_type()])

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class CompositeOp(IRDLOperation):
    """A named fused pattern with a decomposition function computing it; --ttnn-resolve-composites inlines
    the decomposition in its place."""

    name = "ttcore.composite"
    inputs = var_operand_def(TensorType)
    composite_name = prop_def(StringAttr)
    decomposition = prop_def(FlatSymbolRefAttr)
    composite_attributes = opt_prop_def(DictionaryAttr)
    results_ = var_result_def(TensorType)

    def callee(self):
        """The decomposition function, looked up from the enclosing modules."""
        return SymbolTable.lookup_symbol(self, self.decomposition)

    def verify_(self) -> None:
        name = self.decomposition.root_reference.data
        func = self.callee()

        def fail(message: str):
            raise VerifyException(f"'{self.name}' op {message}")

        if func is None:
            fail(f"decomposition function '{name}' not found in parent module")
        if func.name != "func.func":
            fail(f"decomposition symbol '{name}' is not a func.func")
        inputs, outputs = func.function_type.inputs.data, func.function_type.outputs.data
        if len(inputs) != len(self.inputs):
            fail(f"decomposition function expects {len(inputs)} arguments, but composite has {len(self.inputs)} inputs")
        for index, (have, want) in enumerate(zip(self.inputs, inputs)):
            if have.type != want:
                fail(f"input type mismatch at index {index}: composite has {have.type}, decomposition expects {want}")
        if len(outputs) != len(self.results):
            fail(f"decomposition function returns {len(outputs)} results, but composite produces "
                 f"{len(self.results)} results")
        for index, (have, want) in enumerate(zip(self.results, outputs)):
            if have.type != want:
                fail(f"result type mismatch at index {index}: composite produces {have.type}, decomposition returns "
                     f"{want}")


@irdl_attr_definition
class DictType(ParametrizedAttribute, TypeAttribute):
    """`!ttcore.dict`: a dictionary of values under string or index keys (const-eval caches)."""

    name = "ttcore.dict"


def _dict_key(op: IRDLOperation) -> None:
    key = op.key
    if not (isinstance(key, StringAttr) or (isinstance(key, IntegerAttr) and isinstance(key.type, IndexType))):
        raise VerifyException(f"'{op.name}' op attribute 'key' failed to satisfy constraint: string attribute or "
                              "index attribute")


def _parse_keyed(parser: Parser):
    """`%dict[key]`, the dictionary operand unresolved."""
    dictionary = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    key = parser.parse_attribute()
    parser.parse_punctuation("]")
    return dictionary, key


def _print_keyed(printer: Printer, dictionary: SSAValue, key: Attribute) -> None:
    printer.print_string(" ")
    printer.print_operand(dictionary)
    printer.print_string("[")
    printer.print_attribute(key)
    printer.print_string("]")


@irdl_op_definition
class SetKeyValueOp(IRDLOperation):
    """Stores values under a key: `ttcore.set_key_value %dict["k"] = %a, %b : !ttcore.dict, T1, T2`."""

    name = "ttcore.set_key_value"
    dict = operand_def(DictType)
    key = prop_def(Attribute)
    values = var_operand_def()

    def verify_(self) -> None:
        _dict_key(self)
        if not self.values:
            raise VerifyException(f"'{self.name}' op requires at least one value")

    @classmethod
    def parse(cls, parser: Parser):
        dictionary, key = _parse_keyed(parser)
        parser.parse_punctuation("=")
        values = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(values) + 1:
            parser.raise_error(f"expected {len(values) + 1} types (the dictionary's and the values')")
        operands = [parser.resolve_operand(v, t) for v, t in zip([dictionary, *values], types)]
        return cls(operands=[operands[0], operands[1:]], properties={"key": key}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_keyed(printer, self.dict, self.key)
        printer.print_string(" = ")
        printer.print_list(self.values, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([self.dict.type, *self.values.types], printer.print_attribute)


@irdl_op_definition
class GetKeyValueOp(IRDLOperation):
    """Reads the values under a key: `%0, %1 = ttcore.get_key_value %dict["k"] : (!ttcore.dict) -> (T1, T2)`."""

    name = "ttcore.get_key_value"
    dict = operand_def(DictType)
    key = prop_def(Attribute)
    results_ = var_result_def()

    def verify_(self) -> None:
        _dict_key(self)
        if not self.results:
            raise VerifyException(f"'{self.name}' op requires at least one result")

    @classmethod
    def parse(cls, parser: Parser):
        dictionary, key = _parse_keyed(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn_type = parser.parse_function_type()
        if len(fn_type.inputs.data) != 1:
            parser.raise_error("expected one operand type, the dictionary's")
        operand = parser.resolve_operand(dictionary, fn_type.inputs.data[0])
        return cls(operands=[operand], result_types=[fn_type.outputs.data], properties={"key": key},
                   attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_keyed(printer, self.dict, self.key)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([self.dict.type], self.results_.types)


@irdl_op_definition
class GetTupleElementOp(IRDLOperation):
    """One member of a tuple: `%0 = ttcore.get_tuple_element %arg0[1] : (tuple<A, B>) -> B`."""

    name = "ttcore.get_tuple_element"
    operand = operand_def(TupleType)
    index = prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        members = self.operand.type.types.data
        if not 0 <= self.index.value.data < len(members):
            raise VerifyException(f"'{self.name}' op index {self.index.value.data} is out of range for a tuple of "
                                  f"{len(members)}")
        if members[self.index.value.data] != self.result.type:
            raise VerifyException(f"'{self.name}' op result type must be the tuple's member "
                                  f"#{self.index.value.data}")

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        index = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        (value,) = parser.resolve_operands([operand], fn.inputs.data, parser.pos)
        return cls(operands=[value], result_types=list(fn.outputs.data), attributes=attrs,
                   properties={"index": IntegerAttr(index[0], 32)})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f"[{self.index.value.data}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([self.operand.type], [self.result.type])


@irdl_op_definition
class TupleOp(IRDLOperation):
    """A tuple of values: `%t = ttcore.tuple %a, %b : tuple<A, B>`."""

    name = "ttcore.tuple"
    operands_ = var_operand_def()
    result = result_def(TupleType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        if tuple(self.operands_.types) != tuple(self.result.type.types.data):
            raise VerifyException(f"'{self.name}' op result type must be the tuple of its operands' types")

    @classmethod
    def parse(cls, parser: Parser):
        names = parser.parse_optional_undelimited_comma_separated_list(parser.parse_optional_unresolved_operand,
                                                                       parser.parse_unresolved_operand) or []
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result = parser.parse_type()
        if not isinstance(result, TupleType):
            parser.raise_error("expected a tuple type")
        values = parser.resolve_operands(names, result.types.data, parser.pos)
        return cls(operands=[values], result_types=[result], attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.operands_:
            printer.print_string(" ")
            printer.print_list(self.operands_, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


TTCore = Dialect(
    "ttcore",
    [DeviceModuleOp, CPUModuleOp, DeviceOp, LoadCachedOp, OptimizationBarrierOp, GlobalOp, GetGlobalOp, CompositeOp,
     SetKeyValueOp, GetKeyValueOp, GetTupleElementOp, TupleOp],
    [TileType, DataTypeAttr, ArchAttr, GridAttr, CoreCoordAttr, CoreRangeAttr, MemorySpaceAttr,
     TensorMemoryLayoutAttr, OOBValAttr, SystemDescAttr, DeviceAttr, MeshesAttr, ArgumentTypeAttr,
     ShardStatusAttr, ShardDirectionAttr, ShardTypeAttr, ReduceTypeAttr, TopologyAttr, RuntimeTensorShardingAttr, LocalShapeAttr, DictType,
     AttentionMaskTypeAttr, MetalLayoutAttr, ShardLayoutAttr, InterleavedLayoutAttr, ViewLayoutAttr, IteratorTypeAttr, HostLayoutAttr,
     CBLayoutAttr,
     MoEActivationFunctionAttr],
)
