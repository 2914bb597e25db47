"""`--convert-ttir-to-linalg`: TTIR ops to the dialects any MLIR CPU pipeline compiles: TOSA where it has the
op, `linalg` (named ops and `linalg.generic` over `arith`/`math`), `tensor` and `scf` otherwise, as upstream
lowers CPU-hoisted functions. One pattern table per op family (`elementwise`, `data_movement`, `reduction`,
`pooling`); an op no table names is a located error. `ttmlir.runtime.host_linalg` runs the result."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from ttmlir.conversion.ttir_to_linalg import data_movement, elementwise, pooling, reduction
from ttmlir.conversion.ttir_to_linalg.emitter import Emitter
from ttmlir.errors import PassFailure

PATTERNS = {**elementwise.PATTERNS, **data_movement.PATTERNS, **reduction.PATTERNS, **pooling.PATTERNS}


@dataclass(frozen=True)
class ConvertTTIRToLinalgPass(ModulePass):
    """Convert TTIR dialect to Linalg dialect."""

    name = "convert-ttir-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for ttir in [o for o in op.walk() if o.name.startswith("ttir.")]:
            pattern = PATTERNS.get(ttir.name.split(".", 1)[1])
            if pattern is None:
                raise PassFailure(ttir, f"failed to legalize operation '{ttir.name}' that was explicitly marked "
                                        f"illegal")
            e = Emitter(ttir)
            produced = pattern(e, ttir)
            values = [produced] if isinstance(produced, SSAValue) else list(produced)
            block = ttir.parent_block()
            for new in e.ops:
                block.insert_op_before(new, ttir)
            for old, new in zip(ttir.results, values):
                if old.type != new.type:
                    raise PassFailure(ttir, f"lowering '{ttir.name}' gave {new.type}, not its result type {old.type}")
                old.replace_all_uses_with(new)
            block.erase_op(ttir)
