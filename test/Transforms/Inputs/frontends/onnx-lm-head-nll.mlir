// A small language-model head trained with a token-level NLL loss, exported
// to ONNX (opset 17) and brought in through torch-mlir's ONNX front end
// (`torch-mlir-import-onnx`, `convert-torch-onnx-to-torch`,
// `torch-backend-to-linalg-on-tensors-backend-pipeline`): a dynamic batch
// (`tensor<?x8xi64>` token ids and targets, `tensor.dim`, `tensor.empty(%dim)`),
// `onnx.Gather` with negative-index wrap-around as a gather generic over i64
// ids, the simplified RMSNorm ONNX exports (Pow 2, ReduceMean, Add eps, Sqrt,
// Div, Mul weight) with `math.powf`, `onnx.MatMul` of a 3-d activation by a
// 2-d weight as a batch broadcast of the weight + `linalg.batch_matmul`,
// `onnx.LogSoftmax` with its max taken by the two-result max/argmax generic
// torch-mlir emits for `aten.max.dim`, and `NegativeLogLikelihoodLoss`
// (mean, ignore_index -100) as a bounds-checked (`cf.assert`) gather of the
// log-probabilities, an i1 mask, an integer count and a divide.
// `torch.onnx_meta.*` function attributes; the embedding and projection
// weights as `dense_resource` blobs. Sizes: sequence 8, model 32,
// vocabulary 16.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map4 = affine_map<(d0, d1, d2) -> (d2)>
#map5 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map7 = affine_map<(d0) -> (d0)>
#map8 = affine_map<(d0) -> ()>
#map9 = affine_map<() -> ()>
module {
  func.func @main_graph(%arg0: tensor<?x8xi64>, %arg1: tensor<?x8xi64>) -> (tensor<?x8x16xf32>, tensor<f32>) attributes {torch.onnx_meta.ir_version = 8 : si64, torch.onnx_meta.opset_version = 17 : si64, torch.onnx_meta.producer_name = "pytorch", torch.onnx_meta.producer_version = "2.3.0"} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c0_i64 = arith.constant 0 : i64
    %c16_i64 = arith.constant 16 : i64
    %c-100_i64 = arith.constant -100 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.000000e+00 : f32
    %cst_1 = arith.constant 3.200000e+01 : f32
    %cst_2 = arith.constant 9.99999997E-7 : f32
    %cst_3 = arith.constant 0xFF800000 : f32
    %cst_4 = arith.constant dense<0> : tensor<i64>
    %embed_tokens = arith.constant dense_resource<_model.embed_tokens.weight> : tensor<16x32xf32>
    %norm_weight = arith.constant dense<1.000000e+00> : tensor<32xf32>
    %lm_head = arith.constant dense_resource<_onnx__MatMul_42> : tensor<32x16xf32>
    %lm_head_bias = arith.constant dense<0.000000e+00> : tensor<16xf32>
    // Gather(embed_tokens, input_ids, axis = 0).
    %dim = tensor.dim %arg0, %c0 : tensor<?x8xi64>
    %0 = tensor.empty(%dim) : tensor<?x8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x8xi64>) outs(%0 : tensor<?x8x32xf32>) {
    ^bb0(%in: i64, %out: f32):
      %40 = arith.cmpi slt, %in, %c0_i64 : i64
      %41 = arith.addi %in, %c16_i64 : i64
      %42 = arith.select %40, %41, %in : i64
      %43 = arith.index_cast %42 : i64 to index
      %44 = linalg.index 2 : index
      %extracted = tensor.extract %embed_tokens[%43, %44] : tensor<16x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x8x32xf32>
    // x / Sqrt(ReduceMean(Pow(x, 2)) + eps) * weight.
    %2 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<?x8x32xf32>) outs(%0 : tensor<?x8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.powf %in, %cst_0 : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x32xf32>
    %3 = tensor.empty(%dim) : tensor<?x8x1xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<?x8x1xf32>) -> tensor<?x8x1xf32>
    %5 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%2 : tensor<?x8x32xf32>) outs(%4 : tensor<?x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.addf %in, %out : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x1xf32>
    %6 = linalg.generic {indexing_maps = [#map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<?x8x1xf32>) outs(%3 : tensor<?x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.divf %in, %cst_1 : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x1xf32>
    %7 = linalg.generic {indexing_maps = [#map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<?x8x1xf32>) outs(%3 : tensor<?x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.addf %in, %cst_2 : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x1xf32>
    %8 = linalg.generic {indexing_maps = [#map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7 : tensor<?x8x1xf32>) outs(%3 : tensor<?x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.sqrt %in : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x1xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %8 : tensor<?x8x32xf32>, tensor<?x8x1xf32>) outs(%0 : tensor<?x8x32xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %40 = arith.divf %in, %in_10 : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x32xf32>
    %10 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %norm_weight : tensor<?x8x32xf32>, tensor<32xf32>) outs(%0 : tensor<?x8x32xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %40 = arith.mulf %in, %in_10 : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x32xf32>
    // MatMul(x, W): W broadcast over the batch, batch_matmul, + bias.
    %11 = tensor.empty(%dim) : tensor<?x32x16xf32>
    %12 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%lm_head : tensor<32x16xf32>) outs(%11 : tensor<?x32x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x32x16xf32>
    %13 = tensor.empty(%dim) : tensor<?x8x16xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<?x8x16xf32>) -> tensor<?x8x16xf32>
    %15 = linalg.batch_matmul ins(%10, %12 : tensor<?x8x32xf32>, tensor<?x32x16xf32>) outs(%14 : tensor<?x8x16xf32>) -> tensor<?x8x16xf32>
    %16 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15, %lm_head_bias : tensor<?x8x16xf32>, tensor<16xf32>) outs(%13 : tensor<?x8x16xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %40 = arith.addf %in, %in_10 : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x16xf32>
    // LogSoftmax(axis = -1): max/argmax, x - max, log(sum(exp)), subtract.
    %17 = tensor.empty(%dim) : tensor<?x8xf32>
    %18 = linalg.fill ins(%cst_3 : f32) outs(%17 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %19 = tensor.empty(%dim) : tensor<?x8xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<?x8xi64>) -> tensor<?x8xi64>
    %21:2 = linalg.generic {indexing_maps = [#map2, #map6, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%16 : tensor<?x8x16xf32>) outs(%18, %20 : tensor<?x8xf32>, tensor<?x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_10: i64):
      %40 = linalg.index 2 : index
      %41 = arith.index_cast %40 : index to i64
      %42 = arith.maximumf %in, %out : f32
      %43 = arith.cmpf ogt, %in, %out : f32
      %44 = arith.select %43, %41, %out_10 : i64
      linalg.yield %42, %44 : f32, i64
    } -> (tensor<?x8xf32>, tensor<?x8xi64>)
    %expanded = tensor.expand_shape %21#0 [[0], [1, 2]] output_shape [%dim, 8, 1] : tensor<?x8xf32> into tensor<?x8x1xf32>
    %22 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16, %expanded : tensor<?x8x16xf32>, tensor<?x8x1xf32>) outs(%13 : tensor<?x8x16xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %40 = arith.subf %in, %in_10 : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x16xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<?x8x16xf32>) outs(%13 : tensor<?x8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.exp %in : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x16xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%23 : tensor<?x8x16xf32>) outs(%4 : tensor<?x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.addf %in, %out : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x1xf32>
    %25 = linalg.generic {indexing_maps = [#map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24 : tensor<?x8x1xf32>) outs(%3 : tensor<?x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.log %in : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x1xf32>
    %26 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22, %25 : tensor<?x8x16xf32>, tensor<?x8x1xf32>) outs(%13 : tensor<?x8x16xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %40 = arith.subf %in, %in_10 : f32
      linalg.yield %40 : f32
    } -> tensor<?x8x16xf32>
    // NegativeLogLikelihoodLoss(log_probs, targets, ignore_index = -100), mean.
    %collapsed = tensor.collapse_shape %26 [[0, 1], [2]] : tensor<?x8x16xf32> into tensor<?x16xf32>
    %collapsed_5 = tensor.collapse_shape %arg1 [[0, 1]] : tensor<?x8xi64> into tensor<?xi64>
    %dim_6 = tensor.dim %collapsed_5, %c0 : tensor<?xi64>
    %27 = tensor.empty(%dim_6) : tensor<?xi1>
    %28 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel"]} ins(%collapsed_5 : tensor<?xi64>) outs(%27 : tensor<?xi1>) {
    ^bb0(%in: i64, %out: i1):
      %40 = arith.cmpi ne, %in, %c-100_i64 : i64
      linalg.yield %40 : i1
    } -> tensor<?xi1>
    %29 = tensor.empty(%dim_6) : tensor<?xi64>
    %30 = linalg.generic {indexing_maps = [#map7, #map7, #map8, #map7], iterator_types = ["parallel"]} ins(%28, %collapsed_5, %cst_4 : tensor<?xi1>, tensor<?xi64>, tensor<i64>) outs(%29 : tensor<?xi64>) {
    ^bb0(%in: i1, %in_10: i64, %in_11: i64, %out: i64):
      %40 = arith.select %in, %in_10, %in_11 : i64
      linalg.yield %40 : i64
    } -> tensor<?xi64>
    %31 = tensor.empty(%dim_6) : tensor<?xf32>
    %32 = linalg.generic {indexing_maps = [#map7, #map7], iterator_types = ["parallel"]} ins(%30 : tensor<?xi64>) outs(%31 : tensor<?xf32>) {
    ^bb0(%in: i64, %out: f32):
      %40 = linalg.index 0 : index
      %41 = arith.index_cast %in : i64 to index
      %42 = arith.cmpi slt, %41, %c16 : index
      cf.assert %42, "index must be smaller than dim size"
      %43 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %43, "index must be larger or equal to 0"
      %extracted = tensor.extract %collapsed[%40, %41] : tensor<?x16xf32>
      %44 = arith.negf %extracted : f32
      linalg.yield %44 : f32
    } -> tensor<?xf32>
    %33 = tensor.empty() : tensor<f32>
    %34 = linalg.generic {indexing_maps = [#map9, #map9], iterator_types = []} ins(%cst_4 : tensor<i64>) outs(%33 : tensor<f32>) {
    ^bb0(%in: i64, %out: f32):
      %40 = arith.sitofp %in : i64 to f32
      linalg.yield %40 : f32
    } -> tensor<f32>
    %35 = linalg.generic {indexing_maps = [#map7, #map7, #map8, #map7], iterator_types = ["parallel"]} ins(%28, %32, %34 : tensor<?xi1>, tensor<?xf32>, tensor<f32>) outs(%31 : tensor<?xf32>) {
    ^bb0(%in: i1, %in_10: f32, %in_11: f32, %out: f32):
      %40 = arith.select %in, %in_10, %in_11 : f32
      linalg.yield %40 : f32
    } -> tensor<?xf32>
    %36 = tensor.empty() : tensor<i64>
    %37 = linalg.fill ins(%c0_i64 : i64) outs(%36 : tensor<i64>) -> tensor<i64>
    %38 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["reduction"]} ins(%28 : tensor<?xi1>) outs(%37 : tensor<i64>) {
    ^bb0(%in: i1, %out: i64):
      %40 = arith.extui %in : i1 to i64
      %41 = arith.addi %40, %out : i64
      linalg.yield %41 : i64
    } -> tensor<i64>
    %39 = linalg.generic {indexing_maps = [#map9, #map9], iterator_types = []} ins(%38 : tensor<i64>) outs(%33 : tensor<f32>) {
    ^bb0(%in: i64, %out: f32):
      %40 = arith.sitofp %in : i64 to f32
      linalg.yield %40 : f32
    } -> tensor<f32>
    %40 = linalg.fill ins(%cst : f32) outs(%33 : tensor<f32>) -> tensor<f32>
    %41 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["reduction"]} ins(%35 : tensor<?xf32>) outs(%40 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = arith.addf %in, %out : f32
      linalg.yield %50 : f32
    } -> tensor<f32>
    %42 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = []} ins(%41, %39 : tensor<f32>, tensor<f32>) outs(%33 : tensor<f32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %50 = arith.divf %in, %in_10 : f32
      linalg.yield %50 : f32
    } -> tensor<f32>
    return %16, %42 : tensor<?x8x16xf32>, tensor<f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      _model.embed_tokens.weight: "0x040000005839B4BE21B032BFBE9F9A3E48E15ABFBC74933D5EBA89BED34D62BF8FC2753CCDCC6CBF273108BEF6285CBFFCA951BFBE9F1ABE8B6C273F128340BFF2D20DBF5C8F823EB81E653F2DB21D3ECFF753BECFF7733F273168BF508D373F508DD7BE190436BF819543BF9318C4BEC1CA213F819523BF79E9263E04568E3E5C8F82BE5C8FC23D77BE5FBF378961BF2B8716BFFED4B83EE17A14BEC976BEBEA01A2F3E1283C0BDCDCCCCBEB4C8163FA8C6CB3E6F1203BF7593183ECDCC4C3D0000403F0C02EB3E8716D9BE8FC2753F819543BF9EEF27BE8195033F0E2D32BF5839B4BC31086CBF3108AC3E8B6C073F0681153E8941403FDBF9BEBE2731C83E3789413E0AD7233E5839B4BD7B142E3F8195633FF4FD54BD9EEFA73E250661BF0456CE3E2B87963E7F6A7C3F2FDD243F08ACDCBED57869BE448BAC3EE17A74BF2DB29DBDE7FB29BF931844BFC1CA61BF4C37093F2DB23DBFAE4701BF643B5FBE3F353E3FB4C856BF60E5D0BD83C0CA3D1D5A443F8195233F355E3A3FE5D0E2BE560E2DBE4E6290BEA69B443F713D6A3F21B032BF54E325BF4C3709BFB07208BF8FC2F5BCA245363E3333F3BEB6F37DBF54E325BECBA185BE2731083E9EEF673F6F12C33EB6F3FD3CD7A3703E5839B43E1D5A64BF448B4C3F295C0F3F77BE3F3F7593183FF6285CBE17D94EBE0C024BBF5EBA893E894160BFA4705DBFF4FD14BFCDCC2CBF0AD7A3BEB81E65BF000080BF986E32BF31084CBFA8C68BBEAAF172BF77BE3F3FD578693ECFF733BFA470FDBEF6289CBE96438BBE250641BF21B0323F7F6A7C3F96438BBD6F1203BDCFF753BFA8C64BBFAE47A1BED7A3F0BEB072283FDF4F2DBF583974BF79E9663FD578693DF4FD34BFC520B03D0E2D72BF4260653DF4FD743FAC1C3A3F39B4C83E6ABCF4BE39B488BEFA7E2ABF96430B3FB81E853D17D90E3F8D97AEBEF2D20DBFEE7C1F3FEC51783FE17A343F08AC1C3F6F12233F8FC2F53E31080CBF295C0F3DCFF793BEE92671BFFCA971BFC1CAE1BEB4C8F6BEB81EC53E5EBA693F8716D9BD77BE5F3F23DB793FC3F5683F83C08ABEA01A0FBFA8C60BBF5A641BBFC74B17BFB6F37D3E560E4D3F04562E3F9EEF27BD08AC9C3E1058193FE17A54BF1D5AA43E85EB513FD7A3103F0000003F583934BDA69B24BFCFF7133F1F85ABBEAC1C1A3F7368713FF4FD54BE5EBA49BE2FDD643F6666E63EC3F528BFDBF93EBF21B032BF295C4F3F91ED1C3F7D3F35BF022B273F1904763FAE47A13E871699BEF0A7C63D91ED3CBFFED478BFE926713F8716993E8716593DB6F35D3F022B07BE3F353E3F79E9263FCFF713BFB6F3FDBECFF7D3BE2FDD04BFE926313EA245F6BE54E325BE91ED3CBF85EB513F068195BE3108ACBD0C022B3EA01A4F3FE5D022BE8FC2553FA69B443B6F12833D1283403D2B8776BF8FC2F5BDD34D22BFB6F37DBF8716193F14AE27BF871659BD6666E63E8B6CE73D0E2DB2BE508D173DF853E33DFCA9113F5EBA49BFD9CEF73D9CC400BF1D5AE4BE1F850B3F8FC2753C6DE7FB3DB81E053F3333533FD578E9BD6666663E5839343CA69BC43CB81EC53E5C8FC2BD4C37893D583934BD4A0C623FA8C6CB3E9CC4403FD34D623FA245F6BE46B6F33D6F12633F7B142E3F23DB39BFC1CA41BF6891EDBD48E15ABF2FDD04BFBE9F5ABF6891AD3E7368113F96434B3F60E530BF1B2FDD3E1D5AA43EB4C836BF9318443F295C6F3FB29D0FBF14AE673F3BDF4FBECDCCCCBC48E17A3F713D2A3FDF4F2DBFBA490CBEB6F3FD3C2FDDA4BE6DE71BBF23DBB9BEF853E33E190476BF1B2FDD3D46B6F3BDB4C876BF448BACBEB6F37D3ECDCCCC3CDBF95EBFEC51783F46B6133F7368713F713D4ABFC520F0BEA8C66BBF17D90E3F0C02EBBE2DB23DBF52B81EBE21B0523FF853233FC74BF7BEBC7433BF2B87563F4E62103EDF4FCD3E0E2D52BF5C8F62BF1283C03E759318BE48E15ABF1283603F5EBA893E355E1A3F7D3F55BFA245363FB6F35DBF23DB393F7F6ABCBD2FDDA4BE8716D93D355E5A3F6891EDBEB6F33DBF1B2F5D3D54E305BF9EEF47BFDF4F2DBFDD2466BF759318BF1283C0BE14AEC7BE2FDD043F3D0AD7BE000000002FDD24BF08AC9CBEB4C876BFEE7CFFBE621078BF8D97EE3E60E5D03DDBF91EBFCDCC4CBDC9765E3FD57849BFF853233F96430BBE0AD723BC96432B3FD1225BBEF4FD543C0000C03E3D0A773FAE47A1BE713D2A3FBC74D33E96438B3E819543BEF6289CBE931864BFA4703DBF6DE75BBFB4C8F63E355EFABE448B2CBF6ABC54BF17D92E3F2DB23D3F8D97AE3E643BDFBE931804BFCFF7D3BE54E3A5BD295C2FBF1B2FDDBD21B0F2BE448B6C3F85EB713F1283C03DE5D002BF04566E3F6F12C3BEAAF192BEEE7C7FBF21B072BE60E550BDA69BC43B871619BFBC74133CA4707DBFFCA9F1BE85EB51BFF2D24DBE83C06ABFE17A74BF39B4C8BE39B408BFA01A2F3E68916D3D8941003FAE47A13E1B2FDD3E4A0C423FD34D62BE0E2DB2BE6210783FBC7433BF4260E53E986E923ED57869BFA8C62B3F39B4483F5C8F823EB29DEF3E77BE1F3F759338BFA69B443DBC74133C1F852B3F6DE71B3F022B273F31082C3E4C37493F5A64BB3EDD24C63E713D0ABFC52070BF6DE73BBF17D98EBE713D4ABF31082C3FB29DEF3D6F12833E2506813EFED4B83E3108ACBC3F357EBFEC51183FC976FE3EA69BC43B295C8F3DF853A33E3F355EBF21B0F23EB6F3FDBE23DB59BFC520F0BE0C02EB3E3D0A17BF8FC2F53EBC74733FA69B44BCD7A370BE31082CBD6DE7BB3E39B4083FB29D6F3E986E923EEC5158BFE17A34BF6DE7FBBEFED4F83E2731C8BE96430B3E9A9979BF250661BF448BECBEC520B03EA69BC43E46B6B33E1904D6BE022B073D736891BD",
      _onnx__MatMul_42: "0x04000000F4FD54BC08AC1CBE9CC4203E8FC2F5BD8195433E3333333ECBA145BE6F1283BC6F12033EEE7C3F3E0AD7A3BCC976BEBD6891EDBDA245363E6891EDBD022B073D986E12BE0AD7233C1058393E2B8716BE6F12033EA69B443B52B81E3E54E3A53DD122DBBDE5D0223EA69BC4BB5C8F42BEA8C64BBEA69B44BB0AD7A3BCC1CAA1BDBC7413BEB6F37DBD508D97BD96430B3EA8C64BBECDCCCC3D96430B3EE3A51BBEA01A2F3E7B14AE3D2FDD243E3108ACBD60E550BDC52030BDCDCC4C3EBC74133D426065BD6891EDBCEC51B8BD105839BEE5D022BE4C37093EC520B0BD0E2D323ECDCCCCBD1283C0BD6F12833BB6F3FDBD60E550BD355E3A3E2DB21D3E0000003EF4FD543DC3F5283E5839343E0AD7A33C5839B43DEC5138BEC976BE3D0AD7A3BC17D9CE3D68916D3DC520B0BDEC5138BEA01A2F3E759318BE583934BC250681BD54E3A5BDA69BC43D8195433EA69BC4BDB6F37D3D0AD7A3BD7F6ABC3C31082CBD273108BE713D0ABEB29DEFBD54E3253E6F1283BA4260E5BD79E9263EA8C64B3E0AD7A3BCBC7413BE6DE7FBBD9EEF27BE250681BD9EEF27BEF4FDD4BDF0A7C6BD4260E53C52B81E3ECDCCCC3D295C0FBD96430BBD0AD7233C39B448BDB81E85BD333333BEA245B6BDEE7C3F3E9A9919BE6F12833AF4FD543DE17A143ED578E9BD7F6ABCBD17D9CEBD0AD723BD5839B4BC355E3A3E04560E3E7593183E819543BEEE7C3FBE3108AC3DC1CA213E583934BC295C0F3DCDCC4CBEC52030BDA01A2F3EB81E053E7368113E3789413E17D9CEBD77BE1FBEDF4F0DBEBC74133C0681953D7D3F353EA245B63DFCA9713D8716D93D96438BBC3108AC3C7F6A3CBE8B6CE73DD122DBBD31082C3E68916D3D77BE9FBD759318BE83C0CABDAE47613DC1CAA13D52B81EBEC52030BE0AD7233C022B073DEC5138BDF853E3BD0AD7233D39B448BEC1CAA1BD6F1283BC7F6A3C3E68916D3D2DB21D3E0AD723BC8716D9BD17D9CEBD7F6A3C3E9EEFA73D2DB29DBD819543BE6F1283BA295C8F3D6F1203BDF0A7C6BD4C37893D7B142E3E643BDFBDC9763EBEB81E85BD6F1203BD0681953DD9CEF7BD46B6F33DA69BC43D6F12033BFCA9F1BD1283403E9A9999BD6F12033E1B2FDDBDF853E3BDF4FDD43D9EEFA7BD1058393E6F1203BB000000BEF853E3BD022B07BD022B873DEC51383E4E6210BEC52030BD1F85EBBD5C8F423E986E12BEC74B37BE583934BEC52030BDE5D0223E08AC1C3EC976BE3DA8C64B3EE926313E96438BBD250601BE0E2D323E83C0CA3DEE7C3FBE022B873D39B448BDCDCC4CBD4C3789BD022B07BEA8C64BBE5839B4BDFCA971BD355E3A3EBE9F1ABEC9763E3EB29DEFBDD57869BD9318043E9318043E1B2FDDBCEC5138BE583934BC60E550BD31082C3E6DE7FBBD1B2F5DBDE5D0223E128340BEBC7413BD0000003ED122DB3D7F6A3CBEC9763EBE333333BE31082C3EF0A7C6BD83C0CA3DE5D0223E6F1283BD355EBABD5A643B3E1283403D5C8FC2BD0E2DB23D068195BDEC51B8BD83C04ABE60E5D03D0C022B3E1B2F5D3D7D3F353E5C8F42BE8716D9BD0AD723BC5A643B3E355E3A3EEC5138BDCDCCCCBD4260E5BCA69B44BBA01A2F3E4A0C02BED9CEF73D5C8FC23D9318043E643BDF3DC520303DDF4F8DBDBC7493BDAE4761BD8B6CE73D31082CBED9CEF7BD17D9CE3D17D9CEBD0E2D32BEC9763EBE3108AC3C295C8FBDA69B443E08AC1C3E14AE473E1283C0BDE7FB29BE2FDD24BE6F1283BA3108AC3D3108ACBC8716D9BD022B07BDA69B443D295C8F3D83C0CA3D04560E3E022B873DE3A51BBE96430B3E9EEFA7BD1B2FDD3C60E550BD5C8FC23D8FC2F5BD17D9CEBD60E5D0BD04560EBE2DB21D3EB6F3FD3CDF4F8DBD31082CBD5EBA493EA69B443BD122DBBD6DE7FB3D23DB793D39B4483EE5D022BE0AD723BC6F12033E96430B3EE7FB293E7F6A3CBEE7FBA9BDE3A51BBEB6F3FDBD3789413E022B073DC520303E60E550BD0681153E0AD7A3BCA69BC4BDF853E33DA245363EC1CA21BEE3A51B3DA69B443D8B6CE7BD871659BD986E12BEFCA9F1BD39B4C8BD0AD7233D23DB793D46B6F3BD14AE47BEDF4F8DBD7368913D250601BE9A9999BD46B6F3BDFCA9F13DE3A59B3C333333BEE5D022BE31082CBD0AD7A33C4260653D9EEF27BE713D0ABE77BE9F3DBC7413BD0E2DB2BD2DB29DBD1058393E9A9999BD1B2FDD3CD57869BD022B07BD0681153EA8C64B3E1B2F5DBDD9CEF7BD355EBA3D46B6F3BD83C04ABE2FDD243E8FC2F5BC6F12033EE3A51BBD08AC1C3E6F1283BC713D0ABEF0A746BE3108AC3C4260653D9EEF273E9EEF27BE39B4483DF4FD54BD6F12033B736811BE0E2DB2BD6F12033C7B142E3E77BE1FBE6F1283BB23DBF93DEE7C3F3ED9CEF7BD759318BE7D3F353E5C8F423E4260E5BBC74B37BE7B142E3EEC5138BD54E3253EA69B443DB81E053E96430BBED578E93DF853E3BDE3A51BBD04560E3E022B073E4A0C02BE8B6CE7BD0AD723BD4260E53B128340BDBE9F1ABE17D9CEBDEC51B83DE5D0223E7F6A3CBECDCCCC3CAAF1D23DA4703DBE713D0A3E08AC1CBE0AD7233D0AD7A33C60E5503D77BE9FBD6F1203BD022B073D8FC2F5BC6F12833D3108ACBCCDCCCCBC819543BEA69B443D6F1283BB8716D9BD3D0AD73D4260E53D96438BBC6F1203BE583934BC9CC420BE759318BE4260E5BC79E926BE7F6ABCBC6F12833B7F6A3CBEAE47613D0C022BBEC976BE3DF853E33D0AD7A33BA24536BE6F12033B39B448BDEC51383E068115BE986E123E83C04A3EC976BE3D2506013E6DE7FBBDCBA1453EA69B44BB5A643B3EE7FB293E4C3709BE1F85EB3DC520303E0E2D32BE8FC275BD60E5D03D96430BBEE5D0223EEC51B8BD2506013E986E12BE6F12833A31082C3E"
    }
  }
#-}
