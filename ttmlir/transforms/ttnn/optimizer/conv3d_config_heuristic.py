"""The optimizer's conv3d blocking: tt-metal's tuned blockings for the conv3d shapes it knows (its
`_DEFAULT_BLOCKINGS` table, keyed by input channels, output channels and kernel), else the conversion's default.

A blocking splits the output into t x h x w spatial blocks and c_out_block channels per core step, reading
c_in_block input channels at a time; it changes how fast the kernel runs, never what it computes.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ttmlir.dialects import ttnn
from ttmlir.dialects.conv import TILE_WIDTH, round_up
from ttmlir.ir.props import scalar
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttnn.ttnn_utils import with_fields

# (in_channels, out_channels, (kD, kH, kW)) -> (c_in_block, c_out_block, t_out_block, h_out_block, w_out_block),
# tt-metal's rows in its own field order
BLOCKINGS = {
    (96, 3, (3, 3, 3)): (96, 32, 1, 16, 8),
    (96, 32, (3, 3, 3)): (96, 32, 1, 16, 8),
    (192, 96, (1, 3, 3)): (192, 96, 1, 4, 8),
    (96, 96, (3, 3, 3)): (96, 96, 1, 8, 8),
    (384, 192, (1, 3, 3)): (192, 96, 1, 32, 4),
    (192, 192, (3, 3, 3)): (96, 96, 1, 8, 4),
    (32, 384, (3, 3, 3)): (32, 96, 1, 2, 32),
    (192, 384, (3, 3, 3)): (64, 128, 1, 8, 4),
    (384, 384, (3, 3, 3)): (96, 96, 1, 8, 4),
    (384, 768, (3, 3, 3)): (96, 96, 1, 8, 4),
    (1024, 4096, (3, 3, 3)): (256, 32, 1, 1, 1),
    (512, 4096, (3, 3, 3)): (256, 32, 1, 1, 1),
    (256, 512, (3, 3, 3)): (256, 32, 1, 4, 4),
    (128, 128, (3, 3, 3)): (128, 32, 1, 8, 8),
    (128, 48, (3, 3, 3)): (128, 32, 1, 8, 8),
    (1024, 4096, (1, 3, 3)): (256, 32, 1, 1, 1),
    (1024, 128, (3, 3, 3)): (256, 32, 1, 1, 1),
}
BLOCK_FIELDS = ("c_in_block", "c_out_block", "t_out_block", "h_out_block", "w_out_block")


def conv3d_channels(op: TTNNOp) -> tuple[int, int, tuple[int, ...]]:
    return (scalar(op.prop("in_channels")), scalar(op.prop("out_channels")),
            tuple(int(k) for k in op.prop("kernel_size").get_values()))


def apply_conv3d_blockings(module: ModuleOp) -> None:
    """Every conv3d whose shape tt-metal has tuned takes that blocking (its data type and grid kept)."""
    for op in module.walk():
        if isinstance(op, TTNNOp) and op.ROW.name == "conv3d" and (row := BLOCKINGS.get(conv3d_channels(op))):
            op.properties["conv3d_config"] = with_fields(ttnn.Conv3dConfigAttr, op.prop("conv3d_config"),
                                                         **dict(zip(BLOCK_FIELDS, row)))


def check_conv3d_blocking(op: Operation) -> None:
    """The channel blocks of a conv3d's config must divide its channels (the kernel pads output channels to whole
    tiles; the conversion already padded the input's): a located error if not."""
    config = dict(op.prop("conv3d_config").data) if op.prop("conv3d_config") is not None else {}
    channels, out_channels, _ = conv3d_channels(op)
    for key, extent in (("c_in_block", channels), ("c_out_block", round_up(out_channels, TILE_WIDTH))):
        block = config.get(key)
        if block is not None and (block <= 0 or extent % block):
            raise PassFailure(op, f"conv3d_config {key} = {block} must divide the {extent} "
                                  f"{'input' if key == 'c_in_block' else 'output'} channels")
