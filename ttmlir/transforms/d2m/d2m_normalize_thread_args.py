"""`--d2m-normalize-thread-args`: a generic's regions reach the generic's operands only through
`d2m.get_arg(i) resolution_stage = ...` (inserted at the top of each region that uses operand `i`, in place of the
value), so each region can become a kernel of its own; `d2m.get_cb` and `d2m.get_arg` ops without a stage get theirs
(circular buffers and other compile-time handles `compile`; memrefs, semaphores and scalars `runtime`). Operands
must be memrefs, semaphores or scalars (`'d2m.generic' op unsupported argument type in d2m.generic operands: ...`).
A `d2m.indexed_row_copy` gets its operands' `get_arg`s right before it.

A generic's circular buffers are at most 32 ports: when its CB-backed additional arguments would need more, one whose
uses (in every region, in the same order) never overlap another's of the same type shares that one's port, the
latest first; the generic records the ports as `d2m.physical_cb_ports = array<i64: ...>` (operand -> port), only
when some port is shared."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (AffineMapAttr, AnyFloat, DenseArrayBase, IndexType, IntegerAttr, IntegerType,
                                   MemRefType, ModuleOp, NoneAttr, i64)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_args import GetArgOp, ResolutionStageAttr
from ttmlir.dialects.d2m_cb import CBType, GetCBOp, GlobalSemaphoreType, LocalSemaphoreType
from ttmlir.dialects.d2m_dma import IndexedRowCopyOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.d2m_allocate import memory_space

PHYSICAL_CB_PORTS = "d2m.physical_cb_ports"
MAX_CB_PORTS = 32


def runtime_resolved(t: Attribute) -> bool:
    """Arguments a kernel gets at run time: buffers (their addresses), semaphores and scalars."""
    return isinstance(t, (MemRefType, LocalSemaphoreType, GlobalSemaphoreType, IndexType, IntegerType, AnyFloat))


def _stage(t: Attribute) -> ResolutionStageAttr:
    return ResolutionStageAttr("runtime" if runtime_resolved(t) else "compile")


def _in_region(op: Operation, region) -> bool:
    while op is not None:
        if op.parent_region() is region:
            return True
        op = op.parent_op()
    return False


def _cb_backed(t: Attribute) -> Attribute | None:
    """The memref a CB-backed handle stands for: a CB's, or a plain (no device layout, not dst, not strided) one."""
    if isinstance(t, CBType):
        return t.underlying if isinstance(t.underlying, MemRefType) else None
    if not isinstance(t, MemRefType) or memory_space(t) == "dst":
        return None
    layout = t.layout
    plain = isinstance(layout, NoneAttr) or (isinstance(layout, AffineMapAttr) and
                                             layout.data == AffineMap.identity(len(t.get_shape())))
    return t if plain else None


@dataclass
class _Lifetime:
    """One generic operand's CB handles and, per region block, the first and last op of the block using them."""

    index: int
    type: Attribute
    windows: dict[Block, list[Operation]] = field(default_factory=dict)

    def use(self, value: SSAValue, block: Block, order: dict[Operation, int]) -> None:
        for use in value.uses:
            user = use.operation
            while user is not None and user.parent_block() is not block:
                user = user.parent_op()
            if user is None:
                continue
            window = self.windows.setdefault(block, [user, user])
            if order[user] < order[window[0]]:
                window[0] = user
            if order[user] > order[window[1]]:
                window[1] = user


def _can_share(a: _Lifetime, b: _Lifetime, order: dict[Operation, int]) -> bool:
    """Same type, used in the same blocks, and in each block one's uses all before the other's (the same way)."""
    if a.type != b.type or a.windows.keys() != b.windows.keys():
        return False
    required = None
    for block, (a_first, a_last) in a.windows.items():
        b_first, b_last = b.windows[block]
        if order[a_last] < order[b_first]:
            way = "a-first"
        elif order[b_last] < order[a_first]:
            way = "b-first"
        else:
            return False
        if required is not None and way != required:
            return False
        required = way
    return True


def reuse_disjoint_cb_ports(generic: d2m.GenericOp, max_ports: int = MAX_CB_PORTS) -> None:
    generic.attributes.pop(PHYSICAL_CB_PORTS, None)
    first_additional = len(generic.inputs) + len(generic.outputs)
    lifetimes: dict[int, _Lifetime] = {}
    for region in generic.regions:
        if not region.blocks:
            continue
        block = region.blocks[0]
        order = {op: i for i, op in enumerate(block.ops)}
        handles = [(o, o.operand_index.value.data) for o in block.walk() if isinstance(o, GetArgOp)] + \
                  [(o, o.cb_operand_idx.value.data) for o in block.walk() if isinstance(o, GetCBOp)]
        for handle, index in handles:
            backed = _cb_backed(handle.result.type)
            if backed is None or not 0 <= index < len(generic.operands):
                continue
            lifetime = lifetimes.setdefault(index, _Lifetime(index, backed))
            if lifetime.type != backed:
                continue
            lifetime.use(handle.result, block, order)
    order = {op: i for i, op in enumerate(generic.walk())}
    used = [lt for lt in lifetimes.values() if lt.windows]
    fixed = sum(1 for lt in used if lt.index < first_additional)
    additional = [lt for lt in used if lt.index >= first_additional]
    groups = [[lt] for lt in additional]
    representative = {lt.index: lt.index for lt in lifetimes.values()}
    ports = fixed + len(additional)
    for lifetime in reversed(additional):
        if ports <= max_ports:
            break
        own = next(g for g in groups if g[0] is lifetime)
        if len(own) > 1:
            continue
        for group in groups:
            head = group[0]
            if head.index < lifetime.index and representative[head.index] == head.index and \
                    all(_can_share(lifetime, member, order) for member in group):
                group.append(lifetime)
                representative[lifetime.index] = head.index
                ports -= 1
                break
    mapping = list(range(len(generic.operands)))
    for index, port in representative.items():
        mapping[index] = port
    if mapping != list(range(len(generic.operands))):
        generic.attributes[PHYSICAL_CB_PORTS] = DenseArrayBase.from_list(i64, mapping)


@dataclass(frozen=True)
class D2MNormalizeThreadArgsPass(ModulePass):
    name: ClassVar[str] = "d2m-normalize-thread-args"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for handle in op.walk():
            if isinstance(handle, GetCBOp) and handle.resolution_stage is None:
                handle.properties["resolution_stage"] = ResolutionStageAttr("compile")
            elif isinstance(handle, GetArgOp) and handle.resolution_stage is None:
                handle.properties["resolution_stage"] = _stage(handle.result.type)
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            self.normalize(generic)
            reuse_disjoint_cb_ports(generic)

    @staticmethod
    def normalize(generic: d2m.GenericOp) -> None:
        # an indexed row copy reads the generic's operands right where it is (its scratch buffers are its own)
        for copy in [o for o in generic.walk() if isinstance(o, IndexedRowCopyOp)]:
            for position, value in enumerate(copy.operands):
                if value in (copy.index_scratch, copy.row_scratch) or value not in generic.operands:
                    continue
                index = list(generic.operands).index(value)
                get = GetArgOp.create(properties={"operand_index": IntegerAttr(index, i64),
                                                  "resolution_stage": _stage(value.type)}, result_types=[value.type])
                derive([get], copy)
                copy.parent_block().insert_op_before(get, copy)
                copy.operands[position] = get.result
        for index, arg in enumerate(generic.operands):
            kind = arg.type
            if not (isinstance(kind, (MemRefType, LocalSemaphoreType, GlobalSemaphoreType)) or runtime_resolved(kind)):
                raise PassFailure(generic, f"'d2m.generic' op unsupported argument type in d2m.generic operands: "
                                           f"{kind}; only memref, semaphore, and scalar types are supported")
            for region in generic.regions:
                uses = [u for u in arg.uses if _in_region(u.operation, region)]
                if not uses:
                    continue
                for block in region.blocks:
                    get = GetArgOp.create(properties={"operand_index": IntegerAttr(index, i64),
                                                      "resolution_stage": _stage(kind)}, result_types=[kind])
                    derive([get], generic)
                    block.insert_op_before(get, block.first_op) if block.first_op else block.add_op(get)
                    for use in [u for u in arg.uses if _in_region(u.operation, region)]:
                        use.operation.operands[use.index] = get.result
