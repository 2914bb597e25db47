"""The StableHLO op table as plain data: each op's name, assembly format, clauses (`dims = [..]` after the
operands) and inherent attributes; the elementwise families; the ops with effects. `ttmlir.dialects.stablehlo`
builds an op class per row; the verifier and the conversions read the families from here."""

from __future__ import annotations

# ---------------------------------------------------------------------------------------------------------------
# The op table: name -> (format, clauses, inherent attributes, pure)

UNARY = ("abs cbrt ceil cosine count_leading_zeros exponential exponential_minus_one floor imag_ is_finite_ log "
         "log_plus_one logistic negate not popcnt real_ round_nearest_afz round_nearest_even rsqrt sign sine sqrt "
         "tan tanh").split()
BINARY = ("add and atan2 divide maximum minimum multiply or power remainder shift_left shift_right_arithmetic "
          "shift_right_logical subtract xor").split()
REDUCE_BODY_NAMES = frozenset({"add", "multiply", "maximum", "minimum", "and", "or", "xor"})

ROWS: list[tuple[str, str, str, str]] = [  # name, format, clauses, properties (beyond the clauses')
    *((n, "same", "", "result_accuracy") for n in UNARY if not n.endswith("_")),
    ("is_finite", "functional", "", ""),
    ("real", "part", "", ""), ("imag", "part", "", ""),
    *((n, "same", "", "") for n in BINARY),
    ("clamp", "same", "", ""),
    ("convert", "same", "", ""),
    ("bitcast_convert", "functional", "", ""),
    ("reshape", "functional", "", ""),
    ("broadcast_in_dim", "functional", "dims=broadcast_dimensions:array", ""),
    ("broadcast", "functional", "sizes=broadcast_sizes:array", ""),
    ("transpose", "functional", "dims=permutation:array", ""),
    ("reverse", "same", "dims=dimensions:array", ""),
    ("concatenate", "functional", "dim=dimension:int", ""),
    ("get_dimension_size", "functional", "dim=dimension:int", ""),
    ("dynamic_iota", "functional", "dim=iota_dimension:int", ""),
    ("dynamic_slice", "functional", "sizes=slice_sizes:array", ""),
    ("dynamic_update_slice", "functional", "", ""),
    ("dynamic_broadcast_in_dim", "functional", "dims=broadcast_dimensions:array",
     "known_expanding_dimensions known_nonexpanding_dimensions"),
    ("dynamic_reshape", "functional", "", ""),
    ("dynamic_pad", "functional", "", ""),
    ("pad", "functional", "low=edge_padding_low:array high=edge_padding_high:array interior=interior_padding:array",
     ""),
    ("uniform_quantize", "functional", "", ""),
    ("uniform_dequantize", "functional", "", ""),
    ("constant", "constant", "", "value"),
    ("iota", "iota", "", "iota_dimension"),
    ("compare", "compare", "", "comparison_direction compare_type"),
    ("select", "select", "", ""),
    ("slice", "slice", "", "start_indices limit_indices strides"),
    ("dot_general", "dot_general", "", "dot_dimension_numbers precision_config algorithm"),
    ("dot", "dot", "", "precision_config"),
    ("reduce", "reduce", "", "dimensions"),
    ("convolution", "convolution", "", "window_strides padding lhs_dilation rhs_dilation window_reversal "
     "dimension_numbers feature_group_count batch_group_count precision_config"),
    ("custom_call", "custom_call", "", "call_target_name has_side_effect backend_config api_version "
     "called_computations operand_layouts result_layouts output_operand_aliases"),
    ("composite", "composite", "", "name composite_attributes decomposition version"),
    ("tuple", "tuple", "", ""),
    ("get_tuple_element", "get_tuple_element", "", "index"),
    ("optimization_barrier", "variadic", "", ""),
    ("return", "return", "", ""),
    ("rng", "rng", "", "rng_distribution"),
    ("rng_bit_generator", "rng_bit_generator", "", "rng_algorithm"),
    ("complex", "complex", "", ""),
    # no pretty syntax: generic form only, as the StableHLO project prints them
    ("gather", "generic", "", "dimension_numbers slice_sizes indices_are_sorted"),
    ("dynamic_gather", "generic", "", "dimension_numbers indices_are_sorted"),
    ("dynamic_conv", "generic", "", "window_strides lhs_dilation rhs_dilation window_reversal dimension_numbers "
     "feature_group_count batch_group_count precision_config"),
    ("scatter", "generic", "", "scatter_dimension_numbers indices_are_sorted unique_indices"),
    ("reduce_window", "generic", "", "window_dimensions window_strides base_dilations window_dilations padding"),
    ("select_and_scatter", "generic", "", "window_dimensions window_strides padding"),
    ("sort", "generic", "", "dimension is_stable"),
    ("batch_norm_inference", "generic", "", "epsilon feature_index"),
    ("batch_norm_training", "generic", "", "epsilon feature_index"),
    ("batch_norm_grad", "generic", "", "epsilon feature_index"),
    ("einsum", "generic", "", "einsum_config"),
    ("all_gather", "generic", "", "all_gather_dim replica_groups channel_handle use_global_device_ids"),
    ("all_reduce", "generic", "", "replica_groups channel_handle use_global_device_ids"),
    ("reduce_scatter", "generic", "", "scatter_dimension replica_groups channel_handle use_global_device_ids"),
    ("all_to_all", "generic", "", "split_dimension concat_dimension split_count replica_groups channel_handle"),
    ("collective_permute", "generic", "", "source_target_pairs channel_handle"),
    ("collective_broadcast", "generic", "", "replica_groups channel_handle"),
    ("partition_id", "generic", "", ""),
    ("replica_id", "generic", "", ""),
    ("triangular_solve", "generic", "", "left_side lower unit_diagonal transpose_a"),
    ("fft", "functional", "type=fft_type:fft_type length=fft_length:array", ""),
    ("reduce_precision", "same", "format=format:float_format", "exponent_bits mantissa_bits"),
    ("cholesky", "generic", "", "lower"),
    ("map", "generic", "", "dimensions"),
    ("while", "while", "", ""),
    ("case", "generic", "", ""),
    ("if", "generic", "", ""),
]

# ops with effects beyond their results (never folded away or merged by CSE)
EFFECTFUL = frozenset({"custom_call", "rng", "rng_bit_generator", "optimization_barrier", "all_gather", "all_reduce",
                       "reduce_scatter", "all_to_all", "collective_permute", "collective_broadcast", "return",
                       "while", "case", "if", "partition_id", "replica_id"})
