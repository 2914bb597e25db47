"""The two operator repositories: the ops `pybuda.op` provides and the torch ops our PyTorch importer lowers. Each
row is (name, what builds it, operand count, call parameters); the tests check every row resolves and, for torch,
that the ATen op it becomes has a lowering."""

from __future__ import annotations

from pybuda.op_repo.datatypes import OperatorDefinition, OperatorParamNumber, OperatorRepository


def _int(name: str, low: int, high: int) -> OperatorParamNumber:
    return OperatorParamNumber(name, int, low, high)


def _float(name: str, low: float, high: float) -> OperatorParamNumber:
    return OperatorParamNumber(name, float, low, high)


# name, pybuda.op callable, operands, forward parameters
_PYBUDA_OPS = [
    ("exp", "Exp", 1, []), ("reciprocal", "Reciprocal", 1, []), ("buffer", "Buffer", 1, []),
    ("sqrt", "Sqrt", 1, []), ("relu", "Relu", 1, []), ("leaky_relu", "LeakyRelu", 1, [_float("alpha", 0, 100)]),
    ("nop", "Identity", 1, []), ("gelu", "Gelu", 1, []), ("log", "Log", 1, []), ("sigmoid", "Sigmoid", 1, []),
    ("sine", "Sine", 1, []), ("cosine", "Cosine", 1, []), ("abs", "Abs", 1, []), ("tanh", "Tanh", 1, []),
    ("add", "Add", 2, []), ("divide", "Divide", 2, []), ("subtract", "Subtract", 2, []),
    ("multiply", "Multiply", 2, []), ("maximum", "Max", 2, []), ("minimum", "Min", 2, []),
    ("power", "Power", 2, []), ("greater", "Greater", 2, []), ("less", "Less", 2, []), ("equal", "Equal", 2, []),
    ("matmul", "Matmul", 2, []), ("where", "Where", 3, []),
    ("concatenate", "Concatenate", (1, 10), [_int("axis", -10, 10)]),
    ("softmax", "Softmax", 1, [_int("dim", -4, 3)]),
    ("transpose", "Transpose", 1, [_int("dim0", -4, 3), _int("dim1", -4, 3)]),
    ("reduce_sum", "ReduceSum", 1, [_int("dim", -4, 3)]), ("reduce_avg", "ReduceAvg", 1, [_int("dim", -4, 3)]),
    ("reduce_max", "ReduceMax", 1, [_int("dim", -4, 3)]),
    ("unsqueeze", "Unsqueeze", 1, [_int("dim", -4, 3)]), ("squeeze", "Squeeze", 1, [_int("dim", -4, 3)]),
    ("hslice", "HSlice", 1, [_int("slices", 1, 16)]), ("hstack", "HStack", 1, [_int("slices", 1, 16)]),
]

# name, torch callable, operands, forward parameters; layers: (name, torch.nn class, operands, constructor params)
_TORCH_FUNCTIONS = [
    ("relu", "relu", 1, []), ("sqrt", "sqrt", 1, []), ("exp", "exp", 1, []), ("log", "log", 1, []),
    ("sigmoid", "sigmoid", 1, []), ("tanh", "tanh", 1, []), ("abs", "abs", 1, []), ("sin", "sin", 1, []),
    ("cos", "cos", 1, []), ("reciprocal", "reciprocal", 1, []), ("neg", "neg", 1, []), ("rsqrt", "rsqrt", 1, []),
    ("add", "add", 2, []), ("sub", "sub", 2, []), ("mul", "mul", 2, []), ("div", "div", 2, []),
    ("maximum", "maximum", 2, []), ("minimum", "minimum", 2, []), ("pow", "pow", 2, []), ("gt", "gt", 2, []),
    ("ge", "ge", 2, []), ("lt", "lt", 2, []), ("le", "le", 2, []), ("eq", "eq", 2, []), ("ne", "ne", 2, []),
    ("where", "where", 3, []), ("matmul", "matmul", 2, []),
    ("softmax", "softmax", 1, [_int("dim", -1, -1)]),
    ("clamp", "clamp", 1, [_float("min", 0, 1), _float("max", 1, 2)]),
]
_TORCH_LAYERS = [
    ("linear", "Linear", 1, [_int("in_features", 10, 50), _int("out_features", 10, 50)]),
    ("relu_layer", "ReLU", 1, []), ("gelu_layer", "GELU", 1, []), ("layer_norm", "LayerNorm", 1,
                                                                    [_int("normalized_shape", 10, 50)]),
]

pybuda_operator_repository = OperatorRepository(
    [OperatorDefinition(name, f"pybuda.op.{op}", operands, forward_params=params)
     for name, op, operands, params in _PYBUDA_OPS])

pytorch_operator_repository = OperatorRepository(
    [OperatorDefinition(name, f"torch.{fn}", operands, forward_params=params)
     for name, fn, operands, params in _TORCH_FUNCTIONS]
    + [OperatorDefinition(name, f"torch.nn.{cls}", operands, instantiate=True, constructor_params=params)
       for name, cls, operands, params in _TORCH_LAYERS])
