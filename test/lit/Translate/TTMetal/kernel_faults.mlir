// RUN: ttmlir-opt --ttir-to-ttmetal-pipeline="override-device-shape=1,1" %s | ttmlir-translate --ttmetal-to-flatbuffer -o %t.ttm
// RUN: rm -rf %t.k && ttrt run --result-file %t.json --artifact-dir %t.a --kernel-source-dir %t.k --dump-kernels %t.ttm
// A kernel edited into a fault is one located error line from ttrt (exit 1), never a hang or a traceback. The
// neg's kernels are 2 and 3 (0 and 1 tilize its input on the device): its operands are its core's own L1 shards,
// so one data-movement kernel both hands the input to the compute kernel and waits for the output.
//
// The input is pushed one page of the two the compute kernel waits for: a hang naming core, kernel, line and CB.
// RUN: sed -i -E 's/(cb_[a-z]*arg_[0-9]+)\.push_back\(v[0-9]+\);/\1.push_back(1);/' %t.k/neg/datamovement_kernel2.cpp
// RUN: not ttrt run --result-file %t.json --artifact-dir %t.a --kernel-source-dir %t.k --load-kernels %t.ttm 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: ERROR: EnqueueProgram at loc(unknown): hang: no thread can progress: core (0,0) kernel 'datamovement_kernel2' line {{[0-9]+}} waits in cb_wait_front(1, 2): 0 of 2 page(s) pushed to cb 1 {{.*}}; core (0,0) kernel 'compute_kernel3' line {{[0-9]+}} waits in cb_wait_front(0, 2): 1 of 2 page(s) pushed to cb 0
// HANG-NOT: Traceback
//
// The input's pages reserved are more than its CB holds.
// RUN: rm -rf %t.k && ttrt run --result-file %t.json --artifact-dir %t.a --kernel-source-dir %t.k --dump-kernels %t.ttm
// RUN: sed -i -E 's/(cb_[a-z]*arg_[0-9]+)\.reserve_back\(v[0-9]+\);/\1.reserve_back(4);/' %t.k/neg/datamovement_kernel2.cpp
// RUN: not ttrt run --result-file %t.json --artifact-dir %t.a --kernel-source-dir %t.k --load-kernels %t.ttm 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: ERROR: EnqueueProgram at loc(unknown): core (0,0) kernel 'datamovement_kernel2' line {{[0-9]+}}: cb_reserve_back(0, 4) can never succeed: cb 0 (2 page(s)
//
// The data-movement kernel writes outside L1 of another core.
// RUN: rm -rf %t.k && ttrt run --result-file %t.json --artifact-dir %t.a --kernel-source-dir %t.k --dump-kernels %t.ttm
// RUN: sed -i 's/  return;/  noc_async_write(0, get_noc_addr(18, 18, 2000000), 64);\n  return;/' %t.k/neg/datamovement_kernel2.cpp
// RUN: not ttrt run --result-file %t.json --artifact-dir %t.a --kernel-source-dir %t.k --load-kernels %t.ttm 2>&1 | FileCheck %s --check-prefix=NOC
// NOC: ERROR: EnqueueProgram at loc(unknown): core (0,0) kernel 'datamovement_kernel2' line {{[0-9]+}}: core (0,0) L1 address 0x1e8480 + 64 B is outside L1 (1499136 B)
func.func @neg(%arg0: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = "ttir.neg"(%arg0) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}
