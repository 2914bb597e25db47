"""A second CPU executor: runs what `--convert-ttir-to-linalg` writes (TOSA, `linalg`, `tensor`, `arith`, `math`,
`scf`, `func`) with numpy, independently of the torch kernels and goldens the runtime uses.

    from ttmlir.runtime.host_linalg import run_function
    outputs = run_function(module, [x, w])          # numpy arrays in, numpy arrays out

`linalg.generic` runs over its whole iteration space at once: its body's scalar ops apply to numpy arrays of
every parallel point, once per point of the reduction dimensions (in order, so accumulators see each update).
"""

from __future__ import annotations

import itertools

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp
from xdsl.ir import Block, Operation
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr

from ttmlir.runtime.host_linalg.scalar_ops import run_scalar_op
from ttmlir.runtime.host_linalg.tosa_ops import run_tosa_op
from ttmlir.runtime.host_linalg.values import dtype, scalar, store


class HostExecutionError(Exception):
    """An op the host executor cannot run, named with its location."""


def run_function(module: ModuleOp, inputs, name: str | None = None) -> list[np.ndarray]:
    """Run the function `name` (the first public one when None) of `module` on numpy `inputs`."""
    functions = {op.sym_name.data: op for op in module.walk() if op.name == "func.func" and op.body.blocks}
    if name is None:
        public = [f for f in functions.values() if getattr(f, "sym_visibility", None) is None or
                  f.sym_visibility.data == "public"]
        if not public:
            raise HostExecutionError("the module has no public function to run")
        name = public[0].sym_name.data
    if name not in functions:
        raise HostExecutionError(f"no function @{name} in the module")
    return _Interpreter(functions).call(name, [np.asarray(x) for x in inputs])


class _Interpreter:
    def __init__(self, functions):
        self.functions = functions

    def call(self, name: str, args) -> list:
        function = self.functions[name]
        block = function.body.blocks[0]
        if len(args) != len(block.args):
            raise HostExecutionError(f"@{name} takes {len(block.args)} inputs, got {len(args)}")
        env = {arg: store(value, arg.type.element_type) if hasattr(arg.type, "element_type") else value
               for arg, value in zip(block.args, args)}
        return self.run_block(block, env)

    def run_block(self, block: Block, env: dict) -> list:
        """Runs `block`'s ops; returns the terminator's operands."""
        for op in block.ops:
            args = [env[v] for v in op.operands]
            if op.name in ("func.return", "linalg.yield", "scf.yield", "tensor.yield"):
                return args
            try:
                results = self.run_op(op, args, env)
            except HostExecutionError:
                raise
            except Exception as error:  # numpy's complaint, named with the op it came from
                raise HostExecutionError(f"{op.name} at {op.location}: {error}") from None
            for result, value in zip(op.results, results):
                env[result] = value
        return []

    def run_op(self, op: Operation, args, env) -> list:
        name = op.name
        if name.startswith("tosa."):
            return [run_tosa_op(op, args)]
        if (results := run_scalar_op(op, args)) is not None:
            return results
        if name == "func.call":
            return self.call(op.callee.root_reference.data, args)
        if name == "scf.for":
            return self._for(op, args, env)
        if name.startswith("tensor."):
            return [self._tensor(op, args, env)]
        if name == "linalg.generic":
            return self._generic(op, args, env)
        if name == "linalg.index":  # bound by the enclosing loop (`_index_values`)
            return [env[op.results[0]]]
        if name.startswith("linalg."):
            return self._named(op, args, env)
        raise HostExecutionError(f"'{name}' at {op.location} has no host kernel")

    # -- scf / tensor ----------------------------------------------------------------------------------------
    def _for(self, op, args, env) -> list:
        lower, upper, step, *carried = args
        block = op.body.blocks[0]
        for i in range(int(lower), int(upper), int(step)):
            inner = dict(env)
            inner[block.args[0]] = np.int64(i)
            for arg, value in zip(block.args[1:], carried):
                inner[arg] = value
            carried = self.run_block(block, inner)
        return carried

    def _tensor(self, op, args, env):
        name, t = op.name, op.results[0].type
        if name == "tensor.empty":
            return np.zeros(t.get_shape(), dtype(t.element_type))
        if name == "tensor.extract":
            return args[0][tuple(np.asarray(i, np.int64) for i in args[1:])]
        if name == "tensor.pad":
            low = _mixed(op.properties["static_low"], args[1:1 + len(op.low)])
            high = _mixed(op.properties["static_high"], args[1 + len(op.low):])
            block = op.region.blocks[0]
            inner = dict(env)
            for arg in block.args:
                inner[arg] = np.int64(0)
            value = self.run_block(block, inner)[0]  # a constant fill: the value at any position
            return np.pad(args[0], list(zip(low, high)), constant_values=value)
        if name in ("tensor.extract_slice", "tensor.insert_slice"):
            source = args[0]
            rest = args[2:] if name == "tensor.insert_slice" else args[1:]
            n_off, n_size = len(op.offsets), len(op.sizes)
            offsets = _mixed(op.properties["static_offsets"], rest[:n_off])
            sizes = _mixed(op.properties["static_sizes"], rest[n_off:n_off + n_size])
            strides = _mixed(op.properties["static_strides"], rest[n_off + n_size:])
            index = tuple(slice(o, o + (s - 1) * st + 1, st) for o, s, st in zip(offsets, sizes, strides))
            if name == "tensor.extract_slice":
                return np.ascontiguousarray(source[index]).reshape(t.get_shape())
            dest = np.array(args[1], copy=True)
            dest[index] = np.reshape(source, dest[index].shape)
            return dest
        if name in ("tensor.reshape", "tensor.collapse_shape", "tensor.expand_shape", "tensor.cast"):
            return np.reshape(args[0], t.get_shape())
        raise HostExecutionError(f"'{name}' at {op.location} has no host kernel")

    # -- linalg ----------------------------------------------------------------------------------------------
    def _named(self, op, args, env) -> list:
        """A named linalg op runs as the generic op it stands for (its hidden region and indexing maps)."""
        maps = [m.data for m in op.get_indexing_maps().data]
        iterators = [i.data.value if hasattr(i.data, "value") else str(i.data) for i in op.get_iterator_types().data]
        body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        if body is None:
            raise HostExecutionError(f"'{op.name}' at {op.location} has no body to run")
        return self._loop(op, args, maps, iterators, body, env)

    def _generic(self, op, args, env) -> list:
        maps = [m.data for m in op.indexing_maps.data]
        iterators = [str(i.data.value) for i in op.iterator_types.data]
        return self._loop(op, args, maps, iterators, op.body.blocks[0], env)

    def _loop(self, op, args, maps, iterators, body: Block, env) -> list:
        n_in = len(op.inputs)
        inputs, outputs = args[:n_in], [np.array(a, copy=True) for a in args[n_in:]]
        ranges = op.get_static_loop_ranges()
        parallel = [d for d, it in enumerate(iterators) if it == "parallel"]
        reduced = [d for d, it in enumerate(iterators) if it != "parallel"]
        grid = np.indices([ranges[d] for d in parallel], sparse=True) if parallel else []
        for point in itertools.product(*(range(ranges[d]) for d in reduced)):
            index = {d: g for d, g in zip(parallel, grid)}
            index.update({d: np.int64(p) for d, p in zip(reduced, point)})
            reads = [np.asarray(v)[_at(m, index)] if np.ndim(v) else v
                     for v, m in zip([*inputs, *outputs], maps)]
            inner = dict(env)
            for arg, value in zip(body.args, reads):
                inner[arg] = value
            inner.update(_index_values(body, index, ranges))
            yielded = self.run_block(body, inner)
            for k, (out, value) in enumerate(zip(outputs, yielded)):
                at = _at(maps[n_in + k], index)
                out[at] = store(np.broadcast_to(value, out[at].shape), op.results[k].type.element_type)
        return outputs


def _index_values(body: Block, index: dict, ranges) -> dict:
    """The value of each `linalg.index d` in the body: the iteration's coordinate along d (a broadcastable array
    over the parallel points, or one number along a reduction dimension)."""
    values = {}
    for op in body.ops:
        if op.name == "linalg.index":
            values[op.results[0]] = index[op.dim.value.data]
    return values


def _expr(e, index):
    if isinstance(e, AffineDimExpr):
        return index[e.position]
    if isinstance(e, AffineConstantExpr):
        return np.int64(e.value)
    if isinstance(e, AffineBinaryOpExpr):
        a, b = _expr(e.lhs, index), _expr(e.rhs, index)
        return {AffineBinaryOpKind.Add: lambda: a + b, AffineBinaryOpKind.Mul: lambda: a * b,
                AffineBinaryOpKind.Mod: lambda: a % b, AffineBinaryOpKind.FloorDiv: lambda: a // b,
                AffineBinaryOpKind.CeilDiv: lambda: -(-a // b)}[e.kind]()
    raise HostExecutionError(f"affine expression {e} is not supported")


def _at(affine_map, index) -> tuple:
    return tuple(_expr(e, index) for e in affine_map.results)


def _mixed(static, dynamic) -> list[int]:
    """Static values with the dynamic ones (MLIR's marker) taken from the operands, in order."""
    values, it = [], iter(dynamic)
    for v in static.get_values():
        values.append(int(next(it)) if v == DYNAMIC_INDEX else int(v))
    return values


__all__ = ["HostExecutionError", "run_function", "scalar"]
