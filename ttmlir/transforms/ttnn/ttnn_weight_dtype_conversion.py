"""`--ttnn-weight-dtype-conversion`: matmul/linear weights that are parameters or constants are converted to a
block-float data type (bfp_bf8, bfp_bf4) while activations and results keep theirs — the op's own
`ttcore.weight_dtype` (from `--ttir-propagate-weight-dtype`; "bf16" keeps a weight out of block floats) first,
else `target-dtype`. A bfp_bf8 weight is cast on the device; a bfp_bf4 one, as upstream does (the device's
typecast packs only bfp_bf8), on the host: from_device, typecast, to_device."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttcore
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttir.ttir_propagate_weight_dtype import WEIGHT_DTYPE

TARGETS = ("none", "bfp_bf8", "bfp_bf4")
PER_OP = ("bfp_bf8", "bfp_bf4", "bf16")  # an op's own weight_dtype may also keep a weight in bf16 (opting out)
CONVERTED = {"ttnn.matmul", "ttnn.linear", "ttnn.sparse_matmul"}
# what a weight goes through between its argument and the op, leaving its values as they are
THROUGH = {"ttnn.reshape", "ttnn.permute", "ttnn.typecast", "ttnn.to_layout", "ttnn.to_device",
           "ttnn.to_tensor_spec", "ttnn.to_memory_config", "ttnn.repeat"}
CONVERTIBLE_FROM = {"bf16", "f32"}
ON_HOST = {"bfp_bf4"}


def _is_weight(value: SSAValue) -> bool:
    """Made from a function argument marked parameter or constant (not from an activation), or by const-eval (a
    `ttcore.load_cached` result: computed from parameters and constants only, as a transposed weight is)."""
    while not isinstance(value, BlockArgument):
        if isinstance(value.owner, ttcore.LoadCachedOp):
            return True
        if value.owner.name not in THROUGH:
            return False
        value = value.owner.operands[0]
    return ttcore.is_constant_argument(value)


@dataclass(frozen=True)
class TTNNWeightDtypeConversionPass(ModulePass):
    """Convert the weights of matmul/linear ops to a block-float type (per op, or target-dtype for all)."""

    name: ClassVar[str] = "ttnn-weight-dtype-conversion"
    target_dtype: str = "none"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from ttmlir.transforms.ttnn.ttnn_utils import device_of, ttnn_op
        from ttmlir.transforms.ttnn.ttnn_workaround import Want, retyped

        if self.target_dtype not in TARGETS:
            raise PassFailure(module, f"target-dtype '{self.target_dtype}' is not one of {', '.join(TARGETS)}")
        for op in list(module.walk()):
            if op.name not in CONVERTED or len(op.operands) < 2:
                continue
            own = op.attributes.get(WEIGHT_DTYPE)
            dtype = own.data if isinstance(own, StringAttr) else self.target_dtype
            if dtype == "none":
                continue
            if dtype not in PER_OP:
                raise PassFailure(op, f"'{op.name}' op weight_dtype '{dtype}' is not one of {', '.join(PER_OP)}")
            weight = op.operands[1]
            layout = getattr(weight.type, "encoding", None)
            if not isinstance(weight.type, TensorType) or getattr(layout, "data_type", None) not in CONVERTIBLE_FROM \
                    or layout.data_type == dtype or not _is_weight(weight):
                continue
            # the result's tile element and layout name the block-float type (one exponent per 16 values)
            if dtype in ON_HOST:
                host = Want("tile", None, "system_memory")
                steps = [("from_device", [], retyped(weight.type, host)),
                         ("typecast", [], retyped(weight.type, Want("tile", dtype, "system_memory"))),
                         ("to_device", [device_of(op.parent)], retyped(weight.type, Want("tile", dtype)))]
            else:
                steps = [("typecast", [], retyped(weight.type, Want("tile", dtype)))]
            value = weight
            for name, extra, result in steps:
                convert = ttnn_op(name, [value, *extra], {}, [result], op)
                op.parent.insert_op_before(convert, op)
                value = convert.results[0]
            op.operands[1] = value
