"""`pybuda.tools.tti_merge.merge_models`: tt-buda merges several device images into one whose netlists share the
chip's DRAM queues. An image here is one module's compiled binaries loaded by TTDevice.load_image; there is no
merged multi-model image, so merging is refused."""

from __future__ import annotations

from pybuda.config import PyBudaError


def merge_models(model_bin_location, models, arch: str = "wormhole_b0", merged_model_location: str = "",
                 switch_chans_if_capacity_hit: bool = True, overlap_dynamic_queues: bool = True):
    raise PyBudaError("merge_models is not supported: a device image holds one model's binaries; load each image "
                      "with TTDevice.load_image")
