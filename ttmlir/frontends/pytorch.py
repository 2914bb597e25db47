"""PyTorch in: a module's `torch.export` graph lowered, ATen op by ATen op, to TTIR functions.

`import_module(module, sample_inputs)` exports the module, decomposes it to core ATen except for the ops
lowered here whole (linear, layer_norm, scaled_dot_product_attention, ... keep their TTIR counterparts),
evaluates at import what depends only on constants (masks, position ids), and walks the graph once with
the LOWERINGS table. Ops with no lowering either fail with one line naming them or, with `cpu_fallback`,
run in torch on the host: the graph is cut into device segments (each one TTIR function) and CPU
segments, in graph order, and the plan says which op ran where. Parameters become function arguments
marked `#ttcore.argument_type<parameter>` (folded constants `<constant>`), so the IR stays small.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind
from ttmlir.frontends.pytorch_ops import LOWERINGS
from ttmlir.frontends.pytorch_builder import Func, ImportError_, Lower, MLIR_TYPES, Unsupported, Value, mlir_dtype

aten = torch.ops.aten

# --- import: export, fold, partition, emit ---------------------------------------------------------------

LOWERED_WHOLE = (aten.linear.default, aten.layer_norm.default, aten.scaled_dot_product_attention.default,
                 aten.gelu.default, aten.conv2d.default, aten.conv1d.default, aten.conv_transpose2d.input,
                 aten.group_norm.default, aten.rms_norm.default, aten.batch_norm.default, aten.softmax.int,
                 aten.log_softmax.int, aten.silu.default, aten.hardtanh.default, aten.matmul.default,
                 aten.max_pool2d.default, aten.adaptive_avg_pool2d.default, aten.index_select.default,
                 aten.relu6.default, aten.hardsigmoid.default, aten.mish.default, aten.var.correction,
                 aten.std.correction, aten.elu.default, aten.leaky_relu.default, aten.repeat.default,
                 aten.flatten.using_ints, aten.unflatten.int, aten.narrow.default, aten.t.default,
                 aten.unbind.int, aten.split.Tensor, aten.full_like.default, aten.zeros_like.default,
                 aten.ones_like.default, aten.dropout.default, aten.type_as.default, aten.to.dtype,
                 aten.to.dtype_layout, aten.embedding_dense_backward.default)


def export(module: torch.nn.Module, args: tuple, kwargs: dict | None = None) -> ExportedProgram:
    """The module's graph in core ATen, except the ops lowered whole (they keep their own node)."""
    try:
        ep = torch.export.export(module, tuple(args), kwargs=kwargs or {}, strict=False)
    except Exception as exc:  # torch's message, reduced to its first line
        raise ImportError_(f"torch.export of {type(module).__name__} failed: "
                           f"{str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__}") from None
    table = torch.export.default_decompositions()
    for op in LOWERED_WHOLE:
        table.pop(op, None)
    return ep.run_decompositions(table)


@dataclass
class Segment:
    """A run of graph nodes on one side: "device" (one TTIR function, `text`) or "cpu" (torch on the host)."""
    kind: str
    nodes: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)    # graph values read, in argument order
    outputs: list[str] = field(default_factory=list)   # graph values made and read later, in result order
    kinds: list[str] = field(default_factory=list)     # each input's argument_type
    text: str = ""
    ops: list[str] = field(default_factory=list)       # the ATen ops, by node, for the placement report
    out_dtypes: list[str] = field(default_factory=list)
    func: Func | None = field(default=None, repr=False)   # while importing
    values: dict = field(default_factory=dict, repr=False)


@dataclass
class Plan:
    """An imported module: segments in order, the tensors they read (parameters, folded constants) and how
    the user's inputs and outputs map onto graph values."""
    segments: list[Segment]
    tensors: dict[str, torch.Tensor]
    parameters: dict[str, str]         # graph value -> the module's parameter name
    user_inputs: list[str]
    outputs: list[object]              # graph value names, or constants (None, numbers)
    program: ExportedProgram

    def placement(self) -> list[tuple[str, str, str]]:
        """(node, ATen op, "device" | "cpu") for every op the module runs, in graph order."""
        return [(n, o, s.kind) for s in self.segments for n, o in zip(s.nodes, s.ops)]


def _op_name(target) -> str:
    return str(target.name() if hasattr(target, "name") and callable(target.name) else
               getattr(target, "__name__", str(target)))


def import_program(ep: ExportedProgram, cpu_fallback: bool = False, name: str = "forward",
                   weight_dtypes: Callable[[str, str], str | None] | None = None) -> Plan:
    """The plan of an exported program: constants folded, device segments lowered to TTIR text.

    `weight_dtypes(parameter name, reading op)` may name the element type a parameter is stored in on the
    device (AMP); None keeps its own.
    """
    graph = ep.graph
    sig = ep.graph_signature
    tensors: dict[str, torch.Tensor] = {}
    parameters: dict[str, str] = {}
    user_inputs: list[str] = []
    static: set[str] = set()
    for spec in sig.input_specs:
        arg = spec.arg.name
        if spec.kind == InputKind.USER_INPUT:
            user_inputs.append(arg)
        elif spec.kind in (InputKind.PARAMETER, InputKind.BUFFER):
            tensors[arg] = ep.state_dict[spec.target] if spec.target in ep.state_dict else ep.constants[spec.target]
            parameters[arg] = spec.target
            if spec.kind == InputKind.BUFFER:
                static.add(arg)
        elif spec.kind == InputKind.CONSTANT_TENSOR:
            tensors[arg] = ep.constants[spec.target]
            static.add(arg)
        else:
            raise ImportError_(f"graph input '{arg}' of kind {spec.kind.name} is not supported")

    nodes = {n.name: n for n in graph.nodes}
    env: dict[str, object] = dict(tensors)  # folded values
    output_node = next(n for n in graph.nodes if n.op == "output")
    # evaluate at import what reads only constants and buffers (masks, position ids): nothing of it runs later
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        reads = [a.name for a in node.all_input_nodes]
        if all(r in static for r in reads) and not _is_random(node):
            args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), lambda a: env[a.name])
            env[node.name] = node.target(*args, **kwargs)
            static.add(node.name)

    segments: list[Segment] = []
    values: dict[str, object] = {}         # node -> lowered Value(s), within the current device segment
    producer: dict[str, int] = {}          # graph value -> index of the segment making it
    current: Segment | None = None
    func: Func | None = None

    def arg_of(name: str, reader: str):
        """A graph value as an operand of the current function: its own Value, or a new argument."""
        if name in values:
            return values[name]
        if name in static and name not in parameters and _splat(env[name]) is not None and \
                isinstance(env[name], torch.Tensor):
            t = env[name]
            low = Lower(func, nodes[reader])
            v = low.broadcast_to(low.full(_splat(t), mlir_dtype(t.dtype), max(t.dim(), 1)), tuple(t.shape) or (1,))
            values[name] = v
            return v
        if name in static and not isinstance(env[name], torch.Tensor):
            return env[name]
        meta = env[name] if name in static else nodes[name].meta.get("val")
        if isinstance(meta, (tuple, list)):
            raise Unsupported("a tuple made on the host")
        kind = "parameter" if name in parameters and name not in static else \
            "constant" if name in static else "input"
        dtype, weight_dtype = mlir_dtype(meta.dtype), None
        if kind == "parameter" and weight_dtypes is not None and dtype in ("f32", "bf16", "f16"):
            chosen = weight_dtypes(parameters[name], _op_name(nodes[reader].target))
            # block floats are a device layout: the weight is annotated and converted by the backend
            dtype, weight_dtype = (dtype, chosen) if chosen and chosen.startswith("bfp") else (chosen or dtype, None)
        v = func.arg(name, tuple(meta.shape) or (1,), dtype, kind, weight_dtype)
        values[name] = v
        current.inputs.append(name)
        current.kinds.append(kind)
        return v

    for node in graph.nodes:
        if node.op != "call_function" or node.name in static:
            continue
        target = node.target
        lowering = LOWERINGS.get(getattr(target, "overloadpacket", target))
        placed = False
        if lowering is not None:
            if current is None or current.kind != "device":
                current = Segment("device")
                segments.append(current)
                func = current.func = Func(f"{name}_{len([s for s in segments if s.kind == 'device']) - 1}")
                values = current.values = {}
            mark = (len(func.lines), func.count, len(func.args), dict(values), len(current.inputs))
            try:
                func.loc = node.name
                args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), lambda a: arg_of(a.name, node.name))
                result = lowering(Lower(func, node), *args, **kwargs)
                if result is None:
                    raise Unsupported(f"{_op_name(target)} of a host value")
                values[node.name] = result
                placed = True
            except Unsupported as why:
                del func.lines[mark[0]:]
                func.count = mark[1]
                del func.args[mark[2]:]
                values = current.values = mark[3]
                del current.inputs[mark[4]:], current.kinds[mark[4]:]
                reason = str(why)
        else:
            reason = f"no TTIR lowering for {_op_name(target)}"
        if placed:
            current.nodes.append(node.name)
            current.ops.append(_op_name(target))
            producer[node.name] = len(segments) - 1
            continue
        if not cpu_fallback:
            raise ImportError_(f"{node.name}: {reason} (set enable_tvm_cpu_fallback to run it on the CPU)")
        if current is None or current.kind != "cpu":
            if current is not None and current.kind == "device" and not current.nodes:
                segments.pop()
            current = Segment("cpu")
            segments.append(current)
        current.nodes.append(node.name)
        current.ops.append(_op_name(target))
        producer[node.name] = len(segments) - 1
    if current is not None and current.kind == "device" and not current.nodes:
        segments.pop()

    # each segment's outputs: its values read by a later segment or by the graph's output
    later_reads: dict[str, set[int]] = {}
    for i, seg in enumerate(segments):
        reads = seg.inputs if seg.kind == "device" else \
            [a.name for n in seg.nodes for a in nodes[n].all_input_nodes]
        for r in reads:
            later_reads.setdefault(r, set()).add(i)
    results = [a.name if isinstance(a, torch.fx.Node) else a for a in torch.fx.node.map_aggregate(
        output_node.args[0], lambda a: a) or []] if isinstance(output_node.args[0], (tuple, list)) else \
        [output_node.args[0].name if isinstance(output_node.args[0], torch.fx.Node) else output_node.args[0]]
    for r in results:
        if isinstance(r, str):
            later_reads.setdefault(r, set()).add(len(segments))

    for i, seg in enumerate(segments):
        seg.outputs = [n for n in seg.nodes if any(j > i for j in later_reads.get(n, ()))]
        if seg.kind == "device":
            made = [seg.values[o] for o in seg.outputs]
            bad = next((o for o, v in zip(seg.outputs, made) if not isinstance(v, Value)), None)
            if bad is not None:
                raise ImportError_(f"{bad}: a multi-result op's tuple is read outside the device")
            seg.out_dtypes = [v.dtype for v in made]
            seg.text = seg.func.text(made)
            seg.func, seg.values = None, {}
    folded = {k: v for k, v in env.items() if k in static and k not in tensors}
    tensors.update(folded)
    return Plan(segments, tensors, parameters, user_inputs, results, ep)


def _is_random(node) -> bool:
    return bool(getattr(node.target, "is_nondeterministic", False)) or \
        "rand" in _op_name(node.target) or "dropout" in _op_name(node.target) and node.args[-1] is True


def _splat(t) -> float | None:
    """The one value a tensor holds everywhere, if it does (it is then made on the device, not carried)."""
    if not isinstance(t, torch.Tensor) or t.numel() == 0 or t.dtype not in MLIR_TYPES:
        return None
    flat = t.reshape(-1)
    first = flat[0]
    return first.item() if bool((flat == first).all()) and math.isfinite(float(first)) else None
