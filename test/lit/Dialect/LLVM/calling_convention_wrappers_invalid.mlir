// RUN: ttmlir-opt --split-input-file --verify-diagnostics --emit-calling-convention-wrappers %s

// expected-error @+1 {{'arg_ranks' describes 7 descriptor arguments; @short takes 3}}
llvm.func @short(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64) attributes {arg_ranks = [2], result_ranks = []} {
  llvm.return
}
