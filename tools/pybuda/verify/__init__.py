"""`pybuda.verify`: run modules on devices and check the results against torch (`verify_module`,
`verify_module_pipeline`), configured by `VerifyConfig` and `TestKind`."""

from pybuda.verify.backend import verify_module, verify_module_pipeline
from pybuda.verify.config import TestKind, VerifyConfig

__all__ = ["TestKind", "VerifyConfig", "verify_module", "verify_module_pipeline"]
