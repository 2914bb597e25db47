"""What the two `--d2m-insert-dst-register-access-*` passes share (upstream's InsertDstRegisterAccess/Shared).

Tile compute ops read some operands from, and write results to, the DST register file. The passes find the
affine loads feeding those operands and the stores draining their results, give each a DST slice, and rewrite the
loop nest (the `d2m.linalg_root` loop) to go through a `d2m.acquire_dst()` buffer: CB->DST copies before the nest,
DST accesses inside it and DST->CB copies after it. A slice is linearized with the loop indices it varies over, so
every tile of a block has a DST slot of its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import (AffineMapAttr, IndexType, IntegerAttr, MemRefType, NoneAttr, UnitAttr, i1, i32,
                                   i64)
from xdsl.dialects.linalg import GenericOp as LinalgGenericOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from ttmlir.dialects import affine_ext, arith_ext, d2m, ttcore
from ttmlir.dialects.d2m_cb import CBType, ReserveOp, WaitOp
from ttmlir.dialects.d2m_dst import (AcquireDstOp, DstReinterpretCastOp, SetL1AccumulateOp, element_bits,
                                     is_dst_compute_op, is_dst_memref, is_scalar_operand)
from ttmlir.errors import PassFailure
from ttmlir.ir.syntax import enum

ROOT = "d2m.linalg_root"
LOADS = (affine.LoadOp, memref.LoadOp)
STORES = (affine.StoreOp, memref.StoreOp)
# the data types the packer accumulates into L1 natively (block floats do not)
PACKER_L1_ACC_TYPES = frozenset({"f32", "f16", "bf16", "si32", "u8"})


# --- loops -------------------------------------------------------------------------------------------------------

def constant_bound(map_attr: AffineMapAttr) -> int | None:
    map_ = map_attr.data
    if map_.num_dims or map_.num_symbols or len(map_.results) != 1:
        return None
    value = map_.results[0].eval([], [])
    return value[0] if isinstance(value, tuple) else value


def trip_count(loop: Operation) -> int | None:
    """The constant trip count of an affine.for or scf.for, or None."""
    if isinstance(loop, affine.ForOp):
        lb, ub, step = constant_bound(loop.lowerBoundMap), constant_bound(loop.upperBoundMap), loop.step.value.data
    elif isinstance(loop, scf.ForOp):
        bounds = [v.owner for v in (loop.lb, loop.ub, loop.step)]
        if not all(isinstance(b, arith.ConstantOp) for b in bounds):
            return None
        lb, ub, step = (b.value.value.data for b in bounds)
    else:
        return None
    if lb is None or ub is None or step <= 0:
        return None
    return -(-max(0, ub - lb) // step)


def enclosing_root(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None:
        if ROOT in parent.attributes:
            return parent
        parent = parent.parent_op()
    return None


def enclosing_affine_loops(op: Operation, root: Operation | None) -> list[affine.ForOp]:
    """The affine.for loops around `op`, outermost first, up to and including `root`."""
    loops = []
    current = op.parent_op()
    while current is not None:
        if isinstance(current, affine.ForOp):
            loops.append(current)
            if current is root:
                break
        current = current.parent_op()
    return loops[::-1]


def ancestor_loop_ivs(op: Operation) -> list[SSAValue]:
    """The induction variables of the loops around `op` inside its generic, outermost first."""
    ivs = []
    current = op.parent_op()
    while current is not None and not isinstance(current, d2m.GenericOp):
        if isinstance(current, (affine.ForOp, scf.ForOp)):
            ivs.append(current.body.block.args[0])
        current = current.parent_op()
    return ivs[::-1]


def verify_preconditions(module: Operation) -> None:
    """Linalg lowered to affine loops first, and every loop around a DST op constant-bounded."""
    for op in module.walk():
        if isinstance(op, LinalgGenericOp):
            raise PassFailure(module, "'builtin.module' op found linalg.generic operations that were not "
                                      "converted to affine loops. Please run --d2m-linalg-to-affine before the "
                                      "d2m-insert-dst-register-access-unscheduled / "
                                      "d2m-insert-dst-register-access-scheduled passes.")
    for op in module.walk():
        if is_dst_compute_op(op):
            for loop in enclosing_affine_loops(op, enclosing_root(op)):
                if trip_count(loop) is None:
                    raise PassFailure(op, f"'{op.name}' op requires constant-bounded affine.for loops for DST "
                                          "register access linearization")


# --- DST capacity --------------------------------------------------------------------------------------------------

def dst_capacity_tiles(physical: int, bits: int) -> int:
    """The DST slices of a `physical`-tile DST: half of it (double-buffered), half again for 32-bit data."""
    return physical // 2 // (2 if bits == 32 else 1)


def chip_of(op: Operation) -> dict:
    module = op
    while module.parent_op() is not None:
        module = module.parent_op()
    system = module.attributes.get("ttcore.system_desc")
    if not isinstance(system, ttcore.SystemDescAttr):
        raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
    return system.data.chip(0)


def dst_capacity(generic: d2m.GenericOp, region: Region, override: int) -> int:
    """The DST slices a region has, sized for the widest data its tile ops put in DST."""
    physical = override or chip_of(generic)["dst_physical_size_tiles"]
    return dst_capacity_tiles(physical, largest_dst_bits(region))


def largest_dst_bits(region: Region) -> int:
    bits = 0
    for op in region.walk():
        if not is_dst_compute_op(op):
            continue
        types = [t for i, t in enumerate(op.operand_types) if not is_scalar_operand(op, i)]
        types += list(op.result_types[:1])
        for type_ in types:
            bits = max(bits, element_bits(inner_type(type_)))
    return bits or 16


def inner_type(type_):
    return type_.get_element_type() if isinstance(type_, MemRefType) else type_


# --- accesses ------------------------------------------------------------------------------------------------------

@dataclass
class DstAccess:
    """A load feeding, or a store draining, a DST slice."""

    op: Operation
    dst_slice: int
    bcast: Operation | None = None
    guard_ivs: list[SSAValue] = field(default_factory=list)

    @property
    def is_load(self) -> bool:
        return isinstance(self.op, LOADS)

    @property
    def is_affine(self) -> bool:
        return isinstance(self.op, (affine.LoadOp, affine.StoreOp))

    @property
    def memref(self) -> SSAValue:
        return self.op.memref


@dataclass
class CopyInfo:
    loads: list[DstAccess] = field(default_factory=list)
    stores: list[DstAccess] = field(default_factory=list)

    def record(self, access: DstAccess) -> None:
        (self.loads if access.is_load else self.stores).append(access)


class SliceAllocator:
    """Hands out DST slices: inputs and outputs from a stack (lowest first), scratch for good; `current` is the
    slice handed out last."""

    def __init__(self, capacity: int, op: Operation):
        self.free = list(range(capacity - 1, -1, -1))
        self.inputs: list[int] = []
        self.scratch: list[int] = []
        self.current: int | None = None
        self.stored_to_dst = False
        self.op = op

    def _pop(self) -> int:
        if not self.free:
            raise PassFailure(self.op, "Insufficient DST capacity for all operands.")
        return self.free.pop()

    def allocate_input(self, stride: int = 1) -> int:
        base = self._pop()
        for k in range(1, stride):
            if self._pop() != base + k:
                raise PassFailure(self.op, "strided input allocation requires consecutive dst slices")
        self.inputs.append(base)
        self.current = base
        return base

    def allocate_output(self) -> int:
        self.current = self._pop()
        return self.current

    def allocate_scratch(self) -> int:
        slice_ = self._pop()
        self.scratch.append(slice_)
        return slice_

    def current_slice(self) -> int:
        if self.current is None:
            raise PassFailure(self.op, "no dst slice allocated yet for an in-place result")
        return self.current

    def first_input(self) -> int:
        if not self.inputs:
            raise PassFailure(self.op, "no dst input slice allocated")
        return self.inputs[0]

    def keep_first_input(self) -> None:
        """Frees every input slice but the first, which becomes the current one (and no longer an input)."""
        first, rest = self.inputs[0], self.inputs[1:]
        self.inputs = []
        self.free.extend(reversed(rest))
        self.current = first

    def release(self, slice_: int) -> None:
        if slice_ not in self.inputs and slice_ not in self.free and slice_ not in self.scratch:
            self.free.append(slice_)
            if self.current == slice_:
                self.current = None


def depends_on(value: SSAValue, iv: SSAValue, seen: set | None = None) -> bool:
    if value is iv:
        return True
    seen = set() if seen is None else seen
    if value in seen or not isinstance(value.owner, Operation):
        return False
    seen.add(value)
    return any(depends_on(v, iv, seen) for v in value.owner.operands)


def access_indices(op: Operation) -> list[SSAValue]:
    """The index values an access uses (an affine map's unused operands left out)."""
    if isinstance(op, (affine.LoadOp, affine.StoreOp)):
        map_ = op.map.data
        used = {e.position for r in map_.results for e in r.dfs() if isinstance(e, AffineDimExpr)}
        return [v for i, v in enumerate(op.indices) if i in used or i >= map_.num_dims]
    return list(op.indices)


def access_depends_on(op: Operation, iv: SSAValue) -> bool:
    return depends_on(op.memref, iv) or any(depends_on(v, iv) for v in access_indices(op))


def _loop_of(iv: SSAValue) -> Operation | None:
    return iv.block.parent_op() if isinstance(iv, BlockArgument) else None


def _is_reduction_blocking_loop(loop: Operation) -> bool | None:
    """Whether a blocking loop (`d2m.blocking_loop = dim`) runs over a reduction dim; None for other loops."""
    dim = loop.attributes.get("d2m.blocking_loop")
    if not isinstance(dim, IntegerAttr):
        return None
    if "d2m.reduction_loop" in loop.attributes:
        return True
    generic = loop.parent_op()
    while generic is not None and not isinstance(generic, d2m.GenericOp):
        generic = generic.parent_op()
    if generic is None:
        return False
    iterators = generic.attributes.get("iterator_types")
    index = dim.value.data
    if iterators is None or not 0 <= index < len(iterators.data):
        return False
    return iterators.data[index].data.value == "reduction"


def guard_ivs(op: Operation, context: Operation) -> list[SSAValue]:
    """The loops around `context` whose index the access does not use (a reduction over them re-reads the same
    tile): the copy of the tile into DST is done on their first iteration only."""
    ivs = []
    for iv in ancestor_loop_ivs(context):
        loop = _loop_of(iv)
        if loop is not None and _is_reduction_blocking_loop(loop) is False:
            continue
        if not access_depends_on(op, iv):
            ivs.append(iv)
    return ivs


def through_views(value: SSAValue) -> SSAValue | None:
    """The CB (or buffer) a memref reads: through subviews and wait/reserve; None when it is none of those."""
    while isinstance(value.owner, memref.SubviewOp):
        value = value.owner.source
    owner = value.owner
    if isinstance(owner, (WaitOp, ReserveOp)):
        value = owner.operands[0]
    elif isinstance(owner, memref.AllocOp) or owner.name == "d2m.operand_alias":
        return value
    if isinstance(value.type, CBType) or isinstance(value, BlockArgument):
        return value
    return None


def _strip_wrappers(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, (WaitOp, ReserveOp)):
        value = value.owner.operands[0]
    return value


def same_region(lhs: SSAValue, rhs: SSAValue) -> bool:
    """Whether two memrefs name the same buffer region (same source, same subview)."""
    lhs, rhs = _strip_wrappers(lhs), _strip_wrappers(rhs)
    if lhs is rhs:
        return True
    a, b = lhs.owner, rhs.owner
    if not isinstance(a, memref.SubviewOp) or not isinstance(b, memref.SubviewOp):
        return False
    return same_region(a.source, b.source) and a.properties == b.properties and \
        list(a.operands[1:]) == list(b.operands[1:])


def record(copy_infos: dict, key: Operation | None, access: DstAccess, emit_guard: bool) -> None:
    key = key or access.op
    if emit_guard and through_views(access.memref) is not None:
        access.guard_ivs = guard_ivs(access.op, key)
    copy_infos.setdefault(key, CopyInfo()).record(access)


def carried_outputs(op: Operation) -> list[SSAValue]:
    """The memrefs `op`'s results are stored to."""
    return [use.operation.memref for result in op.results for use in result.uses
            if isinstance(use.operation, STORES) and use.operation.value is result]


def accumulation_operands(op: Operation) -> list[int]:
    return [i for i in range(len(op.operands)) if not is_scalar_operand(op, i)]


def split_shared_loads(scope: Operation | Region) -> None:
    """A CB load read by several tile ops: a load of its own for each reader after the first, so no reader takes a
    tile another has overwritten (an SFPU op writes its result over its first DST input; `mish(x) = x *
    tanh(softplus(x))` reads x twice)."""
    for load in [op for op in scope.walk() if isinstance(op, LOADS) and not is_dst_memref(op.memref.type)]:
        readers = list(dict.fromkeys(use.operation for use in load.results[0].uses
                                     if is_dst_compute_op(use.operation)))
        if len(readers) < 2:
            continue
        for reader in readers[1:]:  # each copy just before its reader, where a scheduled nest loads a tile
            copy = load.clone()
            Rewriter.insert_op(copy, InsertPoint.before(reader))
            for index, operand in enumerate(reader.operands):
                if operand is load.results[0]:
                    reader.operands[index] = copy.results[0]


def recorded_slice(copy_infos: dict, key, load: Operation) -> int | None:
    """The slice a load already goes into DST at (a load feeding two DST operands is copied once)."""
    info = copy_infos.get(key or load)
    return next((a.dst_slice for a in info.loads if a.op is load), None) if info is not None else None


def record_load(copy_infos: dict, key, load: Operation, index: int, op: Operation, slice_: int,
                no_guard: bool) -> None:
    """A CB load into DST; it is guarded (kept across iterations) when it reads back the tile `op` accumulates."""
    operands = accumulation_operands(op)
    guard = not no_guard and through_views(load.memref) is not None and len(operands) > 1 and \
        index in operands and any(same_region(load.memref, out) for out in carried_outputs(op))
    record(copy_infos, key, DstAccess(load, slice_), guard)


# --- rewriting -----------------------------------------------------------------------------------------------------

def insert(op: Operation, point: InsertPoint) -> Operation:
    Rewriter.insert_op(op, point)
    return op


def _constant_map(value: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(0, 0, (AffineExpr.constant(value),)))


def linearized_access(op: Operation, slice_: int, root: Operation | None) -> tuple[AffineMapAttr, list[SSAValue]]:
    """The DST index of slice `slice_` for the iteration `op` runs in: slice * footprint + the loops' row-major
    position (loops up to `root`)."""
    loops = enclosing_affine_loops(op, root)
    if not loops:
        return _constant_map(slice_), []
    strides, stride = [1] * len(loops), 1
    for i in range(len(loops) - 1, -1, -1):
        strides[i] = stride
        stride *= trip_count(loops[i])
    terms = []
    for i, loop in enumerate(loops):
        dim = AffineExpr.dimension(i)
        lower = constant_bound(loop.lowerBoundMap)
        if lower:
            dim = dim - lower
        if loop.step.value.data != 1:
            dim = dim // loop.step.value.data
        terms.append((dim, strides[i]))
    return AffineMapAttr(AffineMap(len(loops), 0, (_linear(terms, slice_ * stride),))), \
        [loop.body.block.args[0] for loop in loops]


def _linear(terms: list[tuple[AffineExpr, int]], offset: int) -> AffineExpr:
    """sum(expr * stride) + offset, built in MLIR's canonical order (dims first, the constant last, no `* 1`)."""
    expr = None
    for term, stride in terms:
        term = term if stride == 1 else term * stride
        expr = term if expr is None else expr + term
    if expr is None:
        return AffineExpr.constant(offset)
    return expr + offset if offset else expr


def in_root_scope(iv: SSAValue, root: Operation | None) -> bool:
    if root is None:
        return True
    owner = iv.block.parent_op() if isinstance(iv, BlockArgument) else iv.owner
    return owner is root or (owner is not None and root.is_ancestor(owner))


def build_indices(access: DstAccess, mapper: dict, root: Operation | None):
    """The access's L1 map and indices (remapped into a copy nest by `mapper`) and its DST map and indices: the
    slice linearized with the loop indices (inside the root) the access's CB dims vary over."""
    op = access.op
    map_ = op.map.data
    indices = list(op.indices)
    l1_indices = [mapper.get(v, v) for v in indices]
    shape = op.memref.type.get_shape()
    dst_operands_, dst_dims = [], []
    for r, expr in enumerate(map_.results[:len(shape)]):
        dims = []
        for e in expr.dfs():
            if isinstance(e, AffineDimExpr) and e.position not in dims:
                dims.append(e.position)
        if len(dims) != 1 or dims[0] >= len(indices):
            continue
        iv = indices[dims[0]]
        if in_root_scope(iv, root):
            dst_operands_.append(mapper.get(iv, iv))
            dst_dims.append(shape[r])
    if not dst_operands_:
        return op.map, l1_indices, _constant_map(access.dst_slice), []
    strides, stride = [1] * len(dst_dims), 1
    for i in range(len(dst_dims) - 1, -1, -1):
        strides[i] = stride
        stride *= dst_dims[i]
    expr = _linear([(AffineExpr.dimension(i), strides[i]) for i in range(len(dst_dims))], access.dst_slice * stride)
    return op.map, l1_indices, AffineMapAttr(AffineMap(len(dst_dims), 0, (expr,))), dst_operands_


def _cast(value: SSAValue, type_, point: InsertPoint) -> SSAValue:
    if value.type == type_:
        return value
    return insert(DstReinterpretCastOp.create(operands=[value], result_types=[type_]), point).results[0]


def _dst_element(dst: SSAValue):
    return dst.type.get_element_type()


def replace_load(access: DstAccess, dst: SSAValue, dst_map, dst_indices) -> None:
    point = InsertPoint.before(access.op)
    load = insert(affine_ext.LoadOp(dst, dst_indices, dst_map, _dst_element(dst)), point)
    if access.bcast is not None:
        access.bcast.results[0].replace_all_uses_with(load.result)
        access.bcast.detach()
        access.bcast.erase()
    else:
        access.op.results[0].replace_all_uses_with(load.result)
        access.op.detach()
        access.op.erase()


def replace_store(access: DstAccess, dst: SSAValue, dst_map, dst_indices) -> None:
    store = access.op
    point = InsertPoint.before(store)
    value = _cast(store.value, _dst_element(dst), point)
    insert(affine_ext.StoreOp(value, dst, dst_indices, dst_map), point)
    if isinstance(store, memref.StoreOp):  # a scratch store: the tile is packed from DST where it was stored
        load = insert(affine_ext.LoadOp(dst, dst_indices, dst_map, _dst_element(dst)), point)
        packed = _cast(load.result, store.memref.type.get_element_type(), point)
        insert(memref.StoreOp.get(packed, store.memref, list(store.indices)), point)
    store.detach()
    store.erase()


def load_side_copy(access: DstAccess, dst: SSAValue, l1_map, l1_indices, dst_map, dst_indices,
                   point: InsertPoint) -> None:
    """CB tile -> DST slot (through the broadcast when the load fed one)."""
    if isinstance(access.op, affine.LoadOp):
        value = insert(affine_ext.LoadOp(access.memref, l1_indices, l1_map,
                                     access.memref.type.get_element_type()), point).result
        if access.bcast is not None:
            bcast = access.bcast.clone()
            bcast.operands = [value, *bcast.operands[1:]]
            value = insert(bcast, point).results[0]
    else:
        value = insert(memref.LoadOp.get(access.memref, list(access.op.indices)), point).results[0]
    insert(affine_ext.StoreOp(_cast(value, _dst_element(dst), point), dst, dst_indices, dst_map), point)


def store_side_copy(access: DstAccess, dst: SSAValue, l1_map, l1_indices, dst_map, dst_indices,
                    point: InsertPoint) -> None:
    """DST slot -> CB tile (scratch stores pack in place instead)."""
    if isinstance(access.op, affine.StoreOp):
        value = insert(affine_ext.LoadOp(dst, dst_indices, dst_map, _dst_element(dst)), point).result
        value = _cast(value, access.memref.type.get_element_type(), point)
        insert(affine_ext.StoreOp(value, access.memref, l1_indices, l1_map), point)


def clone_skeleton(root: Operation, point: InsertPoint) -> tuple[Operation | None, dict, dict]:
    """A copy of the loop nest `root` with only its loops (and affine.apply), inserted at `point` (its attributes
    kept: it is marked done as the root is); the value and block maps from the original."""
    if not isinstance(root, affine.ForOp):
        return None, {}, {}
    values, blocks = {}, {}
    skeleton = root.clone(value_mapper=values, block_mapper=blocks)
    for op in reversed(list(skeleton.walk())):
        if not isinstance(op, (affine.ForOp, affine.YieldOp, affine.ApplyOp)):
            op.detach()
            op.erase(safe_erase=False)
    insert(skeleton, point)
    return skeleton, values, blocks


def _before_terminator(block: Block) -> InsertPoint:
    last = block.last_op
    if last is not None and last.has_trait(IsTerminator):
        return InsertPoint.before(last)
    return InsertPoint.at_end(block)


def load_guard(guards: list[SSAValue], point: InsertPoint, bcast: bool) -> scf.IfOp:
    """`scf.if` taken on the first iteration of the guard loops (a broadcast's init: all at 0) or on the later ones
    (an accumulator already in DST: any not at 0)."""
    condition = insert(arith.ConstantOp(IntegerAttr(1 if bcast else 0, i1)), point).result
    for iv in guards:
        zero = insert(arith.ConstantOp(IntegerAttr(0, IndexType())), point).result
        compare = insert(arith_ext.CmpiOp(iv, zero, "eq" if bcast else "ne"), point).result
        combine = arith.AndIOp(condition, compare) if bcast else arith.OrIOp(condition, compare)
        condition = insert(combine, point).result
    return insert(scf.IfOp(condition, [], Region(Block([scf.YieldOp()]))), point)


def emit_copy_nest(root: Operation, dst: SSAValue, accesses: list[DstAccess], load_side: bool, point: InsertPoint,
                   l1_acc_disabled: bool, clone_nest: bool = True) -> None:
    """The copies of `accesses` between their CBs and DST, in a copy of the loop nest placed at `point` (or, without
    `clone_nest`, next to each access), and the accesses in the nest rewritten to DST."""
    if not accesses:
        return
    mapper, blocks = {}, {}
    if l1_acc_disabled and clone_nest:
        _, mapper, blocks = clone_skeleton(root, point)
    for access in accesses:
        if not clone_nest or not access.is_affine:  # copied where the access is
            if access.is_affine:
                l1_map, l1_indices, dst_map, dst_indices = build_indices(access, {}, root)
            else:
                l1_map, l1_indices, dst_map, dst_indices = None, [], _constant_map(access.dst_slice), []
            if l1_acc_disabled:
                here = InsertPoint.before(access.op)
                if load_side:
                    load_side_copy(access, dst, l1_map, l1_indices, dst_map, dst_indices, here)
                elif access.is_affine:
                    store_side_copy(access, dst, l1_map, l1_indices, dst_map, dst_indices, here)
            (replace_load if load_side else replace_store)(access, dst, dst_map, dst_indices)
            continue
        if l1_acc_disabled:
            access_mapper, access_blocks = mapper, blocks
            if access.guard_ivs and access.bcast is None:
                guard = load_guard(access.guard_ivs, point, False)
                _, access_mapper, access_blocks = clone_skeleton(root, InsertPoint.before(
                    guard.true_region.block.last_op))
            target = access_blocks.get(access.op.parent_block())
            here = _before_terminator(target) if target is not None else point
            l1_map, l1_indices, dst_map, dst_indices = build_indices(access, access_mapper, root)
            (load_side_copy if load_side else store_side_copy)(access, dst, l1_map, l1_indices, dst_map,
                                                                 dst_indices, here)
        _, _, dst_map, dst_indices = build_indices(access, {}, root)
        (replace_load if load_side else replace_store)(access, dst, dst_map, dst_indices)


def emit_copy_nests(dst: SSAValue, copy_infos: dict, l1_acc_disabled: bool, clone_nest: bool = True) -> None:
    """Each root's loads into DST before it (in a copy of its nest, or without `clone_nest` next to each access)
    and its stores out of DST in a copy of the nest after it."""
    for root, info in copy_infos.items():
        after = root.next_op
        parent = root.parent_block()
        emit_copy_nest(root, dst, info.loads, True, InsertPoint.before(root), l1_acc_disabled, clone_nest)
        point = InsertPoint.before(after) if after is not None else InsertPoint.at_end(parent)
        emit_copy_nest(root, dst, info.stores, False, point, True)


def fix_intermediates(dst: SSAValue, intermediates: dict) -> None:
    """An intermediate result another tile op consumes goes through its DST slot: stored after the op, loaded
    back for its users."""
    element = _dst_element(dst)
    for op, (slice_, root) in intermediates.items():
        dst_map, dst_indices = linearized_access(op, slice_, root)
        result = op.results[0]
        point = InsertPoint.after(op)
        made = []
        value = result
        if result.type != element:
            cast = insert(DstReinterpretCastOp.create(operands=[result], result_types=[element]), point)
            made.append(cast)
            value = cast.results[0]
            point = InsertPoint.after(cast)
        store = insert(affine_ext.StoreOp(value, dst, dst_indices, dst_map), point)
        load = insert(affine_ext.LoadOp(dst, dst_indices, dst_map, element), InsertPoint.after(store))
        made += [store, load]
        replacement = load.result
        if result.type != element:
            back = insert(DstReinterpretCastOp.create(operands=[replacement], result_types=[result.type]),
                          InsertPoint.after(load))
            made.append(back)
            replacement = back.results[0]
        for use in list(result.uses):
            if use.operation not in made:
                use.operation.operands[use.index] = replacement


def acquire_dst(region: Region, copy_infos: dict, root: Operation | None, capacity: int,
                inside_loop: bool, op_for_errors: Operation) -> AcquireDstOp:
    """`d2m.acquire_dst()` typed by the widest element its accesses hold, sized to the DST capacity."""
    element, widest = None, -1
    for info in copy_infos.values():
        for access in [*info.loads, *info.stores]:
            candidate = access.memref.type.get_element_type()
            if element is None or element_bits(candidate) > element_bits(element):
                element = candidate
            widest = max(widest, access.dst_slice)
    if widest >= capacity:
        raise PassFailure(op_for_errors, "Insufficient DST capacity for all operands.")
    dst_type = MemRefType(element, [capacity], NoneAttr(), enum(ttcore.MemorySpaceAttr, "dst"))
    acquire = AcquireDstOp.create(result_types=[dst_type])
    if root is None:
        point = InsertPoint.at_start(region.block)
    elif inside_loop:
        point = InsertPoint.at_start(root.body.block)
    else:
        point = InsertPoint.before(root)
    return insert(acquire, point)


def has_tile_matmul(op: Operation) -> bool:
    return any(o.name == "d2m.tile_matmul" for o in op.walk())


def matmul_outputs_support_l1_acc(op: Operation) -> bool:
    return all(isinstance(o.results[0].type, ttcore.TileType) and o.results[0].type.dtype in PACKER_L1_ACC_TYPES
               for o in op.walk() if o.name == "d2m.tile_matmul")


def closest_reduction_iv(acquire: Operation, copy_infos: dict) -> SSAValue | None:
    """The innermost loop around the DST acquire that reduces (does not index the stored output) and runs more
    than once: packer L1 accumulation is switched on after its first iteration."""
    for iv in reversed(ancestor_loop_ivs(acquire)):
        loop = _loop_of(iv)
        if loop is None:
            continue
        reduction = _is_reduction_blocking_loop(loop)
        if reduction is False:
            continue
        if reduction is None and any(access_depends_on(s.op, iv) for info in copy_infos.values()
                                     for s in info.stores):
            continue
        count = trip_count(loop)
        if count is not None and count <= 1:
            continue
        return iv
    return None


def insert_l1_acc_guard(acquire: Operation, iv: SSAValue) -> None:
    """`set_l1_accumulate(iv != first)` after the acquire (off on the loop's first iteration, on after it; the
    i1 widened as canonicalize writes upstream's select of 0 and 1), and `set_l1_accumulate(0)` after the loop."""
    loop = _loop_of(iv)
    point = InsertPoint.after(acquire)
    if isinstance(loop, scf.ForOp):
        first = loop.lb
    else:
        first = insert(arith.ConstantOp(IntegerAttr(constant_bound(loop.lowerBoundMap) or 0, IndexType())),
                       point).result
    not_first = insert(arith_ext.CmpiOp(iv, first, "ne"), point).result
    flag = insert(arith.ExtUIOp(not_first, i32), point).result
    insert(SetL1AccumulateOp.create(operands=[flag]), point)
    after = InsertPoint.after(loop)
    reset = insert(arith.ConstantOp(IntegerAttr(0, i32)), after).result
    insert(SetL1AccumulateOp.create(operands=[reset]), InsertPoint.after(reset.owner))


def finalize(region: Region, capacity: int, root: Operation | None, l1_acc_disabled: bool, copy_infos: dict,
             intermediates: dict, emit_copies: Callable, op_for_errors: Operation) -> bool:
    """Acquires DST, emits the copies, the L1-accumulation switch and the intermediates' DST round trips."""
    if any(isinstance(o, AcquireDstOp) for o in region.block.ops) or not copy_infos:
        return False
    acquire = acquire_dst(region, copy_infos, root, capacity, isinstance(root, scf.ForOp), op_for_errors)
    dst = acquire.results[0]
    iv = None
    if not l1_acc_disabled:
        iv = closest_reduction_iv(acquire, copy_infos)
        l1_acc_disabled = iv is None
    emit_copies(dst, copy_infos, l1_acc_disabled)
    if not l1_acc_disabled:
        insert_l1_acc_guard(acquire, iv)
    fix_intermediates(dst, intermediates)
    if root is None:  # next to the compute it serves, after the region's CB waits and loads
        users = {use.operation for use in dst.uses}
        first = next((o for o in region.block.ops if o is not acquire and any(w in users for w in o.walk())), None)
        if first is not None:
            acquire.detach()
            region.block.insert_op_before(acquire, first)
    return True


def set_scratch_index(op: Operation, slice_: int, root: Operation | None) -> None:
    footprint = 1
    for loop in enclosing_affine_loops(op, root):
        footprint *= trip_count(loop)
    op.properties["dst_scratch_index"] = IntegerAttr(slice_ * footprint, i64)


def linalg_roots(region: Region) -> list[Operation]:
    return [op for op in region.walk() if isinstance(op, (affine.ForOp, scf.ForOp)) and ROOT in op.attributes]


def mark_inserted(op: Operation) -> None:
    op.attributes["d2m.dst_access_inserted"] = UnitAttr()
