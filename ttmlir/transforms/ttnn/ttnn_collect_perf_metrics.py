"""`--ttnn-collect-perf-metrics`: a JSON report of where a TTNN graph's ops keep their results, what its weights
cost to stream and what its matrix-engine ops compute.

- `summary`: op counts (all ops but `get_device`; those with a tensor result; the shardable ones: TTNN ops other than
  `to_memory_config`) and, of the shardable ones, how many produce an L1-sharded result (kept there, or spilled to
  DRAM by a `to_memory_config`), a DRAM result, a host result; percentages of the shardable count.
- `perf_targets` (single chip): the weight-streaming roofline. Each matmul/linear, prefill SDPA (without a mask) and
  decode SDPA takes max(its weights at BFP8 over DRAM bandwidth, its 32x32x32 tile products at HiFi2 on every core);
  the sum is `roofline_ms`, over a 0.7 utilization `top_perf_estimate_ms`. A weight must be a DRAM parameter, constant
  or KV cache argument, or a `load_cached` result of the same volume as its inputs; otherwise the op is skipped.
- `flops`: logical FLOPs of the matrix-engine ops (matmul-like 2MKN, convolutions, attention, CCL reductions), the
  peak each math fidelity gives, and the FLOP-weighted peak.
With `ttnn-perf-metrics-verbose-output-enabled`, every shardable op and every op type is listed too. With
`ttnn-enable-trace`, the counted function is the trace's (where the ops are once traced).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, ModuleOp, NameLoc, NoneAttr, StringAttr, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttcore, ttnn
from ttmlir.hardware import CHIPS
from ttmlir.ir.props import int_values, scalar
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttir.const_eval_hoist_transform import CONST_KINDS, arg_attrs, is_const_eval
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FORWARD_DEVICE, FUNCTION_TYPE
from ttmlir.transforms.ttcore.register_device import device_module_of
from ttmlir.transforms.ttir.ttir_infer_kv_cache_argument_types import KV_CACHE
from ttmlir.transforms.ttnn.ttnn_trace_hoist_transform import TRACE_MAIN

TILE = 32
CYCLES_PER_TILE_MATMUL = {"lofi": 16, "hifi2": 32, "hifi3": 48, "hifi4": 64}
ROOFLINE_FIDELITY = "hifi2"
UTILIZATION = 0.7
MATMULS = ("ttnn.matmul", "ttnn.linear")
DECODE_ATTENTION = ("ttnn.scaled_dot_product_attention_decode", "ttnn.paged_scaled_dot_product_attention_decode")
CCL_REDUCTIONS = ("ttnn.all_reduce", "ttnn.all_reduce_async", "ttnn.reduce_scatter")
SHARDED = frozenset({"height_sharded", "width_sharded", "block_sharded"})


def tiles(n: int) -> int:
    return -(-n // TILE)


def shape(v: SSAValue) -> tuple[int, ...]:
    return tuple(v.type.get_shape()) if isinstance(v.type, TensorType) else ()


def volume(v: SSAValue) -> int:
    return math.prod(shape(v)) if isinstance(v.type, TensorType) else 0


def bfp8_bytes(v: SSAValue) -> int:
    """16 mantissa bytes and one shared exponent per 16 scalars."""
    return int(volume(v) * 17 / 16 + 0.5)


def _operand(op: Operation, name: str) -> SSAValue | None:
    values = op.operand_groups().get(name, [])
    return values[0] if values else None


def _prop(op: Operation, name: str):
    """A property's Python value (a tuple for an array), its default when absent, None when unset."""
    attr = op.prop(name)
    if attr is None or isinstance(attr, NoneAttr):
        return None
    if isinstance(attr, (ArrayAttr, DenseArrayBase)):
        return tuple(int_values(attr))
    return scalar(attr)


def _matmul_dims(op: Operation) -> tuple[int, int, int, int] | None:
    """(batch, M, K, N) of a matmul-like op, from its first operand and result."""
    a, out = shape(_operand(op, "a")), shape(op.results[0])
    if len(a) < 2 or len(out) < 2:
        return None
    k = a[-2] if _prop(op, "transpose_a") else a[-1]
    return math.prod(out[:-2]), out[-2], k, out[-1]


def _attention_dims(op: Operation, value_dim: int | None = None):
    q, k = shape(_operand(op, "query")), shape(_operand(op, "key"))
    v = shape(_operand(op, "value")) if value_dim is None else None
    if len(q) != 4 or len(k) != 4 or (v is not None and len(v) != 4):
        return None
    window = _prop(op, "sliding_window_size")
    keys = min(window, k[2]) if window is not None else k[2]
    causal = bool(_prop(op, "is_causal")) and window is None
    return q[0], q[1], q[2], keys, q[3], v[3] if v is not None else value_dim, causal


def op_flops(op: Operation, mesh: tuple[int, ...]) -> int:
    """Logical FLOPs of a matrix-engine op (0 for every other op)."""
    if op.name in MATMULS or op.name == "ttnn.sparse_matmul":
        dims = _matmul_dims(op)
        if dims is None:
            return 0
        flops = 2 * math.prod(dims)
        nnz, out = _prop(op, "nnz"), shape(op.results[0])
        if op.name == "ttnn.sparse_matmul" and nnz is not None and len(out) >= 3 and out[-3] > 0:
            flops = flops // out[-3] * nnz  # only the blocks that take part
        return flops
    if op.name in ("ttnn.conv2d", "ttnn.conv3d", "ttnn.conv1d"):
        kernel = _prop(op, "kernel_size")
        product = math.prod(kernel) if isinstance(kernel, tuple) else kernel
        return 2 * volume(op.results[0]) * (_prop(op, "in_channels") // max(1, _prop(op, "groups"))) * product
    if op.name == "ttnn.conv_transpose2d":  # input-driven: each input scalar scatters over the kernel
        groups = max(1, _prop(op, "groups"))
        return 2 * volume(_operand(op, "input")) * (_prop(op, "out_channels") // groups) * \
            math.prod(_prop(op, "kernel_size"))
    if op.name in ("ttnn.scaled_dot_product_attention", "ttnn.flash_mla_prefill"):
        dims = _attention_dims(op, _prop(op, "head_dim_v") if op.name == "ttnn.flash_mla_prefill" else None)
        if dims is None:
            return 0
        b, heads, queries, keys, dk, dv, causal = dims
        flops = 2 * b * heads * queries * keys * (dk + dv)
        return flops >> 1 if causal else flops
    if op.name in CCL_REDUCTIONS:  # combining D copies costs D-1 ops, spread over the D chips of the ring
        axis = _prop(op, "cluster_axis")
        if axis is None or axis >= len(mesh):
            return 0
        n = volume(op.operands[0])
        return n - n // max(1, mesh[axis])
    return 0


def _fidelity(op: Operation) -> str:
    config = op.properties.get("compute_config")
    value = dict(config.data).get("math_fidelity") if config is not None else None
    return str(getattr(value, "data", value)) if value is not None else "hifi4"  # tt-metal's default for matmuls


@dataclass
class Targets:
    arch: str
    chips: int
    bandwidth: int
    clock: int
    cores: int
    params: int = 0
    param_bytes: int = 0
    dram_bound: int = 0
    compute_bound: int = 0
    skipped: int = 0
    roofline_ms: float = 0.0

    def peak(self, fidelity: str) -> float:
        return self.cores * self.clock * 2 * TILE ** 3 / CYCLES_PER_TILE_MATMUL[fidelity]

    def add(self, func: FuncOp) -> None:
        for op in func.walk():
            if op.name in MATMULS:
                weights, dims = [_operand(op, "b")], _matmul_dims(op)
                tile_muls = dims[0] * tiles(dims[1]) * tiles(dims[2]) * tiles(dims[3]) if dims else 0
            elif op.name in DECODE_ATTENTION:  # decode compute is negligible: the K/V reads bound it
                weights, tile_muls = [_operand(op, "key"), _operand(op, "value")], 0
            elif op.name == "ttnn.scaled_dot_product_attention":
                if _operand(op, "attention_mask") is not None:  # its roofline is unknown
                    self.skipped += 1
                    continue
                weights = [_operand(op, "key"), _operand(op, "value")]
                b, heads, queries, keys, dk, dv, causal = _attention_dims(op)
                tile_muls = b * heads * tiles(queries) * tiles(keys) * (tiles(dk) + tiles(dv))
                tile_muls = tile_muls // 2 if causal else tile_muls
            else:
                continue
            if not all(_streamed_weight(w) for w in weights):
                self.skipped += 1
                continue
            self.params += sum(map(volume, weights))
            weight_bytes = sum(map(bfp8_bytes, weights))
            self.param_bytes += weight_bytes
            dram_us = weight_bytes / self.bandwidth * 1e6
            compute_us = tile_muls * CYCLES_PER_TILE_MATMUL[ROOFLINE_FIDELITY] * 1e6 / (self.cores * self.clock)
            self.roofline_ms += max(dram_us, compute_us) / 1000.0
            if dram_us >= compute_us:
                self.dram_bound += 1
            else:
                self.compute_bound += 1

    def json(self) -> dict:
        return {"arch": self.arch, "num_chips": self.chips, "dram_bandwidth_bytes_per_sec": self.bandwidth,
                "aiclk_hz": self.clock, "num_tensix_cores": self.cores,
                "cycles_per_tile_matmul": CYCLES_PER_TILE_MATMUL[ROOFLINE_FIDELITY], "params_count": self.params,
                "params_memory_bytes": self.param_bytes, "dram_bound_ops": self.dram_bound,
                "compute_bound_ops": self.compute_bound, "skipped_ops": self.skipped,
                "roofline_ms": self.roofline_ms, "top_perf_estimate_ms": self.roofline_ms / UTILIZATION}


def _buffer(v: SSAValue) -> str | None:
    layout = getattr(v.type, "encoding", None)
    return layout.buffer_type if isinstance(layout, ttnn.TTNNLayoutAttr) else None


def _sharded_l1(v: SSAValue) -> bool:
    layout = getattr(v.type, "encoding", None)
    return _buffer(v) == "l1" and not isinstance(layout.memory_layout, NoneAttr) and \
        layout.memory_layout.data.value in SHARDED


def _streamed_weight(v: SSAValue) -> bool:
    """A tensor that stands for weights read from DRAM: a weight argument, or a const-eval result no larger than
    what it was made from (a broadcast would count bytes DRAM never holds)."""
    if _buffer(v) != "dram":
        return False
    if isinstance(v, BlockArgument):
        func = v.block.parent_op()
        attrs = arg_attrs(func, v.index) if isinstance(func, FuncOp) else {}
        kind = attrs.get(ttcore.ArgumentTypeAttr.name)
        return KV_CACHE in attrs or isinstance(kind, ttcore.ArgumentTypeAttr) and kind.data.value in CONST_KINDS
    load = v.owner
    return isinstance(load, ttcore.LoadCachedOp) and sum(map(volume, load.operands)) == sum(map(volume, load.results))


def _location(op: Operation) -> str:
    return op.location.desc.data if isinstance(op.location, NameLoc) else "unknown"


@dataclass
class _Summary:
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys((
        "total_ops", "total_ops_with_output_tensor", "total_shardable_ops", "sharded_ops", "effectively_sharded_ops",
        "sharded_and_spilled_ops", "dram_spilled_ops", "system_memory_ops"), 0))
    details: list[dict] = field(default_factory=list)
    types: dict[str, int] = field(default_factory=dict)

    def add(self, func: FuncOp) -> None:
        spilled = {op.operands[0] for op in func.walk() if op.name == "ttnn.to_memory_config"
                   and _buffer(op.results[0]) == "dram" and isinstance(op.operands[0].owner, Operation)
                   and _sharded_l1(op.operands[0])}
        c = self.counts
        for op in func.walk():
            if op is func:
                continue
            self.types[op.name] = self.types.get(op.name, 0) + 1
            if op.name == "ttnn.get_device":
                continue
            c["total_ops"] += 1
            if not op.results or not isinstance(op.results[0].type, TensorType):
                continue
            c["total_ops_with_output_tensor"] += 1
            if op.name == "ttnn.to_memory_config" or not isinstance(op, ttnn.TTNNOp):
                continue
            c["total_shardable_ops"] += 1
            result = op.results[0]
            sharded, on_host = _sharded_l1(result), _buffer(result) == "system_memory"
            if sharded:
                c["sharded_ops"] += 1
                c["sharded_and_spilled_ops" if result in spilled else "effectively_sharded_ops"] += 1
            c["dram_spilled_ops"] += _buffer(result) == "dram"
            c["system_memory_ops"] += on_host
            self.details.append({"operation": op.name, "location": _location(op), "is_sharded": sharded,
                                 "is_spilled_to_dram": sharded and result in spilled, "has_system_memory": on_host,
                                 "layout_info": str(result.type.encoding)})

    def json(self) -> dict:
        c, total = self.counts, self.counts["total_shardable_ops"]
        share = lambda key: 100.0 * c[key] / total if total else 0.0
        return {**c, "sharded_percentage": share("sharded_ops"),
                "effectively_sharded_percentage": share("effectively_sharded_ops"),
                "spilled_percentage": share("dram_spilled_ops"), "system_memory_percentage": share("system_memory_ops")}


def to_json(value, indent: str = "") -> str:
    """LLVM's JSON text (`formatv("{0:2}")`): keys sorted, two-space indent, doubles to 17 significant digits."""
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f'{inner}"{k}": {to_json(value[k], inner)}' for k in sorted(value)]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + to_json(v, inner) for v in value) + f"\n{indent}]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format(value, ".17g")
    if isinstance(value, int):
        return str(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class TTNNCollectPerfMetricsPass(ModulePass):
    """Collect and export TTNN operation metrics."""

    name: ClassVar[str] = "ttnn-collect-perf-metrics"
    ttnn_perf_metrics_output_file: str = "ttnn_perf_metrics.json"
    ttnn_perf_metrics_verbose_output_enabled: bool = False
    ttnn_enable_trace: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        device = device_module_of(module)
        funcs = [f for f in device.walk() if isinstance(f, FuncOp)]
        kind = lambda f: f.attributes.get(FUNCTION_TYPE)
        outer = [f for f in funcs if kind(f) == FORWARD_DEVICE and
                 (f.sym_visibility is None or f.sym_visibility.data != "private")]
        if len(outer) != 1:
            raise PassFailure(module, "TTNNCollectPerfMetrics: expected exactly one outer forward-device function for "
                                      f"perf target estimate; got {len(outer)}.")
        system = device.attributes.get("ttcore.system_desc", module.attributes.get("ttcore.system_desc"))
        if not isinstance(system, ttcore.SystemDescAttr):
            raise PassFailure(module, "TTNNCollectPerfMetrics: no ttcore.system_desc on the module; cannot compute "
                                      "perf target estimate.")
        chip = system.data.chip(0)
        arch = str(chip["arch"])
        if arch not in CHIPS:
            raise PassFailure(module, f"TTNNCollectPerfMetrics: perf target estimate not calibrated for arch '{arch}'.")
        facts = CHIPS[arch]  # one chip's DRAM bandwidth and AI clock
        targets = Targets(arch, len(system.data.chips), round(facts.dram_gbps * 1e9), round(facts.clock_ghz * 1e9),
                          math.prod(chip["grid"]))
        counted = [f for f in funcs if kind(f) == (TRACE_MAIN if self.ttnn_enable_trace else FORWARD_DEVICE)]
        target_func = next((f for f in counted if kind(f) == TRACE_MAIN), outer[0])
        targets.add(target_func)
        summary = _Summary()
        for func in counted:
            if not is_const_eval(func):
                summary.add(func)
        report = {"summary": summary.json(), "flops": self._flops(target_func, targets, device)}
        if targets.chips == 1:
            report["perf_targets"] = targets.json()
        if self.ttnn_perf_metrics_verbose_output_enabled:
            report["shardable_operations"] = summary.details
            report["operation_type_breakdown"] = summary.types
        self._write(module, funcs, to_json(report) + "\n")

    def _flops(self, func: FuncOp, targets: Targets, device: ModuleOp) -> dict:
        mesh = next((tuple(op.device_attr.data.mesh_shape) for op in device.ops if isinstance(op, ttcore.DeviceOp)),
                    ())
        per_op, total, ideal_s = [], 0, 0.0
        for op in func.walk():
            if not (flops := op_flops(op, mesh)):
                continue
            fidelity = _fidelity(op)
            total += flops
            ideal_s += flops / targets.peak(fidelity)
            per_op.append({"operation": op.name, "location": _location(op), "flops": flops,
                           "math_fidelity": fidelity})
        out = {"total_flops": total, "peak_flops_per_sec": round(total / ideal_s) if ideal_s else 0,
               "peak_flops_per_sec_by_fidelity": {f: round(targets.peak(f)) for f in CYCLES_PER_TILE_MATMUL}}
        if self.ttnn_perf_metrics_verbose_output_enabled:
            out["per_op"] = per_op
        return out

    def _write(self, module: ModuleOp, funcs: list[FuncOp], text: str) -> None:
        path = self.ttnn_perf_metrics_output_file
        if not path:  # named after the module (or its first function) in perf_metrics/
            name = module.sym_name.data if isinstance(getattr(module, "sym_name", None), StringAttr) else \
                next((f.sym_name.data for f in funcs if not is_const_eval(f)), "UnnamedModule")
            path = f"perf_metrics/{name}_perf_metrics.json"
        elif not path.endswith(".json"):
            path += ".json"
        try:
            if os.path.dirname(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        except OSError as error:
            raise PassFailure(module, f"Failed to open output file: {path} - {error.strerror}") from None
