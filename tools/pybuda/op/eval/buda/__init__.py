"""`pybuda.op.eval.buda`: tt-buda's Buda-graph ops (the lowered graph before its netlist): the tensor manipulations
(`tm`) computed on 4-d [w, z, r, c] tensors, and the t-streaming `splice`, which this build has no use for."""
