"""`pybuda.tools`: tt-buda's device-image tools: data-parallel runs of one image over several cards
(`tti_data_parallel`) and merging images into one (`tti_merge`)."""
