"""D2M generic ops to `ttnn.generic`: `--convert-d2m-to-ttnn`."""
