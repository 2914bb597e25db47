"""`--ttnn-lower-tt-lang-to-generic`: each resolved `ttnn.tt_lang_op` becomes the `ttnn.generic` its artifact
describes, which then serializes and runs as any generic op does.

The artifact (`kernel_artifact`, tt-lang's JSON, format version 2) gives the kernels (`thread_type` compute or noc,
their C++ `cpp_source`, the `tensor_indices` whose addresses they take, a `kernel_config`), one `core_range`
rectangle, the CBs (`cb_configs`) and the PipeNet resources: `num_pipe_sync_semaphores` program semaphores,
`num_pipe_global_semaphores` global semaphores and `pipe_sram_scratch_bytes` of L1 scratch per core.

Each kernel becomes a `#ttnn.source_*_kernel` (its C++ inline) on the core range, taking the CB indices as its
first compile-time arguments (a NoC kernel then one tensor-accessor description per operand of the op), and as
common runtime arguments the addresses of its tensors, then the scratch tensor's, then the global semaphores'
(indices into the generic's tensors followed by its additional arguments). The scratch is an L1 height-sharded f32
tensor of one shard per core (the bytes rounded up to 32); the semaphores start at 0. The op's operands (inputs,
then the outputs it writes, as `arg_roles` orders them) are the generic's tensors, the scratch after them; each
result is the output operand it is tied to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (AffineMapAttr, ArrayAttr, DenseArrayBase, IntegerAttr, IntegerType, MemRefType,
                                   ModuleOp, NoneAttr, Signedness, StringAttr, TensorType, f32, i32)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import trace, ttcore, ttnn
from ttmlir.dialects import ttnn_program as tp
from ttmlir.dialects.ttnn_attrs import collapse_map
from ttmlir.errors import PassFailure
from ttmlir.ir.syntax import enum
from ttmlir.transforms.ttnn.ttnn_utils import device_of, ttnn_op

FORMAT_VERSION = 2
# the artifact's data_format names, as ttcore names the data types
DATA_FORMATS = {"Float32": "f32", "Float16": "f16", "BFloat16": "bf16", "BFP_Float8": "bfp_f8",
                "BFP_BFloat8": "bfp_bf8", "BFP_Float4": "bfp_f4", "BFP_BFloat4": "bfp_bf4", "UInt32": "u32",
                "UInt16": "u16", "UInt8": "u8", "Int32": "si32"}
MATH_FIDELITIES = {"LoFi": "lofi", "HiFi2": "hifi2", "HiFi3": "hifi3", "HiFi4": "hifi4"}
# what kernel_config.type each thread_type may carry, and the kernel attribute it makes
KERNEL_KINDS = {("compute", "ComputeKernelConfig"): tp.SourceComputeKernelAttr,
                ("noc", "ReaderKernelConfig"): tp.SourceReadKernelAttr,
                ("noc", "WriterKernelConfig"): tp.SourceWriteKernelAttr}
U32_MAX = 2**32 - 1
SCRATCH_ALIGNMENT = 32


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Artifact:
    """The artifact of one op, read with errors located on the op."""

    def __init__(self, op: Operation, text: str):
        self.op = op
        try:
            self.root = json.loads(text)
        except json.JSONDecodeError as error:
            raise PassFailure(op, f"kernel_artifact is not valid JSON: {error}") from error
        if not isinstance(self.root, dict):
            raise PassFailure(op, "kernel_artifact root is not a JSON object.")
        if self.root.get("format_version") != FORMAT_VERSION:
            raise PassFailure(op, f"kernel_artifact has unsupported format_version (expected {FORMAT_VERSION}).")

    def fail(self, message: str) -> PassFailure:
        return PassFailure(self.op, message)

    def count(self, key: str) -> int:
        value = self.root.get(key)
        if not _int(value):
            raise self.fail(f"kernel_artifact is missing required integer key `{key}` (format_version 2).")
        if not 0 <= value <= U32_MAX:
            raise self.fail(f"kernel_artifact `{key}` = {value} is out of range for uint32_t.")
        return value

    def core_range(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The kernels' rectangle, inclusive (x, y) corners."""
        cores = self.root.get("core_range")
        if not isinstance(cores, dict):
            raise self.fail("kernel_artifact is missing required `core_range` object.")
        start, end = cores.get("start"), cores.get("end")
        if not (isinstance(start, list) and isinstance(end, list) and len(start) == len(end) == 2):
            raise self.fail("kernel_artifact `core_range` must contain `start` and `end` arrays of length 2.")
        if not all(_int(v) for v in (*start, *end)):
            raise self.fail("kernel_artifact `core_range.start`/`end` entries must be integers.")
        (sx, sy), (ex, ey) = start, end
        if min(sx, sy, ex, ey) < 0:
            raise self.fail(f"kernel_artifact `core_range.start`/`end` coordinates must be non-negative; got "
                            f"start=({sx},{sy}), end=({ex},{ey}).")
        if sx > ex or sy > ey:
            raise self.fail(f"kernel_artifact `core_range` is empty: start=({sx},{sy}) must be component-wise <= "
                            f"end=({ex},{ey}).")
        return (sx, sy), (ex, ey)

    def cbs(self, cores: ttnn.CoreRangeSetAttr) -> list[Attribute]:
        configs = self.root.get("cb_configs")
        if not isinstance(configs, list):
            raise self.fail("kernel_artifact is missing required `cb_configs` array.")
        cbs = []
        for i, cb in enumerate(configs):
            if not isinstance(cb, dict):
                raise self.fail(f"cb_configs[{i}] is not a JSON object.")
            fields = [cb.get(k) for k in ("buffer_index", "page_size", "total_size")]
            if not all(_int(v) for v in fields) or not isinstance(cb.get("data_format"), str):
                raise self.fail(f"cb_configs[{i}] is missing one of buffer_index/page_size/total_size/data_format.")
            for name, value in zip(("buffer_index", "page_size", "total_size"), fields):
                if not 0 <= value <= U32_MAX:
                    raise self.fail(f"cb_configs[{i}].{name} = {value} is out of range for uint32_t.")
            if cb["data_format"] not in DATA_FORMATS:
                raise self.fail(f"cb_configs[{i}] has unknown data_format {cb['data_format']}.")
            index, page, total = fields
            fmt = tp.KernelCBFormatAttr((("buffer_index", index), ("dtype", DATA_FORMATS[cb["data_format"]]),
                                         ("page_size", page)))
            cbs.append(tp.KernelCBAttr((("total_size", total), ("core_ranges", cores), ("formats", (fmt,)))))
        return cbs

    def kernels(self, cores: ttnn.CoreRangeSetAttr, cbs: int, operands: int, extra: list[Attribute]) -> list:
        entries = self.root.get("kernels")
        if not isinstance(entries, list) or not entries:
            raise self.fail("kernel_artifact is missing required non-empty `kernels` array.")
        return [self._kernel(i, entry, cores, cbs, operands, extra) for i, entry in enumerate(entries)]

    def _kernel(self, i: int, entry, cores, cbs: int, operands: int, extra: list[Attribute]) -> Attribute:
        if not isinstance(entry, dict):
            raise self.fail(f"kernels[{i}] is not a JSON object.")
        source, thread = entry.get("cpp_source"), entry.get("thread_type")
        if not isinstance(source, str) or not isinstance(thread, str):
            raise self.fail(f"kernels[{i}] is missing required `cpp_source` / `thread_type`.")
        if thread not in ("compute", "noc"):
            raise self.fail(f'kernels[{i}].thread_type="{thread}" is not supported (expected "compute" or "noc").')
        config = entry.get("kernel_config")
        if not isinstance(config, dict):
            raise self.fail(f"kernels[{i}] is missing `kernel_config`.")
        kind = config.get("type")
        if not isinstance(kind, str):
            raise self.fail(f"kernels[{i}].kernel_config is missing `type`.")
        cls = KERNEL_KINDS.get((thread, kind))
        if cls is None:
            want = ('kernel_config.type="ComputeKernelConfig"' if thread == "compute" else
                    'kernel_config.type in {"ReaderKernelConfig", "WriterKernelConfig"}')
            raise self.fail(f'kernels[{i}]: thread_type="{thread}" requires {want}, got "{kind}".')
        ct_args = [tp.KernelArgCbBufferIndexAttr(cb) for cb in range(cbs)]
        if thread == "noc":  # tensor-accessor descriptions of every operand, in order
            ct_args += [tp.INDEX_ATTRS["kernel_arg_tensor_accessor_args"](k) for k in range(operands)]
        common = []
        for j, index in enumerate(entry.get("tensor_indices") or ()):
            if not _int(index):
                raise self.fail(f"kernel_artifact tensor_indices[{j}] is not an integer.")
            if index < 0:
                raise self.fail(f"kernel_artifact tensor_indices[{j}] is negative ({index}).")
            common.append(tp.KernelArgAddressOfTensorAttr(index))
        args = (("ct_args", ArrayAttr(ct_args)), ("common_rt_args", ArrayAttr(common + extra)), ("rt_args", ()))
        where = (("source", StringAttr(source)), ("core_ranges", cores))
        if cls is not tp.SourceComputeKernelAttr:
            return cls((*where, *args))
        flag = lambda name: bool(config.get(name, False))
        return cls((*where, ("math_fidelity", MATH_FIDELITIES.get(config.get("math_fidelity", "HiFi4"), "hifi4")),
                    ("fp32_dest_acc_en", flag("fp32_dest_acc_en")), ("dst_full_sync_en", flag("dst_full_sync_en")),
                    ("unpack_to_dest_modes", ()), ("bfp8_pack_precise", flag("bfp8_pack_precise")),
                    ("math_approx_mode", flag("math_approx_mode")), *args))


def _scratch_type(cores: ttnn.CoreRangeSetAttr, count: int, scratch_bytes: int) -> TensorType:
    """One f32 shard per core of `cores` (`count` of them), height sharded in L1."""
    per_core = max(1, -(-scratch_bytes // SCRATCH_ALIGNMENT) * SCRATCH_ALIGNMENT // 4)
    shape = (count, per_core)
    memref = MemRefType(f32, (1, per_core), NoneAttr(), enum(ttnn.BufferTypeAttr, "l1"))
    placed = ttcore.StringAttr(f"core_ranges = {str(cores).removeprefix('#' + cores.name)}")
    layout = ttnn.TTNNLayoutAttr(AffineMapAttr(collapse_map(shape, False)), ttcore.GridAttr(ttcore.Grid((count, 1))),
                                 memref, enum(ttnn.TensorMemoryLayoutAttr, "height_sharded"), placed)
    return TensorType(f32, shape, layout)


def lower(op: Operation) -> None:
    artifact_attr = op.properties.get("kernel_artifact")
    if artifact_attr is None or not artifact_attr.data:
        raise PassFailure(op, "ttnn.tt_lang_op has an empty/unset `kernel_artifact`; run "
                              "`--ttnn-resolve-tt-lang-kernels` before `--ttnn-lower-tt-lang-to-generic`.")
    artifact = _Artifact(op, artifact_attr.data)
    scratch_bytes = artifact.count("pipe_sram_scratch_bytes")
    globals_count = artifact.count("num_pipe_global_semaphores")
    (sx, sy), (ex, ey) = artifact.core_range()
    cores = ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr(((sx, sy), (ex, ey))),))
    tensors: list[SSAValue] = list(op.operands)
    additional: list[SSAValue] = []
    extra: list[Attribute] = []
    made: list[Operation] = []
    if scratch_bytes or globals_count:
        func = op.parent_op()
        while not isinstance(func, FuncOp):
            func = func.parent_op()
        device = device_of(func.body.block)
    if scratch_bytes:
        scratch_type = _scratch_type(cores, (ex - sx + 1) * (ey - sy + 1), scratch_bytes)
        config = ttnn.MemoryConfigAttr(ttnn.MemoryConfig(enum(ttnn.BufferTypeAttr, "l1"),
                                                         enum(ttnn.TensorMemoryLayoutAttr, "height_sharded")))
        made.append(ttnn_op("empty", [device], {"shape": ttnn.ShapeAttr(scratch_type.get_shape()),
                                                "dtype": enum(ttcore.DataTypeAttr, "f32"),
                                                "layout": enum(ttnn.LayoutAttr, "row_major"), "memory_config": config},
                            [scratch_type], op))
        extra.append(tp.KernelArgAddressOfTensorAttr(len(tensors)))
        tensors.append(made[-1].results[0])
    for _ in range(globals_count):
        made.append(ttnn_op("create_global_semaphore", [device], {
            "initial_value": IntegerAttr(0, IntegerType(32, Signedness.UNSIGNED)), "core_range_set": cores},
            [trace.GlobalSemaphoreType()], op))
        extra.append(tp.INDEX_ATTRS["kernel_arg_global_semaphore"](len(tensors) + len(additional)))
        additional.append(made[-1].results[0])
    cbs = artifact.cbs(cores)
    kernels = artifact.kernels(cores, len(cbs), len(op.operands), extra)
    semaphores = [tp.KernelSemaphoreAttr((("id", i), ("core_type", "worker"), ("core_ranges", cores),
                                          ("initial_value", 0)))
                  for i in range(artifact.count("num_pipe_sync_semaphores"))]
    program = tp.ProgramAttr((("kernels", ArrayAttr(kernels)), ("cbs", tuple(cbs)), ("semaphores", tuple(semaphores))))
    generic = ttnn.TTNN_OP_CLASSES["generic"].create(
        operands=[*tensors, *additional],
        properties={"program": program,
                    "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(tensors), len(additional)])})
    generic.location = op.location
    block = op.parent_block()
    for new in (*made, generic):
        block.insert_op_before(new, op)
    outputs = list(op.operands)[len(op.operands) - len(op.results):]
    Rewriter.replace_op(op, [], outputs)


@dataclass(frozen=True)
class TTNNLowerTTLangToGenericPass(ModulePass):
    """Every `ttnn.tt_lang_op` as the `ttnn.generic` of its resolved kernels."""

    name: ClassVar[str] = "ttnn-lower-tt-lang-to-generic"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in [op for op in module.walk() if op.name == "ttnn.tt_lang_op"]:
            lower(op)
