"""TTIR-to-TTIR passes: fusing, decompositions, erase-inverse-ops, element types, CPU hoisting, const-eval."""
