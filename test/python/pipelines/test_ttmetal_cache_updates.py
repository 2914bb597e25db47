"""KV-cache updates (`ttir.fill_cache`, `ttir.paged_update_cache`) through `--ttir-to-ttmetal-pipeline`, run on the
simulated grid: the function returns the cache it wrote into, compared with the TTIR goldens."""

import pytest
import torch

from golden.mapping import GOLDEN_MAPPINGS
from ttmlir.passes import PassFailure
from ttmlir.runtime.metal.program import run_program

from test_ttmetal_pipeline import compile_ttir

CACHE = (4, 2, 64, 32)


def t(shape, dtype: str = "bf16") -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def bf16(*shape, seed: int = 0) -> torch.Tensor:
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed)).to(torch.bfloat16).float()


def fill_program(users: int, prompt: int, offset: int) -> str:
    update = (users, CACHE[1], prompt, CACHE[3])
    # the cache is read before the fill (an add of it) and after it (returned): only the later use sees the rows
    return (f"func.func @f(%cache: {t(CACHE)}, %x: {t(update)}) -> ({t(CACHE)}, {t(CACHE)}) {{\n"
            f"  %before = \"ttir.add\"(%cache, %cache) : ({t(CACHE)}, {t(CACHE)}) -> {t(CACHE)}\n"
            f"  \"ttir.fill_cache\"(%cache, %x) <{{batch_offset = {offset} : i32}}> : ({t(CACHE)}, {t(update)}) -> ()\n"
            f"  return %before, %cache : {t(CACHE)}, {t(CACHE)}\n}}\n")


@pytest.mark.parametrize("users, prompt, offset", [(1, 18, 2), (2, 40, 0), (1, 64, 3), (4, 32, 0)])
def test_fill_cache_writes_the_prompt_in_whole_tiles_at_the_batch_offset(users, prompt, offset):
    cache, update = bf16(*CACHE), bf16(users, CACHE[1], prompt, CACHE[3], seed=1)
    (before, after), _ = run_program(compile_ttir(fill_program(users, prompt, offset)), [cache, update])
    expected = GOLDEN_MAPPINGS["fill_cache"]({"cache": cache, "input": update}, {"batch_offset": offset})
    assert torch.equal(before, (cache + cache).to(torch.bfloat16).float())
    assert torch.equal(after, expected)
    assert not torch.equal(after, cache)


def update_program(index: str, table: str = "") -> str:
    update = (1, CACHE[0], CACHE[1], CACHE[3])
    operands, types, sizes = "%cache, %x, %i", f"{t(CACHE)}, {t(update)}, {t((CACHE[0],), index)}", "1, 1, 1, 0"
    if table:
        operands, types, sizes = operands + ", %p", types + f", {table}", "1, 1, 1, 1"
    args = f"%cache: {t(CACHE)}, %x: {t(update)}, %i: {t((CACHE[0],), index)}" + (f", %p: {table}" if table else "")
    return (f"func.func @f({args}) -> {t(CACHE)} {{\n"
            f"  \"ttir.paged_update_cache\"({operands}) <{{operandSegmentSizes = array<i32: {sizes}>}}> : ({types}) -> ()\n"
            f"  return %cache : {t(CACHE)}\n}}\n")


@pytest.mark.parametrize("index", ["si32", "f32"])
def test_paged_update_cache_writes_each_users_token_at_its_index(index):
    cache, update = bf16(*CACHE), bf16(1, CACHE[0], CACHE[1], CACHE[3], seed=2)
    positions = torch.tensor([5, 0, 63, 33]).float()
    (out,), _ = run_program(compile_ttir(update_program(index)), [cache, update, positions])
    expected = GOLDEN_MAPPINGS["paged_update_cache"]({"cache": cache, "input": update, "update_index": positions.long()},
                                                     {})
    assert torch.equal(out, expected)
    assert not torch.equal(out, cache)


def test_paged_update_cache_through_a_page_table_is_refused_naming_it():
    with pytest.raises(PassFailure, match="with a page table is not converted to D2M yet"):
        compile_ttir(update_program("si32", t((CACHE[0], 2), "si32")))


def test_fill_cache_past_the_cache_rows_is_refused():
    with pytest.raises(PassFailure, match="outside the cache's 4 rows"):
        compile_ttir(fill_program(2, 18, 3))
