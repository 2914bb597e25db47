"""Mesh programs the distributed tests run in one process and under tt-run: TTIR text for a rows x cols mesh."""

from __future__ import annotations


def _shard(value: str, src: str, dst: str, dims: str, shape: str, kind: str = "devices",
           direction: str = "full_to_shard") -> str:
    return (f'"ttir.mesh_shard"({value}) <{{shard_dims = array<i64: {dims}>, shard_direction = '
            f'#ttcore.shard_direction<{direction}>, shard_shape = array<i64: {shape}>, shard_type = '
            f'#ttcore.shard_type<{kind}>}}> : ({src}) -> {dst}')


def tensor_parallel_mlp(rows: int, cols: int) -> str:
    """Megatron MLP: batch split over mesh rows, the first weight by columns and the second by rows over mesh
    columns; an all_reduce sums the partial products along each row, an all_gather joins the batch along each
    column."""
    b, k, n = 32 * rows, 64, 128 * cols
    bl, nl = b // rows, n // cols
    gather = (f'%6 = "ttir.all_gather"(%5) <{{all_gather_dim = 0 : si32, cluster_axis = 0 : ui32}}> : '
              f'(tensor<{bl}x{k}xf32>) -> tensor<{b}x{k}xf32>' if rows > 1 else
              f'%6 = "ttir.relu"(%5) : (tensor<{bl}x{k}xf32>) -> tensor<{b}x{k}xf32>')
    return f"""module {{
  func.func @tp_mlp(%x: tensor<{b}x{k}xf32>, %w1: tensor<{k}x{n}xf32>, %w2: tensor<{n}x{k}xf32>) -> tensor<{b}x{k}xf32> {{
    %xs = {_shard("%x", f"tensor<{b}x{k}xf32>", f"tensor<{bl}x{k}xf32>", "0, -1", f"{rows}, 1")}
    %0 = {_shard("%w1", f"tensor<{k}x{n}xf32>", f"tensor<{k}x{nl}xf32>", "-1, 1", f"1, {cols}")}
    %1 = {_shard("%w2", f"tensor<{n}x{k}xf32>", f"tensor<{nl}x{k}xf32>", "-1, 0", f"{cols}, 1")}
    %2 = "ttir.matmul"(%xs, %0) : (tensor<{bl}x{k}xf32>, tensor<{k}x{nl}xf32>) -> tensor<{bl}x{nl}xf32> loc("mlp.up")
    %3 = "ttir.gelu"(%2) : (tensor<{bl}x{nl}xf32>) -> tensor<{bl}x{nl}xf32>
    %4 = "ttir.matmul"(%3, %1) : (tensor<{bl}x{nl}xf32>, tensor<{nl}x{k}xf32>) -> tensor<{bl}x{k}xf32> loc("mlp.down")
    %5 = "ttir.all_reduce"(%4) <{{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}}> : (tensor<{bl}x{k}xf32>) -> tensor<{bl}x{k}xf32> loc("mlp.reduce")
    {gather}
    %7 = {_shard("%6", f"tensor<{b}x{k}xf32>", f"tensor<{b}x{k}xf32>", "-1", "1", "replicate", "shard_to_full")}
    return %7 : tensor<{b}x{k}xf32>
  }}
}}
"""


def kv_cache_decode(rows: int, cols: int, seq: int = 32, hd: int = 32, hl: int = 4, return_caches: bool = True) -> str:
    """One decode step of attention with the heads (projections and KV caches) split over mesh columns: each chip
    writes its heads' new key and value at `pos`, attends over its cache, an all_gather joins the heads; with
    `return_caches`, the updated caches come back whole."""
    heads = hl * cols
    d = heads * hd
    dl = hl * hd
    cache, cache_l = f"tensor<1x{heads}x{seq}x{hd}xf32>", f"tensor<1x{hl}x{seq}x{hd}xf32>"
    lines = [
        f'%wq_s = {_shard("%wq", f"tensor<{d}x{d}xf32>", f"tensor<{d}x{dl}xf32>", "-1, 1", f"1, {cols}")}',
        f'%wk_s = {_shard("%wk", f"tensor<{d}x{d}xf32>", f"tensor<{d}x{dl}xf32>", "-1, 1", f"1, {cols}")}',
        f'%wv_s = {_shard("%wv", f"tensor<{d}x{d}xf32>", f"tensor<{d}x{dl}xf32>", "-1, 1", f"1, {cols}")}',
        f'%kc = {_shard("%k_cache", cache, cache_l, "-1, 1", f"1, {cols}, 1, 1")}',
        f'%vc = {_shard("%v_cache", cache, cache_l, "-1, 1", f"1, {cols}, 1, 1")}',
    ]
    for name in "qkv":
        lines += [f'%{name} = "ttir.matmul"(%x, %w{name}_s) : (tensor<1x{d}xf32>, tensor<{d}x{dl}xf32>) -> '
                  f'tensor<1x{dl}xf32> loc("attn.{name}")',
                  f'%{name}4 = "ttir.reshape"(%{name}) <{{shape = [1 : i32, {hl} : i32, 1 : i32, {hd} : i32]}}> : '
                  f'(tensor<1x{dl}xf32>) -> tensor<1x{hl}x1x{hd}xf32>']
    lines += [
        f'"ttir.update_cache"(%kc, %k4, %pos) <{{batch_offset = 0 : i32}}> : ({cache_l}, tensor<1x{hl}x1x{hd}xf32>, '
        f'tensor<1xi32>) -> () loc("attn.k_cache")',
        f'"ttir.update_cache"(%vc, %v4, %pos) <{{batch_offset = 0 : i32}}> : ({cache_l}, tensor<1x{hl}x1x{hd}xf32>, '
        f'tensor<1xi32>) -> () loc("attn.v_cache")',
        f'%kt = "ttir.permute"(%kc) <{{permutation = array<i64: 0, 1, 3, 2>}}> : ({cache_l}) -> '
        f'tensor<1x{hl}x{hd}x{seq}xf32>',
        f'%s = "ttir.matmul"(%q4, %kt) : (tensor<1x{hl}x1x{hd}xf32>, tensor<1x{hl}x{hd}x{seq}xf32>) -> '
        f'tensor<1x{hl}x1x{seq}xf32> loc("attn.scores")',
        f'%p = "ttir.softmax"(%s) <{{dimension = -1 : si32}}> : (tensor<1x{hl}x1x{seq}xf32>) -> '
        f'tensor<1x{hl}x1x{seq}xf32> loc("attn.probs")',
        f'%o = "ttir.matmul"(%p, %vc) : (tensor<1x{hl}x1x{seq}xf32>, {cache_l}) -> tensor<1x{hl}x1x{hd}xf32> '
        f'loc("attn.context")',
        f'%g = "ttir.all_gather"(%o) <{{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}}> : '
        f'(tensor<1x{hl}x1x{hd}xf32>) -> tensor<1x{heads}x1x{hd}xf32> loc("attn.gather")',
        f'%out = {_shard("%g", f"tensor<1x{heads}x1x{hd}xf32>", f"tensor<1x{heads}x1x{hd}xf32>", "-1", "1", "replicate", "shard_to_full")}',
    ]
    results, types = ["%out"], [f"tensor<1x{heads}x1x{hd}xf32>"]
    if return_caches:
        lines += [f'%kf = {_shard("%kc", cache_l, cache, "-1, 1", f"1, {cols}, 1, 1", "devices", "shard_to_full")}',
                  f'%vf = {_shard("%vc", cache_l, cache, "-1, 1", f"1, {cols}, 1, 1", "devices", "shard_to_full")}']
        results, types = results + ["%kf", "%vf"], types + [cache, cache]
    body = "\n    ".join(lines)
    return f"""module {{
  func.func @decode(%x: tensor<1x{d}xf32>, %wq: tensor<{d}x{d}xf32>, %wk: tensor<{d}x{d}xf32>, %wv: tensor<{d}x{d}xf32>, %k_cache: {cache}, %v_cache: {cache}, %pos: tensor<1xi32>) -> ({", ".join(types)}) {{
    {body}
    return {", ".join(results)} : {", ".join(types)}
  }}
}}
"""


def collectives(rows: int, cols: int) -> str:
    """The other collectives along mesh columns: mesh_partition, reduce_scatter, a ring collective_permute (chips
    send to their right neighbour) and an all_to_all within each row; the pieces come back whole."""
    chips = rows * cols
    ring = ", ".join(f"[{r * cols + c}, {r * cols + (c + 1) % cols}]" for r in range(rows) for c in range(cols))
    groups = ", ".join("[" + ", ".join(str(r * cols + c) for c in range(cols)) + "]" for r in range(rows))
    n = 32 * cols
    full = f"tensor<{32 * rows}x{32 * cols * cols}xf32>"
    return f"""module {{
  func.func @collectives(%x: tensor<{n}x{n}xf32>) -> {full} {{
    %p = "ttir.mesh_partition"(%x) <{{cluster_axis = 1 : ui32, dim = 1 : si32}}> : (tensor<{n}x{n}xf32>) -> tensor<{n}x32xf32>
    %e = "ttir.exp"(%p) : (tensor<{n}x32xf32>) -> tensor<{n}x32xf32>
    %rs = "ttir.reduce_scatter"(%e) <{{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 0 : si32}}> : (tensor<{n}x32xf32>) -> tensor<32x32xf32>
    %cp = "ttir.collective_permute"(%rs) <{{source_target_pairs = dense<[{ring}]> : tensor<{chips}x2xi64>}}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %a2a = "ttir.all_to_all"(%cp) <{{concat_dim = 1 : si32, replica_groups = dense<[{groups}]> : tensor<{rows}x{cols}xi64>, split_count = {cols} : si32, split_dim = 0 : si32}}> : (tensor<32x32xf32>) -> tensor<{32 // cols}x{32 * cols}xf32>
    %g = "ttir.all_gather"(%a2a) <{{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}}> : (tensor<{32 // cols}x{32 * cols}xf32>) -> tensor<32x{32 * cols}xf32>
    %out = {_shard("%g", f"tensor<32x{32 * cols}xf32>", full, "0, 1", f"{rows}, {cols}", "devices", "shard_to_full")}
    return %out : {full}
  }}
}}
"""


PROGRAMS = {"tp_mlp": tensor_parallel_mlp, "kv_decode": kv_cache_decode, "collectives": collectives}
