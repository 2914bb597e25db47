func.func @unknown_role(%x: tensor<32x32xbf16>, %y: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
  // expected-error @+1 {{'ttir.tt_lang_op' op `arg_roles` token must be "in" or "out", got: "inout".}}
  %0 = "ttir.tt_lang_op"(%x, %y) <{kernel_id = "k::v1", version_tag = "1", arg_roles = "in,inout"}> : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}

// -----

func.func @result_unlike_destination(%x: tensor<32x32xbf16>, %y: tensor<32x32xbf16>) -> tensor<64x32xbf16> {
  // expected-error @+1 {{'ttir.tt_lang_op' op result #0 shape (64x32) does not match the expected shape (32x32)}}
  %0 = "ttir.tt_lang_op"(%x, %y) <{kernel_id = "k::v1", version_tag = "1", arg_roles = "in,out"}> : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<64x32xbf16>
  return %0 : tensor<64x32xbf16>
}

// -----

func.func @no_version(%x: tensor<32x32xbf16>, %y: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
  // expected-error @+1 {{'ttnn.tt_lang_op' op `version_tag` attribute must not be empty.}}
  %0 = "ttnn.tt_lang_op"(%x, %y) <{kernel_id = "k::v1", version_tag = "", arg_roles = "in,out"}> : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}
