"""StableHLO's collectives on a mesh, in both directions (upstream's CCL patterns).

- `ccl_ops(...)`: the stablehlo collectives that compute a shardy collective on per-chip values, as
  `--update-global-to-local-shapes` emits them: one `stablehlo.all_gather` / `all_reduce` / `reduce_scatter` /
  `all_to_all` per mesh axis moved over, its replica groups the lines of chips along that axis (chip
  `r * cols + c` at mesh coordinates (r, c)); an all_slice (no StableHLO op) is a `ttir.mesh_partition`.
- `convert_stablehlo_ccl_to_ttir(module)`, part of `--convert-stablehlo-to-ttir`: each stablehlo collective
  becomes TTIR's, its replica groups read back as the mesh axis (`cluster_axis`) they run along; an all_reduce's
  body names the reduction (add: sum, maximum: max, minimum: min, multiply: prod).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr, ModuleOp, TensorType,
                                   UnitAttr, i64)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy, ttcore
from ttmlir.errors import PassFailure
from ttmlir.conversion.stablehlo_to_ttir.shardy import _SI32, _UI32, _enum, _ttir

CCL_NAMES = ("all_gather", "all_reduce", "reduce_scatter", "all_to_all", "collective_permute",
             "collective_broadcast")
REDUCTIONS = {"stablehlo.add": "sum", "stablehlo.maximum": "max", "stablehlo.minimum": "min",
              "stablehlo.multiply": "prod"}


def mesh_lines(axis: int, mesh: tuple[int, int]) -> list[list[int]]:
    """The groups of chips along mesh axis `axis` of a (rows, cols) mesh, each in order along it."""
    rows, cols = mesh
    if axis == 1:
        return [[r * cols + c for c in range(cols)] for r in range(rows)]
    return [[r * cols + c for r in range(rows)] for c in range(cols)]


def _groups_attr(groups: list[list[int]]) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(groups), len(groups[0])]),
                                              [v for g in groups for v in g])


def _mesh2d(mesh: sdy.Mesh) -> tuple[int, int]:
    sizes = [s for _, s in mesh.axes]
    return (1, sizes[0]) if len(sizes) == 1 else (sizes[0], sizes[1]) if sizes else (1, 1)


def axis_numbers(mesh: sdy.Mesh, axes, single_chip: bool = False) -> list[int]:
    """The axes of more than one chip among `axes` (of any size with `single_chip`), numbered as the axes of the
    2-d mesh TTIR sees."""
    order = [name for name, _ in mesh.axes]
    offset = 2 - len(order)  # a 1-d mesh is the last axis of a 1xN one
    return [order.index(a.name) + offset for a in axes if single_chip or mesh.size(a) > 1]


def _stablehlo(name: str, value: SSAValue, type_, reduce: bool = False, **props) -> Operation:
    from ttmlir.dialects import stablehlo as shlo

    regions = []
    if reduce:  # the sum of two scalars of the element type
        scalar = TensorType(type_.element_type, [])
        block = Block(arg_types=[scalar, scalar])
        add = shlo.OPS["add"].create(operands=list(block.args), result_types=[scalar])
        block.add_ops([add, shlo.OPS["return"].create(operands=[add.results[0]])])
        regions = [Region(block)]
    props = {k: (IntegerAttr(v, i64) if isinstance(v, int) else v) for k, v in props.items()}
    props["channel_handle"] = shlo.ChannelHandleAttr.get(handle=1, type=1)
    if name != "all_to_all":  # all_to_all's groups are always device ids
        props["use_global_device_ids"] = UnitAttr()
    return shlo.OPS[name].create(operands=[value], result_types=[type_], properties=props, regions=regions)


def ccl_ops(op: Operation, mesh: sdy.Mesh) -> list[Operation]:
    """Ops computing the sdy collective `op` on per-chip values (its operand already local); the last one's
    result replaces `op`'s."""
    value, ops, grid = op.operands[0], [], _mesh2d(mesh)

    def emit(new: Operation):
        nonlocal value
        ops.append(new)
        value = new.results[0]

    def resized(d: int, factor: float) -> TensorType:
        shape = list(value.type.get_shape())
        shape[d] = int(shape[d] * factor)
        return TensorType(value.type.element_type, shape)

    if isinstance(op, (sdy.AllGatherOp, sdy.AllSliceOp, sdy.ReduceScatterOp)):
        # as upstream, a gather or reduce-scatter over an axis of one chip stays, an identity the TTIR
        # canonicalizer removes; a slice over it would have no cluster to partition
        for d, axes in enumerate(op.properties[op.AXES[0]].data):
            for axis in axis_numbers(mesh, axes, not isinstance(op, sdy.AllSliceOp)):
                n, groups = grid[axis], _groups_attr(mesh_lines(axis, grid))
                if isinstance(op, sdy.AllGatherOp):
                    emit(_stablehlo("all_gather", value, resized(d, n), all_gather_dim=d, replica_groups=groups))
                elif isinstance(op, sdy.ReduceScatterOp):
                    emit(_stablehlo("reduce_scatter", value, resized(d, 1 / n), True, scatter_dimension=d,
                                    replica_groups=groups))
                else:
                    emit(_ttir("mesh_partition", [value], resized(d, 1 / n), dim=IntegerAttr(d, _SI32),
                               cluster_axis=IntegerAttr(axis, _UI32)))
    elif isinstance(op, sdy.AllReduceOp):
        for axis in axis_numbers(mesh, op.reduction_axes.data, True):
            emit(_stablehlo("all_reduce", value, value.type, True,
                            replica_groups=_groups_attr(mesh_lines(axis, grid))))
    elif isinstance(op, sdy.AllToAllOp):
        for param in op.params.data:
            for axis in axis_numbers(mesh, param.axes):
                n = grid[axis]
                shape = list(value.type.get_shape())
                shape[param.src_dim] *= n
                shape[param.tgt_dim] //= n
                emit(_stablehlo("all_to_all", value, TensorType(value.type.element_type, shape),
                                split_dimension=param.tgt_dim, concat_dimension=param.src_dim, split_count=n,
                                replica_groups=_groups_attr(mesh_lines(axis, grid))))
    else:
        raise ValueError(f"'{op.name}' cannot be computed with StableHLO collectives")
    return ops


def all_slice_by_all_to_all(value: SSAValue, op: sdy.AllSliceOp, mesh: sdy.Mesh) -> list[Operation]:
    """The all_slice of a value every chip of the slicing axes holds alike, in StableHLO (which has no such op):
    per axis, the dim cut into [parts, chunk], an all_to_all over the axis's chips on the parts dim (chip i gets
    piece i of every chip's copy: its own piece, `parts` times), the first kept and the parts dim dropped."""
    from ttmlir.dialects import stablehlo as shlo

    ops, grid = [], _mesh2d(mesh)

    def emit(new: Operation) -> SSAValue:
        ops.append(new)
        return new.results[0]

    for d, axes in enumerate(op.slicing_axes.data):
        for axis in axis_numbers(mesh, axes):
            parts, shape, element = grid[axis], list(value.type.get_shape()), value.type.element_type
            split = TensorType(element, shape[:d] + [parts, shape[d] // parts] + shape[d + 1:])
            value = emit(shlo.OPS["reshape"].create(operands=[value], result_types=[split]))
            value = emit(_stablehlo("all_to_all", value, split, split_dimension=d, concat_dimension=d,
                                    split_count=parts, replica_groups=_groups_attr(mesh_lines(axis, grid))))
            first = list(split.get_shape())
            first[d] = 1
            bounds = {"start_indices": [0] * len(first), "limit_indices": first, "strides": [1] * len(first)}
            value = emit(shlo.OPS["slice"].create(
                operands=[value], result_types=[TensorType(element, first)],
                properties={k: DenseArrayBase.from_list(i64, v) for k, v in bounds.items()}))
            shape[d] //= parts
            value = emit(shlo.OPS["reshape"].create(operands=[value], result_types=[TensorType(element, shape)]))
    return ops


def cluster_axis(groups: list[list[int]], mesh: tuple[int, int]) -> int | None:
    """The mesh axis whose lines of chips the replica groups are, or None."""
    as_set = sorted(sorted(g) for g in groups)
    for axis in (1, 0):
        if as_set == sorted(sorted(g) for g in mesh_lines(axis, mesh)):
            return axis
    return None


def _replica_groups(op: Operation) -> list[list[int]]:
    from ttmlir.dialects.stablehlo import ints_of

    attr = op.properties.get("replica_groups")
    if attr is None:
        return []
    rows, cols = attr.type.get_shape()
    values = ints_of(attr)
    return [list(values[r * cols:(r + 1) * cols]) for r in range(rows)]


def _lower(op: Operation, mesh: tuple[int, int], index: int = 0, value: SSAValue | None = None,
           type_: TensorType | None = None) -> Operation:
    """The TTIR collective of `op`'s operand `index` (an all_reduce of several operands reduces each alone), or
    the same collective of another `value` (of result type `type_`)."""
    from ttmlir.dialects.stablehlo import int_of

    kind = op.name.split(".")[1]
    value, type_ = value or op.operands[index], type_ or op.results[index].type
    if kind in ("collective_permute", "collective_broadcast"):
        key = "source_target_pairs" if kind == "collective_permute" else "replica_groups"
        return _ttir(kind, [value], type_, **{key: op.properties[key]})
    groups = _replica_groups(op)
    if kind == "all_to_all":
        return _ttir("all_to_all", [value], type_, replica_groups=op.properties["replica_groups"],
                     **{key: IntegerAttr(int_of(op.properties[src]), _SI32) for key, src in (
                         ("split_dim", "split_dimension"), ("concat_dim", "concat_dimension"),
                         ("split_count", "split_count"))})
    if mesh == (1, 1) and groups and len(groups[0]) > 1:  # no mesh declared: the one the groups are lines of
        size, count = len(groups[0]), len(groups)
        mesh = next((m for m in ((count, size), (size, count)) if cluster_axis(groups, m) is not None), mesh)
    axis = cluster_axis(groups, mesh) if groups else None
    if axis is None:
        raise PassFailure(op, f"replica groups {groups} are not the lines of chips along an axis of the "
                              f"{mesh[0]}x{mesh[1]} mesh")
    cluster = IntegerAttr(axis, _UI32)
    if kind == "all_gather":
        dim = IntegerAttr(int_of(op.properties["all_gather_dim"]), _SI32)
        return _ttir("all_gather", [value], type_, all_gather_dim=dim, cluster_axis=cluster)
    body = [o.name for o in op.regions[0].block.ops] if op.regions and op.regions[0].blocks else []
    reduction = next((REDUCTIONS[n] for n in body if n in REDUCTIONS), None)
    if reduction is None:
        raise PassFailure(op, f"'{op.name}' reduces with {body}: only add, maximum, minimum and multiply lower")
    reduce_type = _enum(ttcore.ReduceTypeAttr, reduction)
    if kind == "all_reduce":
        return _ttir("all_reduce", [value], type_, reduce_type=reduce_type, cluster_axis=cluster)
    return _ttir("reduce_scatter", [value], type_, reduce_type=reduce_type, cluster_axis=cluster,
                 scatter_dim=IntegerAttr(int_of(op.properties["scatter_dimension"]), _SI32))


def same_collective(op: Operation, value: SSAValue, type_: TensorType, module: ModuleOp) -> Operation:
    """`op`'s TTIR collective (along the same chips) applied to `value` instead of its own operand."""
    return _lower(op, module_mesh(module), 0, value, type_)


def module_mesh(module: ModuleOp) -> tuple[int, int]:
    meshes = module.attributes.get(ttcore.MeshesAttr.name)
    if isinstance(meshes, ttcore.MeshesAttr) and meshes.data:
        shape = tuple(meshes.data[0][1])
        return (1, shape[0]) if len(shape) == 1 else (shape[0], shape[1])
    return (1, 1)


def convert_stablehlo_ccl_to_ttir(module: ModuleOp) -> None:
    mesh = module_mesh(module)
    for op in [o for o in module.walk() if o.name in {f"stablehlo.{n}" for n in CCL_NAMES}]:
        several = op.name == "stablehlo.all_reduce" and len(op.operands) > 1
        if (len(op.operands) != 1 and not several) or not all(isinstance(r.type, TensorType) for r in op.results):
            raise PassFailure(op, f"'{op.name}' of {len(op.operands)} operands is not supported")
        new = [_lower(op, mesh, i) for i in range(len(op.operands))]
        Rewriter.replace_op(op, new, [n.results[0] for n in new])
