"""The golden gate (benchmarks/models_golden.py) on small graphs shaped as upstream's exported model layers: a
batch-32 decode layer (RoPE on the query and the new key, the key/value written into caches at a position,
attention over the cache, logits reshaped (32, V) -> (32, 1, V)), a prefill layer (RoPE over a sequence, caches
filled per batch row, causal attention) and a conv block. Each is compiled at optimization level 0 and 1 (the
level that fuses RoPE into ttnn.rotary_embedding and the projections into split_query_key_value_and_split_heads),
run on the simulator and compared by value, per output and per batch row, with the golden evaluation of the same
TTIR on the same inputs. The graphs are written here; the gate over upstream's 83 models is the benchmark."""

import gc
import sys
from pathlib import Path

import pytest

from ttmlir.asm import print_module
from ttmlir.compiler import lower

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from models_golden import check_model, verdict  # noqa: E402

PARAM = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
CONST = "{ttcore.argument_type = #ttcore.argument_type<constant>}"
INPUT = "{ttcore.argument_type = #ttcore.argument_type<input>}"


def t(*shape, dtype="bf16"):
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>" if shape else f"tensor<{dtype}>"


def ints(values):
    return ", ".join(f"{v} : i32" for v in values)


class Graph:
    """TTIR text built op by op: each op gets a fresh SSA name."""

    def __init__(self):
        self.lines, self.count, self.transposed = [], 0, {}

    def op(self, name, operands, types, result, attrs=""):
        self.count += 1
        value = f"%v{self.count}"
        attrs = f" <{{{attrs}}}>" if attrs else ""
        self.lines.append(f'  {value} = "ttir.{name}"({", ".join(operands)}){attrs} : ({", ".join(types)}) -> {result}')
        return value

    def effect(self, name, operands, types, attrs=""):
        attrs = f" <{{{attrs}}}>" if attrs else ""
        self.lines.append(f'  "ttir.{name}"({", ".join(operands)}){attrs} : ({", ".join(types)}) -> ()')

    def reshape(self, x, src, dst, dtype="bf16"):
        return self.op("reshape", [x], [t(*src, dtype=dtype)], t(*dst, dtype=dtype), f"shape = [{ints(dst)}]")

    def permute(self, x, src, perm, dtype="bf16"):
        return self.op("permute", [x], [t(*src, dtype=dtype)], t(*[src[p] for p in perm], dtype=dtype),
                       f"permutation = array<i64: {', '.join(map(str, perm))}>")

    def broadcast(self, x, src, dims, dtype="bf16"):
        dst = [s * d for s, d in zip(src, dims)]
        return self.op("broadcast", [x], [t(*src, dtype=dtype)], t(*dst, dtype=dtype),
                       f"broadcast_dimensions = array<i64: {', '.join(map(str, dims))}>")

    def cast(self, x, shape, src, dst):
        return self.op("typecast", [x], [t(*shape, dtype=src)], t(*shape, dtype=dst), "conservative_folding = false")

    def binary(self, name, a, b, shape, dtype="bf16"):
        return self.op(name, [a, b], [t(*shape, dtype=dtype)] * 2, t(*shape, dtype=dtype))

    def unary(self, name, a, shape, dtype="bf16"):
        return self.op(name, [a], [t(*shape, dtype=dtype)], t(*shape, dtype=dtype))

    def slice(self, x, shape, begins, ends, dtype="bf16"):
        out = [e - b for b, e in zip(begins, ends)]
        return self.op("slice_static", [x], [t(*shape, dtype=dtype)], t(*out, dtype=dtype),
                       f"begins = [{ints(begins)}], ends = [{ints(ends)}], step = [{ints([1] * len(shape))}]")

    def concat(self, a, b, shape, dim, dtype="bf16"):
        out = list(shape)
        out[dim] *= 2
        return self.op("concat", [a, b], [t(*shape, dtype=dtype)] * 2, t(*out, dtype=dtype), f"dim = {dim} : si32")

    def dot(self, a, a_shape, b, b_shape, batch, dtype="bf16"):
        """dot_general contracting a's last dim with b's dim after the `batch` leading dims."""
        out = list(a_shape[:-1]) + list(b_shape[batch + 1:])
        dims = f"array<i64: {', '.join(map(str, range(batch)))}>" if batch else "array<i64>"
        return self.op("dot_general", [a, b], [t(*a_shape, dtype=dtype), t(*b_shape, dtype=dtype)],
                       t(*out, dtype=dtype),
                       f"batch_dims_lhs = {dims}, batch_dims_rhs = {dims}, "
                       f"contract_dims_lhs = array<i64: {len(a_shape) - 1}>, contract_dims_rhs = array<i64: {batch}>")

    def rms_norm(self, x, w, shape):
        return self.op("rms_norm", [x, w], [t(*shape), t(shape[-1])], t(*shape),
                       f"epsilon = 9.99999997E-7 : f32, normalized_shape = array<i64: {shape[-1]}>, "
                       "operandSegmentSizes = array<i32: 1, 1, 0>")

    def projection(self, x, rows, w, out, width, bias=None):
        """x [rows, width] times the transposed torch weight w [out, width], plus a broadcast bias."""
        y = self.dot(x, (rows, width), self.transpose(w, out, width), (width, out), 0)
        if bias is None:
            return y
        return self.binary("add", y, self.broadcast(self.reshape(bias, (out,), (1, out)), (1, out), (rows, 1)),
                           (rows, out))

    def transpose(self, w, out, width):
        """The torch weight w [out, width] as [width, out], once."""
        if w not in self.transposed:
            self.transposed[w] = self.permute(w, (out, width), (1, 0))
        return self.transposed[w]

    def rope(self, x, shape, cos, sin):
        """Rotate-half RoPE on x [B, H, T, D] with [1, 1, T, D] tables, as exported graphs write it."""
        b, h, s, d = shape
        fit = lambda table: self.broadcast(table, (1, 1, s, d), (b, h, 1, 1))  # noqa: E731
        straight = self.binary("multiply", x, fit(cos), shape)
        high = self.unary("neg", self.slice(x, shape, (0, 0, 0, d // 2), shape), (b, h, s, d // 2))
        low = self.slice(x, shape, (0, 0, 0, 0), (b, h, s, d // 2))
        turned = self.binary("multiply", self.concat(high, low, (b, h, s, d // 2), 3), fit(sin), shape)
        return self.binary("add", straight, turned, shape)

    def heads(self, x, b, s, h, d):
        """[B*T, H*D] rows -> [B, H, T, D] heads."""
        return self.permute(self.reshape(x, (b * s, h * d), (b, s, h, d)), (b, s, h, d), (0, 2, 1, 3))

    def expand_kv(self, x, b, hkv, group, length, d):
        """Grouped-query attention: each key/value head read by `group` query heads."""
        y = self.broadcast(self.reshape(x, (b, hkv, length, d), (b, hkv, 1, length, d)), (b, hkv, 1, length, d),
                           (1, 1, group, 1, 1))
        return self.reshape(y, (b, hkv, group, length, d), (b, hkv * group, length, d))

    def softmax(self, x, shape):
        reduced = shape[:-1]
        fit = lambda v: self.broadcast(self.reshape(v, reduced, (*reduced, 1), "f32"), (*reduced, 1),  # noqa: E731
                                       (1,) * len(reduced) + (shape[-1],), "f32")
        top = self.op("max", [x], [t(*shape, dtype="f32")], t(*reduced, dtype="f32"),
                      f"dim_arg = [{len(shape) - 1} : i32], keep_dim = false")
        e = self.unary("exp", self.binary("subtract", x, fit(top), shape, "f32"), shape, "f32")
        total = self.op("sum", [e], [t(*shape, dtype="f32")], t(*reduced, dtype="f32"),
                        f"dim_arg = [{len(shape) - 1} : i32], keep_dim = false")
        return self.binary("div", e, fit(total), shape, "f32")

    def text(self, args, results):
        params = ", ".join(f"%{name}: {kind_type[1]} {kind_type[0]}" for name, kind_type in args.items())
        returns = ", ".join(v for v, _ in results)
        types = ", ".join(ty for _, ty in results)
        body = "\n".join(self.lines)
        return f"func.func @main({params}) -> ({types}) {{\n{body}\n  return {returns} : {types}\n}}\n"


def layer(batch, seq, hidden, q_heads, kv_heads, head_dim, cache, ffn, vocab, decode, parallel=False):
    """A transformer layer as exported from a causal LM: embedding, RMS norm, biased q/k/v projections, RoPE,
    caches written (decode: one position of every batch row; prefill: each batch row filled), grouped-query
    attention in f32 with an additive mask, output projection, SiLU-gated MLP, final norm, logits and the
    last token's argmax. `parallel`: the MLP reads the attention's normed input too (phi's and falcon's parallel
    block, with biased MLP projections: five linears of one input, two of them not split into heads, which the
    shared-LHS fusion joins).
    Returns the TTIR text."""
    g = Graph()
    b, s, d, hq, hkv, hd, group = batch, seq, hidden, q_heads, kv_heads, head_dim, q_heads // kv_heads
    rows = b * s
    args = {"tokens": (INPUT, t(b, s, dtype="i64")), "position": (INPUT, t(s, dtype="i64")),
            "table": (PARAM, t(vocab, d)), "norm1": (PARAM, t(d)),
            "wq": (PARAM, t(hq * hd, d)), "bq": (PARAM, t(hq * hd)), "wk": (PARAM, t(hkv * hd, d)),
            "bk": (PARAM, t(hkv * hd)), "wv": (PARAM, t(hkv * hd, d)), "bv": (PARAM, t(hkv * hd)),
            "k_cache": (INPUT, t(b, hkv, cache, hd)), "v_cache": (INPUT, t(b, hkv, cache, hd)),
            "inv_freq": (CONST, t(hd // 2)), "wo": (PARAM, t(d, hq * hd)), "norm2": (PARAM, t(d)),
            "w_gate": (PARAM, t(ffn, d)), "w_up": (PARAM, t(ffn, d)), "w_down": (PARAM, t(d, ffn)),
            "norm_final": (PARAM, t(d)), "lm_head": (PARAM, t(vocab, d))}
    if parallel:  # phi's MLP projections carry biases, as its q/k/v do: five linears of one input
        del args["norm2"]
        args.update({"b_gate": (PARAM, t(ffn)), "b_up": (PARAM, t(ffn))})
    ids = g.cast(g.reshape("%tokens", (b, s), (rows,), "i64"), (rows,), "i64", "ui32")
    ids = g.reshape(ids, (rows,), (1, rows), "ui32")
    x = g.op("embedding", [ids, "%table"], [t(1, rows, dtype="ui32"), t(vocab, d)], t(1, rows, d))
    x = g.reshape(x, (1, rows, d), (b, s, d))
    h = g.reshape(g.rms_norm(x, "%norm1", (b, s, d)), (b, s, d), (rows, d))
    if parallel:  # every weight that reads h transposed before the first product (so one product can join them)
        for w, out in (("%wq", hq * hd), ("%wk", hkv * hd), ("%wv", hkv * hd), ("%w_gate", ffn), ("%w_up", ffn)):
            g.transpose(w, out, d)
    q = g.heads(g.projection(h, rows, "%wq", hq * hd, d, "%bq"), b, s, hq, hd)
    k = g.heads(g.projection(h, rows, "%wk", hkv * hd, d, "%bk"), b, s, hkv, hd)
    v = g.heads(g.projection(h, rows, "%wv", hkv * hd, d, "%bv"), b, s, hkv, hd)
    # rotation angles: inv_freq x positions in f32, both halves
    freq = g.cast(g.reshape("%inv_freq", (hd // 2,), (1, hd // 2, 1)), (1, hd // 2, 1), "bf16", "f32")
    pos = g.cast(g.reshape("%position", (s,), (1, 1, s), "i64"), (1, 1, s), "i64", "f32")
    angles = g.dot(freq, (1, hd // 2, 1), pos, (1, 1, s), 1, "f32")
    angles = g.permute(angles, (1, hd // 2, s), (0, 2, 1), "f32")
    angles = g.concat(angles, angles, (1, s, hd // 2), 2, "f32")
    cos, sin = (g.reshape(g.cast(g.unary(f, angles, (1, s, hd), "f32"), (1, s, hd), "f32", "bf16"),
                          (1, s, hd), (1, 1, s, hd)) for f in ("cos", "sin"))
    q = g.rope(q, (b, hq, s, hd), cos, sin)
    k = g.rope(k, (b, hkv, s, hd), cos, sin)
    if decode:  # one new position per batch row: [1, H, B, D] written at %position
        for cache_name, new in (("%k_cache", k), ("%v_cache", v)):
            g.effect("update_cache", [cache_name, g.permute(new, (b, hkv, 1, hd), (2, 1, 0, 3)), "%position"],
                     [t(b, hkv, cache, hd), t(1, hkv, b, hd), t(1, dtype="i64")], "batch_offset = 0 : i32")
        keys, values, length = "%k_cache", "%v_cache", cache
    else:  # each batch row's sequence fills its cache row
        for cache_name, new in (("%k_cache", k), ("%v_cache", v)):
            for row in range(b):
                part = g.slice(new, (b, hkv, s, hd), (row, 0, 0, 0), (row + 1, hkv, s, hd))
                g.effect("fill_cache", [cache_name, part], [t(b, hkv, cache, hd), t(1, hkv, s, hd)],
                         f"batch_offset = {row} : i32")
        keys, values, length = k, v, s
    scale = 1 / hd ** 0.25  # on both sides, as exported graphs scale
    qs = g.binary("multiply", g.cast(q, (b, hq, s, hd), "bf16", "f32"),
                  g.op("constant", [], [], t(b, hq, s, hd, dtype="f32"),
                       f"value = dense<{scale:.9e}> : {t(b, hq, s, hd, dtype='f32')}"), (b, hq, s, hd), "f32")
    kt = g.permute(g.cast(g.expand_kv(keys, b, hkv, group, length, hd), (b, hq, length, hd), "bf16", "f32"),
                   (b, hq, length, hd), (0, 1, 3, 2), "f32")
    kt = g.binary("multiply", kt, g.op("constant", [], [], t(b, hq, hd, length, dtype="f32"),
                                       f"value = dense<{scale:.9e}> : {t(b, hq, hd, length, dtype='f32')}"),
                  (b, hq, hd, length), "f32")
    scores = g.dot(qs, (b, hq, s, hd), kt, (b, hq, hd, length), 2, "f32")
    # mask: key index <= the query's position (decode: the cache position; prefill: causal)
    key_index = g.op("arange", [], [], t(length, dtype="i64"),
                     f"arange_dimension = 0 : i64, end = {length} : si64, start = 0 : si64, step = 1 : si64")
    key_index = g.broadcast(g.reshape(key_index, (length,), (1, length), "i64"), (1, length), (s, 1), "i64")
    query_pos = g.broadcast(g.reshape("%position", (s,), (s, 1), "i64"), (s, 1), (1, length), "i64")
    allowed = g.op("le", [key_index, query_pos], [t(s, length, dtype="i64")] * 2, t(s, length, dtype="i1"))
    zero = g.op("constant", [], [], t(s, length), f"value = dense<0.000000e+00> : {t(s, length)}")
    never = g.op("constant", [], [], t(s, length), f"value = dense<0xFF80> : {t(s, length)}")
    bias = g.op("where", [allowed, zero, never], [t(s, length, dtype="i1"), t(s, length), t(s, length)], t(s, length))
    bias = g.reshape(g.cast(bias, (s, length), "bf16", "f32"), (s, length), (1, 1, s, length), "f32")
    bias = g.broadcast(bias, (1, 1, s, length), (b, hq, 1, 1), "f32")
    probs = g.softmax(g.binary("add", scores, bias, (b, hq, s, length), "f32"), (b, hq, s, length))
    vals = g.cast(g.expand_kv(values, b, hkv, group, length, hd), (b, hq, length, hd), "bf16", "f32")
    attn = g.cast(g.dot(probs, (b, hq, s, length), vals, (b, hq, length, hd), 2, "f32"), (b, hq, s, hd), "f32", "bf16")
    attn = g.reshape(g.permute(attn, (b, hq, s, hd), (0, 2, 1, 3)), (b, s, hq, hd), (rows, hq * hd))
    out = g.reshape(g.projection(attn, rows, "%wo", d, hq * hd), (rows, d), (b, s, d))
    x = g.binary("add", x, out, (b, s, d))
    if not parallel:
        h = g.reshape(g.rms_norm(x, "%norm2", (b, s, d)), (b, s, d), (rows, d))
    gate = g.cast(g.projection(h, rows, "%w_gate", ffn, d, "%b_gate" if parallel else None), (rows, ffn), "bf16",
                  "f32")
    gate = g.cast(g.binary("multiply", gate, g.unary("sigmoid", gate, (rows, ffn), "f32"), (rows, ffn), "f32"),
                  (rows, ffn), "f32", "bf16")
    mlp = g.binary("multiply", gate, g.projection(h, rows, "%w_up", ffn, d, "%b_up" if parallel else None),
                   (rows, ffn))
    x = g.binary("add", x, g.reshape(g.projection(mlp, rows, "%w_down", d, ffn), (rows, d), (b, s, d)), (b, s, d))
    h = g.reshape(g.rms_norm(x, "%norm_final", (b, s, d)), (b, s, d), (rows, d))
    logits_rows = g.projection(h, rows, "%lm_head", vocab, d)
    logits = g.reshape(logits_rows, (rows, vocab), (b, s, vocab))
    last = g.reshape(g.slice(logits, (b, s, vocab), (0, s - 1, 0), (b, s, vocab)), (b, 1, vocab), (b, vocab))
    token = g.op("argmax", [last], [t(b, vocab)], t(b, dtype="i32"), "dim_arg = [1 : i32], keep_dim = false")
    token = g.reshape(g.cast(token, (b,), "i32", "i64"), (b,), (b, 1), "i64")
    results = [("%k_cache", t(b, hkv, cache, hd)), ("%v_cache", t(b, hkv, cache, hd)),
               (logits, t(b, s, vocab)), (token, t(b, 1, dtype="i64"))]
    return g.text(args, results)


def conv_block():
    """Conv (NHWC) + per-channel scale and shift (a folded batch norm) + ReLU, a max pool, the pixels as rows
    and a classifier over them."""
    g = Graph()
    args = {"image": (INPUT, t(1, 16, 16, 16)), "kernel": (PARAM, t(32, 16, 3, 3)), "scale": (PARAM, t(1, 1, 1, 32)),
            "shift": (PARAM, t(1, 1, 1, 32)), "classifier": (PARAM, t(32, 64))}
    y = g.op("conv2d", ["%image", "%kernel"], [t(1, 16, 16, 16), t(32, 16, 3, 3)], t(1, 16, 16, 32),
             "stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32")
    y = g.binary("multiply", y, g.broadcast("%scale", (1, 1, 1, 32), (1, 16, 16, 1)), (1, 16, 16, 32))
    y = g.binary("add", y, g.broadcast("%shift", (1, 1, 1, 32), (1, 16, 16, 1)), (1, 16, 16, 32))
    y = g.unary("relu", y, (1, 16, 16, 32))
    y = g.op("max_pool2d", [y], [t(1, 16, 16, 32)], t(1, 8, 8, 32),
             "kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, "
             "padding = array<i32: 0, 0, 0, 0>, ceil_mode = false")
    rows = g.reshape(y, (1, 8, 8, 32), (64, 32))
    out = g.dot(rows, (64, 32), "%classifier", (32, 64), 0)
    return g.text(args, [(out, t(64, 64)), (y, t(1, 8, 8, 32))])


DECODE = dict(batch=32, seq=1, hidden=128, q_heads=2, kv_heads=1, head_dim=64, cache=64, ffn=256, vocab=2048,
              decode=True)
PREFILL = dict(batch=2, seq=12, hidden=128, q_heads=2, kv_heads=1, head_dim=64, cache=32, ffn=256, vocab=1024,
               decode=False)
CASES = {"decode_layer": (lambda: layer(**DECODE), {1: ('"ttnn.rotary_embedding"', '"ttnn.paged_update_cache"')},
                          # --ttnn-row-major-reshapes: the logits (32, V) -> (32, 1, V) reshaped row-major
                          ("memref<32x2048xbf16, #dram>",)),
         "prefill_layer": (lambda: layer(**PREFILL),
                           {1: ('"ttnn.rotary_embedding"', '"ttnn.split_query_key_value_and_split_heads"',
                                '"ttnn.fill_cache"')}, ()),
         "parallel_decode_layer": (lambda: layer(**DECODE, parallel=True), {1: ('"ttnn.rotary_embedding"',)},
                                   # shared-LHS: q (128), k, v (64 each), gate and up (256 each) as one product
                                   ('"ttnn.paged_update_cache"', "-> tensor<32x768xbf16")),
         "conv_block": (conv_block, {}, ('"ttnn.conv2d"', '"ttnn.max_pool2d"'))}


@pytest.fixture(scope="module", autouse=True)
def long_lived_objects_set_aside():
    """check_model collects a model's golden-evaluation garbage before the device run; in a test process holding
    torch, JAX and the compiler, that full collection scans millions of long-lived objects (0.8 s a call), so those
    are set aside (`gc.freeze`) while this module runs."""
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("case", sorted(CASES))
def test_model_pattern_matches_its_golden(case, level, tmp_path):
    build, fused_at, always = CASES[case]
    path = tmp_path / f"{case}.mlir"
    path.write_text(build())
    options = f"optimization-level={level}"
    text = print_module(lower(path.read_text(), str(path), "ttir-to-ttnn-backend-pipeline", options))
    missing = [op for op in (*fused_at.get(level, ()), *always) if op not in text]
    assert not missing, f"{case} at level {level} no longer exercises {missing}"
    record = check_model(path, seed=0, init="fan-in", options=options)
    worst, status = verdict(record, 0.99)
    assert status == "ok", (case, level, worst, status, record["outputs"])


def test_an_argmax_tie_counts_as_equal_on_every_chip_of_a_mesh():
    """An argmax whose input holds two values one bf16 ulp apart (4.4375 and 4.40625) may pick either: on a
    two-chip mesh too, where each chip holds its own argmax and input (a tensor-parallel model's was failed)."""
    import torch

    from models_golden import compare_output

    logits = torch.tensor([[1.0, 4.4375, 4.40625], [4.0, 0.5, 0.25]], dtype=torch.bfloat16)
    golden, device = torch.tensor([1, 0]), torch.tensor([2, 0])
    record = compare_output([golden, golden], [device, device], ([logits, logits], 1))
    assert record["equal"] == 1.0 and record["ties"] == 2
    wrong = compare_output([golden, golden], [torch.tensor([0, 0])] * 2, ([logits, logits], 1))
    assert wrong["equal"] == 0.5 and wrong["ties"] == 0  # 1.0 is no tie of 4.4375
