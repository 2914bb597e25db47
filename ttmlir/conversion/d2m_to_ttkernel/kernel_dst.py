"""Tile compute through the DST register in a compute kernel function, as upstream lowers it.

`d2m.acquire_dst` acquires the tile registers (DST itself is implicit in tt-metal). A tile is named by its index:
a load from a CB block or from DST is the tile's linear index there. A store into DST of a tile loaded from a CB is
a `copy_tile` (source A set to the CB's format); a store into DST of an op's result names the slot the op writes
(the op's call takes it, the store goes); a store from DST into a CB block packs (see `KernelFunction.store`).
An SFPU op is its init and its call on DST indices; an FPU binary op (add, sub, mul) of two CB tiles reads them
from the CBs (`add_tiles`), and is an SFPU op when both operands are in DST. The engines are started once per
kernel (`init_sfpu`, `compute_kernel_hw_startup` on the first input and output CBs), after the CBs are read.

These lowerings run before the kernel's other ops (`FIRST`), while each tile still shows where it was loaded from.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerAttr, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import (FORMAT_TOLD, INT_BINARY, SCALAR_RHS, SFPU_PARAMETRIZED,
                                                              SFPU_REDUCE, SfpuCall)
from ttmlir.dialects import ttcore, ttkernel
from ttmlir.dialects.d2m_dst import is_dst_memref
from ttmlir.errors import PassFailure

# d2m tile op -> (init, call) of the SFPU; binary ones take (lhs, rhs, result) DST indices
SFPU_UNARY = {**{f"tile_{op}": (f"{op}_tile_init", f"{op}_tile")
                 for op in ("exp", "log", "sqrt", "rsqrt", "abs", "relu", "sigmoid", "tanh", "sin", "cos", "tan",
                            "sign", "gelu", "erf", "atan", "asin", "acos", "expm1", "log1p", "logical_not", "exp2",
                            "square", "eqz", "nez", "gtz", "gez", "ltz", "lez", "recip", "negative", "silu", "erfc",
                            "softsign", "hardsigmoid", "signbit", "bitwise_not")},
              **{f"tile_{op}": ("rounding_op_tile_init", f"{op}_tile") for op in ("ceil", "floor", "frac", "trunc")}}
SFPU_BINARY = {f"tile_{op}": (f"{call}_init", call) for op, call in (
    ("add", "add_binary_tile"), ("sub", "sub_binary_tile"), ("mul", "mul_binary_tile"), ("div", "div_binary_tile"),
    ("maximum", "binary_max_tile"), ("minimum", "binary_min_tile"), ("pow", "power_binary_tile"),
    ("eq", "eq_binary_tile"), ("ne", "ne_binary_tile"), ("gt", "gt_binary_tile"), ("lt", "lt_binary_tile"),
    ("ge", "ge_binary_tile"), ("le", "le_binary_tile"), ("atan2", "atan2_binary_tile"))}
# integer tiles' bitwise ops and shifts: (init, call), the call told the tiles' format
SFPU_BINARY |= {f"tile_{op}": (init, call) for op, init, call in (
    ("bitwise_and", "binary_bitwise_tile_init", "bitwise_and_binary_tile"),
    ("bitwise_or", "binary_bitwise_tile_init", "bitwise_or_binary_tile"),
    ("bitwise_xor", "binary_bitwise_tile_init", "bitwise_xor_binary_tile"),
    ("logical_left_shift", "binary_shift_tile_init", "binary_left_shift_tile"),
    ("logical_right_shift", "binary_shift_tile_init", "binary_logical_right_shift_tile"),
    ("right_shift", "binary_shift_tile_init", "binary_right_shift_tile"))}
FPU_BINARY = {"tile_add": "add_tiles", "tile_sub": "sub_tiles", "tile_mul": "mul_tiles"}
# the entry points of integer (si32) tiles, as upstream's int32 op map: (init, call); binary ones on DST indices, add,
# sub and mul (and mul's init) told the tiles' format
TILE_OP_OF = {"subtract": "sub", "multiply": "mul"}  # a TTIR family's d2m tile op, where the names differ
INT_VARIANTS = {**{f"tile_{op}": (f"{op}_tile_init", f"{op}_tile_int32")
                   for op in ("abs", "negative", "relu", "eqz", "nez", "gtz", "gez", "ltz", "lez")},
                **{f"tile_{TILE_OP_OF.get(family, family)}": calls for family, calls in INT_BINARY.items()}}
SFPU_REDUCE_DIMS = {"R": ("reduce_dim_row",), "C": ("reduce_dim_col",), "RC": ("reduce_dim_col", "reduce_dim_row")}
# FPU tile reductions of a CB tile by a scaler CB tile into a DST accumulator: (pool, reduce dim of each d2m dim)
FPU_REDUCE = {"tile_reduce_sum": "reduce_sum", "tile_reduce_max": "reduce_max", "tile_reduce_mean": "reduce_avg"}
FPU_REDUCE_DIMS = {"R": "reduce_dim_row", "C": "reduce_dim_col", "RC": "reduce_dim_scalar"}
# the views and acquires a CB block goes through back to its CB (d2m.get_cb)
CB_VIEWS = ("memref.collapse_shape", "memref.cast", "memref.subview", "d2m.wait", "d2m.reserve")


def _call(mnemonic: str, *operands: SSAValue, **properties) -> Operation:
    return ttkernel.OP_CLASSES[mnemonic].create(operands=list(operands), properties=properties)


def _acquire_of(op: Operation) -> Operation | None:
    """The `d2m.acquire_dst` of the DST `op` computes in: the last one before it in its block or an enclosing one."""
    while op.parent_block() is not None:
        block = op.parent_block()
        prior = op.prev_op
        while prior is not None and prior.name != "d2m.acquire_dst":
            prior = prior.prev_op
        if prior is not None:
            return prior
        op = block.parent_op()
        if op is None:
            return None
    return None


def _loaded(value: SSAValue) -> memref.LoadOp | None:
    """The load `value` is (through a dst_reinterpret_cast), if it is a loaded tile."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "d2m.dst_reinterpret_cast":
        owner = owner.operands[0].owner
    return owner if isinstance(owner, memref.LoadOp) else None


def _from_dst(value: SSAValue) -> bool:
    load = _loaded(value)
    return load is not None and is_dst_memref(load.memref.type)


def _cb_root(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, Operation) and value.owner.name in CB_VIEWS:
        value = value.owner.operands[0]
    return value


def _first_cb(func: Operation, load: bool) -> SSAValue | None:
    """The CB the kernel's first L1 tile load reads (store writes), as upstream picks the engines' CBs."""
    kind = memref.LoadOp if load else memref.StoreOp
    for op in func.walk():
        if isinstance(op, kind) and not is_dst_memref(op.memref.type):
            return _cb_root(op.memref)
    return None


def _after_definitions(values: list[SSAValue], fallback: Operation) -> tuple[Block, Operation | None]:
    """Where an engine start goes: after the last of the CBs' definitions (hoisted to their block)."""
    owners = [v.owner for v in values if isinstance(v.owner, Operation)]
    if not owners:
        return fallback.parent_block(), fallback
    last = max(owners, key=lambda o: o.parent_block().get_operation_index(o)
               if o.parent_block() is owners[0].parent_block() else -1)
    return last.parent_block(), last.next_op


def _dst_store(value: SSAValue) -> memref.StoreOp | None:
    """The store of `value` (or of a reinterpretation of it) into DST."""
    for use in list(value.uses):
        user = use.operation
        if isinstance(user, memref.StoreOp) and is_dst_memref(user.memref.type):
            return user
        if user.name == "d2m.dst_reinterpret_cast" and (store := _dst_store(user.results[0])) is not None:
            return store
    return None


def _same_slot(a: SSAValue, b: SSAValue) -> bool:
    """Whether two DST indices are one slot: one value, or equal constants."""
    if a is b:
        return True
    owners = (a.owner, b.owner)
    return all(isinstance(o, arith.ConstantOp) for o in owners) and owners[0].value == owners[1].value


def _tile(value: SSAValue) -> ttcore.TileType:
    return value.type


def _cb_of(op: Operation, tile: SSAValue, verb: str) -> SSAValue:
    """The CB `tile` (an operand of `op`) was loaded from; `op` refused (it `verb` a tile loaded from a CB) when
    the tile is not one."""
    load = _loaded(tile)
    if load is None or _from_dst(tile):
        raise PassFailure(op, f"'{op.name}' {verb} a tile loaded from a CB")
    return _cb_root(load.memref)


class DstLowering:
    """The DST-side lowerings of one kernel function (`kernel`, a KernelFunction)."""

    def __init__(self, kernel):
        self.kernel, self.func = kernel, kernel.func
        self.rewriter = kernel.rewriter
        self.kernel_slots: dict[SSAValue, int] = {}  # CB tiles of integer ops copied into DST: their slots

    def start_engines(self, op: Operation, call: str, in_cb: SSAValue | None) -> Operation:
        """The engine start, placed after the CBs' definitions (returned: what must follow it goes after it)."""
        out_cb = _first_cb(self.func, load=False)
        in_cb = in_cb if in_cb is not None else _first_cb(self.func, load=True)
        if in_cb is None or out_cb is None:
            raise PassFailure(op, f"'{op.name}' needs the kernel to read a CB and write one (to start its engines)")
        block, before = _after_definitions([in_cb, out_cb], op)
        start = _call(call, in_cb, out_cb)
        self.rewriter.insert_op(start, _insert_point(block, before))
        return start

    def dst_index(self, op: Operation) -> tuple[SSAValue, memref.StoreOp]:
        store = _dst_store(op.results[0])
        if store is None or len(store.indices) != 1:
            raise PassFailure(op, f"'{op.name}' result must be stored to one DST slot (a linearized DST index)")
        return store.indices[0], store

    def place_after(self, op: Operation, value: SSAValue) -> Operation | None:
        """The op to insert a call before: `op`, or past `value`'s definition when it comes later in op's block."""
        owner = value.owner
        block = op.parent_block()
        if isinstance(owner, Operation) and owner.parent_block() is block and \
                block.get_operation_index(owner) > block.get_operation_index(op):
            return owner.next_op
        return op

    def compute(self, op: Operation) -> None:
        name = op.name[len("d2m."):]
        if name == "tile_fill":
            return self.fill(op)
        if name in FPU_REDUCE:
            return self.fpu_reduce(op, FPU_REDUCE[name])
        if name == "tile_transpose":
            return self.transpose(op)
        tiles = [v for v in op.operands if isinstance(v.type, ttcore.TileType)]
        if len(tiles) != len(op.operands):
            if name not in SCALAR_RHS or len(tiles) != 1 or op.operands[0] is not tiles[0]:
                raise PassFailure(op, f"'{op.name}' with a scalar operand is not lowered in kernel functions yet")
            return self.scalar_rhs(op, tiles[0])
        if name in INT_VARIANTS and not tiles[0].type.dtype.startswith(("f", "bf")):
            return self.integer(op, tiles, *INT_VARIANTS[name])
        if name in FPU_BINARY and not any(_from_dst(v) for v in tiles):
            return self.fpu_binary(op, FPU_BINARY[name])
        if name in FPU_BINARY and not all(_from_dst(v) for v in tiles):
            return self.dest_reuse(op, name[len("tile_"):])
        if name == "tile_bcast":
            return self.bcast(op)
        if name in SFPU_REDUCE:
            return self.sfpu_reduce(op, SFPU_REDUCE[name])
        if name == "tile_matmul":
            return self.matmul(op)
        if name == "tile_typecast":
            return self.typecast(op)
        if name in SFPU_UNARY or name in SFPU_PARAMETRIZED:  # in place; the op's scalars its call's parameters
            sfpu = SfpuCall.of(op) if name in SFPU_PARAMETRIZED else SfpuCall(*SFPU_UNARY[name], ())
            params = [arith.ConstantOp(IntegerAttr(p, i32)) for p in sfpu.params]
            in_load = _loaded(tiles[0])
            in_cb = _cb_root(in_load.memref) if in_load is not None and not _from_dst(tiles[0]) else None
            self.start_engines(op, "init_sfpu", in_cb if in_cb is not None else _first_cb(self.func, load=False))
            calls = [_call(sfpu.init), _call(sfpu.call, tiles[0], *(p.result for p in params))]
            self.rewriter.insert_op([*params, *calls], _insert_point(op.parent_block(), op))
            self.erase_result_store(op)
            return None
        if name in SFPU_BINARY or name == "tile_where":
            init, call = SFPU_BINARY.get(name, ("where_tile_init", "where_tile"))
            told = {"dtype": _tile(tiles[-1]).data_type} if call in ttkernel.DTYPE_BINARY or call == "where_tile" else {}
            index, _ = self.dst_index(op)
            self.start_engines(op, "init_sfpu", None)
            self.rewriter.insert_op(_call(init), _insert_point(op.parent_block(), op))
            self.replace_by_calls(op, index, _call(call, *tiles, index, **told))
            return None
        raise PassFailure(op, f"'{op.name}' in a kernel function is not converted to TTKernel yet")

    def fpu_reduce(self, op: Operation, pool: str) -> None:
        """A CB tile reduced by the FPU, times the scaler CB tile's first value, into the accumulator's DST slot
        (reduce_init, reduce_tile, reduce_uninit; the engines started on the input, scaler and output CBs)."""
        a, b, _ = op.operands
        loads = [_loaded(a), _loaded(b)]
        if any(load is None or _from_dst(v) for load, v in zip(loads, (a, b))):
            raise PassFailure(op, f"'{op.name}' reduces a CB tile by a scaler CB tile, not a tile computed in DST "
                                  "(an elementwise op fused into the reduction: its result is not spilled to a CB yet)")
        cb_a, cb_b = (_cb_root(load.memref) for load in loads)
        out_cb = _first_cb(self.func, load=False)
        block, before = _after_definitions([cb_a, cb_b, out_cb], op)
        self.rewriter.insert_op(_call("compute_kernel_hw_startup", cb_a, cb_b, out_cb), _insert_point(block, before))
        attrs = {"reduce_type": ttkernel.ReduceTypeAttr(ttkernel.ReduceTypeAttr.enum_type(pool)),
                 "reduce_dim": ttkernel.ReduceDimAttr(ttkernel.ReduceDimAttr.enum_type(
                     FPU_REDUCE_DIMS[op.properties["reduce_dim"].data]))}
        index, _ = self.dst_index(op)
        self.replace_by_calls(op, index, [_call("reduce_init", cb_a, cb_b, out_cb, **attrs),
                                          _call("reduce_tile", cb_a, cb_b, a, b, index, **attrs), _call("reduce_uninit")])

    def transpose(self, op: Operation) -> None:
        """A CB tile transposed into the result's DST slot by the unpacker (transpose_wh_init, transpose_wh_tile)."""
        cb = _cb_of(op, op.operands[0], "transposes")
        self.start_engines(op, "compute_kernel_hw_startup", cb)
        index, _ = self.dst_index(op)
        self.replace_by_calls(op, index, [_call("transpose_wh_init", cb, _first_cb(self.func, load=False)),
                                          _call("transpose_wh_tile", cb, op.operands[0], index)])

    def fill(self, op: Operation) -> None:
        """A tile of one value: the SFPU fills its DST slot (a float; an integer tile's word as tt-metal's
        fill_tile_int takes it)."""
        index, _ = self.dst_index(op)
        value = op.operands[0]
        # a fill reads no CB: the engines start on the CB it packs into (as input and output)
        self.start_engines(op, "init_sfpu", _first_cb(self.func, load=True) or _first_cb(self.func, load=False))
        call = "fill_tile" if isinstance(value.type, AnyFloat) else "fill_tile_int"
        self.replace_by_calls(op, index, [_call("fill_tile_init"), _call(call, index, value)])

    def scalar_rhs(self, op: Operation, tile: SSAValue) -> None:
        """A DST tile and a constant scalar, in place in the tile's slot (moved to the result's slot when that is
        another): the scalar as the call's 32-bit parameter (`SfpuCall.with_scalar`)."""
        if not _from_dst(tile):
            raise PassFailure(op, f"'{op.name}' with a scalar operand reads its tile from DST")
        sfpu = SfpuCall.with_scalar(op, _tile(tile))
        self.start_engines(op, "init_sfpu", _first_cb(self.func, load=False))
        index, _ = self.dst_index(op)
        bits = arith.ConstantOp(IntegerAttr(sfpu.params[0], i32))
        new = [bits, _call(sfpu.init), _call(sfpu.call, tile, bits.result)]
        if not _same_slot(index, _loaded(tile).indices[0]):
            new += [_call("copy_dest_values_init"),
                    _call("copy_dest_values", tile, index, data_format=_tile(tile).data_type)]
        self.replace_by_calls(op, index, new)

    def integer(self, op: Operation, tiles: list[SSAValue], init: str, call: str) -> None:
        """An op on integer tiles through its SFPU entry point for them (binary ones on DST tiles: the FPU adds no
        integers, so a tile loaded from a CB is copied into DST first, as upstream does)."""
        dtype = {"dtype": _tile(tiles[0]).data_type}
        self.start_engines(op, "init_sfpu", None if len(tiles) > 1 else
                           (_cb_root(_loaded(tiles[0]).memref) if _loaded(tiles[0]) is not None and
                            not _from_dst(tiles[0]) else _first_cb(self.func, load=False)))
        init_call = _call(init, **(dtype if init in FORMAT_TOLD else {}))
        if len(tiles) == 1:
            self.rewriter.insert_op([init_call, _call(call, tiles[0])], _insert_point(op.parent_block(), op))
        else:  # the copies into DST first, then the SFPU's init and call
            index, store = self.dst_index(op)
            where = _insert_point(op.parent_block(), self.place_after(op, index))
            operands = [v if _from_dst(v) else self.copied_to_dst(op, v, index, store, tiles, where) for v in tiles]
            self.rewriter.insert_op([init_call, _call(call, *operands, index, **(dtype if call in FORMAT_TOLD else {}))],
                                    where)
        self.erase_result_store(op)

    def copied_to_dst(self, op: Operation, tile: SSAValue, result: SSAValue, store: memref.StoreOp,
                      tiles: list[SSAValue], where: InsertPoint) -> SSAValue:
        """The DST slot CB tile `tile` (an operand of integer op `op`) is copied into: the result's slot when no
        other operand of `op` is read from it, else a slot no DST access of the kernel uses."""
        taken = {_constant_index(_loaded(v).indices[0]) for v in tiles if _from_dst(v)} | \
            {self.kernel_slots.get(t) for t in tiles if t is not tile}
        slot = _constant_index(result)
        if slot is None or slot in taken:
            slot = self.spare_slot(op, store.memref, taken)
        self.kernel_slots[tile] = slot
        index = arith.ConstantOp(IntegerAttr(slot, IndexType()))
        cb = _cb_root(_loaded(tile).memref)
        self.rewriter.insert_op([index, _call("copy_tile_init", cb), _call("copy_tile", cb, tile, index.result)], where)
        return index.result

    def spare_slot(self, op: Operation, dst: SSAValue, taken: set) -> int:
        """A DST slot no load or store of the kernel names (all at constant slots), beyond `taken`."""
        used = set(taken)
        for access in self.func.walk():
            if isinstance(access, (memref.LoadOp, memref.StoreOp)) and is_dst_memref(access.memref.type):
                constant = _constant_index(access.indices[0]) if len(access.indices) == 1 else None
                if constant is None:
                    raise PassFailure(op, f"'{op.name}' on integer tiles of CBs needs a free DST slot, and this "
                                          "kernel's DST slots are computed")
                used.add(constant)
        free = [n for n in range(dst.type.get_shape()[0]) if n not in used]
        if not free:
            raise PassFailure(op, f"'{op.name}' on integer tiles of CBs needs a free DST slot; all are in use")
        return free[-1]

    def fpu_binary(self, op: Operation, call: str) -> None:
        """Two CB tiles through the FPU into the result's DST slot."""
        loads = [_loaded(v) for v in op.operands]
        if any(load is None for load in loads):
            raise PassFailure(op, f"'{op.name}' reads tiles loaded from CBs or DST")
        cb_a, cb_b = (_cb_root(load.memref) for load in loads)
        out_cb = _first_cb(self.func, load=False)
        block, before = _after_definitions([cb_a, cb_b, out_cb], op)
        self.rewriter.insert_op(_call("binary_op_init_common", cb_a, cb_b, out_cb), _insert_point(block, before))
        index, _ = self.dst_index(op)
        where = _insert_point(op.parent_block(), self.place_after(op, index))
        self.rewriter.insert_op([_call(f"{call}_init", cb_a, cb_b),
                                 _call(call, cb_a, cb_b, op.operands[0], op.operands[1], index)], where)
        self.erase_result_store(op)

    def dest_reuse(self, op: Operation, kind: str) -> None:
        """A DST tile and a CB tile through the FPU, the DST one reloaded into a source register from the result's
        slot (copied there first when it sits elsewhere): binary_dest_reuse."""
        lhs, rhs = op.operands
        reuse = "dest_to_srca" if _from_dst(lhs) else "dest_to_srcb"
        in_dst, from_cb = (lhs, rhs) if reuse == "dest_to_srca" else (rhs, lhs)
        load = _loaded(from_cb)
        if load is None:
            raise PassFailure(op, f"'{op.name}' reads tiles loaded from CBs or DST")
        cb, out_cb = _cb_root(load.memref), _first_cb(self.func, load=False)
        block, before = _after_definitions([cb, out_cb], op)
        self.rewriter.insert_op(_call("binary_op_init_common", cb, cb, out_cb), _insert_point(block, before))
        index, _ = self.dst_index(op)
        attrs = {"eltwise_binary_type": ttkernel.EltwiseBinaryTypeAttr(ttkernel.EltwiseBinaryTypeAttr.enum_type(kind)),
                 "reuse_type": ttkernel.BinaryDestReuseTypeAttr(ttkernel.BinaryDestReuseTypeAttr.enum_type(reuse))}
        new: list[Operation] = []
        source = _loaded(in_dst)
        if len(source.indices) != 1 or source.indices[0] is not index:  # in-place: the operand into the slot
            new += [_call("copy_dest_values_init"),
                    _call("copy_dest_values", in_dst, index, data_format=_tile(in_dst).data_type)]
        new += [_call("binary_dest_reuse_tiles_init", cb, **attrs),
                _call("binary_dest_reuse_tiles", cb, from_cb, index, **attrs)]
        self.replace_by_calls(op, index, new)

    def bcast(self, op: Operation) -> None:
        """A CB tile broadcast along rows, columns or both into the result's DST slot."""
        cb = _cb_of(op, op.operands[0], "broadcasts")
        kind = ttkernel.BcastTypeAttr(ttkernel.BcastTypeAttr.enum_type(op.properties["bcast_type"].data))
        index, _ = self.dst_index(op)
        self.replace_by_calls(op, index, [_call("unary_bcast_init", cb, cb, bcast_type=kind),
                                          _call("unary_bcast", cb, op.operands[0], index, bcast_type=kind)])

    def matmul(self, op: Operation) -> None:
        """A tile of A times a tile of B (both from CBs) accumulated into C's DST slot: the matmul engine set up
        once per kernel (before its first loop), reconfigured for its CBs at each product."""
        a, b, c = op.operands
        loads = [_loaded(a), _loaded(b)]
        acc = _loaded(c)
        if any(load is None or _from_dst(v) for load, v in zip(loads, (a, b))) or acc is None or not _from_dst(c):
            raise PassFailure(op, f"'{op.name}' multiplies CB tiles into a tile loaded from DST")
        cb_a, cb_b = (_cb_root(load.memref) for load in loads)
        entry = self.func.body.block
        if not any(o.name == "ttkernel.mm_init" for o in entry.ops):
            out_cb = _first_cb(self.func, load=False)
            if out_cb is None:
                raise PassFailure(op, f"'{op.name}' needs the kernel to write a CB (to start its engines)")
            anchor = next((o for o in entry.ops if isinstance(o, scf.ForOp)), None)
            if anchor is None:  # no loop: right before the product's outermost op
                anchor = op
                while anchor.parent_block() is not entry:
                    anchor = anchor.parent_op()
            no_transpose = arith.ConstantOp(IntegerAttr(0, i32))
            self.rewriter.insert_op([no_transpose, _call("mm_init", cb_a, cb_b, out_cb, no_transpose.result)],
                                    InsertPoint.before(anchor))
        no_transpose = arith.ConstantOp(IntegerAttr(0, i32))
        self.rewriter.insert_op([no_transpose, _call("mm_init_short", cb_a, cb_b, no_transpose.result),
                                 _call("matmul_tiles", cb_a, cb_b, a, b, c)], InsertPoint.before(op))
        if _dst_store(op.results[0]) is not None:
            self.erase_result_store(op)
        else:
            self.rewriter.erase_op(op)

    def sfpu_reduce(self, op: Operation, pool: tuple[str, int, str]) -> None:
        """An integer reduction of a CB tile into the accumulator's DST slot: the slot seeded with the pool's
        identity once (before the loops when the slot is a constant, else on the first iteration of each loop its
        slot does not depend on), the CB tile copied to the scratch slot and reduced there along the dims, then
        folded into the accumulator."""
        kind, identity, fold = pool
        a, c = op.operands
        load, acc = _loaded(a), _loaded(c)
        if load is None or _from_dst(a) or acc is None or not _from_dst(c) or len(acc.indices) != 1:
            raise PassFailure(op, f"'{op.name}' reduces a CB tile into a tile loaded from one DST slot")
        scratch = op.properties["dst_scratch_index"].value.data
        if scratch < 0:
            raise PassFailure(op, f"'{op.name}' op dst_scratch_index must be set by d2m-insert-dst-register-access "
                                  "before lowering")
        cb, slot = _cb_root(load.memref), acc.indices[0]
        fmt = _tile(a).data_type
        start = self.start_engines(op, "init_sfpu", cb)
        seed = [arith.ConstantOp(IntegerAttr(identity, i32)), _call("fill_tile_init")]
        constant = slot.owner.value.value.data if isinstance(slot.owner, arith.ConstantOp) else None
        if constant is not None:  # seeded once, where DST is acquired (after the engines start), before the loops
            hoisted = arith.ConstantOp(IntegerAttr(constant, IndexType()))
            acquire = _acquire_of(op)
            self.rewriter.insert_op([hoisted, *seed, _call("fill_tile_int", hoisted.result, seed[0].result)],
                                    InsertPoint.after(start if acquire is None else acquire))
        else:
            seeding = [*seed, _call("fill_tile_int", slot, seed[0].result)]
            guard, checks = _first_iteration(op, slot)
            if guard is not None:
                seeding = [*checks, scf.IfOp(guard, [], Region(Block([*seeding, scf.YieldOp()])))]
            self.rewriter.insert_op(seeding, InsertPoint.before(op))
        dims = SFPU_REDUCE_DIMS[op.properties["reduce_dim"].data]
        pool_attr = ttkernel.ReduceTypeAttr(ttkernel.ReduceTypeAttr.enum_type(kind))
        temp = arith.ConstantOp(IntegerAttr(scratch, IndexType()))
        new = [temp, _call("copy_tile_init", cb), _call("copy_tile", cb, a, temp.result),
               _call("sfpu_reduce_init", reduce_type=pool_attr, data_format=fmt),
               *(_call("sfpu_reduce", temp.result, reduce_type=pool_attr, data_format=fmt,
                       reduce_dim=ttkernel.ReduceDimAttr(ttkernel.ReduceDimAttr.enum_type(d))) for d in dims),
               _call(f"{fold}_init")]
        operands = (temp.result, slot, slot)
        new.append(_call(fold, *operands, dtype=fmt) if fold == "add_int_tile" else _call(fold, *operands))
        self.rewriter.insert_op(new, InsertPoint.before(op))
        if _dst_store(op.results[0]) is not None:
            self.erase_result_store(op)
        else:
            self.rewriter.erase_op(op)

    def typecast(self, op: Operation) -> None:
        src, dst = _tile(op.operands[0]).data_type, _tile(op.results[0]).data_type
        self.start_engines(op, "init_sfpu", None)
        self.rewriter.insert_op([_call("typecast_tile_init", in_dtype=src, out_dtype=dst),
                                 _call("typecast_tile", op.operands[0], in_dtype=src, out_dtype=dst)],
                                _insert_point(op.parent_block(), op))
        self.erase_result_store(op)

    def replace_by_calls(self, op: Operation, index: SSAValue, calls: Operation | list[Operation]) -> None:
        """`op` replaced by `calls`, which write its result's DST slot `index` (placed once `index` is defined)."""
        self.rewriter.insert_op(calls, _insert_point(op.parent_block(), self.place_after(op, index)))
        self.erase_result_store(op)

    def erase_result_store(self, op: Operation) -> None:
        """The op's result is its DST slot, written by its call: the store into DST goes, then the op."""
        store = _dst_store(op.results[0])
        value = store.value
        self.rewriter.erase_op(store)
        if value is not op.results[0]:  # through a reinterpretation
            self.rewriter.erase_op(value.owner)
        self.rewriter.erase_op(op)

    def store(self, op: memref.StoreOp) -> bool:
        """A store into DST: a copy of a CB tile, or (an op's result) dropped once the op took its slot. False for
        a store into a CB block (a pack, lowered with the kernel's other ops)."""
        if not is_dst_memref(op.memref.type):
            return False
        load = _loaded(op.value)
        if load is None or is_dst_memref(load.memref.type):
            self.rewriter.erase_op(op)
            return True
        cb = _cb_root(load.memref)
        self.start_engines(op, "compute_kernel_hw_startup", None)
        if op.value is not load.results[0]:
            self.rewriter.replace_op(op.value.owner, [], [load.results[0]])
        new, index = linear_index(op.memref.type.get_shape(), list(op.indices))
        self.kernel.replace(op, [*new, _call("reconfig_data_format_srca", cb), _call("copy_tile_init", cb),
                                 _call("copy_tile", cb, load.results[0], index)])
        return True

    def acquire(self, op: Operation) -> None:
        """The tile registers acquired; the op itself goes once the DST accesses through it are lowered."""
        self.rewriter.insert_op(_call("tile_regs_acquire"), InsertPoint.before(op))
        self.kernel.dead.append(op)


def _depends_on(value: SSAValue, needle: SSAValue, seen: set | None = None) -> bool:
    if value is needle:
        return True
    owner, seen = value.owner, seen if seen is not None else set()
    if not isinstance(owner, Operation) or owner in seen:
        return False
    seen.add(owner)
    return any(_depends_on(v, needle, seen) for v in owner.operands)


def _first_iteration(op: Operation, slot: SSAValue) -> tuple[SSAValue | None, list[Operation]]:
    """`iv == lb` of each loop around `op` (outermost first) whose iteration the slot does not depend on, and-ed."""
    loops, parent = [], op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            loops.insert(0, parent)
        parent = parent.parent_op()
    guard, checks = None, []
    for loop in loops:
        iv = loop.body.block.args[0]
        if _depends_on(slot, iv):
            continue
        checks.append(arith.CmpiOp(iv, loop.lb, "eq"))
        if guard is not None:
            checks.append(arith.AndIOp(guard, checks[-1].result))
        guard = checks[-1].result
    return guard, checks


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    return owner.value.value.data if isinstance(owner, arith.ConstantOp) else None


def _insert_point(block: Block, before: Operation | None) -> InsertPoint:
    return InsertPoint.before(before) if before is not None else InsertPoint.at_end(block)


def linear_index(shape: tuple[int, ...], indices: list[SSAValue]) -> tuple[list[Operation], SSAValue]:
    """Row-major `sum(index_i * stride_i)` of a block's indices, as index arithmetic (one index is itself)."""
    new: list[Operation] = []
    total = None
    for dim, index in enumerate(indices):
        stride = math.prod(shape[dim + 1:])
        term = index
        if stride != 1:
            factor = arith.ConstantOp(IntegerAttr(stride, IndexType()))
            new += [factor, arith.MuliOp(index, factor.result)]
            term = new[-1].results[0]
        if total is not None:
            new.append(arith.AddiOp(total, term))
            term = new[-1].results[0]
        total = term
    if total is None:
        new.append(arith.ConstantOp(IntegerAttr(0, IndexType())))
        total = new[-1].results[0]
    return new, total
