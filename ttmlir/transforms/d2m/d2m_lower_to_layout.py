"""`--d2m-lower-to-layout`: each `d2m.to_layout` between two tensors becomes the steps that move it, planned as
upstream plans them and the plan minimized (a tilize then untilize back to the same type cancels, two reshards in a
row are the second):

- host to device: `d2m.to_device` into the target's layout (row-major), in the target's memory;
- DRAM to L1, and back: a copy generic between the two grids (the remote side seen through a `d2m.view_layout` of
  the other's shape), through L1 when DRAM is reblocked;
- tilize, untilize: a generic on the tensor's grid whose region turns each block with `d2m.tile_tilize_block` or
  `d2m.tile_untilize_block`;
- a change of grid, alignments or collapsing in L1: a view of the source in the target's layout and a copy generic
  (tilized blocks that do not line up go through rows: untilize, reshard, tilize);
- device to host: `d2m.to_host`.

Every intermediate tensor is a `d2m.empty` made before the to_layout; the last step writes the to_layout's own
output. Virtual grids (a d2m.empty's mappings) are kept: a tensor made on the target's grid takes the target's
mappings, one made on the grid the data is on keeps that grid's, each generic runs on the virtual grid of what it
writes (an L1 tensor's move to DRAM on its own), and the same data moved between two virtual grids is copied
(rebuffered). A to_layout this build does not plan (a 1-d tensor, a view between layouts placing elements
differently) is refused naming what it moves."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.conversion.ttir_to_d2m.ttir_to_d2m import build_generic
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_mask import MaskOp
from ttmlir.dialects.d2m_tilize import TileTilizeBlockOp, TileUntilizeBlockOp
from ttmlir.errors import PassFailure, derive
from ttmlir.ir.syntax import affine_map_str
from ttmlir.dialects.ttcore_alignments import collapsed_intervals
from ttmlir.transforms.d2m.memory_maps import is_logical_view, logical_view_refusal
from ttmlir.transforms.d2m.reblock import reblock_map
from ttmlir.dialects.ttnn_attrs import element_type_for

TILE = (32, 32)


def _layout(t: Attribute) -> ttcore.MetalLayout | None:
    encoding = getattr(t, "encoding", None)
    return encoding.data if isinstance(encoding, ttcore.MetalLayoutAttr) else None


def _tiled(t: TensorType) -> bool:
    return isinstance(t.element_type, ttcore.TileType)


def _grid(t: TensorType) -> tuple[int, ...]:
    shape = t.get_shape()
    return tuple(shape[:len(shape) // 2])


def _scalar(element: Attribute) -> Attribute:
    """A tile's elements as rows hold them: a block float's in f32 or bf16, as its exponent width says."""
    if not isinstance(element, ttcore.TileType):
        return element
    if element.dtype.startswith("bfp_"):
        return element_type_for("bf16" if element.dtype.startswith("bfp_bf") else "f32")
    return element_type_for(element.dtype)


def physical_shape(layout: ttcore.MetalLayout) -> tuple[int, ...]:
    """The layout's rows and columns (or one dim per collapsed interval): each interval's dims collapsed, each dim
    padded to its alignment as it joins."""
    shape, align = layout.logical_shape, layout.dim_alignments
    dims = []
    for start, end in collapsed_intervals(layout):
        collapsed = 1
        for d in range(end - 1, start - 1, -1):
            collapsed = -(-collapsed * shape[d] // align[d]) * align[d]
        dims.append(collapsed)
    return tuple(dims)


def device_type(layout: ttcore.MetalLayout, grid: tuple[int, ...], element: Attribute) -> TensorType:
    """The device tensor of `layout` on `grid`: the grid followed by each core's shard (in tiles when `element`
    is a tile)."""
    physical = physical_shape(layout)
    shard = [-(-p // g) for p, g in zip(physical, grid)]
    if isinstance(element, ttcore.TileType):
        shard[-2:] = [-(-shard[-2] // element.dims[0]), -(-shard[-1] // element.dims[1])]
    return TensorType(element, [*grid, *shard], ttcore.MetalLayoutAttr(layout))


def _placement(layout: ttcore.MetalLayout) -> ttcore.MetalLayout:
    """What places a layout's elements physically (its logical shape, alignments and collapsing)."""
    return replace(layout, memory_space="", memory_layout="")


@dataclass(frozen=True)
class Step:
    kind: str  # to_device, to_host, dram_to_l1, l1_to_dram, tilize, untilize, reshard
    output: TensorType
    source: TensorType | None = None  # the input type a tilize or untilize starts from (for cancelling)


def plan(src: TensorType, dst: TensorType, op: Operation) -> list[Step]:
    """The steps moving a `src` tensor into a `dst` one, in upstream's order."""
    steps: list[Step] = []
    cur = src
    target = _layout(dst)
    if _layout(cur) is None and target is not None:
        if _tiled(cur):
            raise PassFailure(op, "a tiled host tensor is not moved to the device by d2m-lower-to-layout")
        cur = device_type(target, _grid(dst), cur.element_type)
        steps.append(Step("to_device", cur))
    layout = _layout(cur)
    if layout is not None and target is not None:
        if layout.memory_space == "dram" and target.memory_space == "dram" and cur != dst:
            same_place = _grid(cur) == _grid(dst) and _placement(layout) == _placement(target) and \
                layout.memory_layout == target.memory_layout
            if not (same_place and _tiled(cur) != _tiled(dst)):  # DRAM is reblocked through L1
                cur = TensorType(cur.element_type, cur.get_shape(), ttcore.MetalLayoutAttr(
                    replace(layout, memory_space="l1")))
                steps.append(Step("dram_to_l1", cur))
                layout = _layout(cur)
        if layout.memory_space == "dram" and target.memory_space != "dram":
            grid = _grid(dst) if layout.memory_layout == "interleaved" else _grid(cur)
            cur = device_type(replace(target, memory_space="l1"), grid, cur.element_type)
            steps.append(Step("dram_to_l1", cur))
        if not _tiled(cur) and _tiled(dst):
            tiled = device_type(_layout(cur), _grid(cur), dst.element_type)
            steps.append(Step("tilize", tiled, cur))
            cur = tiled
        if _tiled(cur) and not _tiled(dst):
            scalar = device_type(_layout(cur), _grid(cur), dst.element_type)
            steps.append(Step("untilize", scalar, cur))
            cur = scalar
        layout = _layout(cur)
        if layout.memory_space != "dram" and target.memory_space == "dram" and \
                math.prod(cur.get_shape()) == math.prod(dst.get_shape()) and _tiled(cur) == _tiled(dst):
            steps.append(Step("l1_to_dram", dst))
            cur = dst
        layout = _layout(cur)
        if layout.memory_space == "l1" and _tiled(cur) == _tiled(dst) and (
                _grid(cur) != _grid(dst) or _placement(layout) != _placement(target)):
            simple = _placement(layout) == _placement(target) and \
                math.prod(cur.get_shape()) == math.prod(dst.get_shape())
            l1_target = replace(target, memory_space="l1")
            if _tiled(cur) and not simple:  # tiles that do not line up are resharded as rows
                scalar = _scalar(cur.element_type)
                shape = list(cur.get_shape())
                shape[-2:] = [shape[-2] * cur.element_type.dims[0], shape[-1] * cur.element_type.dims[1]]
                rows = TensorType(scalar, shape, cur.encoding)
                steps.append(Step("untilize", rows, cur))
                resharded = device_type(l1_target, _grid(dst), scalar)
                steps.append(Step("reshard", resharded))
                cur = device_type(l1_target, _grid(dst), dst.element_type)
                steps.append(Step("tilize", cur, resharded))
            else:
                cur = TensorType(cur.element_type, dst.get_shape(), ttcore.MetalLayoutAttr(l1_target))
                steps.append(Step("reshard", cur))
        if _layout(cur).memory_space != "dram" and target.memory_space == "dram":
            steps.append(Step("l1_to_dram", dst))
            cur = dst
    if layout is not None and target is None:
        if _tiled(cur):
            scalar = device_type(_layout(cur), _grid(cur), dst.element_type)
            steps.append(Step("untilize", scalar, cur))
        steps.append(Step("to_host", dst))
    return minimize(steps)


def minimize(steps: list[Step]) -> list[Step]:
    """Drop a tilize and untilize that return to the type they started from; two reshards are the second."""
    changed = True
    while changed:
        changed = False
        for i in range(len(steps) - 1):
            a, b = steps[i], steps[i + 1]
            if {a.kind, b.kind} == {"tilize", "untilize"} and a.source is not None and a.source == b.output:
                del steps[i:i + 2]
                changed = True
                break
            if a.kind == b.kind == "reshard":
                del steps[i]
                changed = True
                break
    return steps


def _same_positions(a: ttcore.MetalLayout, b: ttcore.MetalLayout) -> bool:
    """Whether two layouts put every logical element at the same physical coordinates: the same logical shape and
    collapsing, the same alignments but for each collapsed group's outermost dim (which only pads its end)."""
    if a.logical_shape != b.logical_shape or collapsed_intervals(a) != collapsed_intervals(b):
        return False
    return all(a.dim_alignments[d] == b.dim_alignments[d] for start, end in collapsed_intervals(a)
               for d in range(start + 1, end))


def physical_map(source: tuple[int, ...], target: tuple[int, ...]) -> AffineMap:
    """The map from an index of a `target`-shaped device tensor to a `source`-shaped one placing elements alike
    (other grids, other padding): each physical dim's coordinate, grid times shard plus offset, is the same in
    both."""
    rank = len(target) // 2
    grid, shard = [], []
    for i in range(rank):
        whole = AffineExpr.dimension(i) * target[rank + i] + AffineExpr.dimension(rank + i)
        grid.append(whole // source[rank + i])
        shard.append(whole % source[rank + i])
    return AffineMap(2 * rank, 0, tuple([*grid, *shard]))


def _packing(layout: ttcore.MetalLayout) -> tuple[list[int], list[int]]:
    """Each logical dim's stride within its collapsed interval (the padded size of the dims after it there) and
    its own padded size with those dims."""
    shape, align = layout.logical_shape, layout.dim_alignments
    strides, sizes = [1] * len(shape), [1] * len(shape)
    for start, end in collapsed_intervals(layout):
        size = 1
        for d in range(end - 1, start - 1, -1):
            strides[d] = size
            size = -(-shape[d] * size // align[d]) * align[d]
            sizes[d] = size
    return strides, sizes


def _in_tiles(t: TensorType) -> ttcore.MetalLayout | None:
    """`t`'s layout counted in its elements: for a tensor of tiles, the matrix dims (and the padding of the dims
    collapsed with them) in tiles; None when some padding is not whole tiles."""
    layout = _layout(t)
    if not _tiled(t):
        return layout
    shape, align = list(layout.logical_shape), list(layout.dim_alignments)
    rank = len(shape)
    for (start, end), tile in zip(collapsed_intervals(layout)[-2:], t.element_type.dims):
        if end - 1 < rank - 2:
            return None
        shape[end - 1] = -(-shape[end - 1] // tile)
        for d in range(start, end):
            if (d == end - 1 or align[d] > 1) and align[d] % tile:
                return None
            align[d] = align[d] // tile if d == end - 1 or align[d] > 1 else 1
    return replace(layout, logical_shape=tuple(shape), dim_alignments=tuple(align))


def layout_map(source: TensorType, target: TensorType) -> AffineMap:
    """The map from an index of device tensor `target` to the index of the same logical element (or tile) in
    `source`, of the same logical shape laid out otherwise (other collapsing, padding or grid): the target's
    physical coordinates unpacked into logical indices, packed again as the source's layout packs them."""
    t_layout, s_layout = _in_tiles(target), _in_tiles(source)
    t_shape, s_shape = target.get_shape(), source.get_shape()
    t_rank, s_rank = len(t_shape) // 2, len(s_shape) // 2
    (t_strides, t_sizes), (s_strides, _) = _packing(t_layout), _packing(s_layout)
    logical: list[AffineExpr] = []
    for k, (start, end) in enumerate(collapsed_intervals(t_layout)):
        physical = AffineExpr.dimension(k) * t_shape[t_rank + k] + AffineExpr.dimension(t_rank + k)
        for d in range(start, end):
            index = physical if d == start else physical % t_sizes[d]
            logical.append(index // t_strides[d] if t_strides[d] > 1 else index)
    grid, shard = [], []
    for m, (start, end) in enumerate(collapsed_intervals(s_layout)):
        physical = AffineExpr.constant(0)
        for d in range(start, end):
            physical = physical + logical[d] * s_strides[d]
        grid.append(physical // s_shape[s_rank + m])
        shard.append(physical % s_shape[s_rank + m])
    return AffineMap(2 * t_rank, 0, tuple([*grid, *shard]))


def _virtual_attrs(value: SSAValue) -> dict:
    """The virtual grid mappings a tensor's d2m.empty was made with (none: {})."""
    owner = value.owner
    if not isinstance(owner, d2m.EmptyOp):
        return {}
    return {k: v for k, v in owner.attributes.items() if k.startswith("virtualGrid")}


def _virtual_grid(attrs: dict, rank: int) -> tuple[str, str]:
    """A virtual grid's maps: virtual core to physical (device 0, the forward mapping's core coordinates at shard
    offset 0) and physical to virtual (the inverse)."""
    forward = attrs["virtualGridForwardMapping"].data
    at = [AffineExpr.dimension(i) for i in range(rank)] + [AffineExpr.constant(0)] * (forward.num_dims - rank)
    cores = [r.replace_dims_and_symbols(at, []) for r in forward.results[:2]]
    to_physical = AffineMap(rank, 0, (AffineExpr.constant(0), *cores))
    return affine_map_str(to_physical), affine_map_str(attrs["virtualGridInverseMapping"].data)


def _identity(rank: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap.identity(rank))


class _Emitter:
    """Writes a plan's steps before a to_layout, each into a new d2m.empty (the last into the op's output)."""

    def __init__(self, op: d2m.ToLayoutOp):
        self.op = op
        self.ops: list[Operation] = []

    def destination(self, t: TensorType, last: bool, virtual: dict | None = None) -> SSAValue:
        if last and self.op.output.type == t:
            return self.op.output
        empty = d2m.EmptyOp.create(result_types=[t], attributes=dict(virtual or {}))
        self.ops.append(empty)
        return empty.result

    def on_virtual_grid(self, virtual: dict, rank: int) -> None:
        """The generic just made runs on the virtual grid `virtual` maps (if any)."""
        if virtual:
            grid = _grid(self.ops[-1].outputs[0].type)
            self.ops[-1].attributes["grid"] = ttcore.GridAttr(ttcore.Grid(grid, _virtual_grid(virtual, rank), True))

    def view(self, value: SSAValue, t: TensorType) -> SSAValue:
        """`value` seen in the shape of `t` (its own layout kept); a view of a view is one view of the first's
        input, the two maps composed."""
        source, target = tuple(value.type.get_shape()), tuple(t.get_shape())
        a, b = _layout(value.type), _layout(t)
        if _placement(a) == _placement(b) and math.prod(source) == math.prod(target):
            remapping = reblock_map(source, target)  # the same layout reblocked: elements in the same order
        elif len(source) == len(target) and _same_positions(a, b):
            remapping = physical_map(source, target)
        elif a.logical_shape == b.logical_shape and _tiled(value.type) == _tiled(t) and \
                None not in (_in_tiles(value.type), _in_tiles(t)):
            remapping = layout_map(value.type, t)  # each element (tile) found where its layout puts it
        else:
            raise PassFailure(self.op, f"d2m-lower-to-layout does not remap {value.type} onto the shape of {t} "
                                       "yet (views between layouts placing elements differently)")
        base = value
        if isinstance(value.owner, d2m.ViewLayoutOp):
            base = value.owner.input
            remapping = value.owner.remapping.data.compose(remapping)
        shaped = TensorType(value.type.element_type, t.get_shape(), value.type.encoding)
        view = d2m.ViewLayoutOp.create(operands=[base], result_types=[shaped],
                                       properties={"remapping": AffineMapAttr(remapping)})
        self.ops.append(view)
        return view.result

    def generic(self, source: SSAValue, out: SSAValue, compute) -> SSAValue:
        rank = len(out.type.get_shape()) // 2
        generic = build_generic([source], out, [_identity(rank)] * 2, ["parallel"] * rank, compute,
                                _grid(out.type))
        self.ops.append(generic)
        return generic.results[0]

    def emit(self, steps: list[Step]) -> SSAValue:
        """The steps' ops; a tensor made on the target's grid takes its virtual grid mappings (if any), one made on
        the grid the data is on keeps that grid's, and each generic runs on the virtual grid of what it writes (a
        move to DRAM: of what it reads)."""
        cur = self.op.input
        virtual = _virtual_attrs(cur)
        target = _virtual_attrs(self.op.output)
        dst_grid = _grid(self.op.output.type) if _layout(self.op.output.type) is not None else None

        def on_target(t: TensorType) -> dict:
            return target if _layout(t) is not None and _grid(t) == dst_grid else {}

        for i, step in enumerate(steps):
            last = i == len(steps) - 1
            rank = len(step.output.get_shape()) // 2
            if step.kind in ("to_device", "to_host"):
                virtual = on_target(step.output) if step.kind == "to_device" else {}
                out = self.destination(step.output, last, virtual)
                device = step.output if step.kind == "to_device" else cur.type
                cls = d2m.ToDeviceOp if step.kind == "to_device" else d2m.ToHostOp
                moved = cls.create(operands=[cur, out], result_types=[out.type],
                                   properties={"layout": device.encoding})
                self.ops.append(moved)
                cur = moved.results[0]
            elif step.kind in ("tilize", "untilize"):  # on the same cores
                out = self.destination(step.output, last, virtual)
                cls = TileTilizeBlockOp if step.kind == "tilize" else TileUntilizeBlockOp

                def convert(ops, loaded, local, maps, cls=cls):
                    made = cls.create(operands=[loaded[0], local], result_types=[local.type])
                    ops.append(made)
                    return made.results[0]

                cur = self.generic(cur, out, convert)
                self.on_virtual_grid(virtual, rank)
            elif step.kind == "l1_to_dram":  # on the L1 tensor's cores (its virtual grid's, if it has one)
                out = self.destination(step.output, last)
                dram = out if _grid(out.type) == _grid(cur.type) else self.view(out, cur.type)
                written = self.generic(cur, dram, lambda ops, loaded, local, maps: loaded[0])
                self.on_virtual_grid(virtual, len(cur.type.get_shape()) // 2)
                cur = written if dram is out else self.view(written, out.type)
                virtual = {}
            else:  # dram_to_l1, reshard, rebuffer: the source read on the destination's grid
                virtual = on_target(step.output)
                out = self.destination(step.output, last, virtual)
                same = cur.type.get_shape() == out.type.get_shape()
                source = cur if same and step.kind != "reshard" else self.view(cur, out.type)
                cur = self.generic(source, out, lambda ops, loaded, local, maps: loaded[0])
                self.on_virtual_grid(virtual, rank)
        return cur


def _retype_mask(mask: MaskOp, t: TensorType) -> None:
    """`mask` writing a tensor of type `t` (its input's): its output buffer (a d2m.empty, keeping its virtual grid
    maps) and its result retyped."""
    for value in (mask.output, mask.result):
        if value.type != t:
            if isinstance(value.owner, d2m.EmptyOp) and len(list(value.uses)) > 1:
                raise PassFailure(mask, "d2m-lower-to-layout retypes this mask's output, which other ops use")
            Rewriter.replace_value_with_new_type(value, t)


@dataclass(frozen=True)
class D2MLowerToLayoutPass(ModulePass):
    """Each d2m.to_layout as the steps that move it (see the module doc)."""

    name: ClassVar[str] = "d2m-lower-to-layout"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for view in (o for o in op.walk() if isinstance(o, d2m.ViewLayoutOp) and is_logical_view(o)):
            raise PassFailure(view, logical_view_refusal(view.remapping.data))
        for to_layout in [o for o in op.walk() if isinstance(o, d2m.ToLayoutOp) and o.result is not None]:
            src, dst = to_layout.input.type, to_layout.output.type
            for t in (src, dst):
                layout = _layout(t)
                if layout is not None and len(layout.logical_shape) < 2:
                    raise PassFailure(to_layout, f"d2m-lower-to-layout does not lower a to_layout of a 1-d tensor "
                                                 f"({t}) yet")
            if _layout(src) is None and _layout(dst) is None:
                raise PassFailure(to_layout, "a d2m.to_layout between two host tensors is not lowered")
            steps = plan(src, dst, to_layout)
            virtual = (_virtual_attrs(to_layout.input), _virtual_attrs(to_layout.output))
            if not steps and virtual[0] != virtual[1]:  # the same data on another virtual grid
                steps = [Step("rebuffer", dst)]
            if not steps:  # the same data: the input as it is
                to_layout.result.replace_all_uses_with(to_layout.input)
                Rewriter.erase_op(to_layout)
                continue
            emitter = _Emitter(to_layout)
            result = emitter.emit(steps)
            masks = [use.operation for use in to_layout.result.uses if isinstance(use.operation, MaskOp)]
            if result.type != to_layout.result.type and len(masks) != len(list(to_layout.result.uses)):
                raise PassFailure(to_layout, f"d2m-lower-to-layout makes {result.type} of this to_layout, not its "
                                             f"{to_layout.result.type} (its layout lays the tensor out otherwise)")
            derive([inner for made in emitter.ops for inner in made.walk()], to_layout)
            Rewriter.insert_op(emitter.ops, InsertPoint.before(to_layout))
            to_layout.result.replace_all_uses_with(result)
            for mask in masks:  # a mask of the tensor as it was declared: it masks the tensor as it is made
                _retype_mask(mask, result.type)
            source = to_layout.input.owner
            Rewriter.erase_op(to_layout)
            if isinstance(source, d2m.ViewLayoutOp) and not source.result.uses:  # composed into the new views
                Rewriter.erase_op(source)
