"""Conversions between dialects, one folder per pair (upstream's lib/Conversion/<From>To<To>)."""
