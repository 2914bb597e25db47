"""`--analyze-mesh`: give the module the 2-d mesh the device runs it on.

A one-axis mesh `["batch"=8]` gains a leading `"batch_aux"=1` (an empty one becomes `["default_aux"=1,
"default"=1]`); a module without a mesh gets `sdy.mesh @mesh = <["x"=R, "y"=C]>` from `mesh-shape=R,C` (one
chip when not given); a GSPMD module (`mhlo.sharding` strings) gets `["x"=1, "y"=N]` for the N devices its
shardings name. With `automatic-arg-analysis` the mesh is `["default"=1, "batch"=C]` and every argument
of the largest rank whose first dimension is not 1 is split along it over "batch" (batch parallelism); with
`ttcore.argument_type`s, the inputs of the largest rank among inputs are. Then `@tt.sharding_constraint` calls,
whose shardings name the mesh's axes by position, become sharding constraints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy
from ttmlir.errors import PassFailure
from ttmlir.conversion.stablehlo_to_ttir.gspmd import mesh_from_gspmd
from ttmlir.transforms.shardy.sdy_user_priority_propagate import SHARDING, entry_functions, set_func_attr


def _add_mesh(module: ModuleOp, mesh: sdy.Mesh) -> None:
    block, new = module.body.block, sdy.MeshOp("mesh", mesh)
    if block.first_op is None:
        block.add_op(new)
    else:
        block.insert_op_before(new, block.first_op)


def _argument_type(func: FuncOp, index: int) -> str | None:
    attrs = func.arg_attrs.data[index].data if func.arg_attrs is not None else {}
    kind = attrs.get("ttcore.argument_type")
    return kind.data.value if kind is not None else None


def _annotated(module: ModuleOp) -> bool:
    for op in module.walk():
        if SHARDING in op.attributes or isinstance(op, (sdy.ManualComputationOp, sdy.ShardingConstraintOp)):
            return True
        if isinstance(op, FuncOp):
            for attrs in (op.arg_attrs, op.res_attrs):
                if attrs is not None and any(SHARDING in d.data for d in attrs.data):
                    return True
    return False


@dataclass(frozen=True)
class AnalyzeMeshPass(ModulePass):
    """Analyze the mesh compilation target."""

    name = "analyze-mesh"
    mesh_shape: tuple[int, ...] = field(default=())
    automatic_arg_analysis: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from ttmlir.transforms.shardy.convert_xla_sdy_to_sdy import convert_tt_sharding_constraints
        self._mesh(op)
        convert_tt_sharding_constraints(op)  # their axes are positions in the mesh made here

    def _mesh(self, op: ModuleOp) -> None:
        meshes = [m for m in op.ops if isinstance(m, sdy.MeshOp)]
        for m in meshes:
            axes = m.mesh.data.axes
            if len(axes) > 2:
                raise PassFailure(m, "only 1-d and 2-d meshes are supported")
            if len(axes) < 2 and not m.mesh.data.device_ids:
                name = axes[0][0] if axes else "default"
                full = axes or ((name, 1),)
                m.mesh = sdy.MeshAttr(sdy.Mesh(((f"{name}_aux", 1), *full)))
        if self.mesh_shape and len(self.mesh_shape) != 2:
            raise PassFailure(op, f"mesh-shape must name 2 dimensions, got {len(self.mesh_shape)}")
        if meshes:
            return
        if (gspmd := mesh_from_gspmd(op)) is not None:  # JAX's GSPMD form: the mesh its shardings name
            _add_mesh(op, sdy.Mesh((("x", gspmd[0]), ("y", gspmd[1]))))
            return
        if not self.automatic_arg_analysis:
            if not _annotated(op):
                rows, cols = self.mesh_shape or (1, 1)
                _add_mesh(op, sdy.Mesh((("x", rows), ("y", cols))))
            return
        if not self.mesh_shape:
            raise PassFailure(op, "User did not provide a mesh")
        if self.mesh_shape[0] != 1:
            raise PassFailure(op, "Currently, automatic arg analysis only supports 2d mesh shape and mesh shape "
                                  "dim0 must be 1")
        _add_mesh(op, sdy.Mesh((("default", 1), ("batch", self.mesh_shape[1]))))
        for func in entry_functions(op):
            args = func.body.block.args
            kinds = [_argument_type(func, a.index) for a in args]
            typed = any(k is not None for k in kinds)  # with argument types, only inputs carry the batch
            largest = max((len(a.type.get_shape()) for a, k in zip(args, kinds)
                           if isinstance(a.type, TensorType) and (not typed or k == "input")), default=0)
            for arg, kind in zip(args, kinds):
                if not isinstance(arg.type, TensorType):
                    continue
                shape = arg.type.get_shape()
                dims = [sdy.DimSharding((), False) for _ in shape]
                if len(shape) == largest and (kind == "input" if typed else shape[0] != 1):
                    dims[0] = sdy.DimSharding((sdy.AxisRef("batch"),), False)
                set_func_attr(func, arg.index, "arg_attrs", SHARDING,
                              sdy.ShardingAttr(sdy.Sharding("mesh", tuple(dims))))
