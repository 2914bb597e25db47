// RUN: not ttmlir-opt --ttcore-register-device --convert-d2m-to-ttkernel --split-input-file %s 2>&1 >/dev/null | FileCheck %s
// Semaphore updates the NoC cannot make are refused with a located error.

func.func private @inc_self() attributes {d2m.thread = #d2m.thread<datamovement>} {
  %sem = d2m.get_arg(0) : !d2m.local_semaphore
  %c1 = arith.constant 1 : index
  // CHECK: :[[# @LINE + 1]]:3: error: 'd2m.semaphore_inc' increments another core's semaphore: it needs core[...]
  d2m.semaphore_inc %sem, %c1 : !d2m.local_semaphore
  return
}

// -----

func.func private @from_compute() attributes {d2m.thread = #d2m.thread<compute>} {
  %sem = d2m.get_arg(0) : !d2m.local_semaphore
  %c1 = arith.constant 1 : index
  // CHECK: error: 'd2m.semaphore_inc' runs on a data-movement thread (it drives a NoC)
  d2m.semaphore_inc %sem, %c1, core[%c1, %c1] : !d2m.local_semaphore
  return
}

// -----

func.func private @specced() attributes {ttkernel.arg_spec = #ttkernel.arg_spec<>, ttkernel.thread = #ttkernel.thread<noc>} {
  %sem = d2m.get_arg(0) : !d2m.local_semaphore
  %c1 = arith.constant 1 : index
  // CHECK: error: unable to resolve datamovement kernel NoC index for 'd2m.semaphore_inc'
  d2m.semaphore_inc %sem, %c1, core[%c1, %c1] : !d2m.local_semaphore
  return
}
