"""Program launches of the Metal path's host program: a `ttmetal.enqueue_program` of its buffers, CBs and kernel
configs (from a generic's threads and its kernels' argument specs), several launches on disjoint cores merged into
one."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, i32, i64
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects import ttkernel, ttmetal
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import MATMUL_INITS, WIDE_DST, ShardLayout


def one_program(launches: list[ttmetal.EnqueueProgramOp], op: Operation) -> ttmetal.EnqueueProgramOp:
    """Launches on disjoint cores as one program (a d2m.spatial's regions run together): their operands, CBs and
    kernels side by side, each kernel's argument indices moved past the launches before it."""
    args, cbs, ports, configs = [], [], [], []
    for launch in launches:
        shift = {"cb_port": len(cbs), "buffer_address": len(args)}
        for config in launch.kernelConfigs.data:
            kernel = config.data
            groups = tuple(tuple((kind, index + shift.get(kind, 0)) for kind, index in group)
                           for group in kernel.args.data)
            configs.append(type(config)(ttmetal.KernelConfig(kernel.symbol, kernel.core_range,
                                                             ttmetal.KernelArgsAttr(groups), kernel.fields)))
        args += launch.args
        cbs += launch.cbs
        ports += launch.cb_ports.get_values()
    return enqueue(args, cbs, ports, configs, op)


def _kernel_args(spec: Attribute) -> ttmetal.KernelArgsAttr:
    """A kernel's argument bindings from its `ttkernel.arg_spec`: its runtime args, the same on every core, as common
    runtime args; its compile-time args as they are."""
    runtime, compile_time = (tuple((kind, index) for kind, _, index in group) for group in spec.data) \
        if isinstance(spec, ttkernel.ArgSpecAttr) else ((), ())
    return ttmetal.KernelArgsAttr((runtime, (), compile_time))


def _matmul(kernel: FuncOp | None) -> bool:
    """Whether a compute kernel runs the matmul engine (sums K products in dst: MATMUL_ACCUMULATOR)."""
    return kernel is not None and any(op.name in MATMUL_INITS for op in kernel.walk())


def launch_configs(threads, kernels: dict[str, FuncOp], layout: ShardLayout, fidelity: str = "hifi4"
                   ) -> list[Attribute]:
    """A program's kernel configs on the output's cores, one per thread (`#d2m.thread<kind, @kernel, dm_core>`):
    a data-movement kernel on its core's NoC (core 1 drives NoC 0, core 0 NoC 1), the compute kernel at math
    fidelity `fidelity` (f32 and si32, and a matmul's sums, in a 32-bit dst: a 16-bit one would round them to bf16);
    `kernels` by name."""
    cores = ttmetal.CoreRangeAttr((layout.origin, layout.cores))
    configs = []
    for thread in threads:
        symbol = thread.kernel
        kernel = kernels.get(symbol.root_reference.data)
        args = _kernel_args(kernel.attributes.get("ttkernel.arg_spec") if kernel is not None else None)
        if thread.thread == "compute":
            configs.append(ttmetal.ComputeConfigAttr(ttmetal.KernelConfig(
                symbol, cores, args, (fidelity, layout.dtype in WIDE_DST or _matmul(kernel), False, False, ("default",)))))
        else:
            core = thread.dm_core.data
            configs.append(ttmetal.NocConfigAttr(ttmetal.KernelConfig(symbol, cores, args,
                                                                      (core, f"noc{1 - core}", None))))
    return configs


def enqueue(buffers: list[SSAValue], cbs: list[SSAValue], ports: list[int], configs: list[Attribute],
             op: Operation) -> ttmetal.EnqueueProgramOp:
    """A program launch of `configs` over `buffers` and the CBs `cbs` (on `ports`), located at `op`."""
    launch = ttmetal.EnqueueProgramOp.create(
        operands=[*buffers, *cbs],
        properties={"cb_ports": DenseArrayBase.from_list(i64, ports), "kernelConfigs": ArrayAttr(configs),
                    "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(buffers), len(cbs)])})
    launch.location = op.location
    return launch
