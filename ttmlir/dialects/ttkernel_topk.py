"""The ttkernel calls of a top-k (tt-metal's compute API, compute_kernel_api.h): `topk_tile_init`, and the SFPU's
bitonic passes over the four DST tiles from `idst` (values of tiles A and B, then their indices):
`topk_local_sort(idst, idir, i_end_phase, i_start_phase)`, `topk_merge(idst, m_iter, k)` and
`topk_rebuild(idst, idir, m_iter, k, logk, skip_second)`; and `experimental::fill_arange_tile(cb)`, a tile of its
own row-major element indices (0..1023) written at the CB's back in its format. Rows of `ttkernel.OPS`."""

TOPK_CALLS: dict[str, tuple[str, ...]] = {
    "topk_tile_init": (), "topk_local_sort": ("idst", "idir", "i_end_phase", "i_start_phase"),
    "topk_merge": ("idst", "m_iter", "k"), "topk_rebuild": ("idst", "idir", "m_iter", "k", "logk", "skip_second"),
    "experimental.fill_arange_tile": ("cb",),
    # a mask tile (ones in the first valid rows or columns, zeros after) written at the CB's front, for masking
    "experimental.write_row_mask_tile": ("validRows", "cb"), "experimental.write_col_mask_tile": ("validCols", "cb"),
}
