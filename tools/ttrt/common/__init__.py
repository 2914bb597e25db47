"""ttrt's API (`ttrt.common.api.API`) and utilities (`ttrt.common.util.Logger`, `Artifacts`)."""
