"""TTIR-level fusions applied before conversion (`--ttir-fusing`): matmul followed by a bias add → linear."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.dialects.ttir import TTIR_OP_CLASSES


def _bias_fits(bias_shape, out_shape) -> bool:
    """A bias the linear op can take: it broadcasts onto the output without growing it."""
    if len(bias_shape) > len(out_shape):
        return False
    return all(b in (1, o) for b, o in zip(reversed(bias_shape), reversed(out_shape)))


@dataclass(frozen=True)
class TTIRFusingPass(ModulePass):
    """Fuse `add(matmul(a, b), bias)` into `linear(a, b, bias)` when the matmul has no other use."""

    name: ClassVar[str] = "ttir-fusing"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        matmul_cls, add_cls, linear_cls = (TTIR_OP_CLASSES[n] for n in ("matmul", "add", "linear"))
        for add in [op for op in module.walk() if isinstance(op, add_cls)]:
            for product, bias in (add.operands, reversed(add.operands)):
                matmul = product.owner
                if isinstance(matmul, matmul_cls) and product.has_one_use() and bias is not product and \
                        _bias_fits(bias.type.get_shape(), add.results[0].type.get_shape()) and \
                        product.type == add.results[0].type:
                    linear = linear_cls.create(operands=[*matmul.operands, bias],
                                               result_types=[add.results[0].type],
                                               properties=dict(matmul.properties))
                    linear.location = add.location
                    add.parent.insert_op_before(linear, add)
                    add.results[0].replace_all_uses_with(linear.results[0])
                    add.detach()
                    add.erase()
                    matmul.detach()
                    matmul.erase()
                    break
