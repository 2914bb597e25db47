"""D2M passes: grid selection, view returns."""
