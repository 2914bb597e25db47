"""`--annotate-local-shapes`: every argument and result of a function says the shape one chip holds.

`ttcore.local_shape` is the piece a presharded argument or result arrives or leaves as (its `sdy.sharding`
applied to its type); an unsharded one is whole on every chip. A value annotated already is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy, ttcore
from ttmlir.errors import PassFailure
from ttmlir.transforms.shardy.apply_argument_shard_status import STATUS
from ttmlir.transforms.shardy.sdy_user_priority_propagate import SHARDING, set_func_attr
from ttmlir.transforms.shardy.update_global_to_local_shapes import localize

LOCAL_SHAPE = "ttcore.local_shape"


@dataclass(frozen=True)
class AnnotateLocalShapesPass(ModulePass):
    """Annotate all arguments and results with their local shape."""

    name = "annotate-local-shapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.ops if isinstance(f, FuncOp)]:
            for key, types in (("arg_attrs", func.function_type.inputs.data),
                               ("res_attrs", func.function_type.outputs.data)):
                attrs = getattr(func, key)
                for i, t in enumerate(types):
                    if not isinstance(t, TensorType):
                        continue
                    entries = attrs.data[i].data if attrs is not None else {}
                    if LOCAL_SHAPE in entries:
                        raise PassFailure(func, f"{'Argument' if key == 'arg_attrs' else 'Result'} already has "
                                                "local shape annotation, cannot annotate local shape")
                    status, sharding = entries.get(STATUS), entries.get(SHARDING)
                    local = t
                    if status is not None and status.data.value == "presharded" and sharding is not None:
                        mesh = sdy.mesh_of(func, sharding.data)
                        local = localize(t, sharding.data, mesh, func) if mesh is not None else t
                    set_func_attr(func, i, key, LOCAL_SHAPE, ttcore.LocalShapeAttr(local))
