"""Shardy (sdy) passes: mesh analysis, sharding propagation, reshards to collectives, local shapes."""
