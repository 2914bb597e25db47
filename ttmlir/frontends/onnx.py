"""ONNX in: a model's graph as a torch module (one table ONNX op -> torch), which the PyTorch importer then
exports and lowers like any other. Float initializers become the module's parameters; integer ones (shapes,
axes, indices) stay constants, so shapes are known when the graph is exported."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


class OnnxImportError(Exception):
    """The model cannot be imported; the message is one line."""


def _ints(v) -> list[int]:
    return [int(x) for x in (v.tolist() if isinstance(v, torch.Tensor) else v)]


def _pads(pads, rank: int) -> list[int]:
    """ONNX's [begin..., end...] spatial pads as one symmetric padding per dimension (asymmetric is refused)."""
    pads = list(pads or [0] * (2 * rank))
    begin, end = pads[:rank], pads[rank:]
    if begin != end:
        raise OnnxImportError(f"asymmetric padding {pads} is not supported")
    return begin


def _gemm(a, b, c=None, alpha=1.0, beta=1.0, transA=0, transB=0):
    y = (a.T if transA else a) @ (b.T if transB else b)
    y = y * alpha if alpha != 1.0 else y
    return y if c is None else y + (c * beta if beta != 1.0 else c)


def _conv(x, w, b=None, strides=None, pads=None, dilations=None, group=1, kernel_shape=None, auto_pad="NOTSET"):
    rank = w.dim() - 2
    conv = {1: F.conv1d, 2: F.conv2d}.get(rank)
    if conv is None or auto_pad not in ("NOTSET", "VALID"):
        raise OnnxImportError(f"Conv of rank {rank} with auto_pad={auto_pad} is not supported")
    return conv(x, w, b, strides or 1, _pads(pads, rank), dilations or 1, group)


def _pool(kind):
    def pool(x, kernel_shape, strides=None, pads=None, ceil_mode=0, count_include_pad=0, dilations=None,
             auto_pad="NOTSET", storage_order=0):
        padding = _pads(pads, len(kernel_shape))
        if kind == "max":
            return F.max_pool2d(x, kernel_shape, strides or kernel_shape, padding, dilations or 1, bool(ceil_mode))
        return F.avg_pool2d(x, kernel_shape, strides or kernel_shape, padding, bool(ceil_mode), bool(count_include_pad))
    return pool


def _reduce(fn):
    def reduce(x, axes=None, keepdims=1, noop_with_empty_axes=0):
        axes = _ints(axes) if axes is not None else list(range(x.dim()))
        return fn(x, dim=axes, keepdim=bool(keepdims))
    return reduce


def _slice(x, starts, ends, axes=None, steps=None):
    starts, ends = _ints(starts), _ints(ends)
    axes = _ints(axes) if axes is not None else list(range(len(starts)))
    steps = _ints(steps) if steps is not None else [1] * len(starts)
    index = [slice(None)] * x.dim()
    for s, e, a, st in zip(starts, ends, axes, steps):
        size = x.shape[a]
        index[a] = slice(max(-size, min(s, size)), max(-size - 1, min(e, size)), st)
    return x[tuple(index)]


def _split(x, split=None, axis=0, num_outputs=None):
    sizes = _ints(split) if split is not None else math.ceil(x.shape[axis] / num_outputs)
    return tuple(torch.split(x, sizes, axis))


def _cast(x, to):
    from onnx import TensorProto

    dtypes = {TensorProto.FLOAT: torch.float32, TensorProto.FLOAT16: torch.float16, TensorProto.BFLOAT16: torch.bfloat16,
              TensorProto.INT64: torch.int64, TensorProto.INT32: torch.int32, TensorProto.BOOL: torch.bool,
              TensorProto.DOUBLE: torch.float64}
    if to not in dtypes:
        raise OnnxImportError(f"Cast to ONNX type {to} is not supported")
    return x.to(dtypes[to])


OPS = {
    "Add": torch.add, "Sub": torch.sub, "Mul": torch.mul, "Div": torch.div, "Pow": torch.pow,
    "MatMul": torch.matmul, "Gemm": _gemm, "Relu": torch.relu, "Sigmoid": torch.sigmoid, "Tanh": torch.tanh,
    "Erf": torch.erf, "Sqrt": torch.sqrt, "Exp": torch.exp, "Log": torch.log, "Neg": torch.neg, "Abs": torch.abs,
    "Reciprocal": torch.reciprocal, "Max": torch.maximum, "Min": torch.minimum,
    "Softmax": lambda x, axis=-1: torch.softmax(x, axis), "LogSoftmax": lambda x, axis=-1: torch.log_softmax(x, axis),
    "Gelu": lambda x, approximate="none": F.gelu(x, approximate=approximate),
    "LeakyRelu": lambda x, alpha=0.01: F.leaky_relu(x, alpha),
    "HardSigmoid": lambda x, alpha=0.2, beta=0.5: torch.clamp(x * alpha + beta, 0, 1),
    "Clip": lambda x, lo=None, hi=None: torch.clamp(x, None if lo is None else float(lo), None if hi is None else float(hi)),
    "Conv": _conv, "MaxPool": _pool("max"), "AveragePool": _pool("avg"),
    "GlobalAveragePool": lambda x: torch.mean(x, dim=tuple(range(2, x.dim())), keepdim=True),
    "BatchNormalization": lambda x, s, b, m, v, epsilon=1e-5, momentum=0.9, training_mode=0:
        F.batch_norm(x, m, v, s, b, False, 0.0, epsilon),
    "LayerNormalization": lambda x, s, b=None, axis=-1, epsilon=1e-5, stash_type=1:
        F.layer_norm(x, x.shape[axis:], s, b, epsilon),
    "Reshape": lambda x, shape, allowzero=0: torch.reshape(
        x, [x.shape[i] if d == 0 and not allowzero else d for i, d in enumerate(_ints(shape))]),
    "Transpose": lambda x, perm=None: x.permute(perm if perm is not None else list(range(x.dim()))[::-1]),
    "Flatten": lambda x, axis=1: torch.reshape(x, (math.prod(x.shape[:axis]), -1)),
    "Concat": lambda *xs, axis: torch.cat(xs, axis),
    "Gather": lambda x, idx, axis=0: torch.index_select(x, axis, idx.reshape(-1)).reshape(
        *x.shape[:axis], *idx.shape, *x.shape[axis + 1:]) if isinstance(idx, torch.Tensor) else x.select(axis, idx),
    "Unsqueeze": lambda x, axes: x.reshape(_unsqueezed(x.shape, _ints(axes))),
    "Squeeze": lambda x, axes=None: x.squeeze(tuple(_ints(axes))) if axes is not None else x.squeeze(),
    "Slice": _slice, "Split": _split, "Cast": _cast,
    "ReduceMean": _reduce(torch.mean), "ReduceSum": _reduce(torch.sum), "ReduceMax": _reduce(torch.amax),
    "ReduceMin": _reduce(torch.amin),
    "ArgMax": lambda x, axis=0, keepdims=1, select_last_index=0: torch.argmax(x, axis, bool(keepdims)),
    "Identity": lambda x: x, "Dropout": lambda x, *_, **__: x,
    "Where": torch.where, "Equal": torch.eq, "Less": torch.lt, "Greater": torch.gt, "Not": torch.logical_not,
    "Expand": lambda x, shape: x.expand(torch.broadcast_shapes(x.shape, tuple(_ints(shape)))),
    "Shape": lambda x, start=0, end=None: torch.tensor(list(x.shape)[start:end]),
}


def _unsqueezed(shape, axes) -> list[int]:
    out = list(shape)
    rank = len(shape) + len(axes)
    for a in sorted(a % rank for a in axes):
        out.insert(a, 1)
    return out


class OnnxModule(torch.nn.Module):
    """An ONNX graph evaluated node by node with torch; its float initializers are parameters."""

    def __init__(self, model):
        super().__init__()
        from onnx import numpy_helper

        graph = model.graph
        self.params = torch.nn.ParameterDict()
        self.consts: dict[str, torch.Tensor] = {}
        self.keys: dict[str, str] = {}
        for init in graph.initializer:
            value = torch.from_numpy(numpy_helper.to_array(init).copy())
            if value.is_floating_point():
                key = f"p{len(self.keys)}"
                self.keys[init.name] = key
                self.params[key] = torch.nn.Parameter(value, requires_grad=False)
            else:
                self.consts[init.name] = value
        known = {i.name for i in graph.initializer}
        self.input_names = [i.name for i in graph.input if i.name not in known]
        self.output_names = [o.name for o in graph.output]
        self.nodes = list(graph.node)
        missing = sorted({n.op_type for n in self.nodes if n.op_type not in OPS and n.op_type != "Constant"})
        if missing:
            raise OnnxImportError(f"ONNX ops with no importer: {', '.join(missing)}")

    def forward(self, *inputs):
        from onnx import helper, numpy_helper

        env: dict[str, object] = dict(self.consts)
        env.update({name: self.params[key] for name, key in self.keys.items()})
        env.update(zip(self.input_names, inputs))
        for node in self.nodes:
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            if node.op_type == "Constant":
                value = attrs.get("value")
                env[node.output[0]] = torch.from_numpy(numpy_helper.to_array(value).copy()) \
                    if value is not None else torch.tensor(next(iter(attrs.values())))
                continue
            attrs = {k: v.decode() if isinstance(v, bytes) else v for k, v in attrs.items()}
            args = [env[i] if i else None for i in node.input]
            while args and args[-1] is None:
                args.pop()
            result = OPS[node.op_type](*args, **attrs)
            for name, value in zip(node.output, result if isinstance(result, tuple) else (result,)):
                env[name] = value
        outputs = tuple(env[o] for o in self.output_names)
        return outputs[0] if len(outputs) == 1 else outputs


def to_torch(model) -> torch.nn.Module:
    """An `onnx.ModelProto` (or a path to one) as a torch module."""
    import onnx

    if not isinstance(model, onnx.ModelProto):
        try:
            model = onnx.load(str(model))
        except Exception as exc:
            raise OnnxImportError(f"{model}: not an ONNX model ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
    return OnnxModule(model)
