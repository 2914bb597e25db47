"""`--register-custom-sharding-rule`: the sharding rules of the custom calls shardy has none for.

Upstream's pass attaches those rules to its context, for propagation to find. Here they are part of the rule
table propagation reads (`rules.CUSTOM_CALL_RULES`: attention, paged caches, MoE, sampling, ...), and a user's own
rule is read from the call's `xla.sdy.custom_sharding_rule`. What the pass still does is say which custom calls
neither covers, as shardy does when it asks for their rule: a warning on each, since propagation stops there and
their operands will be replicated.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.errors import PassWarning
from ttmlir.transforms.shardy.rules import CUSTOM_CALL_RULES, user_rule_text
from ttmlir.transforms.shardy.sdy_user_priority_propagate import single_mesh


@dataclass(frozen=True)
class RegisterCustomShardingRulePass(ModulePass):
    """Register custom sharding rules for operations."""

    name = "register-custom-sharding-rule"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if single_mesh(op) is None:  # nothing will be propagated
            return
        for inner in op.walk():
            if inner.name != "stablehlo.custom_call" or "sdy.sharding_rule" in inner.attributes:
                continue
            target = inner.properties["call_target_name"].data
            if target not in CUSTOM_CALL_RULES and not user_rule_text(inner):
                warnings.warn(PassWarning(inner, f"StableHLO CustomCallOp sharding rule is not defined for target "
                                                 f"'{target}'"))
