// Driver of ../FP8/delayed-scaling.mlir: three steps, histories threaded.

// Prints the elements on one line, comma-separated.
func.func @print4(%t: tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %e0 = tensor.extract %t[%c0] : tensor<4xf32>
  %e1 = tensor.extract %t[%c1] : tensor<4xf32>
  %e2 = tensor.extract %t[%c2] : tensor<4xf32>
  %e3 = tensor.extract %t[%c3] : tensor<4xf32>
  vector.print %e0 : f32 punctuation <comma>
  vector.print %e1 : f32 punctuation <comma>
  vector.print %e2 : f32 punctuation <comma>
  vector.print %e3 : f32
  return
}

func.func @print2x2(%t: tensor<2x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e0 = tensor.extract %t[%c0, %c0] : tensor<2x2xf32>
  %e1 = tensor.extract %t[%c0, %c1] : tensor<2x2xf32>
  %e2 = tensor.extract %t[%c1, %c0] : tensor<2x2xf32>
  %e3 = tensor.extract %t[%c1, %c1] : tensor<2x2xf32>
  vector.print %e0 : f32 punctuation <comma>
  vector.print %e1 : f32 punctuation <comma>
  vector.print %e2 : f32 punctuation <comma>
  vector.print %e3 : f32
  return
}

func.func @main() {
  %h0 = arith.constant dense<0.0> : tensor<4xf32>
  %w = arith.constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %x1 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %x2 = arith.constant dense<[[2.0, 4.0], [6.0, 8.0]]> : tensor<2x2xf32>
  %x3 = arith.constant dense<[[3.0, 6.0], [9.0, 12.0]]> : tensor<2x2xf32>
  %y1, %hx1, %hw1 = call @step(%x1, %w, %h0, %h0) : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>)
  vector.print str "step 1\n"
  call @print2x2(%y1) : (tensor<2x2xf32>) -> ()
  vector.print str "history x\n"
  call @print4(%hx1) : (tensor<4xf32>) -> ()
  %y2, %hx2, %hw2 = call @step(%x2, %w, %hx1, %hw1) : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>)
  vector.print str "step 2\n"
  call @print2x2(%y2) : (tensor<2x2xf32>) -> ()
  vector.print str "history x\n"
  call @print4(%hx2) : (tensor<4xf32>) -> ()
  %y3, %hx3, %hw3 = call @step(%x3, %w, %hx2, %hw2) : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>)
  vector.print str "step 3\n"
  call @print2x2(%y3) : (tensor<2x2xf32>) -> ()
  vector.print str "history x\n"
  call @print4(%hx3) : (tensor<4xf32>) -> ()
  vector.print str "history w\n"
  call @print4(%hw3) : (tensor<4xf32>) -> ()
  return
}
}
