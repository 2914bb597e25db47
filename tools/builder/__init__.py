"""The `builder` Python API (seed 002): build TTIR/TTNN modules op by op with goldens, compile, execute."""
