"""Flatbuffer targets: schemas (`schema/*.fbs`), generated accessors and MLIR -> flatbuffer translators."""
