// A device written by hand keeps its body; the pass still attaches the system descriptor it belongs to (the
// Metal conversions read it), for the chip the option names.
// RUN: ttmlir-opt --ttcore-register-device="mock-system-desc-arch=blackhole" %s | FileCheck %s

// CHECK: #system_desc = #ttcore.system_desc<{{.*}}arch = <blackhole>
// CHECK: module attributes {ttcore.system_desc = #system_desc} {
// CHECK-NEXT: ttcore.device @default_device = <workerGrid = #ttcore.grid<2x2
// CHECK-NOT: ttcore.device
module {
  ttcore.device @default_device = <workerGrid = #ttcore.grid<2x2, (d0, d1) -> (0, d0, d1)>, l1Map = (d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1, s2, s3, s4, s5, s6] -> (0, 0, 0, d0), meshShape = , chipIds = [0]>
}
