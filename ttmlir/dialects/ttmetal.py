"""The ttmetal dialect: the host's command stream of a Metal program (buffers, host<->device copies, program
launches with their kernel configurations), as upstream's TTMetalOps.td defines it. Ops are written in the
generic form, as upstream prints them."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, MemRefType, SymbolRefAttr
from xdsl.ir import Attribute, Data, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_attr_definition, irdl_op_definition,
                       opt_prop_def, operand_def, prop_def, result_def, var_operand_def)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore
from ttmlir.dialects.ttmetal_ccl import CCL_OPS
from ttmlir.ir.syntax import dims_str, parse_arg_groups, parse_dims

ARG_TYPES = ("cb_port", "buffer_address", "local_semaphore", "named_argument", "global_semaphore", "scalar",
             "tensor_accessor_args")
MATH_FIDELITIES = ("lofi", "hifi2", "hifi3", "hifi4")
UNPACK_TO_DEST_MODES = ("fp32", "default")
NOC_INDICES = ("noc0", "noc1")
ETH_TYPES = ("sender", "receiver")
DEVICE_MEMORY = frozenset({"dram", "l1"})
ARG_GROUPS = ("common_rt_args", "rt_args", "ct_args")


@irdl_attr_definition
class GlobalSemaphoreType(ParametrizedAttribute, TypeAttribute):
    name = "ttmetal.global_semaphore"


@irdl_attr_definition
class LocalSemaphoreType(ParametrizedAttribute, TypeAttribute):
    name = "ttmetal.local_semaphore"


@irdl_attr_definition
class CoreRangeAttr(Data[tuple[tuple[int, ...], tuple[int, ...]]]):
    """The cores a kernel runs on: `#ttmetal.core_range<0x0, 8x8>` (offset, size)."""

    name = "ttmetal.core_range"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            offset = parse_dims(parser)
            parser.parse_punctuation(",")
            return offset, parse_dims(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{dims_str(self.data[0])}, {dims_str(self.data[1])}>")

    def verify(self) -> None:
        offset, size = self.data
        if len(offset) != len(size):
            raise VerifyException(f"core range offset {dims_str(offset)} and size {dims_str(size)} differ in rank")


def _keyword(parser: AttrParser, choices: tuple[str, ...], what: str) -> str:
    word = parser.parse_identifier()
    if word not in choices:
        parser.raise_error(f"expected {what} ({', '.join(choices)}), got '{word}'")
    return word


def _parse_kernel_arg(parser: AttrParser) -> tuple[str, int]:
    with parser.in_angle_brackets():
        kind = _keyword(parser, ARG_TYPES, "a kernel argument type")
        with parser.in_square_brackets():
            index = parser.parse_integer(allow_negative=False)
    return kind, index


@irdl_attr_definition
class KernelArgsAttr(Data[tuple[tuple[tuple[str, int], ...], ...]]):
    """A kernel's argument bindings, each naming an operand of the enqueue_program by index:
    `#ttmetal.kernel_args< ct_args = [<cb_port[0]>, <buffer_address[2]>]>`; groups are common runtime,
    per-core runtime and compile-time arguments, in that order, each optional."""

    name = "ttmetal.kernel_args"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        return parse_arg_groups(parser, ARG_GROUPS, lambda: _parse_kernel_arg(parser))

    def print_parameter(self, printer: Printer) -> None:
        # upstream's assembly format: a space between the groups whether or not each is present, the
        # spaces right after `<` collapsing into one
        parts = [f"{g} = [{', '.join(f'<{k}[{i}]>' for k, i in args)}]" if args else ""
                 for g, args in zip(ARG_GROUPS, self.data)]
        text = " ".join(parts)
        printer.print_string("<" + (" " + text.lstrip() if text.startswith(" ") else text) + ">")

    @property
    def groups(self) -> dict[str, tuple[tuple[str, int], ...]]:
        return dict(zip(ARG_GROUPS, self.data))


@dataclass(frozen=True)
class KernelConfig:
    """What every kernel configuration holds, then its thread's own fields (in upstream's order)."""
    symbol: SymbolRefAttr
    core_range: CoreRangeAttr
    args: KernelArgsAttr
    fields: tuple


class _KernelConfigAttr(Data[KernelConfig]):
    """`#ttmetal.<kind>_config<@kernel, #ttmetal.core_range<...>, #ttmetal.kernel_args<...>, ...>`."""

    thread = ""

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> KernelConfig:
        with parser.in_angle_brackets():
            symbol = parser.parse_attribute()
            if not isinstance(symbol, SymbolRefAttr):
                parser.raise_error("expected the kernel's symbol (@name)")
            parser.parse_punctuation(",")
            core_range = parser.parse_attribute()
            if not isinstance(core_range, CoreRangeAttr):
                parser.raise_error("expected a #ttmetal.core_range")
            parser.parse_punctuation(",")
            args = parser.parse_attribute()
            if not isinstance(args, KernelArgsAttr):
                parser.raise_error("expected a #ttmetal.kernel_args")
            parser.parse_punctuation(",")
            fields = cls.parse_fields(parser)
        return KernelConfig(symbol, core_range, args, fields)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        for attr in (self.data.symbol, self.data.core_range, self.data.args):
            printer.print_attribute(attr)
            printer.print_string(", ")
        printer.print_string(self.fields_text() + ">")


def _bool(parser: AttrParser) -> bool:
    return _keyword(parser, ("true", "false"), "a boolean") == "true"


@irdl_attr_definition
class ComputeConfigAttr(_KernelConfigAttr):
    """A compute kernel: `..., hifi4, true, false, false, [default]>` (math fidelity, fp32 dest accumulation,
    dst full sync, math approx mode, unpack-to-dest mode per CB)."""

    name = "ttmetal.compute_config"
    thread = "compute"

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> tuple:
        fidelity = _keyword(parser, MATH_FIDELITIES, "a math fidelity")
        flags = []
        for _ in range(3):
            parser.parse_punctuation(",")
            flags.append(_bool(parser))
        parser.parse_punctuation(",")
        modes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                  lambda: _keyword(parser, UNPACK_TO_DEST_MODES, "an unpack mode"))
        return (fidelity, *flags, tuple(modes))

    def fields_text(self) -> str:
        fidelity, fp32, full_sync, approx, modes = self.data.fields
        flags = ", ".join(str(f).lower() for f in (fp32, full_sync, approx))
        return f"{fidelity}, {flags}, [{', '.join(modes)}]"


@irdl_attr_definition
class NocConfigAttr(_KernelConfigAttr):
    """A data-movement kernel: `..., dm_core = 1, noc0>` (the RISC-V it runs on, the NoC it drives), and
    optionally `, fabric_config_index = N`."""

    name = "ttmetal.noc_config"
    thread = "noc"

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> tuple:
        parser.parse_keyword("dm_core")
        parser.parse_punctuation("=")
        dm_core = parser.parse_integer()
        parser.parse_punctuation(",")
        noc = _keyword(parser, NOC_INDICES, "a NoC")
        fabric = None
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("fabric_config_index")
            parser.parse_punctuation("=")
            fabric = parser.parse_integer(allow_negative=False)
        return dm_core, noc, fabric

    def fields_text(self) -> str:
        dm_core, noc, fabric = self.data.fields
        return f"dm_core = {dm_core}, {noc}" + (f", fabric_config_index = {fabric}" if fabric is not None else "")


@irdl_attr_definition
class EthernetConfigAttr(_KernelConfigAttr):
    """An ethernet-core kernel: `..., sender, noc0>`."""

    name = "ttmetal.ethernet_config"
    thread = "ethernet"

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> tuple:
        eth = _keyword(parser, ETH_TYPES, "an ethernet role")
        parser.parse_punctuation(",")
        return eth, _keyword(parser, NOC_INDICES, "a NoC")

    def fields_text(self) -> str:
        return ", ".join(self.data.fields)


KERNEL_CONFIGS = (ComputeConfigAttr, NocConfigAttr, EthernetConfigAttr)


def _memory_space(memref: Attribute) -> str | None:
    space = memref.memory_space if isinstance(memref, MemRefType) else None
    return space.data.value if isinstance(space, ttcore.MemorySpaceAttr) else None


@irdl_op_definition
class EnqueueProgramOp(IRDLOperation):
    """Launch a program: its kernels (`kernelConfigs`), the buffers their arguments name (`args`) and its
    circular buffers (`cbs`, bound to `cb_ports`)."""

    name = "ttmetal.enqueue_program"
    args = var_operand_def()
    cbs = var_operand_def(MemRefType)
    cb_ports = prop_def(DenseArrayBase)
    kernelConfigs = prop_def(ArrayAttr)
    fabricConnectionConfigs = opt_prop_def(ArrayAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def verify_(self) -> None:
        for operand in self.operands:
            if isinstance(operand.type, MemRefType) and _memory_space(operand.type) not in DEVICE_MEMORY:
                raise VerifyException(f"'{self.name}' op Operand tensor to EnqueueProgramOp must be in device "
                                      "memory space")
        if len(self.cb_ports.get_values()) != len(self.cbs):
            raise VerifyException(f"'{self.name}' op has {len(self.cbs)} CB operand(s) but "
                                  f"{len(self.cb_ports.get_values())} cb_ports")
        fabric = len(self.fabricConnectionConfigs.data) if self.fabricConnectionConfigs is not None else 0
        for config in self.kernelConfigs.data:
            if not isinstance(config, KERNEL_CONFIGS):
                raise VerifyException(f"'{self.name}' op kernelConfigs holds {config}, which is not a kernel "
                                      "configuration (#ttmetal.compute_config, noc_config or ethernet_config)")
            if isinstance(config, NocConfigAttr) and config.data.fields[2] is not None and \
                    config.data.fields[2] >= fabric:
                raise VerifyException(f"'{self.name}' op fabric_config_index {config.data.fields[2]} is out of "
                                      f"range for fabricConnectionConfigs of size {fabric}")
            for group, args in config.data.args.groups.items():
                for kind, index in args:
                    if index >= len(self.args):
                        raise VerifyException(f"'{self.name}' op kernel {config.data.symbol} {group} binds "
                                              f"{kind}[{index}], but the program has {len(self.args)} operand(s)")


@irdl_op_definition
class EnqueueWriteBufferOp(IRDLOperation):
    name = "ttmetal.enqueue_write_buffer"
    input = operand_def(MemRefType)
    output = operand_def(MemRefType)

    def verify_(self) -> None:
        if _memory_space(self.output.type) not in DEVICE_MEMORY:
            raise VerifyException(f"'{self.name}' op Output tensor must be in device memory space")


@irdl_op_definition
class EnqueueReadBufferOp(IRDLOperation):
    name = "ttmetal.enqueue_read_buffer"
    input = operand_def(MemRefType)
    output = operand_def(MemRefType)

    def verify_(self) -> None:
        space = _memory_space(self.output.type)
        if space is not None and space != "system":
            raise VerifyException(f"'{self.name}' op Output tensor must be in system memory space")


@irdl_op_definition
class CreateBufferOp(IRDLOperation):
    """A device buffer at a fixed address (the compiler allocates L1 and DRAM)."""

    name = "ttmetal.create_buffer"
    address = prop_def(IntegerAttr)
    virtualGridInverseMapping = opt_prop_def(Attribute)
    virtualGridForwardMapping = opt_prop_def(Attribute)
    result = result_def(MemRefType)


@irdl_op_definition
class DeallocateBufferOp(IRDLOperation):
    name = "ttmetal.deallocate_buffer"
    input = operand_def(MemRefType)


@irdl_op_definition
class CreateGlobalSemaphoreOp(IRDLOperation):
    name = "ttmetal.create_global_semaphore"
    address = prop_def(IntegerAttr)
    initial_value = opt_prop_def(IntegerAttr)
    core_range = prop_def(CoreRangeAttr)
    result = result_def(GlobalSemaphoreType)


@irdl_op_definition
class ResetGlobalSemaphoreOp(IRDLOperation):
    name = "ttmetal.reset_global_semaphore"
    semaphore = operand_def(GlobalSemaphoreType)
    value = prop_def(IntegerAttr)


@irdl_op_definition
class CreateLocalSemaphoreOp(IRDLOperation):
    name = "ttmetal.create_local_semaphore"
    initial_value = opt_prop_def(IntegerAttr)
    result = result_def(LocalSemaphoreType)


@irdl_op_definition
class MeshShardOp(IRDLOperation):
    name = "ttmetal.mesh_shard"
    input = operand_def(MemRefType)
    shard_type = prop_def(ttcore.ShardTypeAttr)
    shard_direction = prop_def(ttcore.ShardDirectionAttr)
    shard_shape = prop_def(DenseArrayBase)
    shard_dims = prop_def(DenseArrayBase)
    result = result_def(MemRefType)


@irdl_op_definition
class FinishOp(IRDLOperation):
    """Wait for every command queued before it."""

    name = "ttmetal.finish"


TTMetal = Dialect(
    "ttmetal",
    [EnqueueProgramOp, EnqueueWriteBufferOp, EnqueueReadBufferOp, CreateBufferOp, DeallocateBufferOp,
     CreateGlobalSemaphoreOp, ResetGlobalSemaphoreOp, CreateLocalSemaphoreOp, MeshShardOp, FinishOp,
     *CCL_OPS],
    [GlobalSemaphoreType, LocalSemaphoreType, CoreRangeAttr, KernelArgsAttr, ComputeConfigAttr, NocConfigAttr,
     EthernetConfigAttr],
)
