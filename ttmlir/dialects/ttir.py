"""The TTIR dialect: framework-level tensor ops, one class per op-table row.

Each family has a shape rule: given an op's operand shapes and properties it returns the result
shapes the op must declare, or raises a diagnostic in upstream's words. The same rules serve the
TTNN dialect, whose ops share the TTIR rows.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, MemRefType, TensorType
from xdsl.ir import Dialect
from xdsl.irdl import (IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, opt_prop_def, result_def,
                       traits_def)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.parser import Parser
from xdsl.printer import Printer

from ttmlir.dialects import attention, conv, moe, ttml
from ttmlir.dialects import moe_fused
from ttmlir.dialects.canonical_patterns import patterns_for
from ttmlir.ir.op_table import TTIR_OPS
from ttmlir.ir.syntax import EmptyFormat
from ttmlir.ir.tt_op import TTOp, build_op_class
from ttmlir.ir.canonicalization import TableCanonicalization
from ttmlir.dialects.ttir_attrs import FlattenedCompatInfoAttr
from ttmlir.dialects.ttir_shapes import (bitcast, broadcast, clamp_scalar, concat, cumsum, dot_general, dropout,
                                         eltwise, embedding, embedding_backward, encoding_name, gather, gelu_bw, index,
                                         index_select, matmul, pad, paged_fill_cache, permute, reduction, repeat,
                                         repeat_interleave, reshape, reverse, scatter, shift, slice_dynamic,
                                         slice_static, softmax, sort, squeeze, to_layout, topk, transpose, unsqueeze)
from ttmlir.dialects.ttir_shapes_nn import (all_gather, all_reduce, all_to_all, arange, batch_norm, cache,
                                            collective_broadcast, collective_permute, concatenate_heads, constant,
                                            conv2d, conv_transpose2d, distributed_norm, fill, get_dimension_size,
                                            global_pool2d, group_norm, max_pool2d_with_indices, mesh_partition,
                                            mesh_shard, norm, paged_update_cache, pool2d, quantization, rand,
                                            reduce_scatter, same_rank, split_qkv, tt_lang_op, upsample2d)


SHAPE_RULES = {
    "tt_lang": tt_lang_op,
    **moe.TTIR_RULES,
    "conv3d": conv.ttir_conv3d, "conv1d": conv.ttir_conv1d,
    "unary": eltwise, "binary": eltwise, "ternary": eltwise, "reduction": reduction, "cumsum": cumsum,
    "sort": sort, "topk": topk, "reshape": reshape, "transpose": transpose, "permute": permute, "concat": concat,
    "repeat": repeat, "repeat_interleave": repeat_interleave, "broadcast": broadcast, "pad": pad, "slice": slice_static, "slice_dynamic": slice_dynamic, "scatter": scatter,
    "squeeze": squeeze, "unsqueeze": unsqueeze, "reverse": reverse, "index": index, "index_select": index_select,
    "gather": gather, "matmul": matmul, "dot_general": dot_general, "softmax": softmax, "embedding": embedding,
    "embedding_backward": embedding_backward,
    "conv2d": conv2d, "conv_transpose2d": conv_transpose2d, "pool2d": pool2d, "global_pool2d": global_pool2d,
    "upsample2d": upsample2d, "batch_norm": batch_norm, "norm": norm, "group_norm": group_norm,
    "constant": constant, "full": fill, "fill": fill, "arange": arange, "creation": None, "rand": rand,
    "cache": cache, "mesh_shard": mesh_shard, "ccl": same_rank, "to_layout": to_layout,
    "get_dimension_size": get_dimension_size, "quantization": quantization, "dropout": dropout, "bitcast": bitcast,
    "concatenate_heads": concatenate_heads, "split_qkv": split_qkv, "mesh_partition": mesh_partition, "distributed_norm": distributed_norm,
    "attention": None,  # each attention op has its own rule (ttmlir.dialects.attention)
    "optimizer": None, "ttml_attention": None,  # their own rules (ttmlir.dialects.ttml)
    **moe_fused.TTIR_RULES,
}


class EmptyBase(EmptyFormat, TTOp):
    """`ttir.empty` in upstream's custom format: `%0 = ttir.empty() : tensor<2x3xf32>`."""


class ToLayoutBase(TTOp):
    """`ttir.to_layout` in upstream's custom format: `ttir.to_layout %in, %out : T into T -> T`."""

    @classmethod
    def parse(cls, parser: Parser):
        unresolved = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        unresolved.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        parser.parse_keyword("into")
        types.append(parser.parse_type())
        operands = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types)]
        attributes = parser.parse_optional_attr_dict()
        results = [parser.parse_type()] if parser.parse_optional_punctuation("->") else []
        return cls.create(operands=operands, result_types=results, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.operands], printer.print_attribute, " into ")
        printer.print_op_attributes(self.attributes)
        if self.results:
            printer.print_string(" -> ")
            printer.print_attribute(self.results[0].type)


class TTLangBase(TTOp):
    """`ttir.tt_lang_op` in upstream's custom format: `ttir.tt_lang_op(%a, %b) {arg_roles = "in,out", ...} :
    (T, T) -> (T)`, its properties in the dictionary (a default shard_spec left out)."""

    @classmethod
    def parse(cls, parser: Parser):
        unresolved = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        results = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
        names = {p for p, _, _, _ in cls.ROW.props}
        return cls.create(operands=[parser.resolve_operand(u, t) for u, t in zip(unresolved, types)],
                          result_types=results, properties={k: v for k, v in attributes.items() if k in names},
                          attributes={k: v for k, v in attributes.items() if k not in names})

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(")")
        shown = {k: v for k, v in self.properties.items() if not (k == "shard_spec" and v.data == "")}
        printer.print_op_attributes(dict(sorted({**shown, **self.attributes}.items())))
        printer.print_string(" : (")
        printer.print_list([v.type for v in self.operands], printer.print_attribute)
        printer.print_string(") -> (")
        printer.print_list([r.type for r in self.results], printer.print_attribute)
        printer.print_string(")")


CUSTOM_BASES = {"empty": EmptyBase, "to_layout": ToLayoutBase, "tt_lang_op": TTLangBase}
# Ops verified unlike the rest of their family, as upstream verifies them.
OWN_RULES = {"clamp_scalar": clamp_scalar, "logical_left_shift": shift, "logical_right_shift": shift,
             "right_shift": shift, "all_gather": all_gather, "all_reduce": all_reduce,
             "all_reduce_async": lambda op: all_reduce(op, "all reduce async"),
             "reduce_scatter": reduce_scatter, "collective_permute": collective_permute,
             "all_to_all": all_to_all, "collective_broadcast": collective_broadcast,
             "max_pool2d_with_indices": max_pool2d_with_indices, "gelu_bw": gelu_bw,
             "paged_fill_cache": paged_fill_cache, "paged_update_cache": paged_update_cache, **attention.TTIR_RULES,
             **ttml.TTIR_RULES}
TTIR_OP_CLASSES: dict[str, type[TTOp]] = {}
TTIR_OP_CLASSES.update({row.name: build_op_class("ttir", row, CUSTOM_BASES.get(row.name, TTOp),
                                                 OWN_RULES.get(row.name, SHAPE_RULES[row.family]), TTIR_OP_CLASSES,
                                                 patterns_for)
                        for row in TTIR_OPS})
globals().update({cls.__name__: cls for cls in TTIR_OP_CLASSES.values()})



@irdl_op_definition
class TTNNMetalLayoutCastOp(IRDLOperation):
    """The same data seen through the other layout encoding: a `#ttnn.ttnn_layout` tensor as a
    `#ttcore.metal_layout` one (or a memref) for a D2M program, or back."""

    name = "ttir.ttnn_metal_layout_cast"
    input = operand_def(TensorType | MemRefType)
    result = result_def(TensorType | MemRefType)
    virtual_grid_inverse_mapping = opt_prop_def(AffineMapAttr)
    virtual_grid_forward_mapping = opt_prop_def(AffineMapAttr)
    traits = traits_def(Pure(), TableCanonicalization(TTIR_OP_CLASSES, patterns_for))
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        source, target = encoding_name(self.input.type), encoding_name(self.result.type)
        if source == "ttnn.ttnn_layout" and target != "ttcore.metal_layout" and \
                not isinstance(self.result.type, MemRefType):
            raise VerifyException(f"'{self.name}' op Input is ttnn tensor, output must be metal tensor or memref")
        if (source == "ttcore.metal_layout" or isinstance(self.input.type, MemRefType)) and \
                target != "ttnn.ttnn_layout":
            raise VerifyException(f"'{self.name}' op Input is metal tensor or memref, output must be ttnn tensor")


TTIR = Dialect("ttir", [*TTIR_OP_CLASSES.values(), TTNNMetalLayoutCastOp], [FlattenedCompatInfoAttr])
