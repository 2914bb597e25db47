"""Elementwise ops with tt-metal's signatures: unary (fused parameters, `output_tensor=`), binary (tensor or scalar
operands, broadcasting, fused `activations=`, in-place `op_`), ternary and composite ops, each run by the simulator's
kernels of the TTNN ops they are made of."""

from __future__ import annotations

import torch

from ttmlir.runtime import executor
from ttnn.operations.table import call, placed, to_scalar_tensor
from ttnn.tensor import Tensor
from ttnn.types import UnaryOpType, UnaryWithParam

# tt-metal's unary ops the simulator has a kernel for, by their TTNN op (same name unless given)
UNARY = ("abs", "cbrt", "ceil", "cos", "acos", "floor", "frac", "trunc", "gelu", "isfinite", "logical_not",
         "bitwise_not", "mish", "neg", "tan", "atan", "tanh", "reciprocal", "relu", "relu6", "rsqrt", "sigmoid",
         "softsign", "hardsigmoid", "silu", "sign", "signbit", "sin", "asin", "asinh", "sqrt", "square", "log",
         "log1p", "expm1", "exp", "exp2", "selu", "erf", "erfc")
# tt-metal's binary ops: name -> TTNN op
BINARY = {"add": "add", "subtract": "subtract", "sub": "subtract", "multiply": "multiply", "mul": "multiply",
          "divide": "divide", "div": "divide", "maximum": "maximum", "minimum": "minimum", "remainder": "remainder",
          "atan2": "atan2", "eq": "eq", "ne": "ne", "ge": "ge", "gt": "gt", "le": "le", "lt": "lt",
          "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
          "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor",
          "logical_left_shift": "logical_left_shift", "logical_right_shift": "logical_right_shift"}
# the activations binary ops and matmul fuse: the TTNN unary op each runs
ACTIVATIONS = {UnaryOpType.RECIP: "reciprocal", **{t: t.value for t in UnaryOpType if t.value in UNARY}}
GOLDEN: dict = {}


def _check(callee: str, extra: dict) -> None:
    """Keywords left over after an op's own and `table.placed`'s: tt-metal's `use_legacy` picks between two
    kernel implementations of the same math, of which the simulator has one; anything else is unknown."""
    for key, value in extra.items():
        if key != "use_legacy":
            raise TypeError(f"ttnn.{callee}() got an unexpected keyword argument '{key}'")
        if value is not None:
            raise ValueError(f"ttnn.{callee}(): use_legacy={value!r} is not modelled: the simulated device has one "
                             f"kernel per op")


def activate(tensor: Tensor, activations, callee: str, memory_config=None) -> Tensor:
    """Apply fused activations (UnaryWithParam, UnaryOpType or their names) to an op's result, in order."""
    for act in activations or ():
        if isinstance(act, str):
            act = UnaryWithParam(UnaryOpType(act))
        elif isinstance(act, UnaryOpType):
            act = UnaryWithParam(act)
        if act.op_type == UnaryOpType.LEAKY_RELU:
            tensor = call("leaky_relu", tensor, parameter=float(act.param if act.param is not None else 0.01))
            continue
        op = ACTIVATIONS.get(act.op_type)
        if op is None or act.param is not None:
            raise ValueError(f"ttnn.{callee}(): the fused activation {act} has no kernel on the simulated device")
        tensor = call(op, tensor, memory_config=memory_config)
    return tensor


def store(result: Tensor, output_tensor: Tensor | None, callee: str) -> Tensor:
    """Write an op's result into `output_tensor` (tt-metal's preallocated output), in place; else return it."""
    if output_tensor is None:
        return result
    if tuple(output_tensor.shape) != tuple(result.shape):
        raise RuntimeError(f"ttnn.{callee}(): output_tensor has shape {list(output_tensor.shape)}, the result "
                           f"{list(result.shape)}")
    executor._write_in_place(output_tensor.value, result.value.shards or [result.value.data])
    result.deallocate()
    return output_tensor


def _unary(name: str):
    def op(input_tensor, *, memory_config=None, output_tensor=None, fast_and_approximate_mode: bool = False,
           **extra):
        if fast_and_approximate_mode:
            raise ValueError(f"ttnn.{name}(): fast_and_approximate_mode is not modelled; the simulated kernel is "
                             f"the accurate one")
        compiler = {k: extra.pop(k) for k in ("dtype",) if k in extra}
        _check(name, extra)
        return store(call(name, input_tensor, memory_config=memory_config, **compiler), output_tensor, name)

    op.__name__ = name
    op.__doc__ = f"ttnn.{name}(input_tensor, *, memory_config=None, output_tensor=None)"
    return op


def _operand(value, other: Tensor):
    return value if isinstance(value, Tensor) else to_scalar_tensor(value, other)


def _binary(name: str, ttnn_op: str, in_place: bool = False):
    def op(input_tensor_a, input_tensor_b, *, memory_config=None, dtype=None, output_tensor=None, activations=None,
           input_tensor_a_activations=None, input_tensor_b_activations=None, **extra):
        compiler = {k: extra.pop(k) for k in ("lhs", "rhs") if k in extra}
        _check(name, extra)
        a, b = input_tensor_a, input_tensor_b
        if not isinstance(a, Tensor):
            raise TypeError(f"ttnn.{name}(): input_tensor_a must be a ttnn.Tensor, got {type(a).__name__}")
        a = activate(a, input_tensor_a_activations, name)
        scalar = not isinstance(b, Tensor)
        b = activate(_operand(b, a), input_tensor_b_activations, name)
        if in_place and a.value.on_device:
            memory_config = a.memory_config()
        result = call(ttnn_op, a, b, dtype=dtype, memory_config=memory_config, **compiler)
        if scalar:
            b.deallocate()
        result = activate(result, activations, name, memory_config)
        return store(result, a if in_place else output_tensor, name)

    op.__name__ = name
    op.__doc__ = (f"ttnn.{name}(input_tensor_a, input_tensor_b, *, memory_config=None, dtype=None, "
                  f"output_tensor=None, activations=None): input_tensor_b a tensor (broadcast) or a scalar")
    return op


def _reverse(name: str, ttnn_op: str):
    def op(input_tensor, value, *, memory_config=None, **extra):
        _check(name, extra)
        return call(ttnn_op, _operand(value, input_tensor), input_tensor, memory_config=memory_config)

    op.__name__ = name
    return op


def leaky_relu(input_tensor, negative_slope: float = 0.01, *, memory_config=None, output_tensor=None, **extra):
    _check("leaky_relu", extra)
    return store(call("leaky_relu", input_tensor, parameter=float(negative_slope), memory_config=memory_config),
                 output_tensor, "leaky_relu")


def selu(input_tensor, scale: float = 1.0507009873390197, alpha: float = 1.6732635498046875, *, memory_config=None,
         output_tensor=None, **extra):
    _check("selu", extra)
    return store(call("selu", input_tensor, scale=float(scale), alpha=float(alpha), memory_config=memory_config),
                 output_tensor, "selu")


def clamp(input_tensor, min=None, max=None, *, memory_config=None, output_tensor=None, **extra):  # noqa: A002
    _check("clamp", extra)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        lo = min if min is not None else to_scalar_tensor(-3.0e38, input_tensor)
        hi = max if max is not None else to_scalar_tensor(3.0e38, input_tensor)
        result = call("clamp_tensor", input_tensor, _operand(lo, input_tensor), _operand(hi, input_tensor),
                      memory_config=memory_config)
    else:
        if min is None and max is None:
            raise ValueError("ttnn.clamp(): give min, max or both")
        result = call("clamp_scalar", input_tensor, min=float(min if min is not None else -3.0e38),
                      max=float(max if max is not None else 3.0e38), memory_config=memory_config)
    return store(result, output_tensor, "clamp")


def hardtanh(input_tensor, min_val: float = -1.0, max_val: float = 1.0, *, memory_config=None, **extra):
    _check("hardtanh", extra)
    return call("clamp_scalar", input_tensor, min=float(min_val), max=float(max_val), memory_config=memory_config)


def pow(input_tensor, exponent, *, memory_config=None, output_tensor=None, **extra):  # noqa: A001
    _check("pow", extra)
    if isinstance(exponent, Tensor):
        result = call("pow_tensor", input_tensor, exponent, memory_config=memory_config)
    elif isinstance(input_tensor, Tensor):
        result = call("pow_scalar", input_tensor, rhs=float(exponent), memory_config=memory_config)
    else:  # scalar ** tensor
        result = call("pow_tensor", to_scalar_tensor(input_tensor, exponent), exponent, memory_config=memory_config)
    return store(result, output_tensor, "pow")


def where(condition, true_value, false_value, *, memory_config=None, output_tensor=None, dtype=None, **extra):
    _check("where", extra)
    like = condition
    return store(call("where", condition, _operand(true_value, like), _operand(false_value, like), dtype=dtype,
                      memory_config=memory_config), output_tensor, "where")


def eqz(input_tensor, *, memory_config=None, **extra):
    return BINARY_FUNCTIONS["eq"](input_tensor, 0.0, memory_config=memory_config, **extra)


def nez(input_tensor, *, memory_config=None, **extra):
    return BINARY_FUNCTIONS["ne"](input_tensor, 0.0, memory_config=memory_config, **extra)


def gtz(input_tensor, *, memory_config=None, **extra):
    return BINARY_FUNCTIONS["gt"](input_tensor, 0.0, memory_config=memory_config, **extra)


def ltz(input_tensor, *, memory_config=None, **extra):
    return BINARY_FUNCTIONS["lt"](input_tensor, 0.0, memory_config=memory_config, **extra)


def div_no_nan(input_tensor_a, input_tensor_b, *, memory_config=None, **extra):
    """a / b, 0 where b is 0 (tt-metal's composite: a divide and a where on b == 0)."""
    _check("div_no_nan", extra)
    b = _operand(input_tensor_b, input_tensor_a)
    zero = BINARY_FUNCTIONS["eq"](b, 0.0)
    quotient = call("divide", input_tensor_a, b)
    return where(zero, 0.0, quotient, memory_config=memory_config)


def squared_difference(input_tensor_a, input_tensor_b, *, memory_config=None, **extra):
    _check("squared_difference", extra)
    diff = call("subtract", input_tensor_a, _operand(input_tensor_b, input_tensor_a))
    return call("multiply", diff, diff, memory_config=memory_config)


def lerp(input_tensor, end, weight, *, memory_config=None, **extra):
    """input + weight * (end - input)."""
    _check("lerp", extra)
    diff = call("subtract", _operand(end, input_tensor), input_tensor)
    return call("add", input_tensor, call("multiply", diff, _operand(weight, input_tensor)),
                memory_config=memory_config)


def addcmul(input_tensor, tensor1, tensor2, *, value: float = 1.0, memory_config=None, **extra):
    """input + value * tensor1 * tensor2."""
    _check("addcmul", extra)
    product = call("multiply", call("multiply", tensor1, tensor2), to_scalar_tensor(value, input_tensor))
    return call("add", input_tensor, product, memory_config=memory_config)


def addcdiv(input_tensor, tensor1, tensor2, *, value: float = 1.0, memory_config=None, **extra):
    """input + value * tensor1 / tensor2."""
    _check("addcdiv", extra)
    quotient = call("multiply", call("divide", tensor1, tensor2), to_scalar_tensor(value, input_tensor))
    return call("add", input_tensor, quotient, memory_config=memory_config)


def elu(input_tensor, alpha: float = 1.0, *, memory_config=None, **extra):
    """x where x > 0, else alpha * (exp(x) - 1)."""
    _check("elu", extra)
    negative = call("multiply", call("expm1", input_tensor), to_scalar_tensor(alpha, input_tensor))
    return where(BINARY_FUNCTIONS["gt"](input_tensor, 0.0), input_tensor, negative, memory_config=memory_config)


def softplus(input_tensor, *, beta: float = 1.0, threshold: float = 20.0, memory_config=None, **extra):
    """log(1 + exp(beta * x)) / beta, x itself where beta * x > threshold."""
    _check("softplus", extra)
    scaled = call("multiply", input_tensor, to_scalar_tensor(beta, input_tensor))
    soft = call("multiply", call("log1p", call("exp", scaled)), to_scalar_tensor(1.0 / beta, input_tensor))
    return where(BINARY_FUNCTIONS["gt"](scaled, float(threshold)), input_tensor, soft, memory_config=memory_config)


def hardswish(input_tensor, *, memory_config=None, **extra):
    _check("hardswish", extra)
    return call("multiply", input_tensor, call("hardsigmoid", input_tensor), memory_config=memory_config)


def logical_not_(input_tensor):
    return store(call("logical_not", input_tensor), input_tensor, "logical_not_")


def rsub(input_tensor_a, input_tensor_b, *, memory_config=None, **extra):
    """b - a."""
    return _reverse("rsub", "subtract")(input_tensor_a, input_tensor_b, memory_config=memory_config, **extra)


def rdiv(input_tensor_a, input_tensor_b, *, memory_config=None, **extra):
    """b / a."""
    return _reverse("rdiv", "divide")(input_tensor_a, input_tensor_b, memory_config=memory_config, **extra)


UNARY_FUNCTIONS = {name: _unary(name) for name in UNARY}
BINARY_FUNCTIONS = {name: _binary(name, op) for name, op in BINARY.items()}
BINARY_FUNCTIONS.update({f"{name}_": _binary(f"{name}_", op, in_place=True) for name, op in BINARY.items()})
FUNCTIONS = {**UNARY_FUNCTIONS, **BINARY_FUNCTIONS, **{f.__name__: f for f in (
    leaky_relu, selu, clamp, hardtanh, pow, where, eqz, nez, gtz, ltz, div_no_nan, squared_difference, lerp, addcmul,
    addcdiv, elu, softplus, hardswish, rsub, rdiv)}, "clip": clamp}
FUNCTIONS = {name: placed(function) for name, function in FUNCTIONS.items()}

# goldens: each op's meaning in torch, independent of the simulator's kernels (ttnn.get_golden_function)
_F = torch.nn.functional
GOLDEN.update({name: getattr(torch, name) for name in UNARY if hasattr(torch, name)})
GOLDEN.update({"gelu": _F.gelu, "mish": _F.mish, "relu": torch.relu, "relu6": _F.relu6, "silu": _F.silu,
               "softsign": _F.softsign, "hardsigmoid": _F.hardsigmoid,
               "selu": lambda x, scale=1.0507009873390197, alpha=1.6732635498046875: scale * torch.where(
                   x > 0, x, alpha * torch.expm1(x)),
               "leaky_relu": lambda x, negative_slope=0.01: _F.leaky_relu(x, negative_slope),
               "hardtanh": lambda x, min_val=-1.0, max_val=1.0: _F.hardtanh(x, min_val, max_val),
               "elu": lambda x, alpha=1.0: _F.elu(x, alpha),
               "softplus": lambda x, beta=1.0, threshold=20.0: _F.softplus(x, beta, threshold),
               "hardswish": _F.hardswish, "clamp": torch.clamp, "clip": torch.clamp, "pow": torch.pow,
               "where": torch.where, "lerp": torch.lerp, "addcmul": torch.addcmul, "addcdiv": torch.addcdiv,
               "eqz": lambda x: x == 0, "nez": lambda x: x != 0, "gtz": lambda x: x > 0, "ltz": lambda x: x < 0,
               "div_no_nan": lambda a, b: torch.where(torch.as_tensor(b) == 0, 0.0, a / b),
               "squared_difference": lambda a, b: (a - b) ** 2, "rsub": lambda a, b: b - a,
               "rdiv": lambda a, b: b / a})
_TORCH_BINARY = {"subtract": torch.sub, "sub": torch.sub, "multiply": torch.mul, "mul": torch.mul,
                 "divide": torch.div, "div": torch.div}
GOLDEN.update({name: _TORCH_BINARY.get(name, getattr(torch, name, None)) for name in BINARY
               if _TORCH_BINARY.get(name, getattr(torch, name, None)) is not None})
