"""KV-cache updates (`ttir.fill_cache`, `ttir.paged_update_cache` without a page table) in `--ttir-to-d2m`: the
TTIR ops have no result, they write into their cache operand. Here each is written, where it was, as TTIR ops the
D2M path computes, producing the cache's value after the write; every later use of the cache (the ops after it in
its block, the function's return) reads that value instead, so the update is seen as the in-place write is.

- fill_cache: the prompt padded with zeros to whole 32-row tiles (as the device writes them), followed by the
  cache's rows after those tiles, as the written batch rows; concatenated between the cache's batch rows before
  and after `batch_offset`.
- paged_update_cache: user u's token goes to position update_index[u] of cache row u. A mask of the positions
  equal to the user's index (an arange compared in f32 with the index) selects the token over the cache. A page
  table (a scatter through another device tensor) is refused naming it."""

from __future__ import annotations

from xdsl.dialects.builtin import Float32Type, TensorType
from xdsl.ir import SSAValue

from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure, derive
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp

TILE = 32
EXACT = 1 << 24  # positions compared in f32 stay exact below this


class _Builder:
    """TTIR ops made in order, for one replaced op."""

    def __init__(self) -> None:
        self.made: list[TTOp] = []

    def add(self, name: str, operands, shape, element, properties: dict | None = None) -> SSAValue:
        self.made.append(TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=[
            TensorType(element, list(shape))], properties=properties or {}))
        return self.made[-1].results[0]

    def slice(self, value: SSAValue, begins: list[int], ends: list[int]) -> SSAValue:
        return self.add("slice_static", [value], [e - b for b, e in zip(begins, ends)], value.type.element_type, {
            "begins": KINDS["i32_array"].build(begins), "ends": KINDS["i32_array"].build(ends),
            "step": KINDS["i32_array"].build([1] * len(begins))})

    def concat(self, values: list[SSAValue], dim: int) -> SSAValue:
        if len(values) == 1:
            return values[0]
        shape = list(values[0].type.get_shape())
        shape[dim] = sum(v.type.get_shape()[dim] for v in values)
        return self.add("concat", values, shape, values[0].type.element_type, {"dim": KINDS["si32"].build(dim)})

    def reshape(self, value: SSAValue, shape: list[int]) -> SSAValue:
        return self.add("reshape", [value], shape, value.type.element_type, {"shape": KINDS["i32_array"].build(shape)})


def _replace_later_uses(op: TTOp, cache: SSAValue, value: SSAValue) -> None:
    """Uses of `cache` by ops after `op` in its block (or nested in them) read `value`."""
    block = op.parent_block()
    for use in list(cache.uses):
        user = use.operation
        while user is not None and user.parent_block() is not block:
            user = user.parent_op()
        if user is not None and user is not op and op.is_before_in_block(user):
            use.operation.operands[use.index] = value


def _done(op: TTOp, cache: SSAValue, b: _Builder, value: SSAValue) -> list[TTOp]:
    derive(b.made, op)
    op.parent_block().insert_ops_before(b.made, op)
    _replace_later_uses(op, cache, value)
    op.detach()
    op.erase()
    return b.made


def fill_cache(op: TTOp) -> list[TTOp]:
    """The TTIR ops computing the cache after fill_cache `op` (see the module doc)."""
    cache, update = op.operands[:2]
    batch, heads, length, dim = cache.type.get_shape()
    users, _, prompt, _ = update.type.get_shape()
    offset = op.prop("batch_offset").value.data
    if offset < 0 or offset + users > batch:
        raise PassFailure(op, f"batch_offset {offset} with {users} input rows is outside the cache's {batch} rows")
    padded = min(-(-prompt // TILE) * TILE, length)
    b = _Builder()
    rows = update
    if padded > prompt:
        rows = b.add("pad", [update], [users, heads, padded, dim], update.type.element_type, {
            "padding": KINDS["i32_darray"].build([0, 0, 0, 0, 0, padded - prompt, 0, 0]),
            "value": KINDS["f32"].build(0.0)})
    if padded < length:
        rows = b.concat([rows, b.slice(cache, [offset, 0, padded, 0], [offset + users, heads, length, dim])], 2)
    parts = [b.slice(cache, [0, 0, 0, 0], [offset, heads, length, dim])] if offset else []
    parts.append(rows)
    if offset + users < batch:
        parts.append(b.slice(cache, [offset + users, 0, 0, 0], [batch, heads, length, dim]))
    return _done(op, cache, b, b.concat(parts, 0))  # the input itself when it is the whole cache


def paged_update_cache(op: TTOp) -> list[TTOp]:
    """The TTIR ops computing the cache after paged_update_cache `op` (see the module doc)."""
    groups = op.operand_groups()
    if groups["page_table"]:
        raise PassFailure(op, "'ttir.paged_update_cache' with a page table is not converted to D2M yet (a cache "
                              "row per user is)")
    cache, update, index = (groups[n][0] for n in ("cache", "input", "update_index"))
    batch, heads, length, dim = cache.type.get_shape()
    users = index.type.get_shape()[0]
    if users != batch:
        raise PassFailure(op, f"'ttir.paged_update_cache' of {users} users into a cache of {batch} rows is not "
                              "converted to D2M yet (a row per user is)")
    if length >= EXACT:
        raise PassFailure(op, f"'ttir.paged_update_cache' of a cache of {length} positions is not converted to D2M "
                              "yet (positions are compared in f32)")
    f32, element = Float32Type(), cache.type.element_type
    b = _Builder()
    position = index if index.type.element_type == f32 else b.add("typecast", [index], [users], f32)
    position = b.reshape(position, [users, 1, 1, 1])
    positions = b.add("arange", [], [1, 1, length, 1], f32, {
        "start": KINDS["si64"].build(0), "end": KINDS["si64"].build(length), "step": KINDS["si64"].build(1),
        "arange_dimension": KINDS["i64"].build(2)})
    mask = b.add("eq", [positions, position], [users, 1, length, 1], f32)
    if element != f32:
        mask = b.add("typecast", [mask], [users, 1, length, 1], element)
    token = b.reshape(update, [users, heads, 1, dim])
    shape = [batch, heads, length, dim]
    # the mask is widened over the heads only: `where` reads it along each row's last dim as it is
    mask = b.add("broadcast", [mask], [users, heads, length, 1], element, {
        "broadcast_dimensions": KINDS["i64_darray"].build([1, heads, 1, 1])})
    token = b.add("broadcast", [token], shape, element, {"broadcast_dimensions": KINDS["i64_darray"].build(
        [1, 1, length, 1])})
    made = _done(op, cache, b, b.add("where", [mask, token, cache], shape, element))
    return [m for m in made if m.name != "ttir.arange"]  # host data, as the pass keeps every arange


CACHE_UPDATES = {"fill_cache": fill_cache, "paged_update_cache": paged_update_cache}
