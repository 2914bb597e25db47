"""`--register-custom-sharding-rule`: the sharding rules of the custom calls shardy has none for.

Upstream's pass attaches those rules to its context, for propagation to find. Here they are part of the rule
table propagation reads (`rules.CUSTOM_CALL_RULES`: attention, paged caches, MoE, sampling, ...), and a user's own
rule is read from the call's `xla.sdy.custom_sharding_rule`. What the pass still does is say which custom calls
neither covers, as shardy does when it asks for their rule: a warning on each call of a function propagation will
spread shardings through (one not partitioned by hand already), since propagation stops there and the call's
operands will be replicated.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.conversion.stablehlo_to_ttir.gspmd import gspmd_annotated
from ttmlir.dialects import sdy
from ttmlir.errors import PassWarning
from ttmlir.transforms.shardy.rules import CUSTOM_CALL_RULES, user_rule_text
from ttmlir.transforms.shardy.sdy_user_priority_propagate import entry_functions, single_mesh


@dataclass(frozen=True)
class RegisterCustomShardingRulePass(ModulePass):
    """Register custom sharding rules for operations."""

    name = "register-custom-sharding-rule"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if single_mesh(op) is None or gspmd_annotated(op):  # nothing will be propagated
            return
        for func in entry_functions(op):
            ops = list(func.body.walk())
            if not any(isinstance(inner, sdy.ManualComputationOp) for inner in ops):  # else partitioned by hand
                self._report(ops)

    @staticmethod
    def _report(ops) -> None:
        for inner in ops:
            if inner.name != "stablehlo.custom_call" or "sdy.sharding_rule" in inner.attributes:
                continue
            target = inner.properties["call_target_name"].data
            if target not in CUSTOM_CALL_RULES and not user_rule_text(inner):
                warnings.warn(PassWarning(inner, f"StableHLO CustomCallOp sharding rule is not defined for target "
                                                 f"'{target}'"))
