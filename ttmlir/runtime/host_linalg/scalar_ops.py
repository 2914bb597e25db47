"""`arith` and `math` ops on numpy values: scalars, or whole arrays when a `linalg.generic` body runs over its
iteration space at once. Tables: op name -> numpy function of the operands (and the op, for its attributes)."""

from __future__ import annotations

import math

import numpy as np

from ttmlir.runtime.host_linalg.values import scalar, store

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _unsigned(x):
    a = np.asarray(x)
    return a.astype(f"u{a.dtype}") if a.dtype.kind == "i" else a


def _floor_div(a, b):
    return np.floor_divide(a, b)


def _trunc_div(a, b):
    return np.trunc(np.true_divide(a, b)).astype(np.asarray(a).dtype)


def _trunc_rem(a, b):
    return np.fmod(a, b)


CMPF = {"oeq": np.equal, "ogt": np.greater, "oge": np.greater_equal, "olt": np.less, "ole": np.less_equal,
        "one": lambda a, b: (a != b) & ~np.isnan(a) & ~np.isnan(b), "ord": lambda a, b: ~np.isnan(a) & ~np.isnan(b),
        "ueq": lambda a, b: (a == b) | np.isnan(a) | np.isnan(b), "ugt": lambda a, b: ~(a <= b),
        "uge": lambda a, b: ~(a < b), "ult": lambda a, b: ~(a >= b), "ule": lambda a, b: ~(a > b),
        "une": np.not_equal, "uno": lambda a, b: np.isnan(a) | np.isnan(b),
        "false": lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
        "true": lambda a, b: np.ones(np.broadcast(a, b).shape, bool)}
CMPI = {"eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal, "sgt": np.greater,
        "sge": np.greater_equal, "ult": lambda a, b: _unsigned(a) < _unsigned(b),
        "ule": lambda a, b: _unsigned(a) <= _unsigned(b), "ugt": lambda a, b: _unsigned(a) > _unsigned(b),
        "uge": lambda a, b: _unsigned(a) >= _unsigned(b)}
# the predicate enum's order in MLIR (arith.cmpf/cmpi store it as an integer)
CMPF_ORDER = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une",
              "uno", "true"]
CMPI_ORDER = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]

BINARY = {
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply, "arith.divf": np.true_divide,
    "arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply, "arith.divsi": _trunc_div,
    "arith.divui": lambda a, b: _unsigned(a) // _unsigned(b), "arith.floordivsi": _floor_div,
    "arith.remsi": _trunc_rem, "arith.remui": lambda a, b: _unsigned(a) % _unsigned(b), "arith.remf": np.fmod,
    "arith.maximumf": np.maximum, "arith.minimumf": np.minimum, "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
    "arith.maxsi": np.maximum, "arith.minsi": np.minimum, "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or,
    "arith.xori": np.bitwise_xor, "arith.shli": np.left_shift, "arith.shrsi": np.right_shift,
    "arith.shrui": lambda a, b: _unsigned(a) >> _unsigned(b),
    "math.atan2": np.arctan2, "math.powf": np.power, "math.copysign": np.copysign,
}
UNARY = {
    "arith.negf": np.negative, "math.absf": np.abs, "math.absi": np.abs, "math.acos": np.arccos,
    "math.acosh": np.arccosh, "math.asin": np.arcsin, "math.asinh": np.arcsinh, "math.atan": np.arctan,
    "math.atanh": np.arctanh, "math.cbrt": np.cbrt, "math.ceil": np.ceil, "math.cos": np.cos, "math.cosh": np.cosh,
    "math.erf": lambda x: _erf(x).astype(np.asarray(x).dtype),
    "math.erfc": lambda x: (1 - _erf(x)).astype(np.asarray(x).dtype), "math.exp": np.exp, "math.exp2": np.exp2,
    "math.expm1": np.expm1, "math.floor": np.floor, "math.log": np.log, "math.log10": np.log10,
    "math.log1p": np.log1p, "math.log2": np.log2, "math.roundeven": np.rint, "math.round": lambda x: np.trunc(
        x + np.copysign(0.5, x)), "math.rsqrt": lambda x: 1 / np.sqrt(x), "math.sin": np.sin, "math.sinh": np.sinh,
    "math.sqrt": np.sqrt, "math.tan": np.tan, "math.tanh": np.tanh, "math.trunc": np.trunc,
}
CASTS = {"arith.index_cast", "arith.sitofp", "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf",
         "arith.extsi", "arith.trunci", "arith.bitcast"}


def _predicate(op, names):
    value = op.properties["predicate"].value.data
    return names[value]


def run_scalar_op(op, args):
    """The op's results, or None when this module does not compute it."""
    name = op.name
    result_t = op.results[0].type if op.results else None
    element = getattr(result_t, "element_type", result_t)
    if name == "arith.constant":
        return [scalar(op.properties["value"])]
    if name in BINARY:
        with np.errstate(all="ignore"):
            return [store(BINARY[name](*args), element)]
    if name in UNARY:
        with np.errstate(all="ignore"):
            return [store(UNARY[name](args[0]), element)]
    if name == "arith.cmpf":
        with np.errstate(invalid="ignore"):
            return [CMPF[_predicate(op, CMPF_ORDER)](*args)]
    if name == "arith.cmpi":
        return [CMPI[_predicate(op, CMPI_ORDER)](*args)]
    if name == "arith.select":
        return [np.where(args[0], args[1], args[2])]
    if name == "arith.uitofp":
        return [store(_unsigned(args[0]).astype(np.float64), element)]
    if name == "arith.extui":
        return [store(_unsigned(args[0]), element)]
    if name in CASTS:
        value = np.asarray(args[0])
        if name in ("arith.fptosi", "arith.fptoui"):
            value = np.trunc(value)
        return [store(value, element)]
    return None
