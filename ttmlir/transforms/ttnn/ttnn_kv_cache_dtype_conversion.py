"""`--ttnn-kv-cache-dtype-conversion`: KV caches (arguments marked `{ttcore.kv_cache}`) are kept in a block-float
data type (`target-dtype`: bfp_bf8 or bfp_bf4), halving or quartering their memory; the values fill_cache,
update_cache and paged_fill_cache write are cast to it first (paged_update_cache packs its bf16 rows itself). The
function's signature changes with the argument, and a returned cache keeps the new type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.errors import PassFailure
from ttmlir.transforms.ttir.ttir_infer_kv_cache_argument_types import KV_CACHE

TARGETS = ("none", "bfp_bf8", "bfp_bf4")
CAST_INPUT = frozenset({"fill_cache", "update_cache", "paged_fill_cache"})


def _kv_caches(func: FuncOp) -> list:
    if func.arg_attrs is None or not func.body.blocks:
        return []
    return [arg for arg, attrs in zip(func.body.block.args, func.arg_attrs.data)
            if isinstance(attrs, DictionaryAttr) and KV_CACHE in attrs.data and isinstance(arg.type, TensorType)]


@dataclass(frozen=True)
class TTNNKVCacheDtypeConversionPass(ModulePass):
    """Store KV cache arguments in a block-float type; cast what cache ops write into them."""

    name: ClassVar[str] = "ttnn-kv-cache-dtype-conversion"
    target_dtype: str = "none"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from ttmlir.transforms.ttnn.ttnn_utils import ttnn_op
        from ttmlir.transforms.ttnn.ttnn_workaround import Want, retyped

        if self.target_dtype not in TARGETS:
            raise PassFailure(module, f"target-dtype '{self.target_dtype}' is not one of {', '.join(TARGETS)}")
        if self.target_dtype == "none":
            return
        want = Want("tile", self.target_dtype)
        for func in [op for op in module.walk() if isinstance(op, FuncOp)]:
            caches = []
            for arg in _kv_caches(func):
                if getattr(arg.type.encoding, "data_type", None) is None:
                    raise PassFailure(func, f"KV cache argument #{arg.index} has no TTNN layout; run the conversion "
                                            "to TTNN first")
                caches.append(Rewriter.replace_value_with_new_type(arg, retyped(arg.type, want)))
            for use in [u for arg in caches for u in arg.uses]:
                op = use.operation
                if getattr(op, "ROW", None) is None or op.ROW.name not in CAST_INPUT:
                    continue
                value = op.operand_groups()["input"][0]
                target = retyped(value.type, want)
                if value.type != target:
                    cast = ttnn_op("typecast", [value], {}, [target], op)
                    op.parent.insert_op_before(cast, op)
                    op.operands[list(op.operands).index(value)] = cast.results[0]
            if caches:
                block = func.body.block
                func.function_type = FunctionType.from_lists([a.type for a in block.args],
                                                             [v.type for v in block.last_op.operands])
