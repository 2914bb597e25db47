"""Sharding rules: which tensor dimensions of an op's operands and results move together (shardy's "factors").

A factor is a set of (value, dim) places that must be split alike: an elementwise op's dim i on every operand and
result, a transpose's result dim i and operand dim permutation[i], a dot's batch and free dims, ... A reduction
factor (a dot's contracted dim, a reduce's reduced dims) appears only on operands: split there, the result is a
partial sum each chip holds, to be all-reduced. Ops without a rule get none: they run on replicated values.
"""

from __future__ import annotations

import math
from typing import Callable, NamedTuple

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation

from ttmlir.dialects import sdy
from ttmlir.transforms.shardy.text import parse_attr

# ("operand" | "result", index, dim); a factor that is one of several a dim is made of (a reshape's merged or split
# dims) adds the product of the sizes of the factors before it in that dim: (kind, index, dim, before)
Place = tuple


class Factor(NamedTuple):
    size: int
    places: tuple[Place, ...]
    reduction: bool = False
    spread: bool = False  # a result dim the op fills with copies (a broadcast's new dim): any piece is made locally
    whole: bool = False  # propagates splits, but the op computes it whole (softmax's sequence): gathered first
    local: bool = False  # an operand dim the op reads piece by piece as split (a chip's own experts): kept as is


def _ints(attr: Attribute | None) -> tuple[int, ...]:
    if isinstance(attr, DenseArrayBase):
        return tuple(attr.get_values())
    if isinstance(attr, IntegerAttr):
        return (attr.value.data,)
    return tuple(getattr(attr, "data", ()) or ())


def _prop(op: Operation, name: str):
    return op.properties[name] if name in op.properties else op.attributes.get(name)


def _shape(value) -> tuple[int, ...] | None:
    return tuple(value.type.get_shape()) if isinstance(value.type, TensorType) else None


def _elementwise(op: Operation) -> list[Factor] | None:
    shapes = {_shape(v) for v in (*op.operands, *op.results)}
    if len(shapes) != 1 or None in shapes or not op.results:
        return None
    (shape,) = shapes
    return [Factor(size, tuple(("operand", i, d) for i in range(len(op.operands))) +
                   tuple(("result", i, d) for i in range(len(op.results)))) for d, size in enumerate(shape)]


def _transpose(op: Operation) -> list[Factor]:
    perm = _ints(_prop(op, "permutation"))
    out = _shape(op.results[0])
    return [Factor(out[i], (("operand", 0, p), ("result", 0, i))) for i, p in enumerate(perm)]


def _broadcast(op: Operation) -> list[Factor]:
    dims, src, out = _ints(_prop(op, "broadcast_dimensions")), _shape(op.operands[0]), _shape(op.results[0])
    mapped = {r: j for j, r in enumerate(dims) if src[j] == out[r]}
    return [Factor(size, ((("operand", 0, mapped[r]),) if r in mapped else ()) + (("result", 0, r),),
                   spread=r not in mapped) for r, size in enumerate(out)]


def _reshape(op: Operation) -> list[Factor]:
    """Dims merged or split by the reshape are cut into factors at every boundary of either side (8 -> 2x4 is the
    factors 2 and 4, both in the operand's one dim): a merged dim is split by its dims' splits, major first, and a
    split dim's split falls to the dims it becomes. Dims of size 1 come and go freely: they belong to no group; a
    group whose boundaries do not divide one another is computed whole."""
    src, out = _shape(op.operands[0]), _shape(op.results[0])
    ins, outs = [d for d, n in enumerate(src) if n != 1], [d for d, n in enumerate(out) if n != 1]
    factors, i, j, covered = [], 0, 0, set()
    while i < len(ins) and j < len(outs):
        group_in, group_out = [ins[i]], [outs[j]]
        a, b = src[ins[i]], out[outs[j]]
        while a < b and i + 1 < len(ins) or a > b and j + 1 < len(outs):
            if a < b:
                i += 1
                group_in.append(ins[i])
                a *= src[ins[i]]
            else:
                j += 1
                group_out.append(outs[j])
                b *= out[outs[j]]
        if a != b:
            break
        made = _group_factors([("operand", d, src[d]) for d in group_in], [("result", d, out[d]) for d in group_out])
        if made is None:
            break
        factors += made
        covered.update(group_out)
        i, j = i + 1, j + 1
    return factors + [Factor(n, (("result", 0, d),)) for d, n in enumerate(out) if d not in covered]


def _group_factors(left: list, right: list) -> list[Factor] | None:
    """The factors of a group of dims merged on one side and split on the other: one between each two consecutive
    boundaries of the running products of either side, or None when those do not divide one another."""
    def edges(dims):
        running, out = 1, []
        for kind, d, n in dims:
            out.append((running, running * n, kind, d))
            running *= n
        return out

    sides = [edges(left), edges(right)]
    cuts = sorted({hi for side in sides for _, hi, _, _ in side} | {1})
    if any(hi % lo for lo, hi in zip(cuts, cuts[1:])):
        return None
    factors = []
    for lo, hi in zip(cuts, cuts[1:]):
        places = []
        for side in sides:
            start, end, kind, d = next(e for e in side if e[0] <= lo and hi <= e[1])
            places.append((kind, 0, d) if (start, end) == (lo, hi) else (kind, 0, d, lo // start))
        factors.append(Factor(hi // lo, tuple(places)))
    return factors


def segment(axes: tuple, place: Place, size: int, axis_size: Callable) -> tuple | None:
    """The axes of a dim's split (`axes`, major first) that split the factor of size `size` at `place`: all of them
    where the factor is the whole dim; where it is one of several, those after the factors before it, within its
    size. None where the split does not reach it (the factors before it are not split whole): the factor's split
    there is not decided."""
    if len(place) < 4:
        return tuple(axes)
    before, running, taken = place[3], 1, []
    for axis in axes:
        n = axis_size(axis)
        if running < before:
            running *= n
            if before % running:
                return ()
            continue
        if (before * size) % (running * n):
            break
        taken.append(axis)
        running *= n
    return tuple(taken) if running >= before else None


def _dot_general(op: Operation) -> list[Factor]:
    dn = _prop(op, "dot_dimension_numbers")
    lb, rb = tuple(dn.lhs_batching_dimensions), tuple(dn.rhs_batching_dimensions)
    lc, rc = tuple(dn.lhs_contracting_dimensions), tuple(dn.rhs_contracting_dimensions)
    lhs, rhs = _shape(op.operands[0]), _shape(op.operands[1])
    factors, r = [], 0
    for a, b in zip(lb, rb):
        factors.append(Factor(lhs[a], (("operand", 0, a), ("operand", 1, b), ("result", 0, r))))
        r += 1
    for side, shape, skip in ((0, lhs, lb + lc), (1, rhs, rb + rc)):
        for d, size in enumerate(shape):
            if d not in skip:
                factors.append(Factor(size, (("operand", side, d), ("result", 0, r))))
                r += 1
    factors += [Factor(lhs[a], (("operand", 0, a), ("operand", 1, b)), True) for a, b in zip(lc, rc)]
    return factors


def _dot(op: Operation) -> list[Factor]:
    """`stablehlo.dot`: a matrix or vector product, the lhs's last dim contracted with the rhs's first; the result
    is the lhs's other dim (if any) then the rhs's."""
    lhs, rhs = _shape(op.operands[0]), _shape(op.operands[1])
    factors, r = [], 0
    if len(lhs) == 2:
        factors.append(Factor(lhs[0], (("operand", 0, 0), ("result", 0, 0))))
        r = 1
    if len(rhs) == 2:
        factors.append(Factor(rhs[1], (("operand", 1, 1), ("result", 0, r))))
    return factors + [Factor(rhs[0], (("operand", 0, len(lhs) - 1), ("operand", 1, 0)), True)]


def _reduce(op: Operation) -> list[Factor]:
    dims = _ints(_prop(op, "dimensions"))
    inputs = len(op.results)
    shape = _shape(op.operands[0])
    factors, r = [], 0
    for d, size in enumerate(shape):
        operands = tuple(("operand", i, d) for i in range(inputs))
        if d in dims:
            factors.append(Factor(size, operands, True))
        else:
            factors.append(Factor(size, operands + tuple(("result", i, r) for i in range(inputs))))
            r += 1
    return factors


def _concatenate(op: Operation) -> list[Factor]:
    dim = _ints(_prop(op, "dimension"))[0]
    out = _shape(op.results[0])
    return [Factor(size, tuple(("operand", i, d) for i in range(len(op.operands))) + (("result", 0, d),))
            for d, size in enumerate(out) if d != dim] + [Factor(out[dim], (("result", 0, dim),))]


def _slice(op: Operation) -> list[Factor]:
    """Dims taken whole move together; a sliced dim is computed whole (the pieces of a split one would not
    line up with the slice)."""
    shape = _shape(op.operands[0])
    starts, limits = _ints(_prop(op, "start_indices")), _ints(_prop(op, "limit_indices"))
    strides = _ints(_prop(op, "strides")) or (1,) * len(shape)
    return [Factor(size, (("operand", 0, d), ("result", 0, d))) for d, size in enumerate(shape)
            if (starts[d], limits[d], strides[d]) == (0, size, 1)]


def _convolution(op: Operation) -> list[Factor]:
    """Batch with batch, output features with the kernel's; input features (with one group) are contracted;
    spatial dims are computed whole (windows cross pieces)."""
    layout = _prop(op, "dimension_numbers").data
    (ib, i_f, _), (ki, ko, _), (ob, of, _) = layout.input_dims, layout.kernel_dims, layout.output_dims
    lhs, rhs = _shape(op.operands[0]), _shape(op.operands[1])
    factors = [Factor(lhs[ib], (("operand", 0, ib), ("result", 0, ob))),
               Factor(rhs[ko], (("operand", 1, ko), ("result", 0, of)))]
    groups = [_prop(op, k) for k in ("feature_group_count", "batch_group_count")]
    if all(g is None or g.value.data == 1 for g in groups):
        factors.append(Factor(lhs[i_f], (("operand", 0, i_f), ("operand", 1, ki)), True))
    return factors


def _gather(op: Operation) -> list[Factor]:
    """The result's batch dims move with the index dims they come from (a batch of lookups splits like its
    indices), its offset dims with the operand dims sliced whole; an indexed or partly sliced operand dim is read
    whole (a piece could not answer every index)."""
    dn, sizes = _prop(op, "dimension_numbers"), _ints(_prop(op, "slice_sizes"))
    operand, indices, out = _shape(op.operands[0]), _shape(op.operands[1]), _shape(op.results[0])
    index_dims = [d for d in range(len(indices)) if d != dn.index_vector_dim]
    batch_dims = [r for r in range(len(out)) if r not in dn.offset_dims]
    pairs = dict(zip(dn.start_indices_batching_dims, dn.operand_batching_dims))
    factors = [Factor(out[r], ((("operand", 0, pairs[i]),) if i in pairs else ()) + (("operand", 1, i), ("result", 0, r)))
               for i, r in zip(index_dims, batch_dims)]
    kept = [d for d in range(len(operand)) if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims]
    factors += [Factor(out[r], (("operand", 0, d), ("result", 0, r)))
                for d, r in zip(kept, sorted(dn.offset_dims)) if sizes[d] == operand[d]]
    return factors


def _scatter(op: Operation) -> list[Factor] | None:
    """An operand dim the update window covers whole and no index picks (a cache's heads or head size) splits with
    the update's window dim and the result's: each chip scatters its piece of every update into its piece. Indexed
    and inserted dims are computed whole, but a split of them carries over between operand and result (as shardy's
    need-replication factors); the updates' scatter dims and the indices are whole."""
    if len(op.operands) != 3 or len(op.results) != 1:
        return None
    dn = _prop(op, "scatter_dimension_numbers")
    operand, updates = _shape(op.operands[0]), _shape(op.operands[2])
    if operand is None or updates is None:
        return None
    kept = [d for d in range(len(operand)) if d not in dn.inserted_window_dims and d not in dn.input_batching_dims]
    factors = [Factor(operand[d], (("operand", 0, d), ("operand", 2, w), ("result", 0, d)))
               for d, w in zip(kept, dn.update_window_dims)
               if d not in dn.scatter_dims_to_operand_dims and updates[w] == operand[d]]
    split = {p[2] for f in factors for p in f.places if p[0] == "operand" and p[1] == 0}
    return factors + [Factor(size, (("operand", 0, d), ("result", 0, d)), whole=True)
                      for d, size in enumerate(operand) if d not in split]


def _batch_norm(op: Operation) -> list[Factor]:
    """The feature dim moves with every per-feature vector (scale, offset, mean, variance, their gradients);
    inference normalizes each element on its own, so its other dims move with the result's too; training and
    its gradient reduce over them (computed whole)."""
    feature = _ints(_prop(op, "feature_index"))[0]
    values = [("operand", i, v) for i, v in enumerate(op.operands)] + [("result", i, v) for i, v in
                                                                       enumerate(op.results)]
    places = tuple((kind, i, feature if len(_shape(v)) > 1 else 0) for kind, i, v in values)
    factors = [Factor(_shape(op.operands[0])[feature], places)]
    if op.name == "stablehlo.batch_norm_inference":
        factors += [Factor(size, (("operand", 0, d), ("result", 0, d)))
                    for d, size in enumerate(_shape(op.operands[0])) if d != feature]
    return factors


def _gather_dim(op: Operation) -> list[Factor]:
    """torch.gather along `dim`: out[..i..] = input[..index[..i..]..]. The result is shaped as the index, dim for
    dim; the input moves with them in every other dim where it agrees in size, and is read whole along `dim`."""
    attrs = op.attributes.get("tt.composite_attributes")
    dim = attrs.data["dim"].value.data if attrs is not None and "dim" in attrs.data else 0
    source, index = _shape(op.operands[0]), _shape(op.operands[1])
    dim %= len(source)
    return [Factor(size, ((("operand", 0, d),) if d != dim and source[d] == size else ()) +
                   (("operand", 1, d), ("result", 0, d))) for d, size in enumerate(index)]


def _spelled(op: Operation, order: str, operands: dict[int, str], result: str, reduced: str = "",
             whole: str = "") -> list[Factor] | None:
    """Factors named by letters, in `order` (the first claims a mesh axis first): operand i's dims spelled by
    operands[i], the result's by `result`, '.' a dim in no factor (computed whole). A dim of size 1 where the
    factor is larger is broadcast and joins no factor (a [1, 1, S, S] mask, MQA's one key head). Letters in
    `reduced` are summed away: split, each chip holds a partial result; letters in `whole` propagate splits the
    op computes whole."""
    values = [(("operand", i), op.operands[i], spec) for i, spec in operands.items() if i < len(op.operands)]
    values.append((("result", 0), op.results[0], result))
    if any(_shape(v) is None or len(_shape(v)) != len(spec) for _, v, spec in values):
        return None
    factors = []
    for letter in order:
        dims = [(kind, i, d, _shape(v)[d]) for (kind, i), v, spec in values for d, c in enumerate(spec) if c == letter]
        size = dims[0][3]
        factors.append(Factor(size, tuple((kind, i, d) for kind, i, d, n in dims if n != 1 or size == 1),
                              letter in reduced, whole=letter in whole))
    return factors


def _frontend_flag(op: Operation, name: str) -> bool:
    attrs = op.attributes.get("mhlo.frontend_attributes")
    value = attrs.data.get(name) if attrs is not None else None
    return getattr(value, "data", None) in ("True", "true")


def _sdpa(op: Operation) -> list[Factor] | None:
    """Batch and heads split (a key/value head with its group of query heads); sequence and head size are
    softmax's and the contraction's: whole. A mask stays whole. [B, S, D] attention splits its batch only."""
    if len(_shape(op.operands[0]) or ()) == 3:
        return _spelled(op, "b", {0: "b..", 1: "b..", 2: "b.."}, "b..")
    return _spelled(op, "bh", {0: "bh..", 1: "bh..", 2: "bh.."}, "bh..")


def _paged_sdpa_decode(op: Operation) -> list[Factor] | None:
    """query [1, users, heads, D] against paged caches [blocks, heads, block, D]: heads split with the caches';
    users with the page table's rows and the current positions (after the optional mask)."""
    operands = {0: ".uh.", 1: ".h..", 2: ".h..", 3: "u."}
    if _frontend_flag(op, "has_cur_pos_tensor"):
        operands[4 + _frontend_flag(op, "has_attention_mask")] = "u"
    return _spelled(op, "hu", operands, ".uh.")


def _paged_flash_mla_decode(op: Operation) -> list[Factor] | None:
    """Multi-latent attention: every query head reads the one latent cache, so heads split the query and the
    output only; users split them with the page table, the mask and the current positions. Operands after the
    key are present as the frontend attributes' has_* say."""
    operands, at = {0: ".uh."}, 2 + _frontend_flag(op, "has_value")
    operands[at] = "u."
    for flag in ("has_attention_mask", "has_cur_pos_tensor"):
        if _frontend_flag(op, flag):
            at += 1
            operands[at] = "u" + "." * (len(_shape(op.operands[at]) or (0,)) - 1) if at < len(op.operands) else ""
    return _spelled(op, "hu", operands, ".uh.")


def _flash_mla_prefill(op: Operation) -> list[Factor] | None:
    """Batch and heads split query, key, value and output alike (one latent key head is broadcast); a mask splits
    with the batch. Query and key sequences, the q·k head size and head_dim_v are softmax's and the contractions':
    computed whole."""
    operands, at = {0: "bhsd", 1: "bhtd"}, 2
    if _frontend_flag(op, "has_value"):
        operands[at], at = "bhtv", at + 1
    if _frontend_flag(op, "has_attention_mask"):
        operands[at] = "b.st"
    return _spelled(op, "bhstdv", operands, "bhsv", whole="stdv")


def _sparse_matmul(op: Operation) -> list[Factor] | None:
    """Expert blocks: with b sparse, a [A, B, M, K] times b [1, E, K, N] kept where sparsity [A, B, 1, E] says, into
    [A, B, 1, E, M, N]; with a sparse, a [A, E, M, K] times b [1, E, K, N] kept per sparsity [1, 1, A, E], into
    [A, E, M, N]. Every dim splits with its kind; the contracted K leaves partial sums."""
    a_sparse, b_sparse = _frontend_flag(op, "is_input_a_sparse"), _frontend_flag(op, "is_input_b_sparse")
    if b_sparse and not a_sparse:
        return _spelled(op, "abemnk", {0: "abmk", 1: ".ekn", 2: "ab.e"}, "ab.emn", reduced="k")
    if a_sparse and not b_sparse:
        return _spelled(op, "aemnk", {0: "aemk", 1: ".ekn", 2: "..ae"}, "aemn", reduced="k")
    return None


def _all_to_all_combine(op: Operation) -> list[Factor] | None:
    """Expert outputs [E, B*D, S, H] are read as each chip's own experts: split over experts they stay split (the
    combine sends each token's outputs home itself); the metadata, the mapping and the other dims are whole."""
    source = _shape(op.operands[0]) if len(op.operands) == 3 else None
    if source is None or len(source) != 4:
        return None
    return [Factor(source[0], (("operand", 0, 0),), local=True)]


# custom calls with a rule, by call target (tt-xla's composites turned custom calls by
# --flatten-or-convert-composites, tagged tt.has_custom_sharding)
CUSTOM_CALL_RULES: dict[str, Callable[[Operation], list[Factor] | None]] = {
    "tenstorrent.gather_dim": _gather_dim,
    "tt.scaled_dot_product_attention": _sdpa,
    "tt.paged_scaled_dot_product_attention_decode": _paged_sdpa_decode,
    "tt.paged_flash_mla_decode": _paged_flash_mla_decode,
    "tt.flash_mla_prefill": _flash_mla_prefill,
    "tt.sparse_matmul": _sparse_matmul,
    "tt.all_to_all_combine": _all_to_all_combine,
    # query [B, H, S, D] and weights [B, H, S, 1] against the one key head [B, 1, T, D]: heads are summed away (a
    # split leaves partial scores); queries split with the scores' rows (each chip masks its rows from its place
    # along the split, --update-global-to-local-shapes names it), the key sequence stays whole
    "tt.indexer_score_dsa": lambda op: _spelled(op, "bhs", {0: "bhs.", 1: "b...", 2: "bhs."}, "b.s.",
                                                reduced="h"),
    # query [users, heads, chunk, D], paged caches [blocks, heads, block, D], page table [users, pages]
    "tt.chunked_scaled_dot_product_attention": lambda op: _spelled(
        op, "hu", {0: "uh..", 1: ".h..", 2: ".h..", 3: "u."}, "uh.."),
    # cache [blocks, heads, block, D] updated in place by input [1, users, heads, D] at update_index[user]
    "tt.paged_update_cache": lambda op: _spelled(op, "hu", {0: ".h..", 1: ".uh.", 2: "u", 3: "u."}, ".h.."),
    # cache filled by a prompt [batch, heads, S, D] through page_table [batch, pages] (rows batch_idx)
    "tt.paged_fill_cache": lambda op: _spelled(op, "hb", {0: ".h..", 1: "bh..", 2: "b.", 3: "b"}, ".h.."),
    # a row's candidates stay whole for softmax, top-k and the draw; rows split
    "tt.sampling": lambda op: _spelled(op, "b", {0: "b.", 1: "b.", 2: "b", 3: "b", 4: "b"}, "b"),
}


def _custom_call(op: Operation) -> list[Factor] | None:
    rule = CUSTOM_CALL_RULES.get(op.properties["call_target_name"].data)
    return rule(op) if rule is not None else None


RULES: dict[str, Callable[[Operation], list[Factor] | None]] = {
    "stablehlo.batch_norm_training": _batch_norm, "stablehlo.batch_norm_inference": _batch_norm,
    "stablehlo.batch_norm_grad": _batch_norm, "stablehlo.custom_call": _custom_call,
    "stablehlo.transpose": _transpose, "stablehlo.broadcast_in_dim": _broadcast, "stablehlo.reshape": _reshape,
    "stablehlo.dot_general": _dot_general, "stablehlo.dot": _dot, "stablehlo.reduce": _reduce,
    "stablehlo.concatenate": _concatenate,
    "stablehlo.slice": _slice, "stablehlo.convolution": _convolution, "stablehlo.gather": _gather,
    "stablehlo.scatter": _scatter,
}

# ops whose every operand and result share one shape but whose values mix along a dimension: no elementwise rule
NOT_ELEMENTWISE = frozenset({"stablehlo.sort", "stablehlo.reverse", "stablehlo.cumsum", "stablehlo.custom_call",
                             "stablehlo.composite", "stablehlo.reduce_window", "stablehlo.all_reduce",
                             "stablehlo.all_gather", "stablehlo.all_to_all", "stablehlo.reduce_scatter",
                             "stablehlo.collective_permute", "stablehlo.rng", "stablehlo.rng_bit_generator"})


USER_RULE = "xla.sdy.custom_sharding_rule"  # a custom call's own rule, shardy text in its frontend attributes


def user_rule_text(op: Operation) -> str:
    attrs = op.attributes.get("mhlo.frontend_attributes")
    text = attrs.data.get(USER_RULE) if attrs is not None else None
    return text.data.strip() if text is not None and hasattr(text, "data") else ""


def _from_rule(op: Operation, rule: sdy.OpShardingRule) -> list[Factor]:
    """A shardy rule's factors; a dim made of several factors holds each after those before it. Factors that need
    replication (or only permute) join no dims: those are computed whole."""
    special = dict(rule.special)
    whole = {f for kind in ("need_replication", "permutation", "blocked_propagation") for f in special.get(kind, ())}
    tensors = [("operand", i, m) for i, m in enumerate(rule.operands)] + [("result", i, m)
                                                                        for i, m in enumerate(rule.results)]

    def place(kind: str, i: int, d: int, dim: tuple, f: int) -> Place:
        k = dim.index(f)
        return (kind, i, d) if len(dim) == 1 else (kind, i, d, math.prod(rule.sizes[g] for g in dim[:k]))

    return [Factor(size, tuple(place(kind, i, d, dim, f) for kind, i, mapping in tensors
                               for d, dim in enumerate(mapping) if f in dim), f in special.get("reduction", ()))
            for f, size in enumerate(rule.sizes) if f not in whole]


def factors_of(op: Operation) -> list[Factor] | None:
    """The op's factors, or None when it has no rule (its values must be replicated)."""
    if isinstance(rule := op.attributes.get("sdy.sharding_rule"), sdy.OpShardingRuleAttr):
        return _from_rule(op, rule.data)
    if op.name == "stablehlo.custom_call" and op.properties["call_target_name"].data not in CUSTOM_CALL_RULES \
            and (text := user_rule_text(op)):
        rule = parse_attr(text, op)  # checked by --register-user-sharding-rule; reparsed as shardy does
        return _from_rule(op, rule.data) if isinstance(rule, sdy.OpShardingRuleAttr) else None
    if op.name in RULES:
        return RULES[op.name](op)
    if op.name in NOT_ELEMENTWISE or op.regions and op.name != "stablehlo.map":
        return None
    return _elementwise(op)
