func.func @max(%arg0: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  %0 = "ttir.all_reduce_async"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>}> : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  return %0 : tensor<64x128xbf16>
}
