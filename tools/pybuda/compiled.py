"""A module compiled for the simulated device: the importer's plan, one `.ttnn` binary per device segment, and
the run that moves values between the device and the CPU segments, with memory and modelled-time reports."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import torch
import torch.utils._pytree as pytree

from pybuda.config import CompilerConfig, DataFormat, PyBudaError

# the ops whose weights the backend converts to block floats (--ttnn-weight-dtype-conversion)
MATMUL_OPS = {"aten::linear", "aten::addmm", "aten::mm", "aten::bmm", "aten::matmul"}
OP_TYPES = {"matmul": MATMUL_OPS, "linear": {"aten::linear", "aten::addmm"}, "embedding": {"aten::embedding"},
            "conv2d": {"aten::convolution", "aten::conv2d"}, "layernorm": {"aten::layer_norm"}}
AMP_WEIGHTS = {1: DataFormat.Bfp8_b, 2: DataFormat.Bfp4_b}
HALF_TYPES = {DataFormat.Float16_b: torch.bfloat16, DataFormat.Float16: torch.float16}


def weight_format(cfg: CompilerConfig, formats: dict | None = None):
    """The function the importer asks for each parameter's device data type: AMP puts matmul/linear weights in
    block floats (level 1 bfp_bf8, level 2 bfp_bf4); a format set on the Parameter itself (`formats`, by name)
    overrides that, and configure_mixed_precision rules matching the parameter's name or its op override both."""
    amp = AMP_WEIGHTS.get(cfg.amp_level or 0)
    formats = formats or {}

    def choose(name: str, op: str) -> str | None:
        chosen = amp if amp is not None and op in MATMUL_OPS else None
        chosen = formats.get(name, chosen)
        for rule in cfg.mixed_precision:
            op_ok = rule.op_type is None or op in OP_TYPES.get(rule.op_type.lower(), {f"aten::{rule.op_type}"})
            name_ok = rule.name_regex is None or re.fullmatch(rule.name_regex, name) is not None
            if op_ok and name_ok and rule.output_df is not None:
                chosen = rule.output_df
        if chosen is not None and chosen.value.startswith("bfp") and op not in MATMUL_OPS:
            raise PyBudaError(f"parameter '{name}': {chosen.name} weights are supported for matmul/linear weights, "
                              f"not for {op}")
        if chosen is not None and not chosen.value.startswith("bfp") and chosen not in (DataFormat.Float32, *HALF_TYPES):
            raise PyBudaError(f"parameter '{name}': data format {chosen.name} is not supported for weights")
        return None if chosen is None else chosen.value
    return choose


def fidelity_option(cfg: CompilerConfig) -> str:
    return cfg.default_math_fidelity.value


@dataclass
class OpTime:
    segment: int
    op: str
    loc: str
    kernel_ns: float
    fidelity: str


@dataclass
class RunReport:
    """What one run cost on the simulated device."""
    arch: str
    dram_channels: int
    peak_dram_per_channel: int = 0      # bytes; interleaved buffers spread evenly over the channels
    peak_l1_per_core: int = 0
    ops: list[OpTime] = field(default_factory=list)

    @property
    def device_ns(self) -> float:
        return sum(o.kernel_ns for o in self.ops)

    def memory_footprint(self) -> dict[int, float]:
        """MB per DRAM channel at the run's peak."""
        return {c: self.peak_dram_per_channel / 2**20 for c in range(self.dram_channels)}

    def text(self) -> str:
        lines = ["Displaying memory footprint per DRAM channel (MB):"]
        lines += [f"{c} : {mb:.2f}" for c, mb in self.memory_footprint().items()]
        lines.append(f"Modelled device time per op ({self.arch}):")
        lines += [f"  {o.loc:<32} {o.op:<28} {o.kernel_ns / 1000:10.2f} us  {o.fidelity}" for o in self.ops]
        lines.append(f"Total modelled device time: {self.device_ns / 1000:.2f} us")
        return "\n".join(lines)


def _first_casts(binary, index: int) -> dict[int, str]:
    """Per input of program `index`, the data type the first typecast of it makes — followed through moves
    (a weight cast on the host is first moved there) and into the const-eval programs it is passed to."""
    from ttmlir.runtime.tensor import desc_of
    from ttmlir.target import flatbuffer as fbu

    converted: dict[int, str] = {}
    origin = {ref.globalId: ref.globalId for ref in binary.programs[index].inputs or []}
    for op in binary.programs[index].operations or []:
        name = fbu.op_name(op)
        if name == "typecast" and op.type.input.globalId in origin:
            converted.setdefault(origin[op.type.input.globalId], desc_of(op.type.out)["dtype"])
        elif name in ("from_device", "to_device", "to_layout") and op.type.input.globalId in origin:
            origin[op.type.out.globalId] = origin[op.type.input.globalId]
        elif name == "load_cached":
            inner = _first_casts(binary, op.type.programIdx)
            callee_inputs = binary.programs[op.type.programIdx].inputs or []
            for ref, param in zip(op.type.inputs or [], callee_inputs):
                if ref.globalId in origin and param.globalId in inner:
                    converted.setdefault(origin[ref.globalId], inner[param.globalId])
    return converted


class CompiledModel:
    """The compiled form of a module: callable on torch tensors, runs device segments on the simulator."""

    def __init__(self, plan, binaries: list[bytes | None], arch: str, in_spec=None, out_spec=None,
                 input_shapes=None, input_dtypes=None, output_shapes=None, compute_dtype: torch.dtype | None = None):
        self.plan, self.binaries, self.arch = plan, binaries, arch
        self.in_spec, self.out_spec = in_spec, out_spec
        self.input_shapes, self.input_dtypes = input_shapes or [], input_dtypes or []
        self.compute_dtype = compute_dtype
        self.last_report: RunReport | None = None
        self._nodes = {n.name: n for n in plan.program.graph.nodes} if plan.program is not None else {}
        self.output_shapes = output_shapes if output_shapes is not None else \
            [self._out_shape(o) if isinstance(o, str) else None for o in plan.outputs]
        self._loaded = [None] * len(binaries)

    def __call__(self, *inputs):
        flat = self.run(list(pytree.tree_leaves(inputs)))
        return pytree.tree_unflatten(flat, self.out_spec) if self.out_spec is not None else flat

    def placement(self) -> list[tuple[str, str, str]]:
        return self.plan.placement()

    def weight_formats(self) -> dict[str, str]:
        """Each parameter's data type as the device's ops read it, from the compiled binaries: its input's type,
        or the type the program (or a const-eval program it calls) converts it to first."""
        from ttmlir.runtime.executor import Binary
        from ttmlir.runtime.tensor import desc_of

        formats: dict[str, str] = {}
        for seg, data in zip(self.plan.segments, self.binaries):
            if data is None:
                continue
            binary = Binary(data=data)
            converted = _first_casts(binary, 0)
            for name, kind, ref in zip(seg.inputs, seg.kinds, binary.programs[0].inputs or []):
                if kind == "parameter":
                    formats[self.plan.parameters[name]] = converted.get(ref.globalId, desc_of(ref)["dtype"])
        return formats

    def placement_report(self) -> str:
        rows = self.placement()
        device = sum(1 for *_, where in rows if where == "device")
        lines = [f"{device} of {len(rows)} ops run on the {self.arch} device, {len(rows) - device} on the CPU"]
        lines += [f"  {where:<6} {node:<32} {op}" for node, op, where in rows if where == "cpu"]
        return "\n".join(lines)

    def run(self, inputs: list[torch.Tensor]) -> list[torch.Tensor]:
        from ttmlir import hardware
        from ttmlir.runtime import RuntimeFailure
        from ttmlir.runtime.device import MeshDevice
        from ttmlir.runtime.executor import Binary, release, run_program

        plan = self.plan
        if len(inputs) != len(plan.user_inputs):
            raise PyBudaError(f"the module takes {len(plan.user_inputs)} input(s), {len(inputs)} given")
        for i, (x, shape) in enumerate(zip(inputs, self.input_shapes)):
            if list(x.shape) != list(shape):
                raise PyBudaError(f"input {i} has shape {list(x.shape)}; the module was compiled for {list(shape)}")
        env: dict[str, object] = dict(plan.tensors)
        if self.compute_dtype is not None:  # a model compiled in half precision takes and gives float32
            inputs = [x.to(self.compute_dtype) if x.is_floating_point() else x for x in inputs]
        env.update(zip(plan.user_inputs, inputs))
        device = MeshDevice(self.arch)
        report = RunReport(self.arch, hardware.CHIPS[self.arch].num_dram_channels)
        try:
            for index, seg in enumerate(plan.segments):
                if seg.kind == "cpu":
                    for name in seg.nodes:
                        node = self._nodes[name]
                        args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), lambda a: env[a.name])
                        env[name] = node.target(*args, **kwargs)
                    continue
                if self._loaded[index] is None:
                    self._loaded[index] = Binary(data=self.binaries[index])
                binary = self._loaded[index]
                args = [env[n] for n in seg.inputs]
                args = [a.detach() if isinstance(a, torch.Tensor) else torch.tensor(a) for a in args]
                args = [a.reshape(1) if a.dim() == 0 else a for a in args]  # the importer declares a scalar as [1]
                try:
                    outputs, ctx = run_program(binary, 0, args, device)
                except (RuntimeFailure, ValueError) as exc:
                    raise PyBudaError(f"device segment {index}: {exc}") from None
                from ttmlir.frontends.pytorch_builder import TORCH_TYPES
                for name, tensor, dtype in zip(seg.outputs, outputs, seg.out_dtypes):
                    env[name] = tensor.to_torch().to(TORCH_TYPES[dtype]).clone()
                report.peak_dram_per_channel = max(report.peak_dram_per_channel, ctx.peak.get("dram", 0))
                report.peak_l1_per_core = max(report.peak_l1_per_core, ctx.peak.get("l1", 0))
                for op, perf, _, _ in ctx.perf:
                    if op.name != "deallocate":  # bookkeeping, not work
                        loc = op.loc[5:-2] if op.loc.startswith('loc("') else op.loc
                        report.ops.append(OpTime(index, op.name, loc, perf.kernel_ns, perf.fidelity))
                release(binary.programs[0], ctx, outputs)
        finally:
            device.is_open = False
        self.last_report = report
        results = []
        for out, shape in zip(plan.outputs, self.output_shapes):
            value = env[out] if isinstance(out, str) else out
            if isinstance(value, torch.Tensor) and shape is not None and list(value.shape) != list(shape):
                value = value.reshape(shape)
            if isinstance(value, torch.Tensor) and self.compute_dtype is not None and value.dtype == self.compute_dtype:
                value = value.float()
            results.append(value)
        return results

    def _out_shape(self, name) -> tuple:
        node = self._nodes.get(name)
        meta = node.meta.get("val") if node is not None else None
        value = meta if isinstance(meta, torch.Tensor) else self.plan.tensors.get(name)
        return list(value.shape) if isinstance(value, torch.Tensor) else None
