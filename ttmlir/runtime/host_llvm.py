"""The host's LLVM dialect: the CPU module of a binary, lowered by `--linalg-to-llvm-pipeline` and wrapped by
`--emit-calling-convention-wrappers`, compiled for this machine and called through its `_helper` functions, as
upstream's runtime opens the shared library it compiled from the same module.

The module's `llvm.func`s are written as C (each SSA value a local, each block a label, block arguments assigned
before the jump), compiled with the machine's C compiler (`$CC`, else `cc`) at -O2 into a shared library kept in a
cache directory by the text's hash, and loaded with ctypes. A helper takes an array of WrappedTensors (base,
aligned, offset, sizes-and-strides) and returns one malloc'ed array of them; the runtime copies each output into a
numpy array and frees what the function allocated."""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import weakref
from functools import lru_cache
from pathlib import Path

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (AnyFloat, BFloat16Type, Float16Type, Float32Type, Float64Type, FloatAttr,
                                   IntegerAttr, IntegerType, ModuleOp)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ttmlir.runtime import RuntimeFailure

PREFIX = "ttmlir_"  # the module's functions in C: no name of the module's can clash with libc's


class WrappedTensor(ctypes.Structure):
    _fields_ = [("start", ctypes.c_void_p), ("aligned_start", ctypes.c_void_p), ("start_idx", ctypes.c_int64),
                ("sizes_and_strides", ctypes.POINTER(ctypes.c_int64))]


# ---------------------------------------------------------------------------------------------------------------
# LLVM dialect -> C

C_SCALARS = {Float32Type: "float", Float64Type: "double", Float16Type: "_Float16"}
C_INTS = {1: "_Bool", 8: "int8_t", 16: "int16_t", 32: "int32_t", 64: "int64_t"}
UNSIGNED = {"_Bool": "_Bool", "int8_t": "uint8_t", "int16_t": "uint16_t", "int32_t": "uint32_t",
            "int64_t": "uint64_t"}
C_BINARY = {"llvm.fadd": "+", "llvm.fsub": "-", "llvm.fmul": "*", "llvm.fdiv": "/", "llvm.add": "+",
            "llvm.sub": "-", "llvm.mul": "*", "llvm.sdiv": "/", "llvm.srem": "%", "llvm.and": "&", "llvm.or": "|",
            "llvm.xor": "^", "llvm.shl": "<<", "llvm.ashr": ">>"}
C_UNSIGNED_BINARY = {"llvm.udiv": "/", "llvm.urem": "%", "llvm.lshr": ">>"}
# intrinsic or libm function by op: the C name of its double form (float: with an `f` suffix)
C_MATH = {"llvm.intr.fabs": "fabs", "llvm.intr.ceil": "ceil", "llvm.intr.sqrt": "sqrt", "llvm.intr.floor": "floor",
          "llvm.intr.exp2": "exp2", "llvm.intr.log": "log", "llvm.intr.exp": "exp", "llvm.intr.sin": "sin",
          "llvm.intr.cos": "cos", "llvm.intr.log2": "log2", "llvm.intr.pow": "pow", "llvm.intr.copysign": "copysign",
          "llvm.intr.maxnum": "fmax", "llvm.intr.minnum": "fmin", "llvm.frem": "fmod"}
ICMP = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=", "ult": "<", "ule": "<=",
        "ugt": ">", "uge": ">="}
FCMP = {"oeq": "==", "ogt": ">", "oge": ">=", "olt": "<", "ole": "<=", "one": "!=", "ueq": "==", "ugt": ">",
        "uge": ">=", "ult": "<", "ule": "<=", "une": "!="}
# LLVM's fcmp predicates by number
FCMP_ORDER = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno",
              "true"]
KNOWN_EXTERNAL = {"malloc", "free", "memcpy"}


class _CWriter:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.typedefs: dict[Attribute, str] = {}
        self.lines: list[str] = []

    def ctype(self, t: Attribute) -> str:
        if isinstance(t, llvm.LLVMPointerType):
            return "char*"
        if isinstance(t, IntegerType):
            if t.width.data not in C_INTS:
                raise RuntimeFailure(f"the CPU module uses {t}, which has no C type here")
            return C_INTS[t.width.data]
        if type(t) in C_SCALARS:
            return C_SCALARS[type(t)]
        if isinstance(t, (llvm.LLVMStructType, llvm.LLVMArrayType)):
            if t not in self.typedefs:
                name = self.typedefs[t] = f"agg{len(self.typedefs)}"
                if isinstance(t, llvm.LLVMArrayType):
                    body = f"{self.ctype(t.type)} a[{t.size.data}];"
                else:
                    body = " ".join(f"{self.ctype(m)} f{i};" for i, m in enumerate(t.types.data))
                self.lines.append(f"typedef struct {{ {body} }} {name};")
            return self.typedefs[t]
        if isinstance(t, llvm.LLVMVoidType):
            return "void"
        if isinstance(t, BFloat16Type):
            raise RuntimeFailure("the CPU module computes in bf16, which has no C type here (hoisted functions "
                                 "compute in f32)")
        raise RuntimeFailure(f"the CPU module uses the type {t}, which has no C type here")

    def signature(self, func: llvm.FuncOp, names: list[str] | None) -> str:
        ft = func.function_type
        output = self.ctype(ft.output)
        inputs = [self.ctype(t) for t in ft.inputs.data]
        params = ", ".join(f"{t} {n}" for t, n in zip(inputs, names)) if names is not None else ", ".join(inputs)
        return f"{output} {PREFIX}{func.sym_name.data}({params or 'void'})"

    def write(self) -> str:
        funcs = [op for op in self.module.walk() if isinstance(op, llvm.FuncOp)]
        for func in funcs:
            if not func.body.blocks and func.sym_name.data not in KNOWN_EXTERNAL:
                self.lines.append(f"extern {self.ctype(func.function_type.output)} {func.sym_name.data}("
                                  f"{', '.join(self.ctype(t) for t in func.function_type.inputs.data) or 'void'});")
        defined = [f for f in funcs if f.body.blocks]
        for func in defined:
            self.lines.append(self.signature(func, None) + ";")
        for func in defined:
            _FunctionWriter(self, func).write()
        head = ["#include <stddef.h>", "#include <stdint.h>", "#include <stdlib.h>", "#include <string.h>", "#include <math.h>"]
        return "\n".join(head + self.lines) + "\n"


class _FunctionWriter:
    def __init__(self, out: _CWriter, func: llvm.FuncOp):
        self.out, self.func = out, func
        self.names: dict[SSAValue, str] = {}
        self.labels = {block: f"bb{i}" for i, block in enumerate(func.body.blocks)}
        self.body: list[str] = []
        self.decls: list[str] = []

    def name(self, value: SSAValue) -> str:
        return self.names[value]

    def define(self, value: SSAValue) -> str:
        name = self.names[value] = f"v{len(self.names)}"
        self.decls.append(f"  {self.out.ctype(value.type)} {name};")
        return name

    def emit(self, text: str) -> None:
        self.body.append(f"  {text}")

    def write(self) -> None:
        entry = self.func.body.blocks[0]
        params = [f"a{i}" for i in range(len(entry.args))]
        for arg, name in zip(entry.args, params):
            self.names[arg] = name
        for block in list(self.func.body.blocks)[1:]:
            for arg in block.args:
                self.define(arg)
        for block in self.func.body.blocks:
            self.body.append(f" {self.labels[block]}:;")
            for op in block.ops:
                self.op(op)
        self.out.lines += [self.out.signature(self.func, params) + " {", *self.decls, *self.body, "}"]

    def jump(self, block: Block, args) -> str:
        """Assign the successor's arguments, all read before any is written (a parallel move), and jump."""
        pairs = list(zip(block.args, args))
        reads = "".join(f"{self.out.ctype(a.type)} t{i} = {self.name(v)}; " for i, (a, v) in enumerate(pairs))
        writes = "".join(f"{self.name(a)} = t{i}; " for i, (a, _) in enumerate(pairs))
        return f"{{ {reads}{writes}goto {self.labels[block]}; }}"

    def math(self, op: Operation, fn: str, args: list[str]) -> str:
        t = op.results[0].type
        return f"{fn}{'f' if isinstance(t, Float32Type) else ''}({', '.join(args)})"

    def op(self, op: Operation) -> None:
        name = op.name
        args = [self.name(v) for v in op.operands]
        result = op.results[0] if op.results else None
        if name in C_BINARY:
            expr = f"{args[0]} {C_BINARY[name]} {args[1]}"
        elif name in C_UNSIGNED_BINARY:
            u = UNSIGNED[self.out.ctype(op.operands[0].type)]
            expr = f"({u}){args[0]} {C_UNSIGNED_BINARY[name]} ({u}){args[1]}"
        elif name in C_MATH:
            expr = self.math(op, C_MATH[name], args)
        elif name in ("llvm.intr.maximum", "llvm.intr.minimum"):
            compare = ">" if name.endswith("maximum") else "<"
            expr = (f"({args[0]} != {args[0]} || {args[1]} != {args[1]}) ? {args[0]} + {args[1]} : "
                    f"({args[0]} {compare} {args[1]} ? {args[0]} : {args[1]})")
        elif name == "llvm.fneg":
            expr = f"-{args[0]}"
        elif name == "llvm.mlir.constant":
            expr = self.constant(op.value, result.type)
        elif name in ("llvm.mlir.undef", "llvm.mlir.zero"):
            self.emit(f"memset(&{self.define(result)}, 0, sizeof({self.name(result)}));")
            return
        elif name == "llvm.icmp":
            predicate = op.predicate.value.data
            key = list(ICMP)[predicate]
            t = self.out.ctype(op.operands[0].type)
            cast = f"({UNSIGNED.get(t, t)})" if key.startswith("u") else ""
            expr = f"{cast}{args[0]} {ICMP[key]} {cast}{args[1]}"
        elif name == "llvm.fcmp":
            expr = self.fcmp(FCMP_ORDER[op.predicate.value.data], args)
        elif name == "llvm.select":
            expr = f"{args[0]} ? {args[1]} : {args[2]}"
        elif name in ("llvm.sitofp", "llvm.fpext", "llvm.fptrunc", "llvm.sext", "llvm.trunc", "llvm.fptosi"):
            expr = f"({self.out.ctype(result.type)}){args[0]}"
        elif name in ("llvm.zext", "llvm.uitofp"):
            t = self.out.ctype(op.operands[0].type)
            expr = f"({self.out.ctype(result.type)})({UNSIGNED.get(t, t)}){args[0]}"
        elif name == "llvm.fptoui":
            t = self.out.ctype(result.type)
            expr = f"({t})({UNSIGNED.get(t, t)}){args[0]}"
        elif name == "llvm.bitcast":
            self.emit(f"memcpy(&{self.define(result)}, &{args[0]}, sizeof({args[0]}));")
            return
        elif name == "llvm.getelementptr":
            expr = self.gep(op, args)
        elif name == "llvm.load":
            expr = f"*({self.out.ctype(result.type)}*){args[0]}"
        elif name == "llvm.store":
            self.emit(f"*({self.out.ctype(op.operands[0].type)}*){args[1]} = {args[0]};")
            return
        elif name == "llvm.extractvalue":
            expr = f"{args[0]}{self.path(op.operands[0].type, op.position.get_values())}"
        elif name == "llvm.insertvalue":
            target = self.define(result)
            self.emit(f"{target} = {args[0]};")
            self.emit(f"{target}{self.path(op.operands[0].type, op.position.get_values())} = {args[1]};")
            return
        elif name == "llvm.call":
            callee = op.callee.root_reference.data if hasattr(op.callee, "root_reference") else op.callee.data
            defined = any(isinstance(f, llvm.FuncOp) and f.sym_name.data == callee and f.body.blocks
                          for f in self.out.module.ops)
            call = f"{PREFIX if defined else ''}{callee}({', '.join(args)})"
            if callee == "memcpy" or not op.results:
                self.emit(f"{call};")
                return
            expr = call if callee != "malloc" else f"(char*){call}"
        elif name == "llvm.br":
            self.emit(self.jump(op.successors[0], op.operands))
            return
        elif name == "llvm.cond_br":
            then_args, else_args = op.then_arguments, op.else_arguments
            self.emit(f"if ({args[0]}) {self.jump(op.successors[0], then_args)} "
                      f"else {self.jump(op.successors[1], else_args)}")
            return
        elif name == "llvm.return":
            self.emit(f"return {args[0]};" if args else "return;")
            return
        elif name == "llvm.unreachable":
            self.emit("abort();")
            return
        else:
            raise RuntimeFailure(f"'{name}' in a CPU function has no C form here")
        self.emit(f"{self.define(result)} = {expr};")

    def constant(self, value: Attribute, t: Attribute) -> str:
        if isinstance(value, FloatAttr):
            v = value.value.data
            suffix = "f" if isinstance(t, Float32Type) else ""
            if v != v:
                return "NAN"
            if v in (float("inf"), float("-inf")):
                return "INFINITY" if v > 0 else "-INFINITY"
            return f"{v.hex()}{suffix}" if isinstance(t, AnyFloat) else repr(v)
        if isinstance(value, IntegerAttr):
            v = value.value.data
            if isinstance(t, IntegerType) and t.width.data == 64:
                return f"INT64_C({v})"
            return str(v)
        raise RuntimeFailure(f"the constant {value} has no C form here")

    def fcmp(self, key: str, args: list[str]) -> str:
        a, b = args
        unordered = f"({a} != {a} || {b} != {b})"
        if key == "ord":
            return f"!{unordered}"
        if key == "uno":
            return unordered
        if key in ("true", "false"):
            return str(int(key == "true"))
        relation = f"({a} {FCMP[key]} {b})"
        if key == "one":
            return f"(!{unordered} && {relation})"
        return f"({unordered} || {relation})" if key.startswith("u") else relation

    def path(self, t: Attribute, position) -> str:
        out = ""
        for index in position:
            if isinstance(t, llvm.LLVMStructType):
                out, t = out + f".f{index}", t.types.data[index]
            else:
                out, t = out + f".a[{index}]", t.type
        return out

    def gep(self, op: Operation, args: list[str]) -> str:
        from xdsl.dialects.llvm import GEP_USE_SSA_VAL
        dynamic = iter(args[1:])
        indices = [next(dynamic) if i == GEP_USE_SSA_VAL else str(i) for i in op.rawConstantIndices.get_values()]
        t = op.elem_type
        expr = f"{args[0]} + (int64_t)({indices[0]}) * (int64_t)sizeof({self.out.ctype(t)})"
        for index in indices[1:]:
            if isinstance(t, llvm.LLVMStructType):
                expr += f" + offsetof({self.out.ctype(t)}, f{index})"
                t = t.types.data[int(index)]
            else:
                t = t.type
                expr += f" + (int64_t)({index}) * (int64_t)sizeof({self.out.ctype(t)})"
        return expr


def c_source(module: ModuleOp) -> str:
    """The module's functions as C (defined ones named with PREFIX)."""
    return _CWriter(module).write()


# ---------------------------------------------------------------------------------------------------------------
# compile and load

def _compiler() -> str:
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not compiler:
        raise RuntimeFailure("running a CPU-hoisted function needs a C compiler (set CC, or install cc)")
    return compiler


def _cache_dir() -> Path:
    path = Path(os.environ.get("TTMLIR_CPU_CACHE") or Path(tempfile.gettempdir()) / f"ttmlir-cpu-{os.getuid()}")
    path.mkdir(parents=True, exist_ok=True)
    return path


@lru_cache(maxsize=256)
def _library(text: str) -> tuple[ctypes.CDLL, dict[str, tuple[int, ...]]]:
    """The module compiled and loaded, and the result ranks of each function with a helper (by the helper's
    name)."""
    from ttmlir.asm import parse_text
    from ttmlir.dialects import make_context
    from xdsl.utils.exceptions import ParseError

    try:
        module, _ = parse_text(make_context(), text, "<cpu module>")
    except ParseError as exc:
        raise RuntimeFailure(f"the CPU module of the binary does not parse: {str(exc).splitlines()[0]}") from None
    source = c_source(module)
    ranks = {f"{op.sym_name.data}_helper": tuple(a.value.data for a in op.attributes["result_ranks"].data)
             for op in module.walk() if isinstance(op, llvm.FuncOp) and "result_ranks" in op.attributes}
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    library = _cache_dir() / f"{digest}.so"
    if not library.exists():
        # each process writes its own source and library, then moves the library in place (atomically)
        c_file = library.with_suffix(f".{os.getpid()}.c")
        c_file.write_text(source)
        partial = library.with_suffix(f".{os.getpid()}.so")
        done = subprocess.run([_compiler(), "-O2", "-shared", "-fPIC", "-fno-strict-aliasing", "-o", str(partial),
                               str(c_file), "-lm"], capture_output=True, text=True)
        if done.returncode:
            raise RuntimeFailure(f"the CPU module does not compile: {done.stderr.strip().splitlines()[:3]}")
        os.replace(partial, library)
        c_file.unlink()
    return ctypes.CDLL(str(library)), ranks


_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]


def run_helper(module_text: str, helper: str, inputs: list[np.ndarray], out_dtypes: list[np.dtype]
               ) -> list[np.ndarray]:
    """Call `helper` (a `_helper` function of the module) on `inputs`: one numpy array per output, of `out_dtypes`."""
    library, result_ranks = _library(module_text)
    function = getattr(library, PREFIX + helper, None)
    if function is None or helper not in result_ranks:
        raise RuntimeFailure(f"the CPU module has no function @{helper}")
    function.restype = ctypes.POINTER(WrappedTensor)
    function.argtypes = [ctypes.POINTER(WrappedTensor)]
    arrays = [np.ascontiguousarray(a) for a in inputs]
    layouts = []
    packed = (WrappedTensor * max(1, len(arrays)))()
    for i, a in enumerate(arrays):
        strides = [s // a.itemsize for s in a.strides] if a.ndim else []
        layout = (ctypes.c_int64 * max(1, 2 * a.ndim))(*a.shape, *strides)
        layouts.append(layout)
        pointer = a.ctypes.data
        packed[i] = WrappedTensor(pointer, pointer, 0, ctypes.cast(layout, ctypes.POINTER(ctypes.c_int64)))
    outputs = function(packed)
    inputs_at = {a.ctypes.data for a in arrays}
    results = [_output(outputs[i], np.dtype(dtype), result_ranks[helper][i], inputs_at)
               for i, dtype in enumerate(out_dtypes)]
    if out_dtypes:
        _libc.free(ctypes.cast(outputs[0].sizes_and_strides, ctypes.c_void_p))
        _libc.free(ctypes.cast(outputs, ctypes.c_void_p))
    return results


def _output(wrapped: WrappedTensor, dtype: np.dtype, rank: int, inputs_at: set[int]) -> np.ndarray:
    """One returned tensor as a numpy array. A fresh contiguous buffer the function allocated is used in place
    (freed with the array: a hoisted weight can be gigabytes); anything else is copied."""
    sizes = [wrapped.sizes_and_strides[k] for k in range(rank)]
    strides = [wrapped.sizes_and_strides[rank + k] for k in range(rank)]
    count = 1
    for s in sizes:
        count *= s
    if not count:
        return np.zeros(sizes, dtype)
    start = wrapped.aligned_start + wrapped.start_idx * dtype.itemsize
    raw = np.ctypeslib.as_array((ctypes.c_byte * (dtype.itemsize * _extent(sizes, strides))).from_address(start))
    view = np.lib.stride_tricks.as_strided(raw.view(dtype), shape=sizes, strides=[s * dtype.itemsize for s in strides])
    owned = wrapped.start not in inputs_at and wrapped.start == wrapped.aligned_start and not wrapped.start_idx
    if owned and list(strides) == [int(np.prod(sizes[k + 1:])) for k in range(rank)]:
        array = raw.view(dtype).reshape(sizes)
        weakref.finalize(raw, _libc.free, wrapped.start)
        return array
    copied = np.array(view, copy=True)
    if wrapped.start not in inputs_at:
        _libc.free(wrapped.start)
    return copied


def _extent(sizes: list[int], strides: list[int]) -> int:
    return 1 + sum((s - 1) * st for s, st in zip(sizes, strides))


# the numpy type of a tensor the CPU code reads or writes, by the binary's data type (bf16 has none: hoisted
# functions compute in f32)
NUMPY_DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "si32": np.int32, "u32": np.uint32,
                "u16": np.uint16, "u8": np.uint8, "bool": np.bool_}


def run_on_tensors(module_text: str, helper: str, inputs, in_dtypes: list[str], out_dtypes: list[str]):
    """`run_helper` on the runtime's torch tensors: each converted to the element type the binary gives it, the
    results back as torch tensors."""
    import torch

    def numpy_type(dtype: str) -> np.dtype:
        if dtype not in NUMPY_DTYPES:
            raise RuntimeFailure(f"a CPU function's tensor of {dtype} has no host buffer type here")
        return np.dtype(NUMPY_DTYPES[dtype])

    arrays = [(x.float() if x.dtype == torch.bfloat16 else x).detach().cpu().numpy().astype(numpy_type(d), copy=False)
              for x, d in zip(inputs, in_dtypes)]
    results = run_helper(module_text, helper, arrays, [numpy_type(d) for d in out_dtypes])
    return [torch.from_numpy(r.astype(np.int64) if r.dtype.kind == "u" else r) for r in results]
