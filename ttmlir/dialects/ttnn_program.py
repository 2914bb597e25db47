"""The program a `ttnn.generic` op runs: its kernels (by the symbol of their function in the module), CBs and
semaphores, in upstream's attribute syntax (`#ttnn.program<kernels = [...], cbs = [...], semaphores = [...]>`).

A kernel argument names what the runtime binds it to when the op runs: a CB's index, the address of one of the
op's tensors (`inputs_and_outputs`), a semaphore of the program. A CB may live in a tensor's own L1 shards
(`buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<i>`) or be allocated for the program."""

from __future__ import annotations

from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from ttmlir import hardware
from ttmlir.ir.syntax import struct_attr, table_class
from ttmlir.dialects.ttnn_attrs import MATH_FIDELITIES, CoreCoordAttr, CoreRangeSetAttr


def _index_attr(mnemonic: str, doc: str) -> type:
    """`#ttnn.<mnemonic><N>`: an attribute holding one index."""

    def parse_parameter(cls, parser: AttrParser) -> int:
        with parser.in_angle_brackets():
            return parser.parse_integer(allow_boolean=False, allow_negative=False)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    return table_class(mnemonic, "Attr", (Data[int],),
                       dict(name=f"ttnn.{mnemonic}", __doc__=doc, parse_parameter=classmethod(parse_parameter),
                            print_parameter=print_parameter), irdl_attr_definition)


# what a kernel argument is bound to; the index is into the CBs, the op's tensors, the semaphores or the scalars
INDEX_ARGS = {
    "kernel_arg_cb_buffer_index": "The index of one of the program's CBs.",
    "kernel_arg_address_of_tensor": "The address of the op's tensor at this position in its inputs and outputs.",
    "kernel_arg_semaphore_at": "The address of the program's semaphore at this position.",
    "kernel_arg_global_semaphore": "The address of the op's global semaphore at this position.",
    "kernel_arg_scalar": "The value of the op's additional argument at this position.",
    "kernel_arg_tensor_accessor_args": "The compile-time description of the op's tensor at this position.",
    "kernel_cb_global_buffer_address_of_tensor": "A CB living in the L1 shards of the op's tensor at this position.",
}
INDEX_ATTRS = {mnemonic: _index_attr(mnemonic, doc) for mnemonic, doc in INDEX_ARGS.items()}
KernelArgCbBufferIndexAttr = INDEX_ATTRS["kernel_arg_cb_buffer_index"]
KernelArgAddressOfTensorAttr = INDEX_ATTRS["kernel_arg_address_of_tensor"]
KernelArgSemaphoreAtAttr = INDEX_ATTRS["kernel_arg_semaphore_at"]
KernelCbGlobalBufferAddressOfTensorAttr = INDEX_ATTRS["kernel_cb_global_buffer_address_of_tensor"]

KernelNamedArgAttr = struct_attr("ttnn.kernel_named_arg", (("name", "attr", True), ("value", "int", True)),
                                 "A named kernel argument with its value.")
KernelCBFormatAttr = struct_attr("ttnn.kernel_cb_format", (
    ("buffer_index", "int", True), ("dtype", hardware.DATA_TYPES, True), ("page_size", "int", True)),
    "One CB index of a CB: its data format and page size.")
KernelCBAttr = struct_attr("ttnn.kernel_cb", (
    ("total_size", "int", True), ("core_ranges", CoreRangeSetAttr, True), ("formats", [KernelCBFormatAttr], True),
    ("buffer", "attr", False)),
    "A circular buffer of the program: its bytes per core, its cores, formats and the tensor it lives in, if any.")
KernelSemaphoreAttr = struct_attr("ttnn.kernel_semaphore", (
    ("id", "int", True), ("core_type", ("worker", "eth"), True), ("core_ranges", CoreRangeSetAttr, True),
    ("initial_value", "int", True)),
    "A semaphore of the program on a set of cores.")

CoreRuntimeArgsAttr = struct_attr("ttnn.core_runtime_args", (("core_coord", CoreCoordAttr, True), ("args", ["attr"], True)),
                                  "A kernel's runtime arguments on one core.")


def _distinct_cores(fields: dict) -> str | None:
    seen: set[tuple[int, int]] = set()
    for args in fields.get("rt_args", ()):
        if args.get("core_coord").data in seen:
            x, y = args.get("core_coord").data
            return f"Duplicate CoreCoord ({x}, {y}) in runtime arguments"
        seen.add(args.get("core_coord").data)
    return None


_ARGS = (("ct_args", "attr", True), ("common_rt_args", "attr", True), ("rt_args", [CoreRuntimeArgsAttr], True))
_WHERE = (("symbol_ref", "attr", True), ("core_ranges", CoreRangeSetAttr, True))
ComputeKernelAttr = struct_attr("ttnn.compute_kernel", (
    *_WHERE, ("math_fidelity", MATH_FIDELITIES, True), ("fp32_dest_acc_en", "bool", True),
    ("dst_full_sync_en", "bool", True), ("unpack_to_dest_modes", [("fp32", "default")], True),
    ("bfp8_pack_precise", "bool", True), ("math_approx_mode", "bool", True), *_ARGS),
    "A compute kernel of the program and how it computes.", _distinct_cores)
ReadKernelAttr = struct_attr("ttnn.read_kernel", (*_WHERE, *_ARGS),
                             "A reader kernel (data-movement core 1, NoC 0).", _distinct_cores)
WriteKernelAttr = struct_attr("ttnn.write_kernel", (*_WHERE, *_ARGS),
                              "A writer kernel (data-movement core 0, NoC 1).", _distinct_cores)
DataMovementKernelAttr = struct_attr("ttnn.data_movement_kernel", (
    *_WHERE, ("processor", ("riscv0", "riscv1"), True), ("noc_index", ("noc0", "noc1"), True),
    ("noc_mode", ("dedicated_noc", "dynamic_noc"), True), *_ARGS),
    "A data-movement kernel on a chosen processor and NoC.", _distinct_cores)
# the same kernels with their C++ inline (`source`) instead of a kernel function's symbol: kernels compiled outside
# the compiler (tt-lang's, lowered by --ttnn-lower-tt-lang-to-generic)
_SOURCE = (("source", "attr", True), ("core_ranges", CoreRangeSetAttr, True))
SourceComputeKernelAttr = struct_attr("ttnn.source_compute_kernel", (
    *_SOURCE, *[f for f in ComputeKernelAttr.FIELDS if f[0] not in ("symbol_ref", "core_ranges")]),
    "A compute kernel given as C++ source.", _distinct_cores)
SourceReadKernelAttr = struct_attr("ttnn.source_read_kernel", (*_SOURCE, *_ARGS),
                                   "A reader kernel given as C++ source.", _distinct_cores)
SourceWriteKernelAttr = struct_attr("ttnn.source_write_kernel", (*_SOURCE, *_ARGS),
                                    "A writer kernel given as C++ source.", _distinct_cores)
SOURCE_KERNEL_ATTRS = (SourceComputeKernelAttr, SourceReadKernelAttr, SourceWriteKernelAttr)
KERNEL_ATTRS = (ComputeKernelAttr, ReadKernelAttr, WriteKernelAttr, DataMovementKernelAttr, *SOURCE_KERNEL_ATTRS)
ProgramAttr = struct_attr("ttnn.program", (
    ("kernels", "attr", True), ("cbs", [KernelCBAttr], True), ("semaphores", [KernelSemaphoreAttr], True)),
    "The program a ttnn.generic op runs.")

PROGRAM_ATTRS = (*INDEX_ATTRS.values(), KernelNamedArgAttr, CoreRuntimeArgsAttr, KernelCBFormatAttr, KernelCBAttr, KernelSemaphoreAttr,
                 *KERNEL_ATTRS, ProgramAttr)


def kernel_args(kernel) -> dict[str, tuple]:
    """A kernel attribute's argument groups: ct_args, common_rt_args (each a tuple of attributes) and rt_args (a
    tuple of `#ttnn.core_runtime_args`)."""
    return {**{group: tuple(kernel.get(group).data) for group in ("ct_args", "common_rt_args")},
            "rt_args": kernel.get("rt_args")}


def verify_program(program, tensors: int) -> str | None:
    """What is wrong with a generic op's program over `tensors` tensors, in upstream's words (None if nothing)."""
    semaphores = len(program.get("semaphores"))
    for kernel in program.get("kernels").data:
        if not isinstance(kernel, KERNEL_ATTRS):
            return f"expected a kernel attribute in the program's kernels, got {kernel}"
        args = kernel_args(kernel)
        for group in ("common_rt_args", "ct_args"):
            for arg in args[group]:
                if group == "common_rt_args" and isinstance(arg, KernelArgAddressOfTensorAttr) and arg.data >= tensors:
                    return "Address of tensor at index is out of bounds"
                if isinstance(arg, KernelArgSemaphoreAtAttr) and arg.data >= semaphores:
                    return "Semaphore at index is out of bounds"
    return None

