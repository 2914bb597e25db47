"""D2M programs inside a TTNN graph (`--ttir-to-ttmetal-pipeline="ttnn-mode=true"`): each program the Metal
lowering builds for a D2M generic becomes a `ttnn.generic` on the TTNN tensors, as upstream's
convert-d2m-to-ttnn makes it.

The TTNN runtime allocates the tensors, so a kernel finds each by the argument binding its address
(`#ttnn.kernel_arg_address_of_tensor<i>`, a common runtime arg); a CB lives in an L1 tensor's own shards
(`buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<i>`) or is allocated by the runtime for the program;
the semaphores the kernels take start at 0 on the program's cores."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, i32
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

from ttmlir.dialects import ttkernel, ttmetal, ttnn
from ttmlir.dialects import ttnn_program as tp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttnn.ttnn_utils import get_device_op


def device_of(ops: list[Operation], func: FuncOp) -> SSAValue:
    """The function's `ttnn.get_device` among `ops`, or one made at their start."""
    for op in ops:
        if op.name == "ttnn.get_device":
            return op.results[0]
    device = get_device_op(func)
    ops.insert(0, device)
    return device.results[0]


def _cores(origin: tuple[int, int], size: tuple[int, int]) -> ttnn.CoreRangeSetAttr:
    """The cores (y, x) from `origin`, `size` of them, as TTNN names a range: inclusive (x, y) corners."""
    (oy, ox), (sy, sx) = origin, size
    return ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr(((ox, oy), (ox + sx - 1, oy + sy - 1))),))


def _semaphores(symbols: list[str], kernels: list[FuncOp]) -> list[int]:
    """The semaphore ids the kernels named `symbols` take (constants of their get_semaphore calls)."""
    ids = set()
    for func in kernels:
        if func.sym_name.data not in symbols:
            continue
        for op in func.walk():
            if isinstance(op, ttkernel.OP_CLASSES["get_semaphore"]):
                ids.add(op.operands[0].owner.value.value.data)
    return sorted(ids)


def generic_of(launch: ttmetal.EnqueueProgramOp, layouts: dict, kernels: list[FuncOp]) -> Operation:
    """The `ttnn.generic` running `launch`'s kernels on its operands (the TTNN tensors, in order)."""
    tensors = list(launch.args)
    ports = list(launch.cb_ports.get_values())
    bind = {"cb_port": lambda i: tp.KernelArgCbBufferIndexAttr(ports[i]),
            "buffer_address": tp.KernelArgAddressOfTensorAttr,
            "tensor_accessor_args": tp.INDEX_ATTRS["kernel_arg_tensor_accessor_args"]}
    cbs = []
    for value, port in zip(launch.cbs, ports):
        layout = layouts[value]
        fmt = tp.KernelCBFormatAttr((("buffer_index", port), ("dtype", layout.dtype), ("page_size", layout.page)))
        fields = [("total_size", layout.tiles * layout.page), ("core_ranges", _cores(layout.origin, layout.cores)),
                  ("formats", (fmt,))]
        if value in tensors:
            fields.append(("buffer", tp.KernelCbGlobalBufferAddressOfTensorAttr(tensors.index(value))))
        cbs.append(tp.KernelCBAttr(tuple(fields)))
    program_kernels, cores = [], []
    for config in launch.kernelConfigs.data:
        kernel = config.data
        common, per_core, compile_time = ([bind[kind](index) for kind, index in group] for group in kernel.args.data)
        if per_core:
            raise PassFailure(launch, "per-core runtime arguments are not carried into a ttnn.generic yet")
        (oy, ox), (sy, sx) = kernel.core_range.data
        cores.append(_cores((oy, ox), (sy, sx)))
        where = (("symbol_ref", kernel.symbol), ("core_ranges", cores[-1]))
        args = (("ct_args", ArrayAttr(compile_time)), ("common_rt_args", ArrayAttr(common)),
                ("rt_args", ()))
        if isinstance(config, ttmetal.ComputeConfigAttr):
            fidelity, fp32, full_sync, approx, modes = kernel.fields
            program_kernels.append(tp.ComputeKernelAttr((
                *where, ("math_fidelity", fidelity), ("fp32_dest_acc_en", fp32), ("dst_full_sync_en", full_sync),
                ("unpack_to_dest_modes", tuple(modes)), ("bfp8_pack_precise", False), ("math_approx_mode", approx),
                *args)))
        elif isinstance(config, ttmetal.NocConfigAttr):
            dm_core, noc, _ = kernel.fields
            program_kernels.append(tp.DataMovementKernelAttr((
                *where, ("processor", f"riscv{dm_core}"), ("noc_index", noc), ("noc_mode", "dedicated_noc"), *args)))
        else:
            raise PassFailure(launch, f"a {config.name} kernel is not carried into a ttnn.generic")
    symbols = [config.data.symbol.root_reference.data for config in launch.kernelConfigs.data]
    everywhere = ttnn.CoreRangeSetAttr(tuple(dict.fromkeys(r for c in cores for r in c.data)))
    semaphores = [tp.KernelSemaphoreAttr((("id", i), ("core_type", "worker"), ("core_ranges", everywhere),
                                          ("initial_value", 0))) for i in _semaphores(symbols, kernels)]
    program = tp.ProgramAttr((("kernels", ArrayAttr(program_kernels)), ("cbs", tuple(cbs)),
                              ("semaphores", tuple(semaphores))))
    generic = ttnn.TTNN_OP_CLASSES["generic"].create(
        operands=tensors, properties={"program": program,
                                      "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(tensors), 0])})
    generic.location = launch.location
    return generic

