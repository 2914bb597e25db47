"""Front ends: a model written in a framework becomes StableHLO or TTIR text for the compiler."""
