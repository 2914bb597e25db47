"""Program launches of the Metal path's host program: a `ttmetal.enqueue_program` of its buffers, CBs and kernel
configs (reader on NoC 0, writer on NoC 1, compute), several launches on disjoint cores merged into one, and the
kernel functions themselves (`ttkernel.thread`-tagged private funcs named by their index in the module)."""

from __future__ import annotations


from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, StringAttr, SymbolRefAttr, i32, i64
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ttmlir.dialects import ttkernel, ttmetal
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import WIDE_DST, ShardLayout, kernel_args

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


def launch_configs(layout: ShardLayout, reader: tuple[str, Attribute], writer: tuple[str, Attribute], compute: str,
                   ports: list[int], fidelity: str = "hifi4") -> list[Attribute]:
    """A launch's kernels on the output's cores: a reader on NoC 0 (data-movement core 1) and a writer on NoC 1
    (core 0), each (symbol, argument bindings), and the compute kernel with CB ports `ports` as compile-time
    args (f32 and si32 in a 32-bit dst: a 16-bit one would round them to bf16), at math fidelity `fidelity`."""
    cores = ttmetal.CoreRangeAttr((layout.origin, layout.cores))
    return [ttmetal.NocConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(reader[0]), cores, reader[1], (1, "noc0", None))),
            ttmetal.NocConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(writer[0]), cores, writer[1], (0, "noc1", None))),
            ttmetal.ComputeConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(compute), cores, kernel_args(ports, []),
                                                           (fidelity, layout.dtype in WIDE_DST, False, False,
                                                            ("default",))))]


def enqueue(buffers: list[SSAValue], cbs: list[SSAValue], ports: list[int], configs: list[Attribute],
             op: Operation) -> ttmetal.EnqueueProgramOp:
    """A program launch of `configs` over `buffers` and the CBs `cbs` (on `ports`), located at `op`."""
    launch = ttmetal.EnqueueProgramOp.create(
        operands=[*buffers, *cbs],
        properties={"cb_ports": DenseArrayBase.from_list(i64, ports), "kernelConfigs": ArrayAttr(configs),
                    "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(buffers), len(cbs)])})
    launch.location = op.location
    return launch

def kernel_function(kernels: list[FuncOp], base: str, thread: str, body: list[Operation]) -> str:
    """A kernel function of `body` added to `kernels` (named `<base>_kernel<index>`, as upstream numbers them)."""
    name = f"{base}_kernel{len(kernels)}"
    func = FuncOp(name, ((), ()), Region(Block()), visibility="private")
    func.attributes["ttkernel.thread"] = ttkernel.ThreadAttr(ttkernel.ThreadAttr.enum_type(thread))
    func.attributes["tt.function_type"] = StringAttr("kernel")
    func.body.block.add_ops([*body, ReturnOp()])
    kernels.append(func)
    return name

