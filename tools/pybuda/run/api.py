"""`pybuda.run.api`: the run API's module path in tt-buda (the functions live in `pybuda.run`)."""

from pybuda.run import (detect_available_devices, get_parameter_checkpoint, get_parameter_gradients,
                        initialize_pipeline, run_backward, run_forward, run_inference, run_optimizer, run_schedulers,
                        run_training, shutdown, sync, update_device_parameters)

__all__ = ["detect_available_devices", "get_parameter_checkpoint", "get_parameter_gradients", "initialize_pipeline",
           "run_backward", "run_forward", "run_inference", "run_optimizer", "run_schedulers", "run_training",
           "shutdown", "sync", "update_device_parameters"]
