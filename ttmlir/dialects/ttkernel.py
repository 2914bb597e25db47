"""The ttkernel dialect: tt-metal's kernel API as IR. A kernel function carries its thread
(`#ttkernel.thread<compute>`) and its argument spec (`#ttkernel.arg_spec<...>`); its ops are the API's calls.

Ops are one table: each row lists what upstream writes between the op's parentheses, in order (operands,
and the attributes some ops take there, e.g. `ttkernel.get_compile_time_arg_val(0)`), then
`attr-dict : functional-type(operands, results)`, as upstream's assembly formats do. The ops covered are
the CB, argument, dst-register, copy/pack, FPU, SFPU, matmul, semaphore and layout calls; a row's item ending
in `?` is an optional operand (the NoC a call uses, a unary kernel's missing second input). The NoC reads,
writes and multicasts (with their `core[...]`/`bank[...]`/`start_xy[...]` clauses) and the logical-coordinate
globals have their own syntax and classes."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (BoolAttr, DenseArrayBase, IndexType, IntAttr, IntegerAttr, IntegerType, Signedness,
                                   StringAttr, i32)
from xdsl.ir import Attribute, Data, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_attr_definition, irdl_op_definition,
                       operand_def, opt_operand_def, opt_prop_def, param_def, result_def, traits_def,
                       var_operand_def, var_result_def)
from xdsl.parser import AttrParser, Parser
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

from ttmlir.ir.format_print import FormatPrintOp
from ttmlir.ir.syntax import enum_attr, parse_arg_groups, table_class
from ttmlir.dialects.ttkernel_topk import TOPK_CALLS

ThreadAttr = enum_attr("ttkernel.thread", ("noc", "compute", "ethernet"), "The RISC-V thread a kernel runs on.")
BcastTypeAttr = enum_attr("ttkernel.bcast_type", ("none", "col", "row", "scalar"),
                          "What a broadcast spreads: a tile's first column, first row, or first value.")
EltwiseBinaryTypeAttr = enum_attr("ttkernel.eltwise_binary_type", ("add", "sub", "mul"),
                                  "The FPU's elementwise operator in a binary op reusing DST.")
BinaryDestReuseTypeAttr = enum_attr("ttkernel.binary_dest_reuse_type", ("dest_to_srca", "dest_to_srcb"),
                                    "Which FPU source register a binary op reusing DST loads the DST tile into.")
ReduceTypeAttr = enum_attr("ttkernel.reduce_type", ("reduce_sum", "reduce_max", "reduce_avg"), "A reduction's operator.")
ReduceDimAttr = enum_attr("ttkernel.reduce_dim", ("reduce_dim_row", "reduce_dim_col", "reduce_dim_scalar"),
                          "What a tile reduction reduces: each row, each column, or the whole tile.")
ARG_TYPES = ("cb_port", "buffer_address", "local_semaphore", "named_argument", "global_semaphore", "scalar",
             "tensor_accessor_args")
ARG_GROUPS = ("rt_args", "ct_args")


def _parse_arg(parser: AttrParser) -> tuple[str, str | None, int]:
    with parser.in_angle_brackets():
        parser.parse_keyword("arg_type")
        parser.parse_punctuation("=")
        kind = parser.parse_identifier()
        if kind not in ARG_TYPES:
            parser.raise_error(f"expected a kernel argument type ({', '.join(ARG_TYPES)}), got '{kind}'")
        parser.parse_punctuation(",")
        name = None
        if parser.parse_optional_keyword("argument_name") is not None:
            parser.parse_punctuation("=")
            name = parser.parse_str_literal()
            parser.parse_punctuation(",")
        parser.parse_keyword("operand_index")
        parser.parse_punctuation("=")
        return kind, name, parser.parse_integer(allow_negative=False)


def _arg_text(kind: str, name: str | None, index: int) -> str:
    if name is None:
        return f"<arg_type = {kind}, operand_index = {index}>"
    return f'<arg_type = {kind}, argument_name = "{name}", operand_index = {index} >'


@irdl_attr_definition
class ArgSpecAttr(Data[tuple[tuple[tuple[str, str | None, int], ...], ...]]):
    """A kernel's runtime and compile-time arguments, each a type and the index of the enqueue_program operand it
    is taken from: `#ttkernel.arg_spec< ct_args = [<arg_type = cb_port, operand_index = 0>]>`."""

    name = "ttkernel.arg_spec"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        return parse_arg_groups(parser, ARG_GROUPS, lambda: _parse_arg(parser))

    def print_parameter(self, printer: Printer) -> None:
        # as upstream's format prints it: `rt_args` right after `<`, `ct_args` after a space
        rt, ct = (f"{g} = [{', '.join(_arg_text(*a) for a in args)}]" if args else ""
                  for g, args in zip(ARG_GROUPS, self.data))
        printer.print_string(f"<{rt}{' ' + ct if ct else ''}>")

    @property
    def groups(self) -> dict[str, tuple[tuple[str, str | None, int], ...]]:
        return dict(zip(ARG_GROUPS, self.data))


@irdl_attr_definition
class CBType(ParametrizedAttribute, TypeAttribute):
    """A circular buffer handle: `!ttkernel.cb<8, !ttcore.tile<32x32, f32>>` (pages, page element)."""

    name = "ttkernel.cb"
    pages: IntAttr = param_def(IntAttr)
    element: Attribute = param_def(Attribute)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            pages = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(",")
            return IntAttr(pages), parser.parse_type()

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.pages.data}, ")
        printer.print_attribute(self.element)
        printer.print_string(">")


# op -> what sits between its parentheses: operand names, or `name=int|bool|attr` for an attribute written there
_SFPU_UNARY = ("exp", "log", "sqrt", "rsqrt", "recip", "abs", "negative", "relu", "sigmoid", "tanh", "sin", "cos",
               "tan", "gelu", "silu", "ceil", "floor", "sign", "square", "erf", "exp2", "expm1", "log1p",
               "logical_not", "eqz", "nez", "ltz", "gtz", "lez", "gez", "atan", "asin", "acos", "erfc", "softsign",
               "hardsigmoid", "signbit", "bitwise_not")
_SFPU_BINARY = ("add_binary_tile", "sub_binary_tile", "mul_binary_tile", "div_binary_tile", "binary_max_tile",
                "binary_min_tile", "power_binary_tile", "eq_binary_tile", "ne_binary_tile", "gt_binary_tile",
                "lt_binary_tile", "ge_binary_tile", "le_binary_tile", "atan2_binary_tile")
# SFPU binary ops whose call takes the tiles' data format (a template argument in C++)
DTYPE_BINARY = ("bitwise_and_binary_tile", "bitwise_or_binary_tile", "bitwise_xor_binary_tile",
                "binary_left_shift_tile", "binary_right_shift_tile", "binary_logical_right_shift_tile")
OPS: dict[str, tuple[str, ...]] = {
    "cb_reserve_back": ("cb", "numPages"), "cb_push_back": ("cb", "numPages"), "cb_wait_front": ("cb", "numPages"),
    "cb_pop_front": ("cb", "numPages"), "get_write_ptr": ("cb",), "get_read_ptr": ("cb",), "get_tile_size": ("cb",),
    "get_compile_time_arg_val": ("arg_index=int",), "get_arg_val": ("arg_index",),
    "get_common_arg_val": ("arg_index",),
    "tile_regs_acquire": (), "tile_regs_commit": (), "tile_regs_wait": (), "tile_regs_release": (),
    "pack_tile": ("dst_index", "out_cb", "out_index", "out_of_order=bool"),
    "copy_tile_init": ("cb0",), "copy_tile": ("cb0", "tile_index_cb", "tile_index_dst"),
    "pack_reconfig_data_format": ("out_cb",), "reconfig_data_format_srca": ("in_cb",),
    # the packer adds the tiles it packs into what L1 holds (non-zero) or overwrites it (0)
    "pack_reconfig_l1_acc": ("l1_acc_en",),
    "init_sfpu": ("icb", "ocb"), "unary_op_init_common": ("icb", "ocb"),
    "binary_op_init_common": ("in0_cb", "in1_cb", "out_cb"),
    "mm_init": ("in0_cb", "in1_cb", "out_cb", "transpose"),
    "matmul_tiles": ("in0_cb_id", "in1_cb_id", "in0_tile_idx", "in1_tile_idx", "dst_tile_idx"),
    **{f"{op}_tiles_init": ("in0_cb", "in1_cb") for op in ("add", "sub", "mul")},
    **{f"{op}_tiles": ("in0_cb", "in1_cb", "in0_tile_index", "in1_tile_index", "dst_index")
       for op in ("add", "sub", "mul")},
    **{f"{op}_init": () for op in _SFPU_BINARY},
    **{op: ("dst0_index", "dst1_index", "odst_index") for op in _SFPU_BINARY},
    **{f"{op}_tile_init": () for op in _SFPU_UNARY},
    **{f"{op}_tile": ("tile_index",) for op in _SFPU_UNARY},
    "abs_tile_int32": ("tile_index",), "rounding_op_tile_init": (),
    # rounding_op_tile_init's other members
    "frac_tile": ("tile_index",), "trunc_tile": ("tile_index",),
    # si32 tiles' entry points of the SFPU ops that have one
    **{f"{op}_tile_int32": ("tile_index",) for op in ("negative", "relu", "eqz", "nez", "gtz", "gez", "ltz", "lez")},
    "tilize_init": ("cbIn", "numTiles", "cbOut"), "tilize_uninit": ("cbIn", "cbOut"),
    "untilize_uninit": ("cbIn",), "reduce_uninit": (), "tilize_block": ("cbIn", "numTiles", "cbOut"),
    "untilize_init": ("cbIn",), "untilize_block": ("cbIn", "numTiles", "cbOut"),
    # a block of rows x cols tiles at once; pack untilize's column passes (colsPerDstPass, totalColTiles) are
    # attributes of its attr-dict
    "experimental.tilize_block": ("cbIn", "cbOut", "blockR", "blockC"), "pack_untilize_init": ("cbIn", "cbOut"),
    "experimental.pack_untilize_block": ("cbIn", "cbOut", "blockR", "blockC"), "pack_untilize_uninit": ("cbOut",),
    "get_noc_addr_from_bank_id": ("bank_id", "bankAddressOffset"),
    "transpose_wh_init": ("cbIn", "cbOut"), "transpose_wh_tile": ("icb", "itile", "idst"),
    "unary_bcast_init": ("in_cb", "out_cb", "bcast_type=attr"),
    "unary_bcast": ("in_cb", "in_tile_index", "dst_tile_index", "bcast_type=attr"),
    "binary_dest_reuse_tiles_init": ("in_cb", "eltwise_binary_type=attr", "reuse_type=attr"),
    "binary_dest_reuse_tiles": ("in_cb", "in_tile_index", "dst_tile_index", "eltwise_binary_type=attr",
                                "reuse_type=attr"),
    "reduce_init": ("in_cb", "scaling_cb", "out_cb", "reduce_type=attr", "reduce_dim=attr"),
    "reduce_tile": ("in_cb", "scaling_cb", "in_tile_index", "scaling_tile_index", "dst_index", "reduce_type=attr",
                    "reduce_dim=attr"),
    "noc_async_read_barrier": ("noc?",), "noc_async_write_barrier": ("noc?",), "noc_async_full_barrier": ("noc?",),
    # a unary kernel names one input CB
    "compute_kernel_hw_startup": ("icb0", "icb1?", "ocb"), "mm_init_short": ("in0_cb", "in1_cb", "transpose"),
    "mm_block_init": ("in0_cb", "in1_cb", "out_cb", "transpose", "ct_dim", "rt_dim", "kt_dim"),
    "mm_block_init_short": ("in0_cb", "in1_cb", "transpose", "ct_dim", "rt_dim", "kt_dim"),
    "matmul_block": ("in0_cb_id", "in1_cb_id", "in0_tile_idx", "in1_tile_idx", "dst_tile_idx", "transpose", "ct_dim",
                     "rt_dim", "kt_dim"),
    "experimental.matmul_block": ("in0_cb_id", "in1_cb_id", "in0_tile_idx", "in1_tile_idx", "dst_tile_idx",
                                  "transpose", "ct_dim", "rt_dim", "kt_dim", "in1_k_stride"),
    "get_semaphore": ("semaphore",), "reinterpret_cast": ("value",),
    "experimental.semaphore_wait": ("sem_addr", "val"), "experimental.semaphore_wait_min": ("sem_addr", "val"),
    "experimental.convert_logical_x_to_translated": ("logical_x",),
    "experimental.convert_logical_y_to_translated": ("logical_y",),
    "noc_semaphore_wait": ("sem_addr", "val"), "noc_semaphore_wait_min": ("sem_addr", "val"),
    "noc_semaphore_set": ("sem_addr", "val"), "noc_semaphore_inc": ("addr", "incr", "noc?"),
    "noc_semaphore_set_multicast": ("src_local_l1_addr", "dst_noc_addr_multicast", "num_dests"),
    "get_noc_addr": ("x", "y", "l1Address", "noc?"),
    "TensorAccessor": ("args", "bank_base_address_in", "page_size_in"),
    "noc_async_read_tile": ("id", "addrGenStruct", "dstLocalL1Addr", "noc?"),
    "noc_async_write_tile": ("id", "addrGenStruct", "srcLocalL1Addr", "noc?"),
    "get_noc_multicast_addr": ("noc_x_start", "noc_y_start", "noc_x_end", "noc_y_end", "l1Address", "noc?"),
    "pack_tile_block": ("ifrom_dst", "icb", "ntiles"),
    "copy_block_matmul_partials": ("icb", "start_itile", "start_idst", "ntiles"),
    "fill_tile_init": (), "fill_tile_int": ("dst_index", "value"), "fill_tile": ("dst_index", "value"),
    "sfpu_reduce_init": ("reduce_type=attr", "data_format=dtype"),
    "sfpu_reduce": ("dst_index", "reduce_type=attr", "data_format=dtype", "reduce_dim=attr"),
    "add_int_tile_init": (), "add_int_tile": ("dst0_index", "dst1_index", "odst_index", "dtype=dtype"),
    "binary_max_int32_tile_init": (), "binary_max_int32_tile": ("dst0_index", "dst1_index", "odst_index"),
    "binary_min_int32_tile_init": (), "binary_min_int32_tile": ("dst0_index", "dst1_index", "odst_index"),
    "sub_int_tile_init": (), "sub_int_tile": ("dst0_index", "dst1_index", "odst_index", "dtype=dtype"),
    # a DST tile and a scalar (its 32 bits: a float's, or an integer), in place; power takes an integer exponent
    "binop_with_scalar_tile_init": (), "power_tile_init": (), "power_tile": ("dst_index", "param"),
    # a DST tile between two bounds (a float's bits, or integers for clamp_tile_int32); selu's scale and alpha bits
    "clamp_tile_init": (), "clamp_tile": ("dst_index", "min_param", "max_param"),
    "clamp_tile_int32": ("dst_index", "min_param", "max_param"),
    "selu_tile_init": (), "selu_tile": ("tile_index", "scale", "alpha"),
    **{f"{op}_unary_tile": ("dst_index", "param") for op in ("add", "sub", "mul", "div")},
    **{f"{op}_unary_tile_int32": ("dst_index", "param") for op in ("add", "sub")},
    "mul_int_tile_init": ("dtype=dtype",), "mul_int_tile": ("dst0_index", "dst1_index", "odst_index", "dtype=dtype"),
    "typecast_tile_init": ("in_dtype=dtype", "out_dtype=dtype"),
    "typecast_tile": ("dst0_index", "in_dtype=dtype", "out_dtype=dtype"),
    "copy_dest_values_init": (), "copy_dest_values": ("idst_in", "idst_out", "data_format=dtype"),
    # integer tiles' bitwise ops and shifts on DST indices, told the tiles' format
    "binary_bitwise_tile_init": (), "binary_shift_tile_init": (),
    **{op: ("dst0_index", "dst1_index", "odst_index", "dtype=dtype") for op in DTYPE_BINARY},
    "where_tile_init": (),
    "where_tile": ("dst_cond_index", "dst_true_index", "dst_false_index", "odst_index", "dtype=dtype"),
    "bfloat16_greater": ("bf16_a", "bf16_b"), "float32_greater": ("f32_a", "f32_b"),
    "noc_async_atomic_barrier": ("noc?",),
    "noc_async_read_barrier_with_trid": ("trid", "noc?"), "noc_async_write_barrier_with_trid": ("trid", "noc?"),
    "noc_semaphore_inc_multicast": ("addr", "incr", "num_dests", "noc?"),
    "load_from_l1": ("l1_ptr", "offset"), "store_to_l1": ("value", "l1_ptr", "offset"),
    "remote_sram_write_u32": ("src_sram_addr", "dst_remote_addr", "noc?"),
    **TOPK_CALLS,
}
RESULTS = {"get_write_ptr": 1, "get_read_ptr": 1, "get_tile_size": 1, "get_compile_time_arg_val": 1,
           "get_arg_val": 1, "get_common_arg_val": 1, "get_noc_addr_from_bank_id": 1, "get_semaphore": 1,
           "reinterpret_cast": 1, "get_noc_addr": 1, "get_noc_multicast_addr": 1,
           "experimental.convert_logical_x_to_translated": 1, "experimental.convert_logical_y_to_translated": 1,
           "TensorAccessor": 1, "load_from_l1": 1, "bfloat16_greater": 1, "float32_greater": 1}


# engine configuration calls that compute nothing, beyond the `*_init`/`*_uninit` ones
CONFIG_CALLS = frozenset({"compute_kernel_hw_startup", "init_sfpu", "unary_op_init_common", "binary_op_init_common",
                          "mm_init_short", "mm_block_init_short"})


def is_init(op) -> bool:
    """Whether `op` only configures the engines (an init): applying the same one twice is applying it once."""
    if not op.name.startswith("ttkernel."):
        return False
    mnemonic = op.name[len("ttkernel."):]
    return mnemonic.endswith(("_init", "_uninit")) or mnemonic in CONFIG_CALLS


# what the operands (by their row's names) and results of some ops must be; the kinds are resolved in TYPE_KINDS
TYPE_RULES: dict[str, dict[str, str]] = {
    "load_from_l1": {"l1_ptr": "an L1 pointer", "offset": "i32", "result": "i8, i16 or i32"},
    "store_to_l1": {"value": "i8, i16 or i32", "l1_ptr": "an L1 pointer", "offset": "i32"},
    "remote_sram_write_u32": {"src_sram_addr": "i32, an L1 address or a local semaphore",
                              "dst_remote_addr": "a NoC address", "noc": "i8"},
    "bfloat16_greater": {"bf16_a": "i16", "bf16_b": "i16", "result": "i1"},
    "float32_greater": {"f32_a": "i32", "f32_b": "i32", "result": "i1"},
    "noc_async_atomic_barrier": {"noc": "i8"},
    "pack_reconfig_l1_acc": {"l1_acc_en": "i32"},
    "noc_async_read_barrier_with_trid": {"trid": "i32", "noc": "i8"},
    "noc_async_write_barrier_with_trid": {"trid": "i32", "noc": "i8"},
    "noc_semaphore_inc_multicast": {"addr": "a NoC address", "incr": "i32", "num_dests": "i32", "noc": "i8"},
}
TRIDS, NOCS = 16, 2  # transaction ids a NoC tracks; NoCs per core


def _constant_int(value) -> int | None:
    owner = getattr(value, "owner", None)
    if getattr(owner, "name", None) == "arith.constant" and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def check_trid_noc(op, operands: dict) -> None:
    """A transaction id the NoC tracks (0-15) and a NoC that exists (0 or 1), when they are constants."""
    if "trid" in operands and (trid := _constant_int(operands["trid"])) is not None and not 0 <= trid < TRIDS:
        raise VerifyException(f"trid must be in [0, {TRIDS - 1}].")
    if operands.get("noc") is not None and (noc := _constant_int(operands["noc"])) is not None and \
            not 0 <= noc < NOCS:
        raise VerifyException(f"noc must be in [0, {NOCS - 1}].")


def _check_layout_cbs(op, tiled: Attribute, scalar: Attribute) -> None:
    """A tilize reads scalars and writes tiles (an untilize the other way round)."""
    from ttmlir.dialects.ttcore_attrs import TileType

    if not isinstance(tiled, CBType) or not isinstance(scalar, CBType):
        raise VerifyException(f"'{op.name}' op converts between two !ttkernel.cb")
    if isinstance(scalar.element, TileType):
        raise VerifyException(f"'{op.name}' op Input to TilizeOp or Output to UntilizeOp must have scalar element type")
    if not isinstance(tiled.element, TileType):
        raise VerifyException(f"'{op.name}' op Input to UntilizeOp or Output to TilizeOp must have tile element type")


def _check_pack_untilize(op, operands: dict) -> None:
    """Tiles in, scalars out; the column tiles of a dst pass divide the row's (and a constant block's) column tiles."""
    _check_layout_cbs(op, operands["cbIn"].type, operands["cbOut"].type)
    passes = {}
    for name in ("colsPerDstPass", "totalColTiles"):
        attr = op.attributes.get(name)
        if attr is None and op.name.endswith("pack_untilize_block"):
            raise VerifyException(f"'{op.name}' op requires attribute '{name}'")
        passes[name] = attr.value.data if isinstance(attr, IntegerAttr) else 1
    cols, total = passes["colsPerDstPass"], passes["totalColTiles"]
    if cols <= 0 or total <= 0:
        raise VerifyException(f"'{op.name}' op cols_per_dst_pass and total_col_tiles must both be positive")
    if total % cols:
        raise VerifyException(f"'{op.name}' op cols_per_dst_pass must divide total_col_tiles")
    if (block_c := _constant_int(operands.get("blockC"))) is not None:
        if block_c <= 0:
            raise VerifyException(f"'{op.name}' op block_c must be positive")
        if block_c % cols:
            raise VerifyException(f"'{op.name}' op block_c must be divisible by cols_per_dst_pass")


def _check_tilize_block(op, operands: dict) -> None:
    _check_layout_cbs(op, operands["cbOut"].type, operands["cbIn"].type)


EXTRA_CHECKS = {"experimental.tilize_block": _check_tilize_block, "pack_untilize_init": _check_pack_untilize,
                "experimental.pack_untilize_block": _check_pack_untilize}


def parse_data_type(parser: AttrParser):
    """`<f32>`: a ttcore data type where the op says what the attribute is."""
    from ttmlir.dialects.ttcore_attrs import DataTypeAttr

    with parser.in_angle_brackets():
        return DataTypeAttr(parser.parse_str_enum(DataTypeAttr.enum_type))


# the enum attributes ops write short between their parentheses (`<row>`), by item name
ENUM_ITEMS = {"bcast_type": BcastTypeAttr, "reduce_type": ReduceTypeAttr, "reduce_dim": ReduceDimAttr,
              "eltwise_binary_type": EltwiseBinaryTypeAttr, "reuse_type": BinaryDestReuseTypeAttr}


class TTKernelOp(IRDLOperation):
    """A call of the kernel API; `ITEMS` is its row of `OPS`."""

    ITEMS: ClassVar[tuple[str, ...]] = ()
    operands_ = var_operand_def()
    results_ = var_result_def()

    @classmethod
    def attribute_items(cls) -> list[tuple[str, str]]:
        return [tuple(item.split("=")) for item in cls.ITEMS if "=" in item]

    def verify_(self) -> None:
        required = sum("=" not in item and not item.endswith("?") for item in self.ITEMS)
        optional = sum(item.endswith("?") for item in self.ITEMS)
        if not required <= len(self.operands) <= required + optional:
            expected = f"{required}" + (f" or {required + optional}" if optional else "")
            raise VerifyException(f"'{self.name}' op takes {expected} operand(s), got {len(self.operands)}")
        if len(self.results) != RESULTS.get(self.name[len("ttkernel."):], 0):
            raise VerifyException(f"'{self.name}' op returns {RESULTS.get(self.name[len('ttkernel.'):], 0)} "
                                  f"value(s), got {len(self.results)}")
        for name, _ in self.attribute_items():
            if name not in self.properties:
                raise VerifyException(f"'{self.name}' op requires attribute '{name}'")
        rules = TYPE_RULES.get(self.name[len("ttkernel."):], {})
        named = [item.rstrip("?") for item in self.ITEMS if "=" not in item]
        checked = [(f"operand #{i}", named[i], v.type) for i, v in enumerate(self.operands)]
        checked += [(f"result #{i}", "result", v.type) for i, v in enumerate(self.results)]
        for what, name, t in checked:
            if name in rules and not any(t == k or (isinstance(k, type) and isinstance(t, k))
                                         for k in TYPE_KINDS[rules[name]]):
                raise VerifyException(f"'{self.name}' op {what} must be {rules[name]}, but got {t}")
        check_trid_noc(self, dict(zip(named, self.operands)))
        if (check := EXTRA_CHECKS.get(self.name[len("ttkernel."):])) is not None:
            check(self, dict(zip(named, self.operands)))

    @classmethod
    def parse(cls, parser: Parser) -> "TTKernelOp":
        operands, props = [], {}
        if not cls.attribute_items():  # only operands, some optional (its row's verifier counts them)
            operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
            return cls._finish(parser, operands, props)
        with parser.in_parens():
            for i, item in enumerate(cls.ITEMS):
                if item.endswith("?"):  # a trailing optional operand (a NoC index)
                    if (parser.parse_optional_punctuation(",") if i else True) and \
                            (operand := parser.parse_optional_unresolved_operand()) is not None:
                        operands.append(operand)
                    continue
                if i:
                    parser.parse_punctuation(",")
                if "=" not in item:
                    operands.append(parser.parse_unresolved_operand())
                    continue
                name, kind = item.split("=")
                if kind == "bool":
                    props[name] = BoolAttr(parser.parse_boolean(), IntegerType(1))
                elif kind == "attr" and name in ENUM_ITEMS:  # an enum printed short, `<row>`
                    props[name] = ENUM_ITEMS[name](ENUM_ITEMS[name].parse_parameter(parser))
                elif kind == "attr":
                    props[name] = parser.parse_attribute()
                elif kind == "dtype":  # a data type in its short form, `<f32>`
                    props[name] = parse_data_type(parser)
                else:
                    props[name] = IntegerAttr(parser.parse_integer(), i32)
        return cls._finish(parser, operands, props)

    @classmethod
    def _finish(cls, parser: Parser, operands: list, props: dict) -> "TTKernelOp":
        """`attr-dict : functional-type(operands, results)` after the parenthesized items."""
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        fn = parser.parse_function_type()
        return cls.create(operands=parser.resolve_operands(operands, fn.inputs.data, position),
                          result_types=list(fn.outputs.data), properties=props, attributes=attributes)

    def print(self, printer: Printer) -> None:
        values, parts = iter(self.operands), []
        items = self.ITEMS if self.attribute_items() else [str(i) for i in range(len(self.operands))]
        for item in items:
            if item.endswith("?"):
                if (value := next(values, None)) is not None:
                    parts.append(lambda v=value: printer.print_operand(v))
                continue
            if "=" not in item:
                parts.append(lambda v=next(values): printer.print_operand(v))
                continue
            attr = self.properties[item.split("=")[0]]
            if item.split("=")[0] in ENUM_ITEMS:  # short, as upstream prints its enums there
                parts.append(lambda a=attr: printer.print_string(f"<{a.data.value}>"))
                continue
            if item.endswith("=attr"):
                parts.append(lambda a=attr: printer.print_attribute(a))
                continue
            if item.endswith("=dtype"):
                parts.append(lambda a=attr: printer.print_string(f"<{a.data.value}>"))
                continue
            parts.append(lambda a=attr: printer.print_string(
                ("true" if a.value.data else "false") if a.type == IntegerType(1) else str(a.value.data)))
        printer.print_string("(")
        for i, part in enumerate(parts):
            if i:
                printer.print_string(", ")
            part()
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)


def _type(mnemonic: str, doc: str) -> type[ParametrizedAttribute]:
    """A kernel value type without parameters, `!ttkernel.<mnemonic>`."""
    body = {"name": f"ttkernel.{mnemonic}", "__doc__": f"{doc}: `!ttkernel.{mnemonic}`."}
    return table_class(mnemonic, "Type", (ParametrizedAttribute, TypeAttribute), body, irdl_attr_definition)


NocAddrType = _type("noc_addr", "A 64-bit NoC address (a node and an address in it)")
LocalSemaphoreType = _type("local_semaphore", "A semaphore's address in this core's L1 (get_semaphore's result)")
L1AddrType = _type("l1_addr", "An address in a core's L1")


@irdl_attr_definition
class L1AddrPtrType(ParametrizedAttribute, TypeAttribute):
    """A pointer into L1 to words of `width` bits (8, 16 or 32, the default, which is not printed):
    `!ttkernel.l1_addr_ptr`, `!ttkernel.l1_addr_ptr<16>` (tt-metal's `volatile tt_l1_ptr uint16_t*`)."""

    name = "ttkernel.l1_addr_ptr"
    width: IntAttr = param_def(IntAttr)
    WIDTHS: ClassVar[tuple[int, ...]] = (8, 16, 32)

    def __init__(self, width: int | IntAttr = 32):
        super().__init__(width if isinstance(width, IntAttr) else IntAttr(width))

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        if parser.parse_optional_punctuation("<") is None:
            return (IntAttr(32),)
        position = parser.pos
        width = parser.parse_integer(allow_negative=False)
        parser.parse_punctuation(">")
        if width not in cls.WIDTHS:
            parser.raise_error(f"unsupported l1_addr_ptr element width {width}; expected 8, 16, or 32", position)
        return (IntAttr(width),)

    def print_parameters(self, printer: Printer) -> None:
        if self.width.data != 32:
            printer.print_string(f"<{self.width.data}>")

    def verify(self) -> None:
        if self.width.data not in self.WIDTHS:
            raise VerifyException(f"unsupported l1_addr_ptr element width {self.width.data}; expected 8, 16, or 32")


# each kind of TYPE_RULES: the type classes (or exact types) it admits
TYPE_KINDS: dict[str, tuple] = {
    "an L1 pointer": (L1AddrPtrType,), "i32": (IntegerType(32),), "i8": (IntegerType(8),), "i16": (IntegerType(16),),
    "i1": (IntegerType(1),),
    "i8, i16 or i32": (IntegerType(8), IntegerType(16), IntegerType(32)),
    "i32, an L1 address or a local semaphore": (IntegerType(32), L1AddrType, LocalSemaphoreType),
    "a NoC address": (NocAddrType,),
}
TensorAccessorArgsType = _type("TensorAccessorArgs", "The compile-time description of a buffer a TensorAccessor reads")
TensorAccessorType = _type("TensorAccessor", "A buffer's pages by id (tt-metal's TensorAccessor)")


class _LogicalCoordOp(IRDLOperation):
    """This core's logical coordinate, tt-metal's `my_logical_x_` / `my_logical_y_` globals:
    `%x = ttkernel.my_logical_x_ : () -> index`."""

    result = result_def(IndexType)

    @classmethod
    def parse(cls, parser: Parser):
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls.create(result_types=list(fn.outputs.data), attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([], self.result_types)


def _print_noc_and_signature(printer: Printer, op: IRDLOperation) -> None:
    """An optional `, noc %n`, the closing paren, the attributes and the function type: how the NoC ops end."""
    if op.noc:
        printer.print_string(", noc ")
        printer.print_operand(op.noc[0])
    printer.print_string(")")
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_function_type(op.operand_types, op.result_types)


def _trailing_operands(parser: Parser, count: int) -> tuple[list, list]:
    """`, %a, %b, ...` (`count` operands), then an optional `, noc %n`: the operands and the NoC (none or one)."""
    values = []
    for _ in range(count):
        parser.parse_punctuation(",")
        values.append(parser.parse_unresolved_operand())
    if parser.parse_optional_punctuation(",") is None:
        return values, []
    parser.parse_keyword("noc")
    return values, [parser.parse_unresolved_operand()]


@irdl_op_definition
class MyLogicalXOp(_LogicalCoordOp):
    name = "ttkernel.my_logical_x_"


@irdl_op_definition
class MyLogicalYOp(_LogicalCoordOp):
    name = "ttkernel.my_logical_y_"


class _NocTransferOp(IRDLOperation):
    """A NoC read or write naming the far side by core (`core[%x, %y]`) or DRAM bank (`bank[%b]`), with an
    optional NoC (`, noc %n`), in upstream's syntax."""

    FAR_FIRST: ClassVar[bool] = True  # a read names the far side first; a write names its local source first
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def verify_(self) -> None:
        if bool(self.core_xy) == bool(self.bank_id):
            raise VerifyException(f"'{self.name}' op names exactly one of core[x, y] or bank[id]")
        if self.core_xy and len(self.core_xy) != 2:
            raise VerifyException(f"'{self.name}' op core[...] takes two coordinates")

    @classmethod
    def parse(cls, parser: Parser):
        local = None if cls.FAR_FIRST else parser.parse_unresolved_operand()
        if not cls.FAR_FIRST:
            parser.parse_punctuation(",")
        core = bank = []
        if parser.parse_optional_keyword("core") is not None:
            core = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        elif parser.parse_optional_keyword("bank") is not None:
            bank = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        values, noc = _trailing_operands(parser, 3 if cls.FAR_FIRST else 2)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        fn = parser.parse_function_type()
        ordered = [*core, *bank, *values, *noc] if cls.FAR_FIRST else [local, *core, *bank, *values, *noc]
        operands = iter(parser.resolve_operands(ordered, fn.inputs.data, position))
        sizes = [len(core), len(bank), 1, 1, 1, len(noc)] if cls.FAR_FIRST else [1, len(core), len(bank), 1, 1, len(noc)]
        segments = [[next(operands) for _ in range(size)] for size in sizes]
        return cls.create(operands=[v for group in segments for v in group], attributes=attributes,
                          properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [len(g) for g in segments])})

    def print(self, printer: Printer) -> None:
        if not self.FAR_FIRST:
            printer.print_string(" ")
            printer.print_operand(self.src_local)
            printer.print_string(",")
        for word, values in (("core", self.core_xy), ("bank", self.bank_id)):
            if values:
                printer.print_string(f" {word}[")
                printer.print_list(values, printer.print_operand)
                printer.print_string("]")
        for value in ([self.src_address, self.dst_local, self.size] if self.FAR_FIRST else [self.dst_address, self.size]):
            printer.print_string(", ")
            printer.print_operand(value)
        if self.noc:
            printer.print_string(", noc ")
            printer.print_operand(self.noc[0])
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)


@irdl_op_definition
class NocAsyncReadOp(_NocTransferOp):
    """`ttkernel.noc_async_read bank[%b], %src_addr, %dst_l1, %size : (...) -> ()`."""

    name = "ttkernel.noc_async_read"
    core_xy = var_operand_def(IndexType)
    bank_id = var_operand_def()
    src_address = operand_def()
    dst_local = operand_def()
    size = operand_def()
    noc = var_operand_def()


@irdl_op_definition
class NocAsyncWriteOp(_NocTransferOp):
    """`ttkernel.noc_async_write %src_l1, bank[%b], %dst_addr, %size : (...) -> ()`."""

    name = "ttkernel.noc_async_write"
    FAR_FIRST: ClassVar[bool] = False
    src_local = operand_def()
    core_xy = var_operand_def(IndexType)
    bank_id = var_operand_def()
    dst_address = operand_def()
    size = operand_def()
    noc = var_operand_def()


class MulticastWriteOp(IRDLOperation):
    """A write of local L1 to the same address on every core of a rectangle: `ttkernel.<op>(%src, %size,
    %num_dests, start_xy[%x0, %y0], end_xy[%x1, %y1], %dst, noc %n) : (...) -> ()`."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    src_local = operand_def()
    size = operand_def()
    num_dests = operand_def()
    start_xy = var_operand_def()
    end_xy = var_operand_def()
    dst_local = operand_def()
    noc = var_operand_def()
    linked = opt_prop_def(Attribute)

    def verify_(self) -> None:
        if len(self.start_xy) != 2 or len(self.end_xy) != 2:
            raise VerifyException(f"'{self.name}' op start_xy[...] and end_xy[...] take two coordinates each")

    @classmethod
    def parse(cls, parser: Parser):
        values: list = []
        with parser.in_parens():
            for _ in range(3):
                values.append(parser.parse_unresolved_operand())
                parser.parse_punctuation(",")
            corners = []
            for word in ("start_xy", "end_xy"):
                parser.parse_keyword(word)
                corners.append(parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                                 parser.parse_unresolved_operand))
                parser.parse_punctuation(",")
            dst = parser.parse_unresolved_operand()
            noc, props = [], {}
            while parser.parse_optional_punctuation(","):
                if parser.parse_optional_keyword("noc") is not None:
                    noc = [parser.parse_unresolved_operand()]
                else:
                    parser.parse_keyword("linked")
                    props["linked"] = BoolAttr(parser.parse_boolean(), IntegerType(1))
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        fn = parser.parse_function_type()
        ordered = [*values, *corners[0], *corners[1], dst, *noc]
        operands = parser.resolve_operands(ordered, fn.inputs.data, position)
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, 1, 1, len(corners[0]), len(corners[1]), 1,
                                                                      len(noc)])
        return cls.create(operands=operands, properties=props, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list([self.src_local, self.size, self.num_dests], printer.print_operand)
        for word, values in (("start_xy", self.start_xy), ("end_xy", self.end_xy)):
            printer.print_string(f", {word}[")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        printer.print_string(", ")
        printer.print_operand(self.dst_local)
        if self.noc:
            printer.print_string(", noc ")
            printer.print_operand(self.noc[0])
        if self.linked is not None:
            printer.print_string(f", linked {'true' if self.linked.value.data else 'false'}")
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)


@irdl_op_definition
class NocAsyncWriteMulticastOp(MulticastWriteOp):
    """A multicast write of any size (`ttkernel.noc_async_write_multicast`)."""

    name = "ttkernel.noc_async_write_multicast"


@irdl_op_definition
class NocAsyncWriteMulticastOnePacketOp(MulticastWriteOp):
    """A multicast write of at most one NoC packet (`ttkernel.noc_async_write_multicast_one_packet`)."""

    name = "ttkernel.noc_async_write_multicast_one_packet"


@irdl_op_definition
class NocAsyncWriteMulticastLoopbackSrcOp(MulticastWriteOp):
    """A multicast write whose rectangle includes the sending core
    (`ttkernel.noc_async_write_multicast_loopback_src`)."""

    name = "ttkernel.noc_async_write_multicast_loopback_src"


class ReadStateOp(IRDLOperation):
    """A one-packet read in two steps: the far side (`core[%x, %y]` or `bank[%b]`, an address) and size set as the
    NoC's state once, then reads into local L1 that reuse it: `ttkernel.<op>(core[%x, %y], %src_addr, [%dst_l1,]
    %size, noc %n) : (...) -> ()`."""

    WITH_DST: ClassVar[bool] = False
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def verify_(self) -> None:
        if bool(self.src_core_xy) == bool(self.src_bank_id):
            raise VerifyException(f"'{self.name}' op must specify exactly one NoC address mode")
        if self.src_core_xy and len(self.src_core_xy) != 2:
            raise VerifyException(f"'{self.name}' op core address mode requires x and y coordinates")
        if self.src_bank_id and len(self.src_bank_id) != 1:
            raise VerifyException(f"'{self.name}' op bank address mode requires one bank id")

    @classmethod
    def parse(cls, parser: Parser):
        with parser.in_parens():
            core = bank = []
            if parser.parse_optional_keyword("core") is not None:
                core = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
            elif parser.parse_optional_keyword("bank") is not None:
                bank = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
            values, noc = _trailing_operands(parser, 3 if cls.WITH_DST else 2)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        fn = parser.parse_function_type()
        operands = parser.resolve_operands([*core, *bank, *values, *noc], fn.inputs.data, position)
        sizes = [len(core), len(bank), *([1] * len(values)), len(noc)]
        return cls.create(operands=operands, attributes=attributes, properties={
            "operandSegmentSizes": DenseArrayBase.from_list(i32, sizes)})

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        for word, values in (("core", self.src_core_xy), ("bank", self.src_bank_id)):
            if values:
                printer.print_string(f"{word}[")
                printer.print_list(values, printer.print_operand)
                printer.print_string("]")
        for value in self.operands[len(self.src_core_xy) + len(self.src_bank_id):
                                   len(self.operands) - len(self.noc)]:
            printer.print_string(", ")
            printer.print_operand(value)
        _print_noc_and_signature(printer, self)


@irdl_op_definition
class NocAsyncReadOnePacketSetStateOp(ReadStateOp):
    """Sets a NoC's one-packet read state: the far side and the size."""

    name = "ttkernel.noc_async_read_one_packet_set_state"
    src_core_xy = var_operand_def(IndexType)
    src_bank_id = var_operand_def(i32)
    src_address = operand_def(i32)
    size = operand_def(i32)
    noc = var_operand_def(IntegerType(8))


@irdl_op_definition
class NocAsyncReadOnePacketWithStateOp(ReadStateOp):
    """A one-packet read into local L1 through the state its NoC was set to."""

    name = "ttkernel.noc_async_read_one_packet_with_state"
    WITH_DST: ClassVar[bool] = True
    src_core_xy = var_operand_def(IndexType)
    src_bank_id = var_operand_def(i32)
    src_address = operand_def(i32)
    dst_local_l1_addr = operand_def()
    size = operand_def(i32)
    noc = var_operand_def(IntegerType(8))


# a NoC barrier waits for the transfers of these ops (issued on any NoC: the search does not tell NoCs apart)
BARRIER_WAITS_FOR: dict[str, frozenset[str]] = {
    "noc_async_read_barrier": frozenset({"ttkernel.noc_async_read", "ttkernel.noc_async_read_tile",
                                         "ttkernel.noc_async_read_one_packet_with_state"}),
    "noc_async_write_barrier": frozenset({"ttkernel.noc_async_write", "ttkernel.noc_async_write_tile",
                                          "ttkernel.noc_async_write_multicast", "ttkernel.noc_inline_dw_write",
                                          "ttkernel.noc_async_write_multicast_one_packet",
                                          "ttkernel.noc_async_write_multicast_loopback_src",
                                          "ttkernel.noc_semaphore_set_multicast", "ttkernel.remote_sram_write_u32"}),
}


class DropRepeatedBarrier(RewritePattern):
    """A barrier that an identical earlier barrier of its block (same NoC operand) already passed, with no transfer
    it waits for issued since, waits for nothing. An op with regions (a loop, an if) ends the search."""

    def match_and_rewrite(self, op: IRDLOperation, rewriter: PatternRewriter) -> None:
        issuers = BARRIER_WAITS_FOR[op.name[len("ttkernel."):]]
        previous = op.prev_op
        while previous is not None and previous.name not in issuers and not previous.regions:
            if previous.name == op.name and tuple(previous.operands) == tuple(op.operands):
                rewriter.erase_op(op)
                return
            previous = previous.prev_op


class DropRepeatedStall(RewritePattern):
    """A stall right after another waits for a pack that the first already saw land."""

    def match_and_rewrite(self, op: IRDLOperation, rewriter: PatternRewriter) -> None:
        if isinstance(op, UnpackStallOnPackOp) and isinstance(op.prev_op, UnpackStallOnPackOp):
            rewriter.erase_op(op)


class _BarrierCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (DropRepeatedBarrier(),)


class _StallCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (DropRepeatedStall(),)


@irdl_op_definition
class NocInlineDwWriteOp(IRDLOperation):
    """A 32-bit value written straight into another core's L1, no staging word (tt-metal's inline_dw_write):
    `ttkernel.noc_inline_dw_write(core[%x, %y], %addr, %val, %byte_enable, noc %n) : (...) -> ()`."""

    name = "ttkernel.noc_inline_dw_write"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    dst_noc_x = operand_def(IndexType)
    dst_noc_y = operand_def(IndexType)
    dst_address = operand_def(i32)
    val = operand_def(i32)
    byte_enable = operand_def(IntegerType(8))
    noc = var_operand_def(IntegerType(8))

    @classmethod
    def parse(cls, parser: Parser):
        with parser.in_parens():
            parser.parse_keyword("core")
            core = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
            if len(core) != 2:
                parser.raise_error("core[...] takes two coordinates")
            values, noc = _trailing_operands(parser, 3)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        fn = parser.parse_function_type()
        operands = parser.resolve_operands([*core, *values, *noc], fn.inputs.data, position)
        return cls.create(operands=operands, attributes=attributes, properties={
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 1, 1, 1, len(noc)])})

    def print(self, printer: Printer) -> None:
        printer.print_string("(core[")
        printer.print_list([self.dst_noc_x, self.dst_noc_y], printer.print_operand)
        printer.print_string("], ")
        printer.print_list([self.dst_address, self.val, self.byte_enable], printer.print_operand)
        _print_noc_and_signature(printer, self)


@irdl_op_definition
class NocAsyncWriteOnePacketWithTridOp(IRDLOperation):
    """A write of at most one NoC packet tagged with a transaction id, which a barrier can wait for alone:
    `ttkernel.noc_async_write_one_packet_with_trid(%src, core[%x, %y], %dst, %size, %trid, noc %n) : (...) -> ()`
    (or `bank[%b]` for a DRAM bank)."""

    name = "ttkernel.noc_async_write_one_packet_with_trid"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    src_local = operand_def(i32)
    core_xy = var_operand_def(IndexType)
    bank_id = var_operand_def()
    dst_address = operand_def(i32)
    size = operand_def(i32)
    trid = operand_def(i32)
    noc = var_operand_def(IntegerType(8))

    def verify_(self) -> None:
        if bool(self.core_xy) == bool(self.bank_id):
            raise VerifyException(f"'{self.name}' op names exactly one of core[x, y] or bank[id]")
        if self.core_xy and len(self.core_xy) != 2:
            raise VerifyException(f"'{self.name}' op core[...] takes two coordinates")
        check_trid_noc(self, {"trid": self.trid, "noc": self.noc[0] if self.noc else None})

    @classmethod
    def parse(cls, parser: Parser):
        with parser.in_parens():
            src = parser.parse_unresolved_operand()
            parser.parse_punctuation(",")
            core = bank = []
            if parser.parse_optional_keyword("core") is not None:
                core = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
            else:
                parser.parse_keyword("bank")
                bank = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
            values, noc = _trailing_operands(parser, 3)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        fn = parser.parse_function_type()
        operands = parser.resolve_operands([src, *core, *bank, *values, *noc], fn.inputs.data, position)
        return cls.create(operands=operands, attributes=attributes, properties={
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, len(core), len(bank), 1, 1, 1, len(noc)])})

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.src_local)
        for word, values in (("core", self.core_xy), ("bank", self.bank_id)):
            if values:
                printer.print_string(f", {word}[")
                printer.print_list(values, printer.print_operand)
                printer.print_string("]")
        for value in (self.dst_address, self.size, self.trid):
            printer.print_string(", ")
            printer.print_operand(value)
        _print_noc_and_signature(printer, self)


@irdl_op_definition
class TensorAccessorArgsOp(IRDLOperation):
    """Where a TensorAccessor's compile-time and common runtime args start: constant offsets
    (`ttkernel.TensorAccessorArgs(%cta, %crta)`), or just after another accessor's
    (`ttkernel.TensorAccessorArgs(prev = %args)`); `cta_expr = "..."`/`crta_expr = "..."` give an offset as a C++
    constant expression instead."""

    name = "ttkernel.TensorAccessorArgs"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    cta_base = opt_operand_def(i32)
    crta_base = opt_operand_def(i32)
    prev_args = opt_operand_def(TensorAccessorArgsType)
    cta_expr = opt_prop_def(StringAttr)
    crta_expr = opt_prop_def(StringAttr)
    result = result_def(TensorAccessorArgsType)

    def verify_(self) -> None:
        bases = (self.cta_base, self.crta_base)
        if self.prev_args is not None:
            if any(b is not None for b in bases):
                raise VerifyException("cta_base and crta_base should not be provided when using prev_args")
            return
        if any(b is None for b in bases):
            raise VerifyException("both cta_base and crta_base are required when prev_args is not provided")
        for kind, base, expr in (("cta", self.cta_base, self.cta_expr), ("crta", self.crta_base, self.crta_expr)):
            if expr is None and _constant_int(base) is None:
                raise VerifyException(f"{kind}_base must be a constant when {kind}_expr is not provided")

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("(")
        if parser.parse_optional_keyword("prev") is not None:
            parser.parse_punctuation("=")
            (prev,) = parser.resolve_operands([parser.parse_unresolved_operand()], [TensorAccessorArgsType()],
                                              parser.pos)
            operands, sizes = [prev], [0, 0, 1]
        else:
            cta = parser.parse_unresolved_operand()
            parser.parse_punctuation(",")
            crta = parser.parse_unresolved_operand()
            operands, sizes = parser.resolve_operands([cta, crta], [i32, i32], parser.pos), [1, 1, 0]
        parser.parse_punctuation(")")
        props = {"operandSegmentSizes": DenseArrayBase.from_list(i32, sizes)}
        for key in ("cta_expr", "crta_expr"):
            if parser.parse_optional_keyword(key) is not None:
                parser.parse_punctuation("=")
                props[key] = StringAttr(parser.parse_str_literal())
        attributes = parser.parse_optional_attr_dict()
        return cls.create(operands=operands, result_types=[TensorAccessorArgsType()], properties=props,
                          attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        if self.prev_args is not None:
            printer.print_string("prev = ")
            printer.print_operand(self.prev_args)
        else:
            printer.print_list([self.cta_base, self.crta_base], printer.print_operand)
        printer.print_string(")")
        for key in ("cta_expr", "crta_expr"):
            if (expr := self.properties.get(key)) is not None:
                printer.print_string(f' {key} = "{expr.data}"')
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class UnpackStallOnPackOp(IRDLOperation):
    """The unpacker waits until the packer's last write is in L1 (`ttkernel.experimental.unpack_stall_on_pack`),
    between generics that hand a tile through L1 within one compute kernel."""

    name = "ttkernel.experimental.unpack_stall_on_pack"
    assembly_format = "attr-dict"
    traits = traits_def(_StallCanonicalization())


@irdl_op_definition
class BitcastOp(IRDLOperation):
    """A kernel argument's ui32 slot read as the scalar type it carries: `ttkernel.bitcast %a : ui32 to f32`."""

    name = "ttkernel.bitcast"
    input = operand_def(IntegerType(32, Signedness.UNSIGNED))
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$input `:` type($input) `to` type($result) attr-dict"


@irdl_op_definition
class DPrintOp(FormatPrintOp):
    """tt-metal's DPRINT of a format string whose `{}`s take the operands in order (a CB prints its details):
    `ttkernel.dprint("x={}\\n", %x) : (i32) -> ()`."""

    name = "ttkernel.dprint"

    def verify_(self) -> None:
        if self.fmt.data.count("{}") != len(self.argv):
            raise VerifyException("'ttkernel.dprint' op number of format specifiers must match number of operands")


def _op_class(mnemonic: str, items: tuple[str, ...]) -> type[TTKernelOp]:
    body = {"name": f"ttkernel.{mnemonic}", "ITEMS": items, "__doc__": f"tt-metal's `{mnemonic}`.",
            "__annotations__": {"ITEMS": ClassVar[tuple[str, ...]]},
            **{item.split("=")[0]: opt_prop_def(Attribute) for item in items if "=" in item}}
    if mnemonic in BARRIER_WAITS_FOR:
        body["traits"] = traits_def(_BarrierCanonicalization())
    return table_class(mnemonic, "Op", (TTKernelOp,), body, irdl_op_definition)


OP_CLASSES = {mnemonic: _op_class(mnemonic, items) for mnemonic, items in OPS.items()}

TTKernel = Dialect("ttkernel", [*OP_CLASSES.values(), MyLogicalXOp, MyLogicalYOp, NocAsyncReadOp, NocAsyncWriteOp,
                                NocAsyncWriteMulticastOp, NocAsyncWriteMulticastOnePacketOp,
                                NocAsyncWriteMulticastLoopbackSrcOp, NocAsyncReadOnePacketSetStateOp,
                                NocAsyncReadOnePacketWithStateOp, NocInlineDwWriteOp, UnpackStallOnPackOp,
                                NocAsyncWriteOnePacketWithTridOp, TensorAccessorArgsOp, BitcastOp, DPrintOp],
                   [ThreadAttr, ArgSpecAttr, CBType, NocAddrType, LocalSemaphoreType, L1AddrType, L1AddrPtrType,
                    TensorAccessorArgsType, TensorAccessorType,
                    ReduceTypeAttr, ReduceDimAttr, BcastTypeAttr, EltwiseBinaryTypeAttr,
                    BinaryDestReuseTypeAttr])
