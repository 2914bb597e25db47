"""The program of a copy between row-major tensors kept at their rank (a slice cutting a matrix's last two dims,
`ttir_to_d2m/row_major.py`): one data-movement kernel per core of the output's virtual grid filling its shard in
place, row by row, from the source rows the view names, wherever they are.

The view's remapping is the op's logical map on the unit-grid forms, `(g..., s...) -> (0..., f(s...))`: output
element s (its logical index) holds source element f(s). For each row of its shard that is not padding a core
computes the source index of the row's first element, the source shard holding it (its grid index, the core that
grid index is laid onto row by row from the grid's first core, plus the chip's NoC translation offset) and the
element's offset in that shard (row-major), and NoC-reads the row's elements: a run per source shard the row's
elements lie in when the last dim is taken with step 1 (one when the source keeps its rows whole), else element by
element. Padding rows and columns are left as they are: the host reads the logical elements alone."""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IndexType, i32
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr

from ttmlir import hardware
from ttmlir.conversion.d2m_to_ttkernel.datamovement import affine_value
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import KernelOps, ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.programs import READER_CORE, Launch, ProgramKernels
from ttmlir.dialects import d2m, ttkernel
from ttmlir.errors import PassFailure


def linear_index(ops: KernelOps, index: list[SSAValue], shape: tuple[int, ...]) -> SSAValue:
    """Row-major linear index of `index` in `shape`."""
    total = index[0]
    for value, size in zip(index[1:], shape[1:]):
        total = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(total, ops.const(size, IndexType()))), value))
    return total


def unlinear_index(ops: KernelOps, linear: SSAValue, shape: tuple[int, ...]) -> list[SSAValue]:
    """Index `linear` of a row-major walk of `shape`, per dim."""
    out, stride = [], 1
    for size in reversed(shape):
        step = ops.emit(arith.DivUIOp(linear, ops.const(stride, IndexType()))) if stride > 1 else linear
        out.insert(0, ops.emit(arith.RemUIOp(step, ops.const(size, IndexType()))))
        stride *= size
    return out


def core_position(ops: KernelOps, layout: ShardLayout, y: SSAValue, x: SSAValue, grid: tuple[int, ...],
                  shard: tuple[int, ...]) -> tuple[list[SSAValue], SSAValue]:
    """The grid index (in `grid`'s dims) of the core at (y, x) of `layout`'s 2-d grid, and its shard's first column."""
    index = IndexType()
    mine = unlinear_index(ops, ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(y, ops.const(layout.grid[1], index))), x)),
                          grid)
    return mine, ops.emit(arith.MuliOp(mine[-1], ops.const(shard[-1], index)))


def shard_row(ops: KernelOps, r: SSAValue, core: list[SSAValue], shard: tuple[int, ...], logical: tuple[int, ...],
              first_column: SSAValue) -> tuple[list[SSAValue], SSAValue]:
    """Row `r` of the shard of the core at grid index `core`: its index in the tensor (the last dim the shard's first
    column), and whether the row and that column lie inside the tensor's `logical` shape (not in padding)."""
    index = IndexType()
    at = [ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(g, ops.const(size, index))), v))
          for g, size, v in zip(core, shard, unlinear_index(ops, r, shard[:-1]))]
    inside = ops.emit(arith.CmpiOp(first_column, ops.const(logical[-1], index), "ult"))
    for v, bound in zip(at, logical):
        inside = ops.emit(arith.AndIOp(inside, ops.emit(arith.CmpiOp(v, ops.const(bound, index), "ult"))))
    return at, inside


def _unit_step(expr: AffineExpr, dim: int) -> bool:
    """Whether `expr` is d<dim> plus a constant (consecutive output columns read consecutive source ones)."""
    if isinstance(expr, AffineDimExpr):
        return expr.position == dim
    return isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add and \
        _unit_step(expr.lhs, dim) and isinstance(expr.rhs, AffineConstantExpr)


def row_major_dims(layout: ShardLayout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A row-major layout's grid and shard (in elements), dim by dim."""
    grid, shard = layout.nd
    return grid, (*shard[:-2], shard[-2] * 32, shard[-1] * 32)


def run_reader(ops: KernelOps, chip: dict, source: ShardLayout, base: SSAValue):
    """`read(body, at, near, elements)`: `elements` elements of row-major `source` (its shards at `base`) from
    index `at` on, within one of its shards' rows, NoC-read into L1 at `near` (constants emitted into `ops`)."""
    index = IndexType()
    unit = int(hardware.DTYPE_BYTES[source.dtype])
    src_grid, src_shard = row_major_dims(source)
    offset_y, offset_x = (ops.const(o + g, index) for o, g in zip(chip["coord_translation_offsets"], source.origin))
    columns = (source.fold or source.grid)[1]

    def read(body: KernelOps, at: list[SSAValue], near: SSAValue, elements: SSAValue) -> None:
        def c(v: int) -> SSAValue:
            return body.const(v, index)

        held = [body.emit(arith.DivUIOp(v, c(s))) for v, s in zip(at, src_shard)]
        within = [body.emit(arith.RemUIOp(v, c(s))) for v, s in zip(at, src_shard)]
        core = linear_index(body, held, src_grid)
        noc_y = body.emit(arith.AddiOp(body.emit(arith.DivUIOp(core, c(columns))), offset_y))
        noc_x = body.emit(arith.AddiOp(body.emit(arith.RemUIOp(core, c(columns))), offset_x))
        offset = body.emit(arith.MuliOp(linear_index(body, within, src_shard), c(unit)))
        far = body.emit(arith.AddiOp(base, body.emit(arith.IndexCastOp(offset, i32))))
        size = body.emit(arith.IndexCastOp(body.emit(arith.MuliOp(elements, c(unit))), i32))
        body.append(ttkernel.NocAsyncReadOp.create(
            operands=[noc_x, noc_y, far, near, size, body.noc],
            properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [2, 0, 1, 1, 1, 1])}))

    return read


def gather_rows(chip: dict, source: ShardLayout, layout: ShardLayout, remapping, logical_out: tuple[int, ...],
                port: SSAValue, base: SSAValue, ops: KernelOps) -> None:
    """The kernel's ops into `ops`: this core's output shard (its CB at `port`) filled from the source whose shards
    are at `base` (see the module doc)."""
    index = IndexType()
    n = len(logical_out)
    unit = int(hardware.DTYPE_BYTES[source.dtype])
    grid, shard = row_major_dims(layout)
    src_grid, src_shard = row_major_dims(source)
    logical = [e.replace_dims_and_symbols([AffineExpr.constant(0)] * n + [AffineExpr.dimension(k) for k in range(n)],
                                          []) for e in remapping.results[n:]]
    runs = _unit_step(logical[-1], n - 1)
    # the source shards a run of this shard's row can cross: one when the source keeps its rows whole
    pieces = 1 if src_grid[-1] == 1 else -(-shard[-1] // src_shard[-1]) + 1
    count = ops.const(layout.tiles)
    ops.call("cb_reserve_back", port, count)
    local = ops.call("get_write_ptr", port, result=i32)
    y, x = ops.coords(layout)
    mine, first_column = core_position(ops, layout, y, x, grid, shard)
    read = run_reader(ops, chip, source, base)

    def c(body: KernelOps, v: int) -> SSAValue:
        return body.const(v, index)

    def near_of(body: KernelOps, element: SSAValue) -> SSAValue:
        """The L1 address of element `element` of this core's shard (row-major)."""
        return body.emit(arith.AddiOp(local, body.emit(arith.IndexCastOp(
            body.emit(arith.MuliOp(element, c(body, unit))), i32))))

    def row(body: KernelOps, r: SSAValue) -> None:
        out_index, inside = shard_row(body, r, mine, shard, logical_out, first_column)
        start = body.emit(arith.MuliOp(r, c(body, shard[-1])))

        def copy(then: KernelOps) -> None:
            if not runs:  # a strided last dim: element by element
                def element(each: KernelOps, k: SSAValue) -> None:
                    column = each.emit(arith.AddiOp(first_column, k))
                    at = [affine_value(each, e, [*out_index, column]) for e in logical]
                    each.if_else(each.emit(arith.CmpiOp(column, c(each, logical_out[-1]), "ult")),
                                 lambda ok: read(ok, at, near_of(ok, ok.emit(arith.AddiOp(start, k))), c(ok, 1)),
                                 lambda _: None)

                then.loop(shard[-1], element)
                return
            # the row's logical elements in this shard, consecutive in the source's row: read a run per source
            # shard they lie in
            width = then.emit(arith.MinUIOp(c(then, shard[-1]),
                                            then.emit(arith.SubiOp(c(then, logical_out[-1]), first_column))))
            at = [affine_value(then, e, [*out_index, first_column]) for e in logical]
            begin, end = at[-1], then.emit(arith.AddiOp(at[-1], width))
            first_shard = then.emit(arith.DivUIOp(begin, c(then, src_shard[-1])))

            def piece(each: KernelOps, p: SSAValue) -> None:
                held = each.emit(arith.AddiOp(first_shard, p))
                low = each.emit(arith.MaxUIOp(begin, each.emit(arith.MuliOp(held, c(each, src_shard[-1])))))
                high = each.emit(arith.MinUIOp(end, each.emit(arith.MuliOp(
                    each.emit(arith.AddiOp(held, c(each, 1))), c(each, src_shard[-1])))))
                each.if_else(each.emit(arith.CmpiOp(low, high, "ult")), lambda ok: read(
                    ok, [*at[:-1], low], near_of(ok, ok.emit(arith.AddiOp(start, ok.emit(arith.SubiOp(low, begin))))),
                    ok.emit(arith.SubiOp(high, low))), lambda _: None)

            if pieces == 1:
                piece(then, c(then, 0))
            else:
                then.loop(pieces, piece)

        body.if_else(inside, copy, lambda _: None)

    ops.loop(math.prod(shard[:-1]), row)
    ops.barrier("read")
    ops.call("cb_push_back", port, count)


def launch_view_gather(builder: ProgramKernels, generic: d2m.GenericOp, out: SSAValue, tiled: bool,
                       gather) -> Launch:
    """The program of copy generic `generic` reading a view of a tensor kept at its rank (in tiles or row-major, as
    `out` is) into `out`: the kernel `gather(chip, source, layout, remapping, port, base, ops)` builds, on
    data-movement core 1 (NoC 0), its CB the output's own shard."""
    what = "tiles" if tiled else "a row-major tensor"
    loads = [op for op in generic.region.walk() if isinstance(op, d2m.RemoteLoadOp)]
    view = loads[0].source.owner if len(loads) == 1 else None
    if not isinstance(view, d2m.ViewLayoutOp):
        raise PassFailure(generic, f"a program writing {what} kept at its rank copies a view of {what}")
    source = view.input
    src, layout = builder.layout_of(source), builder.layout_of(out)
    if src.nd is None or src.tiled != tiled or src.dtype != layout.dtype or \
            (tiled and len(src.nd[0]) != len(layout.nd[0])):
        raise PassFailure(generic, f"a copy of {what} kept at its rank reads {what} kept at its rank, of its own type")
    cbs = [builder.cb_of(out, generic)]
    plan, spec = builder.dm_args([0], [0], [src, layout])
    ops = KernelOps(0, plan)
    port = ops.arg(0, ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile))
    gather(builder.chip, src, layout, view.remapping.data, port, ops.address(1), ops)
    kernel = builder.kernel("datamovement", "noc", ops, spec)
    return Launch([source, out], cbs, [d2m.ThreadAttr.get("datamovement", kernel, READER_CORE)])


def launch_row_major_gather(builder: ProgramKernels, generic: d2m.GenericOp, out: SSAValue) -> Launch:
    """The program of copy generic `generic` reading a view of a row-major tensor into row-major `out`: the kernel
    above."""
    logical = tuple(out.type.encoding.data.logical_shape)
    return launch_view_gather(builder, generic, out, False, lambda chip, src, layout, remapping, port, base, ops:
                              gather_rows(chip, src, layout, remapping, logical, port, base, ops))
