// Host functions that launch kernels get device memory, under the host and
// the device calling conventions; buffers host code itself reads stay host
// memory, registered with the driver; functions without launches are left
// alone.
// RUN: fp-opt %s -split-input-file -lowp-gpu-device-buffers | FileCheck %s --check-prefix=HOST
// RUN: fp-opt %s -split-input-file -lowp-gpu-device-buffers=calling-convention=device | FileCheck %s --check-prefix=DEVICE

module attributes {gpu.container_module} {
  gpu.module @k {
    // Reads %a, writes %b.
    gpu.func @step(%a: memref<16xf32>, %b: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<16xf32>
      memref.store %v, %b[%i] : memref<16xf32>
      gpu.return
    }
  }
  // Host convention: the argument is copied in (not back: the only kernel
  // that gets it reads it), the temporaries are device buffers, the result
  // comes back as a host copy, everything the function allocated on the
  // device is freed.
  // HOST-LABEL: func.func @two_steps(
  // HOST-SAME: %[[X:.*]]: memref<16xf32>
  // HOST: %[[DX:.*]] = gpu.alloc () : memref<16xf32>
  // HOST-NEXT: gpu.memcpy %[[DX]], %[[X]]
  // HOST: %[[T:.*]] = gpu.alloc () : memref<16xf32>
  // HOST-NEXT: gpu.launch_func @k::@step {{.*}} args(%[[DX]] : memref<16xf32>, %[[T]] : memref<16xf32>)
  // HOST: %[[R:.*]] = gpu.alloc () : memref<16xf32>
  // HOST-NEXT: gpu.launch_func @k::@step {{.*}} args(%[[T]] : memref<16xf32>, %[[R]] : memref<16xf32>)
  // HOST: %[[H:.*]] = memref.alloc() : memref<16xf32>
  // HOST-NEXT: gpu.memcpy %[[H]], %[[R]]
  // HOST-NOT: gpu.memcpy
  // HOST-NEXT: gpu.dealloc %[[DX]]
  // HOST-NEXT: gpu.dealloc %[[T]]
  // HOST-NEXT: gpu.dealloc %[[R]]
  // HOST-NEXT: return %[[H]]
  // Device convention: the argument is used as it is, the result is the
  // device buffer (the caller owns it), only the temporary is freed.
  // DEVICE-LABEL: func.func @two_steps(
  // DEVICE-SAME: %[[X:.*]]: memref<16xf32>
  // DEVICE-NOT: gpu.memcpy
  // DEVICE: %[[T:.*]] = gpu.alloc () : memref<16xf32>
  // DEVICE-NEXT: gpu.launch_func @k::@step {{.*}} args(%[[X]] : memref<16xf32>, %[[T]] : memref<16xf32>)
  // DEVICE: %[[R:.*]] = gpu.alloc () : memref<16xf32>
  // DEVICE-NEXT: gpu.launch_func @k::@step {{.*}} args(%[[T]] : memref<16xf32>, %[[R]] : memref<16xf32>)
  // DEVICE-NOT: gpu.memcpy
  // DEVICE-NEXT: gpu.dealloc %[[T]]
  // DEVICE-NEXT: return %[[R]]
  func.func @two_steps(%x: memref<16xf32>) -> memref<16xf32> {
    %c1 = arith.constant 1 : index
    %t = memref.alloc() : memref<16xf32>
    gpu.launch_func @k::@step blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>, %t : memref<16xf32>)
    %r = memref.alloc() : memref<16xf32>
    gpu.launch_func @k::@step blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<16xf32>, %r : memref<16xf32>)
    return %r : memref<16xf32>
  }

  // A buffer a kernel writes and the host then loads from (the naive
  // mapping leaves reductions to a scalar as host loops) stays host memory,
  // registered so the kernel can write it, and unregistered at the return;
  // a dealloc'ed temporary is a gpu.dealloc; memref.copy between buffers is
  // a gpu.memcpy (into host memory here: the driver copies either way).
  // HOST-LABEL: func.func @host_reads(
  // HOST: %[[S:.*]] = memref.alloc() : memref<16xf32>
  // HOST-NEXT: %[[U:.*]] = memref.cast %[[S]] : memref<16xf32> to memref<*xf32>
  // HOST-NEXT: gpu.host_register %[[U]] : memref<*xf32>
  // HOST: gpu.launch_func @k::@step {{.*}} args(%{{.*}} : memref<16xf32>, %[[S]] : memref<16xf32>)
  // HOST: %[[H:.*]] = memref.alloc() : memref<16xf32>
  // HOST-NOT: gpu.host_register
  // HOST: %[[T:.*]] = gpu.alloc () : memref<16xf32>
  // HOST: gpu.launch_func @k::@step {{.*}} args(%{{.*}} : memref<16xf32>, %[[T]] : memref<16xf32>)
  // HOST: gpu.memcpy %[[H]], %[[T]]
  // HOST: gpu.dealloc %[[T]]
  // HOST: memref.load %[[S]]
  // HOST: memref.load %[[H]]
  // HOST: gpu.host_unregister
  // HOST: return
  func.func @host_reads(%x: memref<16xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = memref.alloc() : memref<16xf32>
    gpu.launch_func @k::@step blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>, %s : memref<16xf32>)
    %h = memref.alloc() : memref<16xf32>
    %t = memref.alloc() : memref<16xf32>
    gpu.launch_func @k::@step blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>, %t : memref<16xf32>)
    memref.copy %t, %h : memref<16xf32> to memref<16xf32>
    memref.dealloc %t : memref<16xf32>
    %v = memref.load %s[%c0] : memref<16xf32>
    %w = memref.load %h[%c0] : memref<16xf32>
    %sum = arith.addf %v, %w : f32
    return %sum : f32
  }

  // A buffer only the host touches (a callee's result printed by an
  // external function; a scratch array) is neither copied nor registered.
  // HOST-LABEL: func.func @host_only(
  // HOST: %[[R:.*]] = call @no_launch
  // HOST-NOT: gpu.memcpy
  // HOST-NOT: gpu.host_register
  // HOST: %[[U:.*]] = memref.cast %[[R]] : memref<16xf32> to memref<*xf32>
  // HOST-NEXT: call @printMemrefF32(%[[U]])
  // HOST: memref.store %{{.*}}, %[[S:.*]][%{{.*}}] : memref<4xindex>
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @host_only(%x: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@step blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>, %x : memref<16xf32>)
    %r = call @no_launch(%x) : (memref<16xf32>) -> memref<16xf32>
    %u = memref.cast %r : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %s = memref.alloc() : memref<4xindex>
    memref.store %c1, %s[%c0] : memref<4xindex>
    memref.dealloc %s : memref<4xindex>
    return
  }

  // No launch: not touched.
  // HOST-LABEL: func.func @no_launch(
  // HOST-NEXT: return %arg0
  // DEVICE-LABEL: func.func @no_launch(
  // DEVICE-NEXT: return %arg0
  func.func @no_launch(%x: memref<16xf32>) -> memref<16xf32> {
    return %x : memref<16xf32>
  }
}

// -----

// Arguments go back to the caller's buffers where a kernel may write them,
// judged by the memory effects of the kernel's uses of its argument: a
// store (through a view too), an op with undeclared effects or a pointer
// taken from it count as writes; loads do not.
// HOST-LABEL: func.func @copy_back(
// HOST-SAME: %[[A:[a-z0-9]+]]: memref<16xf32>, %[[B:[a-z0-9]+]]: memref<16xf32>, %[[C:[a-z0-9]+]]: memref<4x4xf32>, %[[D:[a-z0-9]+]]: memref<16xf32>, %[[E:[a-z0-9]+]]: memref<16xf32>
// HOST-DAG: %[[DA:.*]] = gpu.alloc () : memref<16xf32>
// HOST-DAG: %[[DB:.*]] = gpu.alloc () : memref<16xf32>
// HOST-DAG: %[[DC:.*]] = gpu.alloc () : memref<4x4xf32>
// HOST-DAG: %[[DD:.*]] = gpu.alloc () : memref<16xf32>
// HOST-DAG: %[[DE:.*]] = gpu.alloc () : memref<16xf32>
// HOST: gpu.launch_func @k::@reads_writes
// HOST: gpu.launch_func @k::@through_view
// HOST: gpu.launch_func @k::@takes_pointer
// HOST-NOT: gpu.memcpy %[[A]]
// HOST-NOT: gpu.memcpy %[[E]]
// HOST-DAG: gpu.memcpy %[[B]], %[[DB]]
// HOST-DAG: gpu.memcpy %[[C]], %[[DC]]
// HOST-DAG: gpu.memcpy %[[D]], %[[DD]]
// HOST-NOT: gpu.memcpy %[[A]]
// HOST-NOT: gpu.memcpy %[[E]]
// HOST: return
// The device convention copies nothing.
// DEVICE-LABEL: func.func @copy_back(
// DEVICE-NOT: gpu.memcpy
// DEVICE: return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @reads_writes(%a: memref<16xf32>, %b: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<16xf32>
      memref.store %v, %b[%i] : memref<16xf32>
      gpu.return
    }
    gpu.func @through_view(%c: memref<4x4xf32>, %e: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %e[%i] : memref<16xf32>
      %flat = memref.collapse_shape %c [[0, 1]] : memref<4x4xf32> into memref<16xf32>
      memref.store %v, %flat[%i] : memref<16xf32>
      gpu.return
    }
    gpu.func @takes_pointer(%d: memref<16xf32>) kernel {
      %p = memref.extract_aligned_pointer_as_index %d : memref<16xf32> -> index
      gpu.return
    }
  }
  func.func @copy_back(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<4x4xf32>, %d: memref<16xf32>, %e: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@reads_writes blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>, %b : memref<16xf32>)
    gpu.launch_func @k::@through_view blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c : memref<4x4xf32>, %e : memref<16xf32>)
    gpu.launch_func @k::@takes_pointer blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    return
  }
}
