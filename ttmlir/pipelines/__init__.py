"""The named pipelines and their options; each is a pass of its own in the one registry (ttmlir.passes)."""
