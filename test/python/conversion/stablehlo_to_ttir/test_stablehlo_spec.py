"""StableHLO as its spec defines it, compared with JAX on the CPU (`jax.lax`, XLA's reference answers): programs
JAX lowers go through `--stablehlo-to-ttir-pipeline`, `--ttir-to-ttnn-backend-pipeline` and the flatbuffer writer
and run on the simulated device (the host runs what the CPU fallback hoists). Integer results must be exact."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp, lax = jax.numpy, jax.lax

from ttmlir.frontends import jax as tt_jax  # noqa: E402


def same(fn, *args, rtol=1e-5, atol=1e-6):
    got = jax.tree_util.tree_leaves(tt_jax.jit(fn)(*args))
    want = jax.tree_util.tree_leaves(fn(*args))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (i, g.shape, g.dtype, w.shape, w.dtype)
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=f"result {i}")
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol,
                                       equal_nan=True, err_msg=f"result {i}")


def integer_ops(a, b):
    """Every binary and unary integer op of the spec on corner values (wrap-around, shifts past the width,
    division signs, division by zero as XLA defines it)."""
    safe = jnp.where(b == 0, jnp.ones_like(b), b)
    info = np.iinfo(a.dtype)
    return (a + b, a - b, a * b, lax.div(a, safe), lax.rem(a, safe), lax.max(a, b), lax.min(a, b), a & b, a | b,
            a ^ b, ~a, -a, lax.shift_left(a, b), lax.shift_right_logical(a, b), lax.shift_right_arithmetic(a, b),
            a < b, a >= b, a == b, lax.population_count(a), lax.clz(a), a.astype(bool), a.astype(jnp.float32),
            lax.clamp(jnp.asarray(1, a.dtype), a, jnp.asarray(5, a.dtype)),
            # constants and bounds past f32's 24 bits must reach the device exactly
            a + jnp.asarray(info.min + 3, a.dtype), lax.clamp(jnp.asarray(info.min + 5, a.dtype), a,
                                                              jnp.asarray(info.max - 2, a.dtype)),
            jnp.where(a == b, jnp.asarray(info.max, a.dtype), a),
            *((lax.abs(a), lax.sign(a), lax.clamp(jnp.asarray(-3, a.dtype), a, b))
              if jnp.issubdtype(a.dtype, jnp.signedinteger) else ()))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "uint8", "uint16", "uint32"])
def test_integer_corner_cases(dtype):
    info = np.iinfo(dtype)
    a = np.array([info.min, info.max, info.max // 3, 7, 0, 3, 1, info.min + 1], dtype)
    b = np.array([info.max, 1, 3, 0, 5, info.bits, info.bits + 1, 2], dtype)
    if info.min < 0:
        a[4], b[0], b[7] = -7, -1, -2
    same(integer_ops, a, b)



@pytest.mark.parametrize("dtype", ["int32", "uint32", "int8"])
def test_integer_data_movement_is_exact(dtype):
    """Concatenation along a dim off the tile grid, a cumulative sum, transposes, reverses and gathers along an
    inner dim keep every bit of 32-bit integers (none may pass through bf16 or f32, which round past 2^8 and
    2^24)."""
    a = np.array([[123456789, -987654321, 2**31 - 1], [-2**31, 16777217, 5]], np.int64).astype(dtype)
    b = np.array([[7], [-16777219]], np.int64).astype(dtype)
    same(lambda x, y: (jnp.concatenate([x, y], axis=1), lax.cumsum(x, axis=1), lax.cumsum(y, axis=0), x.T,
                       lax.rev(x, (0, 1)), jnp.take(x, jnp.array([2, 0, 2]), axis=1)), a, b)


@pytest.mark.parametrize("dtype", ["int32", "uint32"])
def test_integer_reductions_are_exact(dtype):
    """max, min and sum of 32-bit integers (the sum wrapping as the spec's integer add does), which the device's
    f32 reductions would round past 2^24."""
    a = np.array([[123456789, -987654321, 2**31 - 1, 16777217], [-2**31, 16777219, 5, -16777219]],
                 np.int64).astype(dtype)
    same(lambda x: (jnp.max(x, axis=1), jnp.min(x, axis=0), jnp.sum(x, axis=1, dtype=x.dtype), jnp.max(x),
                    jnp.min(x, axis=-1, keepdims=True), jnp.sum(x, dtype=x.dtype)), a)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "uint32"])
def test_integer_orderings_are_exact(dtype):
    """Sorts (ascending, descending, arg-sorts with ties kept in index order) and top-k of integer keys: the device
    sorts integers as u16 (32-bit words sort in two passes, by their halves) and ranks top-k as bf16 (the host
    ranks integers)."""
    info = np.iinfo(dtype)
    a = np.array([[info.max, 3, info.min, info.max - 1, 70000 % (info.max + 1), 1], [5, info.min + 1, 0, 2, 4, 3]],
                 np.int64).astype(dtype)
    a[1, 4] = a[1, 1]
    same(lambda x: (jnp.sort(x, axis=1), *lax.top_k(x, 3), jnp.sort(x, axis=0, descending=True),
                    jnp.argsort(x, axis=1, stable=True)), a)


@pytest.mark.parametrize("dtype", ["int32", "uint16"])
def test_integer_pads_and_row_adds_are_exact(dtype):
    """A pad by a fill f32 cannot hold (TTIR's pad value is an f32), negative padding, and rows added at indices
    (embedding_backward is a bf16 kernel)."""
    info = np.iinfo(dtype)
    a = np.array([[123456789 % info.max, 3, 16777217 % info.max], [7, 65535 % info.max, 2]], np.int64).astype(dtype)
    rows = jnp.array([1, 0, 1])
    same(lambda x: (jnp.pad(x, ((1, 0), (2, 1)), constant_values=info.max - 1),
                    lax.pad(x, jnp.asarray(info.max, x.dtype), ((-1, 1, 0), (1, -2, 0))),
                    jnp.asarray(x).at[rows].add(x[jnp.array([1, 1, 0])])), a)

def float_ops(x, y):
    """NaN, infinities and signed zeros through compares, min/max, remainder, rounding and conversions."""
    return (x == y, x < y, x != y, lax.max(x, y), lax.min(x, y), lax.rem(x, y), lax.round(x),
            lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN), x.astype(bool), lax.is_finite(x),
            jnp.floor(x), jnp.ceil(x), x * y, x / y)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_float_corner_cases(dtype):
    x = np.array([5.5, -5.5, 5.5, -5.5, 0.0, -0.0, 2.5, np.nan, np.inf, -np.inf, 0.5, -1.5], np.float32)
    y = np.array([2.0, 2.0, -2.0, -2.0, -0.0, 0.0, 2.5, 1.0, 1.0, 2.0, 3.0, np.nan], np.float32)
    tol = 1e-2 if dtype == "bfloat16" else 1e-6
    same(float_ops, x.astype(dtype), y.astype(dtype), rtol=tol, atol=tol)


def test_float_to_integer_saturates():
    x = np.array([1e10, -1e10, np.nan, 3.9, -3.9, 100.0, -100.0, np.inf], np.float32)
    same(lambda v: v.astype(jnp.int32), x)
    same(lambda v: v.astype(jnp.int8), x[3:7])  # out of a narrow type's range, XLA's answer is its own


def test_boolean_arithmetic_is_logical():
    """The spec's add on i1 is or, multiply is and (JAX refuses them on booleans: written in StableHLO)."""
    text = """
    func.func @main(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
      %0 = stablehlo.add %a, %b : tensor<4xi1>
      %1 = stablehlo.multiply %a, %b : tensor<4xi1>
      %2 = stablehlo.maximum %a, %b : tensor<4xi1>
      return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
    }"""
    a, b = np.array([True, False, True, False]), np.array([True, True, False, False])
    got = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [a, b])
    for g, want in zip(got, (a | b, a & b, a | b)):
        np.testing.assert_array_equal(g != 0, want)


def test_bitcast_convert_across_widths():
    x = np.array([[1.0, -2.5], [np.inf, 0.0]], np.float32)
    same(lambda v: (lax.bitcast_convert_type(v, jnp.int32), lax.bitcast_convert_type(v, jnp.uint16),
                    lax.bitcast_convert_type(lax.bitcast_convert_type(v, jnp.uint8), jnp.float32)), x)


def test_control_flow():
    x = np.arange(4, dtype=np.float32)

    def loops(v, p):
        fori = lax.fori_loop(0, 5, lambda i, c: c * 1.5 + i, v)
        total, partial = lax.scan(lambda c, r: (c + r, c * 2), jnp.zeros(4), jnp.stack([v, v + 1, v * 2]))
        count, grown = lax.while_loop(lambda c: c[1].sum() < 100, lambda c: (c[0] + 1, c[1] * 1.5 + 1), (0, v))
        chosen = lax.cond(p > 0, lambda u: u * 2, lambda u: u - 1, v)
        switched = lax.switch(jnp.int32(p), [lambda u: u, lambda u: u + 10, lambda u: -u], v)
        return fori, total, partial, count, grown, chosen, switched

    same(loops, x, np.float32(1), rtol=1e-5, atol=1e-5)
    same(loops, x, np.float32(-4), rtol=1e-5, atol=1e-5)  # a switch index out of range takes the last branch


def test_reductions_with_any_body():
    x = np.array([[3.0, -1.0, 2.0, 5.0], [0.5, 4.0, -2.0, 1.0]], np.float32)
    keys = np.array([3, 1, 3, 2, 1, 0], np.int32)

    def bodies(v, k):
        folded = lax.reduce(v, np.float32(1.0), lambda a, b: a * 0.5 + b, (1,))
        windows = lax.reduce_window(v, np.float32(0.0), lambda a, b: jnp.maximum(a, b) - 0.25, (1, 2), (1, 1),
                                    "VALID")
        by_two = lax.sort((k, jnp.arange(6, dtype=jnp.int32) % 2, jnp.arange(6, dtype=jnp.int32)), num_keys=2)
        scattered = jnp.ones(4).at[jnp.array([1, 3, 1])].multiply(jnp.array([2.0, 3.0, 4.0]))
        return folded, windows, *by_two, scattered

    same(bodies, x, keys)


def test_greedy_decode_loop():
    """A one-layer attention model that appends its argmax token each step, in a fori_loop."""
    rng = np.random.default_rng(3)
    vocab, dim, steps = 11, 8, 5
    emb = jnp.asarray(rng.standard_normal((vocab, dim)).astype(np.float32))
    wq, wk, wv, wo = (rng.standard_normal((dim, dim)).astype(np.float32) / 3 for _ in range(4))

    def decode(prompt):
        tokens = jnp.zeros(8, jnp.int32).at[:3].set(prompt)

        def step(i, toks):
            h = emb[toks]
            q, k, v = h @ wq, h @ wk, h @ wv
            mask = jnp.arange(8)[None, :] <= (i + 2)
            att = jax.nn.softmax(jnp.where(mask, q @ k.T, -1e9), axis=-1)
            logits = ((att @ v) @ wo) @ emb.T
            return toks.at[i + 3].set(jnp.argmax(logits[i + 2]).astype(jnp.int32))
        return lax.fori_loop(0, steps, step, tokens)

    same(decode, np.array([1, 4, 7], np.int32))


def test_integer_power_by_a_whole_constant_wraps():
    """power by a constant whole exponent stays on the device (pow_scalar multiplies); past the width it wraps,
    as the spec's integer power does (JAX writes x ** 3 as multiplies: written in StableHLO)."""
    text = """
    func.func @main(%a: tensor<6xi32>) -> tensor<6xi32> {
      %c = stablehlo.constant dense<3> : tensor<6xi32>
      %0 = stablehlo.power %a, %c : tensor<6xi32>
      return %0 : tensor<6xi32>
    }"""
    a = np.array([-7, 0, 5, 1291, 2000000, -2147483648], np.int32)
    (got,) = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [a])
    want = (a.astype(np.int64) ** 3).astype(np.int32)  # modulo 2^32
    np.testing.assert_array_equal(np.asarray(got), want)


def test_bitcast_convert_between_i1_and_wider_types():
    """i1 elements are the bits of the wider value, lowest bit first (the spec's bitcast_convert)."""
    text = """
func.func @main(%bits: tensor<2x32xi1>, %word: tensor<2xi16>) -> (tensor<2xi32>, tensor<2x16xi1>) {
  %0 = stablehlo.bitcast_convert %bits : (tensor<2x32xi1>) -> tensor<2xi32>
  %1 = stablehlo.bitcast_convert %word : (tensor<2xi16>) -> tensor<2x16xi1>
  return %0, %1 : tensor<2xi32>, tensor<2x16xi1>
}"""
    bits = np.zeros((2, 32), bool)
    bits[0, [0, 1, 31]] = True  # 3 - 2^31
    bits[1, [4, 8]] = True
    word = np.array([-32768, 0x1234], np.int16)
    words, unpacked = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [bits, word])
    np.testing.assert_array_equal(np.asarray(words).astype(np.int64), [3 - 2**31, 0x110])
    want = (word.astype(np.int64)[:, None] >> np.arange(16)) & 1 != 0
    np.testing.assert_array_equal(np.asarray(unpacked) != 0, want)


def test_a_host_result_the_device_type_cannot_hold_stops_the_run():
    """The host computes 64-bit integers exactly; a result past si32, the device's type for them, is an error
    rather than its low 32 bits."""
    from ttmlir.runtime import RuntimeFailure

    text = """
func.func @main(%x: tensor<2xi64>) -> tensor<2xi64> {
  %one = stablehlo.constant dense<1> : tensor<2xi64>
  %0 = stablehlo.shift_right_logical %x, %one : tensor<2xi64>
  return %0 : tensor<2xi64>
}"""
    binary = tt_jax.compile_stablehlo(text)
    np.testing.assert_array_equal(np.asarray(tt_jax.run_binary(binary, [np.array([8, 6], np.int64)])[0]), [4, 3])
    with pytest.raises(RuntimeFailure, match="a result value 9223372036854775807 .* does not fit int32"):
        tt_jax.run_binary(binary, [np.array([-1, 6], np.int64)])


def test_a_64_bit_input_the_device_type_cannot_hold_is_refused():
    """A program's i64 input lives in 32 bits on the device: a value past si32 stops the run, naming the input,
    instead of being cut to its low bits."""
    from ttmlir.runtime import RuntimeFailure

    text = """
func.func @main(%x: tensor<2xi64>, %y: tensor<2xi64>) -> tensor<2xi64> {
  %0 = stablehlo.add %x, %y : tensor<2xi64>
  return %0 : tensor<2xi64>
}"""
    binary = tt_jax.compile_stablehlo(text)
    y = np.array([1, 2], np.int64)
    np.testing.assert_array_equal(np.asarray(tt_jax.run_binary(binary, [np.array([-2**31, 5], np.int64), y])[0]),
                                  [1 - 2**31, 7])
    with pytest.raises(RuntimeFailure, match=r"input 0: value 2147483648 does not fit si32"):
        tt_jax.run_binary(binary, [np.array([2**31, 5], np.int64), y])


def test_quantized_values_bitcast_to_their_storage_integers():
    """A quantized tensor reinterpreted as its storage type gives round(x / scale) + zero_point per axis index,
    and the integers reinterpreted back dequantize to (q - zero_point) * scale."""
    q = "!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>"
    text = f"""
func.func @main(%x: tensor<2xf32>, %stored: tensor<2xi8>) -> (tensor<2xi8>, tensor<2xf32>) {{
  %0 = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x{q}>
  %1 = stablehlo.bitcast_convert %0 : (tensor<2x{q}>) -> tensor<2xi8>
  %2 = stablehlo.bitcast_convert %stored : (tensor<2xi8>) -> tensor<2x{q}>
  %3 = stablehlo.uniform_dequantize %2 : (tensor<2x{q}>) -> tensor<2xf32>
  return %1, %3 : tensor<2xi8>, tensor<2xf32>
}}"""
    stored, values = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [np.array([-1.0, 15.0], np.float32),
                                                                         np.array([-40, 10], np.int8)])
    # the device holds 8-bit integers as unsigned patterns; read as the program's i8
    np.testing.assert_array_equal(np.asarray(stored).astype(np.int8), [-40, 10])
    np.testing.assert_allclose(np.asarray(values, np.float32), [-1.0, 15.0], rtol=1e-2)


def test_complex_cube_root_is_the_principal_root():
    """cbrt on complex values (StableHLO has it; JAX does not): |z|^(1/3) e^(i arg(z) / 3)."""
    text = """
func.func @main(%re: tensor<6xf32>, %im: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %z = stablehlo.complex %re, %im : tensor<6xcomplex<f32>>
  %0 = stablehlo.cbrt %z : tensor<6xcomplex<f32>>
  %1 = stablehlo.real %0 : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %2 = stablehlo.imag %0 : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  return %1, %2 : tensor<6xf32>, tensor<6xf32>
}"""
    re, im = np.array([3, -8, 0, 1, -2, 27], np.float32), np.array([4, 0, 0, -1, -2, 0.5], np.float32)
    z = re + 1j * im
    want = np.abs(z) ** (1 / 3) * np.exp(1j * np.angle(z) / 3)
    got_re, got_im = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [re, im])
    np.testing.assert_allclose(np.asarray(got_re), want.real, rtol=2e-2, atol=2e-2)
    np.testing.assert_allclose(np.asarray(got_im), want.imag, rtol=2e-2, atol=2e-2)


def test_a_64_bit_clamp_bound_past_si32_saturates_exactly():
    """torch's clamp(min=...) bounds from above by INT64_MAX: as a bound it saturates to INT32_MAX, exactly, since
    no stored value lies beyond it (a value used otherwise stays an error)."""
    text = """
func.func @main(%x: tensor<4xi64>) -> tensor<4xi64> {
  %lo = stablehlo.constant dense<1> : tensor<4xi64>
  %hi = stablehlo.constant dense<9223372036854775807> : tensor<4xi64>
  %0 = stablehlo.clamp %lo, %x, %hi : tensor<4xi64>
  return %0 : tensor<4xi64>
}"""
    x = np.array([-5, 0, 7, 2**31 - 1], np.int64)
    (got,) = tt_jax.run_binary(tt_jax.compile_stablehlo(text), [x])
    np.testing.assert_array_equal(np.asarray(got).astype(np.int64), np.clip(x, 1, None))


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_gathers_of_rows_with_unit_index_dims(dtype):
    """Row lookups whose indices carry unit dims (an explicit index vector of one, a batch of one) or index two
    dims at once: the lowering's embedding takes its indices squeezed and the rows are put back in the gather's
    shape. Table values are small integers, exact in bf16."""
    table = jnp.asarray(np.arange(48 * 16).reshape(48, 16) % 251, dtype)
    cube = jnp.asarray(np.arange(7 * 8 * 2).reshape(7, 8, 2), dtype)
    rows = np.array([[[5], [47]]], np.int32)  # 1x2x1, index_vector_dim 2
    pairs = np.array([[[6, 7], [0, 0]], [[3, 1], [6, 0]]], np.int32)  # 2x2x2 over dims 0 and 1 of the cube

    def lookups(t, c, r, p):
        one = lax.gather(t, r, lax.GatherDimensionNumbers(offset_dims=(2,), collapsed_slice_dims=(0,),
                                                          start_index_map=(0,)), slice_sizes=(1, 16))
        two = lax.gather(c, p, lax.GatherDimensionNumbers(offset_dims=(2,), collapsed_slice_dims=(0, 1),
                                                          start_index_map=(0, 1)), slice_sizes=(1, 1, 2))
        return one, two

    same(lookups, table, cube, rows, pairs, rtol=0, atol=0)
