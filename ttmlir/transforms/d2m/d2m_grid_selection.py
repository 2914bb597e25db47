"""`--d2m-grid-selection`: each generic `--ttir-to-d2m` left on a 1x1 grid moved onto the largest grid that divides
its output's tiles and fits the device's worker grid (or, when that leaves over half the device idle, a column or row
of shards laid onto a rectangle of cores: a virtual grid, its maps on the tensors' d2m.empty and on the generic's
grid), its operands re-blocked as their indexing maps read them: an elementwise operand on the output's grid
(transposed for a transpose), a matmul's A in the output's grid rows (all of K per core), B in its columns, an operand
broadcast or reduced along a dim whole along it; a tensor kept at its rank (collapse-tensors-2d=false) has a grid dim
per batch dim, a matrix's shard along each; one kept at its rank copied from a view (a slice or permute: in row-major
elements where it cuts tiles, in tiles where it keeps each matrix whole), and the tensor it views, each the virtual
grid of its rank upstream's computeOptimalVirtualGrid gives it, with its maps. Every type along the way follows: the
device tensors (their d2m.empty and to_layout), the blocks the region loads and stores. A TTNN tensor (ttnn-mode) stays where TTNN holds it and is read
through a view reblocking it onto the grid. Generics inside a d2m.spatial keep the grids their core ranges give them,
with the maps of the cores their outputs are on; one in explicit data-movement form (no indexing maps) keeps the grid
its author gave it.

Out of ttnn-mode a 2-d tiled tensor's tiles are padded before its grid is chosen, as upstream's
computeGridAwareDimAlignments pads them (a dim past a tile per core of the device's matching dim to a multiple of that
many tiles, at the tensor's end), and each tensor is laid out for the grid it is then on (upstream's
computeSelectedGridDimAlignments: a dim on one core keeps tile alignment): `dialects/ttcore_alignments.py`. In
ttnn-mode tensors keep tile alignment, as TTNN lays them out."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.ttcore_alignments import (collapsed_intervals, compute_grid_aware_dim_alignments,
                                               compute_selected_grid_dim_alignments, physical_shape)
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttcore.register_device import device_module_of
from ttmlir.ir.syntax import affine_map_str
from ttmlir.transforms.d2m.reblock import reblock_view
from ttmlir.transforms.d2m.topk_sharding import chain_generics, leaves, plan_topk
from ttmlir.transforms.d2m.virtual_grid import (core_virt_maps, grid_maps_of, legal_cores, nd_virtual_grid,
                                               needs_virtual_grid, virtual_grid)

TILE = 32
VGM_KEYS = ("virtualGridForwardMapping", "virtualGridInverseMapping")


def grid_for(tiles: tuple[int, int], device: tuple[int, int]) -> tuple[int, int]:
    """The grid a tensor of `tiles` (rows, cols) is computed on: the largest that divides them and fits `device`."""
    return tuple(max(d for d in range(1, min(n, limit) + 1) if n % d == 0) for n, limit in zip(tiles, device))


def optimal_grid(tiles: tuple[int, int], device: tuple[int, int]) -> tuple[int, int]:
    """The grid a matrix of `tiles` is computed on (upstream's computeOptimalGrid): the largest that divides them and
    fits the device, unless that leaves over half the device idle and a column or row of shards on a rectangle of
    cores (a virtual grid) uses more than a quarter of it."""
    block = grid_for(tiles, device)
    if block[0] * block[1] * 2 < device[0] * device[1]:
        return virtual_grid(tiles, device) or block
    return block


def _regridded(t: TensorType, grid: tuple[int, ...]) -> TensorType:
    shape, n = t.get_shape(), len(grid)
    tiles = [shape[i] * shape[n + i] for i in range(n)]
    return TensorType(t.element_type, [*grid, *(total // g for total, g in zip(tiles, grid))], t.encoding)


def _aligned(t: TensorType) -> bool:
    """Whether the layout of device tensor `t` is padded for the grid it is placed on (a tiled tensor collapsed to
    2-d in a metal layout: upstream's grid-aware dim alignments); TTNN tensors and row-major or ranked ones keep
    tile alignment."""
    return isinstance(t.encoding, ttcore.MetalLayoutAttr) and isinstance(t.element_type, ttcore.TileType) and \
        len(t.get_shape()) == 4 and len(collapsed_intervals(t.encoding.data)) == 2


def _grid_aware_tiles(t: TensorType, device: tuple[int, int]) -> tuple[int, int]:
    """The tiles of 2-d device tensor `t` padded as upstream pads it to choose its grid: each dim larger than a
    tile per core of the device's matching dim aligned to that many tiles."""
    layout = t.encoding.data
    groups = collapsed_intervals(layout)
    alignments = compute_grid_aware_dim_alignments(layout.logical_shape, device, groups)
    return tuple(n // TILE for n in physical_shape(layout.logical_shape, alignments, groups))


def _laid_out(t: TensorType, grid: tuple[int, ...]) -> TensorType:
    """Device tensor `t` on `grid`: a 2-d tiled one with its layout's alignments for that grid (each dim split over
    several cores padded to whole tiles per core, at the end of the tensor), any other regridded as it is."""
    if not _aligned(t):
        return _regridded(t, grid)
    layout = t.encoding.data
    groups = collapsed_intervals(layout)
    alignments = compute_selected_grid_dim_alignments(layout.logical_shape, groups, grid)
    tiles = [n // TILE for n in physical_shape(layout.logical_shape, alignments, groups)]
    encoding = ttcore.MetalLayoutAttr(replace(layout, dim_alignments=alignments))
    return TensorType(t.element_type, [*grid, *(total // g for total, g in zip(tiles, grid))], encoding)


def _shard(t: Attribute) -> TensorType:
    return TensorType(t.element_type, t.get_shape()[len(t.get_shape()) // 2:])


def _ranked_grid(shard: tuple[int, ...], device: tuple[int, int]) -> tuple[int, ...]:
    """The grid of a tensor kept at its rank: a grid dim per batch dim (a shard of one matrix along each), each
    matrix's tiles over the largest grid that divides them and fits the device's rows shared among the batch."""
    batch = shard[:-2]
    count = 1
    for b in batch:
        count *= b
    return (*batch, *grid_for(tuple(shard[-2:]), (max(1, device[0] // count), device[1])))


def _units(t: TensorType) -> tuple[int, ...]:
    """A device tensor's dims kept at its rank as upstream's virtual grid divides them: the last two in whole
    tiles."""
    physical = t.get_shape()[len(t.get_shape()) // 2:]
    if isinstance(t.element_type, ttcore.TileType):
        return tuple(physical)
    return (*physical[:-2], *(-(-n // TILE) for n in physical[-2:]))


def _copies_view(generic: d2m.GenericOp) -> bool:
    """Whether `generic` reads a view of a tensor (a slice's or permute's copy)."""
    return any(isinstance(v.owner, d2m.ViewLayoutOp) for v in generic.inputs)


def _place_view_sources(generic: d2m.GenericOp, device: tuple[int, int]) -> None:
    """The tensors kept at their rank a generic reads through views, each on a virtual grid of its own rank (the
    view reads any element or tile wherever it is)."""
    for value in generic.inputs:
        if isinstance(value.owner, d2m.ViewLayoutOp):
            source = value.owner.input
            shape = source.type.get_shape()
            if set(shape[:len(shape) // 2]) == {1}:
                grid = nd_virtual_grid(_units(source.type), device)
                _place(source, _regridded(source.type, grid), device, True)


def _retype(value: SSAValue, new: Attribute) -> SSAValue:
    return value if value.type == new else Rewriter.replace_value_with_new_type(value, new)


def _place(value: SSAValue, new: Attribute, device: tuple[int, int], virtual: bool = False) -> None:
    """A generic's operand and what made it on `new`'s grid: a move's destination d2m.empty, a mask's input and
    output (masked where its input lies), then the tensor itself (`virtual`: a tiled grid kept at its rank is laid
    onto the cores by virtual grid maps)."""
    owner = value.owner
    if isinstance(owner, d2m.ViewLayoutOp) and value.type != new:
        _regrid_remapping(owner, value.type, new)
    if isinstance(owner, d2m.MaskOp):
        _place(owner.input, new, device, virtual)
    if isinstance(owner, (d2m.ToLayoutOp, d2m.ToDeviceOp, d2m.MaskOp)):
        _place(owner.output, new, device, virtual)
    if isinstance(owner, d2m.EmptyOp):
        _map_cores(owner, tuple(new.get_shape()[:len(new.get_shape()) // 2]), device, virtual)
    _retype(value, new)


def _regrid_remapping(view: d2m.ViewLayoutOp, old: TensorType, new: TensorType) -> None:
    """A view of whole tiles `ttir-to-d2m` made on the unit grid (a slice's, broadcast's or transpose's copy), its
    result placed on `new`'s grid: its remapping, naming the source tile of each output tile (0, 0, i, j), then
    names it for each (grid, shard) coordinate of the result, as a view's remapping does."""
    amap, n = view.remapping.data, len(old.get_shape()) // 2
    if n != 2 or amap.num_dims != 2 * n or set(old.get_shape()[:n]) != {1}:
        return
    shard = new.get_shape()[n:]
    joined = [AffineExpr.constant(0)] * n + [AffineExpr.dimension(k) * shard[k] + AffineExpr.dimension(n + k)
                                             for k in range(n)]
    view.properties["remapping"] = AffineMapAttr(amap.replace_dims_and_symbols(joined, [], 2 * n, 0))


def _map_cores(empty: d2m.EmptyOp, grid: tuple[int, ...], device: tuple[int, int], virtual: bool = False) -> None:
    """A d2m.empty on `grid`: with the maps laying it onto a rectangle of cores when the device cannot hold the
    grid as it is, and without maps it was made with for another grid."""
    for key in VGM_KEYS:
        empty.attributes.pop(key, None)
    # a tiled tensor kept at its rank is laid onto the cores by its layout alone (a matrix per row of cores), unless
    # placed on a virtual grid of its rank (a slice's or permute's tensors)
    row_major = not isinstance(empty.result.type.element_type, ttcore.TileType)
    if (len(grid) == 2 or row_major or virtual) and needs_virtual_grid(grid, device):
        forward, inverse = core_virt_maps(grid, legal_cores(math.prod(grid), device))
        empty.attributes.update(zip(VGM_KEYS, (AffineMapAttr(forward), AffineMapAttr(inverse))))


def _virtual_grid_maps(value: SSAValue) -> tuple[Attribute | None, Attribute | None]:
    """The virtual grid maps `value` was made with: its d2m.empty's (through a move into it and the views of it),
    or those a TTNN tensor's cast names."""
    owner = value.owner
    while isinstance(owner, (d2m.ToLayoutOp, d2m.ViewLayoutOp)):
        owner = (owner.output if isinstance(owner, d2m.ToLayoutOp) else owner.input).owner
    if isinstance(owner, d2m.EmptyOp):
        return tuple(owner.attributes.get(k) for k in VGM_KEYS)
    if isinstance(owner, TTNNMetalLayoutCastOp):
        return owner.virtual_grid_forward_mapping, owner.virtual_grid_inverse_mapping
    return None, None


def _grid_attr(output: SSAValue, grid: tuple[int, ...]) -> ttcore.GridAttr:
    """A generic's grid, with the virtual grid maps of the output it writes (upstream's deriveGridAttrForOutput);
    maps made for a grid of another rank (seen through a view) are not the generic's."""
    forward, inverse = _virtual_grid_maps(output)
    n = len(grid)
    if not isinstance(forward, AffineMapAttr) or not isinstance(inverse, AffineMapAttr) or \
            forward.data.num_dims != 2 * n or len(forward.data.results) != n + 2 or \
            inverse.data.num_dims != 2 or len(inverse.data.results) != n + 1:
        return ttcore.GridAttr(ttcore.Grid(grid))
    forward, inverse = grid_maps_of(forward.data, inverse.data, n)
    return ttcore.GridAttr(ttcore.Grid(grid, (affine_map_str(forward), affine_map_str(inverse)), True))


def _ttnn_tensor(value: SSAValue) -> SSAValue | None:
    """The TTNN tensor (seen as a metal one) an operand is, or is a view of: TTNN places it, the program views it."""
    if isinstance(value.owner, d2m.ViewLayoutOp):
        value = value.owner.input
    return value if isinstance(value.owner, TTNNMetalLayoutCastOp) else None


def _view_on(generic: d2m.GenericOp, value: SSAValue, ttnn: SSAValue, grid: tuple[int, ...]) -> None:
    """The generic reads the TTNN tensor `ttnn` (its operand `value`, the tensor or a view of it) on `grid`: through
    a view reblocking it there, or directly where TTNN holds it on that grid."""
    new = ttnn
    if tuple(ttnn.type.get_shape()[:len(grid)]) != grid:
        view = reblock_view(ttnn, grid)
        Rewriter.insert_op(view, InsertPoint.before(generic))
        new = view.result
    inside = [use for use in list(value.uses) if generic.is_ancestor(use.operation)]
    for use in inside:
        use.operation.operands[use.index] = new
    if isinstance(value.owner, d2m.ViewLayoutOp) and not value.uses:
        Rewriter.erase_op(value.owner)


@dataclass(frozen=True)
class D2MGridSelectionPass(ModulePass):
    name: ClassVar[str] = "d2m-grid-selection"
    override_device_shape: tuple[int, ...] = ()
    ttnn_mode: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        system = device_module_of(op).attributes.get("ttcore.system_desc")
        if not isinstance(system, ttcore.SystemDescAttr):
            raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
        device = tuple(self.override_device_shape or system.data.chip(0)["grid"])
        if len(device) != 2:
            raise PassFailure(op, "override-device-shape is a grid YxX, e.g. override-device-shape=8,8")
        topk_chains = chain_generics(op)  # on the cores their topk's plan names
        for leaf in leaves(op):
            plan_topk(leaf, system.data.chip(0), device)
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp) and g not in topk_chains]:
            if isinstance(generic.parent_op(), d2m.SpatialOp):
                # its region's core range gives it its grid; the cores it runs on are its output's
                grid = generic.attributes["grid"].data.shape
                generic.attributes["grid"] = _grid_attr(generic.outputs[0], tuple(grid))
                continue
            if not generic.attributes["indexing_maps"].data:
                continue  # explicit data-movement form: its author manages its grid
            if self.ttnn_mode and any(_ttnn_tensor(v) is not None for v in generic.outputs):
                # writing a TTNN tensor: computed where TTNN holds it, its TTNN operands viewed on that grid
                self.view_ttnn_operands(generic, tuple(generic.attributes["grid"].data.shape))
                continue
            if set(generic.attributes["grid"].data.shape) != {1}:
                continue
            self.select(generic, device, not self.ttnn_mode)

    @staticmethod
    def view_ttnn_operands(generic: d2m.GenericOp, grid: tuple[int, ...]) -> None:
        """Each TTNN operand of `generic` (on `grid`) read through a view of it on the grid its map puts it on, or
        directly where TTNN holds it there."""
        maps = [m.data for m in generic.attributes["indexing_maps"].data]
        spread = {r.position: g for r, g in zip(maps[-1].results, grid) if isinstance(r, AffineDimExpr)}
        for value, amap in zip(list(generic.operands), maps):
            if (ttnn := _ttnn_tensor(value)) is not None:
                target = tuple(spread.get(r.position, 1) if isinstance(r, AffineDimExpr) else 1 for r in amap.results)
                _view_on(generic, value, ttnn, target)

    @staticmethod
    def select(generic: d2m.GenericOp, device: tuple[int, int], aligned: bool = True) -> None:
        """`generic` on the grid its output's tiles give it (`aligned`: its 2-d tiled tensors padded for their
        grids as upstream's grid-aware dim alignments pad them; TTNN-mode tensors keep tile alignment)."""
        out_type = generic.outputs[0].type
        shape = out_type.get_shape()
        rank = len(shape) // 2
        # a generic reducing along a dim multicasts operand blocks along the grid's rows or columns, which a grid
        # folded onto a rectangle of cores does not keep: it stays on a grid the device holds as it is
        parallel = all(i.data.value == "parallel" for i in generic.attributes["iterator_types"].data)
        tiles = (shape[2], shape[3])
        if not isinstance(out_type.element_type, ttcore.TileType):  # rows of elements: blocked in whole tiles
            tiles = tuple(-(-n // TILE) for n in tiles)
        if aligned and _aligned(out_type):
            tiles = _grid_aware_tiles(out_type, device)
        if rank == 2:
            grid = optimal_grid(tiles, device) if parallel else grid_for(tiles, device)
        elif not isinstance(out_type.element_type, ttcore.TileType) or _copies_view(generic):
            # row-major elements kept at their rank, or tiles copied from a view: on virtual grids of their rank
            grid = nd_virtual_grid(_units(out_type), device)
            _place_view_sources(generic, device)
        else:
            grid = _ranked_grid(tuple(shape[rank:]), device)
        maps = [m.data for m in generic.attributes["indexing_maps"].data]
        # each loop dim spread over the output's grid dim it indexes; an operand's grid follows its map (a dim it
        # is broadcast or reduced along on one core)
        spread = {r.position: g for r, g in zip(maps[-1].results, grid) if isinstance(r, AffineDimExpr)}
        targets = [tuple(spread.get(r.position, 1) if isinstance(r, AffineDimExpr) else 1 for r in m.results)
                   for m in maps[:len(generic.inputs)]]
        for value, target in zip([*generic.inputs, generic.outputs[0]], [*targets, grid]):
            if (ttnn := _ttnn_tensor(value)) is not None:
                _view_on(generic, value, ttnn, target)
                continue
            if set(value.type.get_shape()[:rank]) != {1}:
                continue  # placed already (shared with another generic): its program fetches what it needs
            new = _laid_out(value.type, target) if aligned else _regridded(value.type, target)
            _place(value, new, device, rank > 2 and _copies_view(generic))
        _retype(generic.results[0], generic.outputs[0].type)
        generic.attributes["grid"] = _grid_attr(generic.outputs[0], grid)
        for inner in list(generic.region.walk()):  # the blocks follow their tensors' shards
            if isinstance(inner, d2m.RemoteLoadOp):
                shard = _shard(inner.source.type)
                _retype(inner.local, shard)
                _retype(inner.result, shard)
            elif isinstance(inner, d2m.RemoteStoreOp):
                local = inner.local
                if local.owner.name == "linalg.generic":
                    _retype(local.owner.outputs[0], _shard(inner.dest.type))
                _retype(local, _shard(inner.dest.type))
                _retype(inner.result, inner.dest.type)
