"""`--register-user-sharding-rule`: a custom call's own sharding rule, written by its user as shardy text in the
`xla.sdy.custom_sharding_rule` frontend attribute, becomes the op's `sdy.sharding_rule`, checked against the op.

An empty string is no rule (the op's values stay replicated). Text that is not an `#sdy.op_sharding_rule`, or a
rule that does not fit the op's operands and results, is a located error. The rule is kept non-custom: a custom
rule would be skipped when reshards are inserted, leaving operands unaligned with the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy
from ttmlir.errors import PassFailure
from ttmlir.transforms.shardy.rules import USER_RULE, user_rule_text


@dataclass(frozen=True)
class RegisterUserShardingRulePass(ModulePass):
    """Promote user-provided xla.sdy.custom_sharding_rule frontend attributes to sdy.sharding_rule op attributes."""

    name = "register-user-sharding-rule"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.utils.exceptions import ParseError
        from xdsl.utils.mlir_lexer import MLIRTokenKind

        from ttmlir.asm import TTParser

        for inner in op.walk():
            if inner.name != "stablehlo.custom_call" or not (text := user_rule_text(inner)):
                continue
            try:
                parser = TTParser(ctx, text)
                rule = parser.parse_attribute()
                if parser._current_token.kind != MLIRTokenKind.EOF:
                    rule = None
            except ParseError:
                rule = None
            if not isinstance(rule, sdy.OpShardingRuleAttr):
                raise PassFailure(inner, f"failed to parse '{USER_RULE}' frontend attribute as an "
                                         "#sdy.op_sharding_rule")
            rule = sdy.OpShardingRuleAttr(rule.data._replace(custom=False))
            if (why := sdy.rule_error(inner, rule.data)) is not None:
                raise PassFailure(inner, why)
            inner.attributes["sdy.sharding_rule"] = rule
