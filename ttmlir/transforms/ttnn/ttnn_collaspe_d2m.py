"""`--ttnn-collaspe-d2m` (upstream's spelling): each `ttnn.d2m_subgraph` is replaced by the body of the function it
runs (by then D2M's `ttnn.generic` ops), and the functions are dropped; the kernel functions they call stay."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (PatternRewriter, PatternRewriteWalker, RewritePattern,
                                   op_type_rewrite_pattern)

from ttmlir.dialects.ttnn_d2m_subgraph import D2MSubgraphOp
from ttmlir.errors import PassFailure


@dataclass
class InlineSubgraph(RewritePattern):
    """A `ttnn.d2m_subgraph` becomes a copy of its function's body, its results the values the function returns."""

    inlined: set[FuncOp]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: D2MSubgraphOp, rewriter: PatternRewriter) -> None:
        func = op.main_func()
        if func is None:
            raise PassFailure(op, f"could not find D2M function '@{op.d2m_func.root_reference.data}' in parent module")
        body = func.body.block
        if not isinstance(body.last_op, ReturnOp):
            raise PassFailure(op, "Function must have func.return terminator")
        mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, op.inputs))
        for inner in body.ops:
            if inner is not body.last_op:
                rewriter.insert(inner.clone(value_mapper=mapping))
        returned = [mapping.get(v, v) for v in body.last_op.operands]
        if len(returned) != len(op.results):
            raise PassFailure(op, f"Return value count mismatch: expected {len(op.results)} but got {len(returned)}")
        rewriter.replace(op, [], returned)
        self.inlined.add(func)


@dataclass(frozen=True)
class TTNNCollaspeD2MPass(ModulePass):
    """Inline every `ttnn.d2m_subgraph` and drop the functions they ran."""

    name: ClassVar[str] = "ttnn-collaspe-d2m"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        inlined: set[FuncOp] = set()
        PatternRewriteWalker(InlineSubgraph(inlined), apply_recursively=False).rewrite_module(module)
        for func in inlined:
            func.detach()
            func.erase()
