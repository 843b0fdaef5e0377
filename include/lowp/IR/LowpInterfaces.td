//===- LowpInterfaces.td - precision classification --------*- tablegen -*-===//

#ifndef LOWP_IR_LOWPINTERFACES_TD
#define LOWP_IR_LOWPINTERFACES_TD

include "mlir/IR/OpBase.td"

def Lowp_PrecisionClassOpInterface : OpInterface<"PrecisionClassOpInterface"> {
  let cppNamespace = "::mlir::lowp";
  let description = [{
    Says how an op's numerics react to a low-precision float format, so that
    precision inference reasons about what an op computes rather than its
    name. fp-opt attaches external models of this interface to upstream ops
    (linalg, arith, math, tensor, func, scf); users attach it to their own.

    The answer may depend on the low format: a sum over a reduction dimension
    is safe in bf16 (fp32's exponent range) but overflows in f16.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        The class of this op when its float computation runs in
        `lowFormat` (an f16, bf16 or 8-bit float type).
      }],
      /*retTy=*/"::mlir::lowp::PrecisionClass",
      /*methodName=*/"getPrecisionClass",
      /*args=*/(ins "::mlir::FloatType":$lowFormat)>,
    InterfaceMethod<
      /*desc=*/[{
        A short, person-readable reason for the class (used by the
        decision report), e.g. "contraction body" or "exp in body".
      }],
      /*retTy=*/"::llvm::StringRef",
      /*methodName=*/"getPrecisionClassReason",
      /*args=*/(ins "::mlir::FloatType":$lowFormat),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{ return "declared by the op"; }]>
  ];
}

#endif // LOWP_IR_LOWPINTERFACES_TD
