"""JAX programs lowered by JAX itself, compiled through the StableHLO pipeline, run on the simulated device and
compared with JAX's own results (PCC >= 0.99)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from ttmlir.diagnostics import DiagnosticError  # noqa: E402
from ttmlir.frontends import jax as tt_jax  # noqa: E402

RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def _data_of_its_own(request):
    """Each test's inputs from a generator seeded by its name: the same data whichever tests an xdist worker ran
    before it (drawn from one shared generator, a test's data changed with the order, and bf16 ties with it)."""
    RNG.bit_generator.state = np.random.default_rng(zlib.crc32(request.node.name.encode())).bit_generator.state


def f32(*shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def pcc(a, b) -> float:
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    if np.allclose(a, b, rtol=1e-3, atol=1e-3):
        return 1.0
    return float(np.corrcoef(a, b)[0, 1])


def check(fn, *args):
    got = jax.tree_util.tree_leaves(tt_jax.jit(fn)(*args))
    want = jax.tree_util.tree_leaves(fn(*args))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        if np.issubdtype(np.asarray(w).dtype, np.integer):
            np.testing.assert_array_equal(g, w)
        else:
            assert pcc(g, w) >= 0.99


def layer_norm(x, g, b, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + eps) * g + b


def rms_norm(x, g, eps=1e-6):
    return x * jax.lax.rsqrt((x * x).mean(-1, keepdims=True) + eps) * g


def rotary(x):
    seq, _, dim = x.shape
    freq = 1.0 / (10000 ** (jnp.arange(0, dim, 2) / dim))
    angle = jnp.arange(seq)[:, None] * freq[None, :]
    cos, sin = jnp.cos(angle)[:, None, :], jnp.sin(angle)[:, None, :]
    lo, hi = x[..., : dim // 2], x[..., dim // 2:]
    return jnp.concatenate([lo * cos - hi * sin, lo * sin + hi * cos], axis=-1)


def transformer_block(x, wq, wk, wv, wo, g1, g2, b2, w1, w2):
    """Pre-norm block: RMSNorm, grouped-query causal attention with rotary embeddings, LayerNorm + GELU MLP."""
    seq, model = x.shape
    heads, kv_heads = 4, 2
    dim = model // heads
    h = rms_norm(x, g1)
    q = rotary((h @ wq).reshape(seq, heads, dim))
    k = rotary((h @ wk).reshape(seq, kv_heads, dim))
    v = (h @ wv).reshape(seq, kv_heads, dim)
    k, v = jnp.repeat(k, heads // kv_heads, axis=1), jnp.repeat(v, heads // kv_heads, axis=1)
    scores = jnp.einsum("qhd,khd->hqk", q, k) / np.sqrt(dim)
    causal = jnp.tril(jnp.ones((seq, seq), bool))
    probs = jax.nn.softmax(jnp.where(causal[None], scores, -1e9), axis=-1)
    y = x + jnp.einsum("hqk,khd->qhd", probs, v).reshape(seq, model) @ wo
    return y + jax.nn.gelu(layer_norm(y, g2, b2) @ w1, approximate=False) @ w2


def test_mlp_softmax_argmax():
    def mlp(x, w1, b1, w2):
        h = jax.nn.relu(x @ w1 + b1)
        logits = h @ w2
        return jax.nn.softmax(logits, axis=-1), jnp.argmax(logits, axis=-1)
    check(mlp, f32(8, 32), f32(32, 64, scale=0.2), f32(64), f32(64, 10, scale=0.2))


def test_transformer_block():
    m = 32
    check(transformer_block, f32(8, m), f32(m, m, scale=0.2), f32(m, 16, scale=0.2), f32(m, 16, scale=0.2),
          f32(m, m, scale=0.2), f32(m), f32(m), f32(m), f32(m, 64, scale=0.2), f32(64, m, scale=0.2))


def test_cnn():
    def cnn(x, w1, w2):
        y = jax.lax.conv_general_dilated(x, w1, (2, 2), ((1, 1), (1, 1)), dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = jax.nn.relu(y)
        y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        y = jax.lax.conv_general_dilated(y, w2, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        avg = jax.lax.reduce_window(y, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0
        return avg.mean(axis=(1, 2))
    check(cnn, f32(2, 16, 16, 3), f32(3, 3, 3, 8, scale=0.3), f32(3, 3, 8, 4, scale=0.3))


def test_embedding_and_data_movement():
    def program(ids, table, x):
        rows = table[ids]
        joined = jnp.concatenate([x, x[:, ::-1]], axis=1)
        return (rows.sum(0), jnp.pad(joined, ((1, 0), (0, 2)), constant_values=0.5)[::2, 1:7], jnp.flip(x, 0).T,
                jax.lax.pad(x, -1.0, [(1, 0, 1), (0, 2, 2)]))  # interior padding spreads the elements
    check(program, np.array([3, 1, 7, 0], np.int32), f32(10, 16), f32(4, 6))


def test_reductions():
    def program(x):
        return (jnp.argmax(x, axis=1), jnp.cumsum(x, axis=0), jnp.prod(x, axis=1), jnp.min(x, axis=0), x.sum(),
                jnp.cumprod(x, axis=1))
    check(program, f32(6, 8, scale=0.3) + 1.0)


def test_complex_rotary_embedding():
    """Rotary embedding written with complex numbers (as Llama-style models write it): the pairs of x turned by
    unit complex numbers, plus the other elementwise complex ops JAX emits; only real tensors reach the device."""
    def program(x, theta):
        z = jax.lax.complex(x[..., 0::2], x[..., 1::2])
        turn = jnp.exp(jax.lax.complex(jnp.zeros_like(theta), theta))
        w = (z * turn - z / (turn + 2.0)) * (1.5 + 0.5j)
        return jnp.stack([jnp.real(w), jnp.imag(w)], -1).reshape(x.shape), jnp.abs(-w)
    check(program, f32(8, 32), f32(8, 16))


COMPLEX_FUNCTIONS = {"sin": jnp.sin, "cos": jnp.cos, "tanh": jnp.tanh, "log": jnp.log, "sqrt": jnp.sqrt,
                     "rsqrt": jax.lax.rsqrt, "expm1": jnp.expm1, "log1p": jnp.log1p,
                     "logistic": jax.nn.sigmoid, "sign": jnp.sign, "power": lambda z: z ** (0.5 + 0.25j)}


@pytest.mark.parametrize("name", COMPLEX_FUNCTIONS)
def test_complex_functions(name):
    """Each elementwise complex function, written with real arithmetic on the device, against JAX on the CPU (the
    principal branch of log, roots and powers; sign 0 at 0)."""
    def program(re, im):
        w = COMPLEX_FUNCTIONS[name](jax.lax.complex(re, im))
        return jnp.real(w), jnp.imag(w)
    re, im = f32(4, 32), f32(4, 32)
    re[0, :4], im[0, :4] = [0.0, -1.0, 2.0, -3.0], [0.0, 0.0, -0.5, 1.0]  # zero, the negative real axis
    got, want = tt_jax.jit(program)(re, im), jax.jit(program)(re, im)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=2e-2, atol=2e-2)


def test_complex_comparisons_are_lexicographic():
    """==, != part by part; max/min order by the real parts, then the imaginary ones (ties are built in)."""
    def program(a, b, c, d):
        x, y = jax.lax.complex(a, b), jax.lax.complex(c, d)
        big, small = jax.lax.max(x, y), jax.lax.min(x, y)
        return x == y, x != y, jnp.real(big), jnp.imag(big), jnp.real(small), jnp.imag(small)
    a, b = np.round(f32(4, 32)), np.round(f32(4, 32))
    c, d = a.copy(), b.copy()
    c[1:], d[2:] = np.round(f32(3, 32)), np.round(f32(2, 32))  # row 0 equal, row 1 on imaginary parts; whole numbers tie often
    got, want = tt_jax.jit(program)(a, b, c, d), jax.jit(program)(a, b, c, d)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.filterwarnings("ignore:Casting complex values to real")  # JAX's, for the conversion tested here
def test_complex_conversions_and_iota():
    """Reals to complex (0i), complex to real (the real part), complex between widths, and a complex iota."""
    def program(a, b):
        z = jax.lax.complex(a, b) * jax.lax.iota(jnp.complex64, 32)
        back = jax.lax.convert_element_type(z, jnp.float32)
        w = a.astype(jnp.complex64) + z.astype(jnp.complex64)
        return back, jnp.real(w), jnp.imag(w)
    a, b = f32(4, 32), f32(4, 32)
    for g, w in zip(tt_jax.jit(program)(a, b), jax.jit(program)(a, b)):
        np.testing.assert_allclose(g, w, rtol=2e-2, atol=2e-2)


def test_convolutions_of_a_dilated_input():
    """lhs_dilation beside window strides, in 1-d, and with batch groups: the input spread out by zeros, then
    convolved (what conv_transpose2d does not cover)."""
    def program(x, w, x1, w1, xb, wb):
        dims = ("NCHW", "OIHW", "NCHW")
        strided = jax.lax.conv_general_dilated(x, w, (2, 2), [(1, 1), (0, 2)], lhs_dilation=(2, 3),
                                               dimension_numbers=dims)
        one_d = jax.lax.conv_general_dilated(x1, w1, (3,), [(2, 1)], lhs_dilation=(2,),
                                             dimension_numbers=("NCH", "OIH", "NCH"))
        grouped = jax.lax.conv_general_dilated(xb, wb, (1, 1), [(0, 0), (0, 0)], lhs_dilation=(2, 2),
                                               dimension_numbers=dims, batch_group_count=2)
        return strided, one_d, grouped
    check(program, f32(1, 3, 5, 6), f32(4, 3, 3, 3), f32(2, 3, 9), f32(5, 3, 4), f32(2, 2, 4, 4), f32(4, 2, 2, 2))


def test_bf16_matmul():
    check(lambda a, b: a.astype(jnp.bfloat16) @ b.astype(jnp.bfloat16), f32(32, 64), f32(64, 32))


def test_unlowerable_op_is_a_located_error():
    # JAX's CPU triangular solve is a LAPACK custom call: neither the device nor the host runs it
    text = tt_jax.stablehlo_text(lambda a, b: jax.lax.linalg.triangular_solve(a, b, left_side=True), f32(4, 4), f32(4, 2))
    with pytest.raises(DiagnosticError, match="failed to legalize operation 'stablehlo.custom_call'"):
        tt_jax.compile_stablehlo(text)


def test_scatters():
    """JAX's indexed updates: rows, columns, points of a 2-D array, windows of a 3-D one; set, add (with a
    repeated index), max."""
    def program(x, rows, u, i, j, v, y, w):
        x = jnp.asarray(x)
        return (x.at[rows].set(u), x.at[rows[::-1] % 2].add(u), x.at[rows].max(u), x.at[i, j].set(v),
                x.T.at[:, j[:2]].set(u[:2].T), jnp.asarray(y).at[i[:2], j[:2]].add(w))
    check(program, f32(8, 4), np.array([5, 1, 6], np.int32), f32(3, 4), np.array([0, 5, 3], np.int32),
          np.array([3, 1, 2], np.int32), f32(3), f32(6, 5, 3), f32(2, 3))


def test_transposed_convolutions():
    """JAX's conv_transpose (an input-dilated convolution) in both layouts, with SAME padding (one cropped row)."""
    def program(x, w, y, v):
        return (jax.lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW")),
                jax.lax.conv_transpose(y, v, (2, 3), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")))
    check(program, f32(1, 4, 5, 6), f32(3, 4, 3, 3), f32(2, 5, 4, 3), f32(2, 3, 3, 6))


def test_convolutions_with_negative_padding():
    """Negative padding drops input rows (a weight gradient's convolution has it): cropped off the output when a
    whole number of strides, off the input otherwise."""
    def program(x, w):
        dn = ("NHWC", "HWIO", "NHWC")
        return (jax.lax.conv_general_dilated(x, w, (1, 1), ((0, -1), (-2, 1)), rhs_dilation=(2, 2),
                                             dimension_numbers=dn),
                jax.lax.conv_general_dilated(x, w, (2, 2), ((-1, 0), (1, -1)), dimension_numbers=dn))
    check(program, f32(2, 12, 11, 4), f32(3, 3, 4, 5))


def test_convolutions_with_batch_groups():
    """batch_group_count (a weight gradient of a grouped convolution): batch groups convolved with kernel groups,
    side by side along the output features; 2-d and 1-d."""
    def program(x, w, y, v):
        return (jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)), batch_group_count=2,
                                             dimension_numbers=("NCHW", "OIHW", "NCHW")),
                jax.lax.conv_general_dilated(y, v, (1,), ((0, 0),), batch_group_count=3,
                                             dimension_numbers=("NCH", "OIH", "NCH")))
    check(program, f32(4, 3, 8, 8), f32(6, 3, 3, 3), f32(6, 2, 9), f32(9, 2, 4))


def test_convolution_over_a_unit_dim_is_1d():
    """A depthwise 2-d convolution whose height and kernel height are 1 (torch-xla's conv1d) runs as a conv1d."""
    def program(x, w):
        return jax.lax.conv_general_dilated(x, w, (1, 1), ((0, 0), (3, 3)), feature_group_count=8,
                                            dimension_numbers=("NCHW", "OIHW", "NCHW"))
    check(program, f32(1, 8, 1, 20), f32(8, 1, 1, 4))


def test_grouped_transposed_convolution():
    """An input-dilated convolution with feature groups: each group's kernels stacked for TTIR's conv_transpose2d."""
    def program(x, w):
        return jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 2), (1, 2)), lhs_dilation=(2, 2),
                                            dimension_numbers=("NHWC", "HWOI", "NHWC"), feature_group_count=3)
    check(program, f32(1, 5, 5, 12), f32(3, 3, 6, 4))


def test_3d_convolutions():
    """Volumes in both layouts; strides, uneven padding, SAME padding."""
    def program(x, w, y, v):
        return (jax.lax.conv_general_dilated(x, w, (1, 2, 1), ((1, 1), (0, 0), (1, 2)),
                                             dimension_numbers=("NCDHW", "OIDHW", "NCDHW")),
                jax.lax.conv_general_dilated(y, v, (1, 1, 1), "SAME", dimension_numbers=("NDHWC", "DHWIO", "NDHWC")))
    check(program, f32(1, 4, 5, 6, 7), f32(3, 4, 3, 3, 3), f32(2, 4, 5, 6, 3), f32(3, 3, 3, 3, 5))


def test_max_pool_gradient():
    """jax.grad of a max pool is a select_and_scatter: each output gradient lands on its window's maximum."""
    def pooled(x, g):
        y = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 3, 3), (1, 1, 2, 2),
                                  ((0, 0), (0, 0), (1, 1), (1, 1)))
        return (y * g).sum()
    check(jax.grad(pooled), f32(2, 3, 8, 8), f32(2, 3, 4, 4))


def test_random_bits_and_uniform_draws():
    """rng_bit_generator passes its state through and draws over the integer range; a `tenstorrent.uniform`
    composite draws between its bounds."""
    text = """module {
    func.func @main(%key: tensor<2xui32>, %state: tensor<2xui64>) -> (tensor<2xui64>, tensor<64x8xui32>, tensor<512xf32>) {
      %low = stablehlo.constant dense<-2.0> : tensor<f32>
      %high = stablehlo.constant dense<3.0> : tensor<f32>
      %s, %bits = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<64x8xui32>)
      %u = stablehlo.composite "tenstorrent.uniform" %key, %low, %high {decomposition = @uniform} : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<512xf32>
      return %s, %bits, %u : tensor<2xui64>, tensor<64x8xui32>, tensor<512xf32>
    }
    func.func private @uniform(%key: tensor<2xui32>, %low: tensor<f32>, %high: tensor<f32>) -> tensor<512xf32> {
      %0 = stablehlo.broadcast_in_dim %low, dims = [] : (tensor<f32>) -> tensor<512xf32>
      return %0 : tensor<512xf32>
    }
    }"""
    state = np.array([42, 24], np.uint64)
    out_state, bits, uniform = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [np.zeros(2, np.uint32), state])
    assert list(out_state) == [42, 24] and bits.shape == (64, 8) and len(np.unique(bits)) > 256
    assert uniform.min() >= -2.0 and uniform.max() < 3.0 and uniform.std() > 1.0


def test_batch_norm_grad_matches_autograd():
    """batch_norm_grad against torch's autograd of a batch normalisation by its own batch statistics."""
    torch = pytest.importorskip("torch")
    text = """func.func @main(%x: tensor<4x3x5x2xf32>, %g: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>,
                          %dy: tensor<4x3x5x2xf32>) -> (tensor<4x3x5x2xf32>, tensor<3xf32>, tensor<3xf32>) {
      %0:3 = "stablehlo.batch_norm_grad"(%x, %g, %m, %v, %dy) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64}
        : (tensor<4x3x5x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3x5x2xf32>)
        -> (tensor<4x3x5x2xf32>, tensor<3xf32>, tensor<3xf32>)
      return %0#0, %0#1, %0#2 : tensor<4x3x5x2xf32>, tensor<3xf32>, tensor<3xf32>
    }"""
    x, g, dy = f32(4, 3, 5, 2), f32(3), f32(4, 3, 5, 2)
    mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    got = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [x, g, mean, var, dy])
    tx, tg, tb = (torch.tensor(a, requires_grad=True) for a in (x, g, np.zeros(3, np.float32)))
    torch.nn.functional.batch_norm(tx, None, None, tg, tb, training=True, eps=1e-3).backward(torch.tensor(dy))
    for value, want in zip(got, (tx.grad, tg.grad, tb.grad)):
        assert pcc(value, want.numpy()) >= 0.99


def test_reduce_window_of_two_inputs():
    """One reduce_window computing a max pool of one input and a sum pool of another."""
    def program(x, y):
        return jax.lax.reduce_window((x, y), (-jnp.inf, 0.0), lambda a, b: (jnp.maximum(a[0], b[0]), a[1] + b[1]),
                                     (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    check(program, f32(1, 8, 8, 4), f32(1, 8, 8, 4))


def test_max_pool_3d():
    """Volumes max-pooled (as two 2-d pools) in NCDHW with padding and in NDHWC."""
    def program(x, y):
        pad = ((0, 0), (0, 0), (1, 1), (1, 1), (0, 1))
        return (jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 3, 3, 2), (1, 1, 2, 2, 2), pad),
                jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 2, 1), (1, 2, 2, 2, 1), "VALID"))
    check(program, f32(2, 3, 6, 8, 5), f32(1, 4, 6, 8, 3))


def test_round_half_away_and_dynamic_iota():
    halves = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49, -3.7], np.float32)
    check(lambda x: jax.lax.round(x, jax.lax.RoundingMethod.AWAY_FROM_ZERO), halves)
    text = """func.func @main(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
      %shape = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
      %0 = "stablehlo.dynamic_iota"(%shape) {iota_dimension = 1 : i64} : (tensor<2xi64>) -> tensor<3x4xf32>
      %1 = stablehlo.add %0, %x : tensor<3x4xf32>
      return %1 : tensor<3x4xf32>
    }"""
    x = f32(3, 4)
    got, = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [x])
    np.testing.assert_allclose(got, x + np.arange(4, dtype=np.float32), atol=2e-2)


def test_cpu_fallback_runs_hoisted_ops_on_the_host():
    """An op the device cannot lower (a dynamic update, an einsum) runs on the host inside a device program."""
    def program(x, update, row):
        y = jax.lax.dynamic_update_slice(x * 2.0, update, (row, 1)) + 1.0
        return y, jax.lax.dynamic_slice(y, (row - 1, 2), (3, 4))  # a dynamic slice runs on the device
    check(program, f32(6, 8), f32(2, 3), np.int32(3))
    check(program, f32(6, 8), f32(2, 3), np.int32(9))  # a start past the end is clamped
    text = """func.func @main(%a: tensor<3x4x5xf32>, %b: tensor<5x6xf32>) -> tensor<3x6x4xf32> {
      %0 = stablehlo.exponential %a : tensor<3x4x5xf32>
      %1 = "stablehlo.einsum"(%0, %b) {einsum_config = "ijk,kl->ilj"} : (tensor<3x4x5xf32>, tensor<5x6xf32>) -> tensor<3x6x4xf32>
      %2 = stablehlo.negate %1 : tensor<3x6x4xf32>
      return %2 : tensor<3x6x4xf32>
    }"""
    a, b = f32(3, 4, 5, scale=0.3), f32(5, 6)
    got, = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [a, b])
    assert pcc(got, -np.einsum("ijk,kl->ilj", np.exp(a), b)) >= 0.99
    with pytest.raises(DiagnosticError, match="failed to legalize operation 'stablehlo.einsum'"):
        tt_jax.compile_stablehlo(text, stablehlo_options="enable-cpu-fallback=false")


def test_the_host_runs_every_op_the_compiler_hoists():
    from ttmlir.transforms.stablehlo.cpu_hoist_non_lowerable_shlo_ops import HOST_OPS
    from ttmlir.runtime.host_stablehlo import OPS
    assert set(OPS) == HOST_OPS


def test_tenstorrent_composites():
    """Composites tt-xla wraps torch ops in become the TTIR op (their decompositions here are placeholders, so a
    right answer comes from the op): top-k, argmax, torch.gather and rank-3 attention with a [B, Sq, Sk] mask."""
    text = """module {
    func.func @main(%x: tensor<2x40xf32>, %data: tensor<3x5xf32>, %index: tensor<3x2xi64>, %q: tensor<2x64x32xf32>,
                    %k: tensor<2x64x32xf32>, %v: tensor<2x64x32xf32>, %mask: tensor<2x64x64xf32>)
        -> (tensor<2x5xf32>, tensor<2x5xi64>, tensor<2xi64>, tensor<3x2xf32>, tensor<2x64x32xf32>) {
      %t:2 = stablehlo.composite "tenstorrent.topk" %x {composite_attributes = {k = 5 : i64, dim = -1 : i64, largest = true, sorted = true}, decomposition = @topk} : (tensor<2x40xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>)
      %a = stablehlo.composite "tenstorrent.argmax" %x {composite_attributes = {dim = 1 : i64}, decomposition = @argmax} : (tensor<2x40xf32>) -> tensor<2xi64>
      %g = stablehlo.composite "tenstorrent.gather" %data, %index {composite_attributes = {dim = 1 : i64}, decomposition = @gather} : (tensor<3x5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
      %s = stablehlo.composite "tenstorrent.scaled_dot_product_attention" %q, %k, %v, %mask {composite_attributes = {is_causal = false, scale = 0.25 : f32}, decomposition = @sdpa} : (tensor<2x64x32xf32>, tensor<2x64x32xf32>, tensor<2x64x32xf32>, tensor<2x64x64xf32>) -> tensor<2x64x32xf32>
      return %t#0, %t#1, %a, %g, %s : tensor<2x5xf32>, tensor<2x5xi64>, tensor<2xi64>, tensor<3x2xf32>, tensor<2x64x32xf32>
    }
    func.func private @topk(%x: tensor<2x40xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>) {
      %0 = stablehlo.constant dense<0.0> : tensor<2x5xf32>
      %1 = stablehlo.constant dense<0> : tensor<2x5xi64>
      return %0, %1 : tensor<2x5xf32>, tensor<2x5xi64>
    }
    func.func private @argmax(%x: tensor<2x40xf32>) -> tensor<2xi64> {
      %0 = stablehlo.constant dense<0> : tensor<2xi64>
      return %0 : tensor<2xi64>
    }
    func.func private @gather(%d: tensor<3x5xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
      %0 = stablehlo.constant dense<0.0> : tensor<3x2xf32>
      return %0 : tensor<3x2xf32>
    }
    func.func private @sdpa(%q: tensor<2x64x32xf32>, %k: tensor<2x64x32xf32>, %v: tensor<2x64x32xf32>, %m: tensor<2x64x64xf32>) -> tensor<2x64x32xf32> {
      return %q : tensor<2x64x32xf32>
    }
    }"""
    x, data = f32(2, 40), f32(3, 5)
    index = RNG.integers(0, 5, (3, 2)).astype(np.int64)
    q, k, v = f32(2, 64, 32), f32(2, 64, 32), f32(2, 64, 32)
    mask = np.where(RNG.random((2, 64, 64)) < 0.2, -1e9, 0.0).astype(np.float32)
    values, indices, argmax, gathered, attention = tt_jax.run_binary(tt_jax.compile_stablehlo(text),
                                                                     [x, data, index, q, k, v, mask])
    order = np.argsort(-x, axis=-1)[:, :5]
    np.testing.assert_allclose(values, np.take_along_axis(x, order, -1), rtol=1e-2)
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(argmax, x.argmax(-1))
    np.testing.assert_allclose(gathered, np.take_along_axis(data, index, 1), rtol=1e-2)
    scores = q @ k.transpose(0, 2, 1) * 0.25 + mask
    probs = np.exp(scores - scores.max(-1, keepdims=True))
    assert pcc(attention, probs / probs.sum(-1, keepdims=True) @ v) >= 0.99


def test_dot_general_without_batch_dims_or_contraction():
    """A 2-D matmul stays 2-D; a contraction over one element (an outer product) is a broadcast multiply."""
    def outer(a, b, c, d):
        return jax.lax.dot_general(a, b, (((1,), (0,)), ((), ()))), c @ d
    check(outer, f32(16, 1), f32(1, 24), f32(16, 32), f32(32, 8))


def test_boolean_constant_true_is_one():
    text = """func.func @main(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
      %t = stablehlo.constant dense<[[true], [false], [true], [true]]> : tensor<4x1xi1>
      %f = stablehlo.convert %t : (tensor<4x1xi1>) -> tensor<4x1xf32>
      %b = stablehlo.broadcast_in_dim %f, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x32xf32>
      %0 = stablehlo.add %x, %b : tensor<4x32xf32>
      return %0 : tensor<4x32xf32>
    }"""
    x = f32(4, 32)
    got, = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [x])
    np.testing.assert_allclose(got, x + np.array([[1.0], [0.0], [1.0], [1.0]], np.float32), rtol=1e-5)


def test_clamp_between_run_time_scalars():
    """Scalar bounds known only at run time are broadcast to the operand's shape."""
    check(lambda x, lo, hi: jax.lax.clamp(lo, x, hi), f32(32, 32), np.float32(-0.5), np.float32(0.7))


def test_zero_padded_sum_pool_divided_by_its_window():
    """A zero pad before a windowed sum is the pool's padding; the sum divided by the window size is the average."""
    def pool(x):
        padded = jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        total = jax.lax.reduce_window(padded, 0.0, jax.lax.add, (1, 3, 3, 1), (1, 2, 2, 1),
                                      ((0, 0), (2, 2), (2, 2), (0, 0)))
        return total / 9.0, total
    check(pool, f32(1, 16, 16, 8))


def test_boolean_ops_through_integers_and_narrowed_compares():
    """XLA's form of a boolean or (widened to ui8, or, compared with 0) is a logical or; a bf16 value widened to
    f64 and compared with an f64 constant compares in bf16, the constant rounded (PyTorch eager's answer)."""
    text = """func.func @main(%a: tensor<4x32xi1>, %b: tensor<4x32xi1>, %x: tensor<4x32xbf16>) -> (tensor<4x32xi1>, tensor<4x32xi1>) {
      %zero = stablehlo.constant dense<0> : tensor<4x32xui8>
      %0 = stablehlo.convert %a : (tensor<4x32xi1>) -> tensor<4x32xui8>
      %1 = stablehlo.convert %b : (tensor<4x32xi1>) -> tensor<4x32xui8>
      %2 = stablehlo.or %0, %1 : tensor<4x32xui8>
      %3 = stablehlo.compare NE, %2, %zero : (tensor<4x32xui8>, tensor<4x32xui8>) -> tensor<4x32xi1>
      %limit = stablehlo.constant dense<0.99> : tensor<4x32xf64>
      %4 = stablehlo.convert %x : (tensor<4x32xbf16>) -> tensor<4x32xf64>
      %5 = stablehlo.compare LT, %4, %limit : (tensor<4x32xf64>, tensor<4x32xf64>) -> tensor<4x32xi1>
      return %3, %5 : tensor<4x32xi1>, tensor<4x32xi1>
    }"""
    a, b = RNG.random((4, 32)) < 0.5, RNG.random((4, 32)) < 0.5
    x = np.where(RNG.random((4, 32)) < 0.5, 0.98828125, 0.5).astype(jnp.bfloat16)  # 0.98828125: 0.99 in bf16
    either, below = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [a, b, x])
    np.testing.assert_array_equal(np.asarray(either, bool), a | b)
    np.testing.assert_array_equal(np.asarray(below, bool), np.asarray(x, np.float32) < 0.98828125)


def test_gathers_as_table_lookups():
    """Gathers JAX writes for indexing: rows (an embedding), several indexed dims (one flattened row number), a
    non-leading dim, runs of rows, integer data (exact: not through bf16), take_along_axis (a batched gather) and
    rows by 3-d indices (one flat list of them)."""
    dnums = jax.lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0,))

    def lookups(table, x, ints, idx, i, j, starts, along):
        runs = jax.lax.gather(table, starts, dnums, slice_sizes=(3, 16), mode="promise_in_bounds")
        return (table[idx], x[i, j], x[:, :, 2], table[:, idx[0]], runs, ints[idx], ints[i, j],
                jnp.take_along_axis(x, along, axis=1), table[idx.reshape(3, 1, 5)])
    idx = RNG.integers(0, 10, (3, 5)).astype(np.int32)
    i, j = RNG.integers(0, 7, (5,)).astype(np.int32), RNG.integers(0, 8, (5,)).astype(np.int32)
    starts = RNG.integers(0, 8, (4, 1)).astype(np.int32)
    ints = RNG.integers(-100000, 100000, (10, 8, 3)).astype(np.int32)  # beyond bf16's exact integers
    along = RNG.integers(0, 8, (7, 2, 4)).astype(np.int32)
    check(lookups, f32(10, 16), f32(7, 8, 4), ints, idx, i, j, starts, along)


def test_group_norm_composite_over_nchw():
    """`tenstorrent.group_norm` with channels at dim 1 (NCHW) and an affine weight and bias, against torch."""
    torch = pytest.importorskip("torch")
    text = """func.func @main(%x: tensor<2x32x4x6xf32>, %w: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<2x32x4x6xf32> {
      %0 = stablehlo.composite "tenstorrent.group_norm" %x, %w, %b {composite_attributes = {channel_dim = 1 : i64, epsilon = 1.0E-5 : f32, num_groups = 8 : i64}, decomposition = @impl} : (tensor<2x32x4x6xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x32x4x6xf32>
      return %0 : tensor<2x32x4x6xf32>
    }
    func.func private @impl(%x: tensor<2x32x4x6xf32>, %w: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<2x32x4x6xf32> {
      return %x : tensor<2x32x4x6xf32>
    }"""
    x, w, b = f32(2, 32, 4, 6), f32(32), f32(32)
    got, = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [x, w, b])
    want = torch.nn.functional.group_norm(torch.from_numpy(x), 8, torch.from_numpy(w), torch.from_numpy(b), 1e-5)
    assert pcc(got, want.numpy()) >= 0.99


def test_gathers_of_one_window():
    """A gather of one window at a start vector is a dynamic slice (a static one for constant starts); starts past
    the end are clamped, as StableHLO's gather does."""
    dnums = jax.lax.GatherDimensionNumbers(offset_dims=(0, 1), collapsed_slice_dims=(), start_index_map=(1,))
    both = jax.lax.GatherDimensionNumbers(offset_dims=(0, 1), collapsed_slice_dims=(), start_index_map=(1, 0))

    def windows(x, start):
        run_time = jax.lax.gather(x, start, dnums, slice_sizes=(10, 5), mode="clip")
        constant = jax.lax.gather(x, jnp.array([18, 1], np.int32), both, slice_sizes=(4, 5), mode="clip")
        return run_time, constant
    check(windows, f32(10, 20), np.array([7], np.int32))
    check(windows, f32(10, 20), np.array([18], np.int32))


def test_gather_of_edge_rows_is_edge_padding():
    """Constant indices repeating the first and last rows around all of them (as torch-xla writes a replicate
    pad): slices, repeats and one concat."""
    text = """func.func @main(%x: tensor<2x5x3xf32>) -> tensor<2x8x3xf32> {
      %rows = stablehlo.constant dense<[[0], [0], [1], [2], [3], [4], [4], [4]]> : tensor<8x1xi64>
      %0 = "stablehlo.gather"(%x, %rows) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 2, 1, 3>}> : (tensor<2x5x3xf32>, tensor<8x1xi64>) -> tensor<2x8x3xf32>
      return %0 : tensor<2x8x3xf32>
    }"""
    x = f32(2, 5, 3)
    got, = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [x])
    np.testing.assert_allclose(got, x[:, [0, 0, 1, 2, 3, 4, 4, 4]], rtol=1e-6)


def test_gather_of_patches_over_two_dims():
    """3x3 patches of an NHWC image at index-vector starts (an unfold): one embedding over the flattened H, W rows;
    starts past the edge are clamped as StableHLO's gather does."""
    dnums = jax.lax.GatherDimensionNumbers(offset_dims=(0, 1, 2, 3), collapsed_slice_dims=(), start_index_map=(1, 2))

    def patches(x, starts):
        return jax.lax.gather(x, starts, dnums, slice_sizes=(1, 3, 3, 8), mode="clip")
    starts = RNG.integers(0, 9, (5, 4, 2)).astype(np.int32)
    starts[0, 0] = [11, 3]  # past the edge
    check(patches, f32(1, 10, 9, 8), starts)


def test_decode_attention_custom_call_takes_its_position_before_optional_operands():
    """tt.scaled_dot_product_attention_decode passes (query, key, value, cur_pos[, mask]): a causal decode step
    attends to the cache up to each user's position."""
    text = """func.func @main(%q: tensor<1x2x4x32xf32>, %k: tensor<2x4x64x32xf32>, %v: tensor<2x4x64x32xf32>, %pos: tensor<2xi32>) -> tensor<1x2x4x32xf32> {
      %0 = stablehlo.custom_call @tt.scaled_dot_product_attention_decode(%q, %k, %v, %pos) {api_version = 0 : i32, mhlo.frontend_attributes = {has_attention_mask = "False", has_attention_sink = "False", is_causal = "True"}} : (tensor<1x2x4x32xf32>, tensor<2x4x64x32xf32>, tensor<2x4x64x32xf32>, tensor<2xi32>) -> tensor<1x2x4x32xf32>
      return %0 : tensor<1x2x4x32xf32>
    }"""
    q, k, v = f32(1, 2, 4, 32), f32(2, 4, 64, 32), f32(2, 4, 64, 32)
    pos = np.array([5, 40], np.int32)
    got, = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [q, k, v, pos])
    for user in range(2):
        seen = pos[user] + 1
        scores = np.einsum("hd,hsd->hs", q[0, user], k[user, :, :seen]) / np.sqrt(32)
        probs = np.exp(scores - scores.max(-1, keepdims=True))
        want = np.einsum("hs,hsd->hd", probs / probs.sum(-1, keepdims=True), v[user, :, :seen])
        assert pcc(got[0, user], want) >= 0.99


def test_optimization_barrier_runs_as_its_operands():
    check(lambda x, y: jnp.tanh(sum(jax.lax.optimization_barrier((x * 2.0, y)))), f32(8, 32), f32(8, 32))


def test_sort_carries_other_operands_along_any_dimension():
    """lax.sort by float keys (JAX's comparator canonicalizes -0 and NaN first) carries an int and a float operand
    with it, along the first and a middle dimension."""
    keys = RNG.permutation(48).reshape(4, 12).astype(np.float32) - 20
    ints = RNG.integers(-100, 100, (4, 12)).astype(np.int32)
    check(lambda k, a, b: jax.lax.sort((k, a, b), dimension=0, num_keys=1), keys, ints, f32(4, 12))
    check(lambda k, a: jax.lax.sort((k, a), dimension=1, num_keys=1),
          keys.reshape(2, 4, 6), ints.reshape(2, 4, 6))


def test_row_scatter_add_is_an_embedding_gradient():
    """Rows added at row indices (repeats summing) into a table, or into zeros: embedding_backward."""
    ids = np.array([3, 0, 3, 7, 1, 3], np.int32)
    check(lambda w, g: jnp.asarray(w).at[ids].add(g), f32(8, 64), f32(6, 64))
    check(lambda g: jnp.zeros((8, 64), jnp.float32).at[ids].add(g), f32(6, 64))
    check(lambda w, g: jnp.asarray(w).at[ids.reshape(2, 3)].add(g), f32(8, 64), f32(2, 3, 64))


def test_one_token_per_user_written_into_a_cache_is_an_update_cache():
    """A decode step's cache write (each user's token at one run-time position), as JAX scatters it and as a
    [users, heads, 1, dim] update: the device's in-place paged_update_cache, the other positions untouched."""
    cache, pos = f32(4, 2, 16, 32), np.array([9], np.int32)
    check(lambda c, p, t: jnp.asarray(c).at[:, :, p[0]].set(t), cache, pos, f32(4, 2, 32))
    text = """func.func @main(%c: tensor<4x2x16x32xf32>, %p: tensor<1xi64>, %t: tensor<4x2x1x32xf32>) -> tensor<4x2x16x32xf32> {
      %0 = "stablehlo.scatter"(%c, %p, %t) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 3], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>}> ({
      ^bb0(%old: tensor<f32>, %new: tensor<f32>):
        stablehlo.return %new : tensor<f32>
      }) : (tensor<4x2x16x32xf32>, tensor<1xi64>, tensor<4x2x1x32xf32>) -> tensor<4x2x16x32xf32>
      return %0 : tensor<4x2x16x32xf32>
    }"""
    binary = tt_jax.compile_stablehlo(text)
    assert b"ttnn.paged_update_cache" in binary  # the op, not a scatter into a copy
    tokens = f32(4, 2, 1, 32)
    got, = tt_jax.run_binary(binary, [cache.copy(), pos.astype(np.int64), tokens])
    want = cache.copy()
    want[:, :, 9] = tokens[:, :, 0]
    np.testing.assert_array_equal(np.asarray(got), want)
