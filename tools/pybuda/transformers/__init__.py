"""`pybuda.transformers`: Hugging Face pipelines whose model runs on the TT device (`pybuda.transformers.pipeline`)."""
