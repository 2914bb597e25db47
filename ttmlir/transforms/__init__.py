"""Passes that stay within a dialect, one folder per dialect, one file per pass named after its flag."""
