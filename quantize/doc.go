// Package quantize rewrites float32 ONNX models into 8-bit ones, in the
// standard ONNX forms that any runtime loads.
//
// Two forms are emitted (docs/quantize.md, docs/adr/0034-quantize-package.md):
//
//   - Dynamic: each MatMul, Gemm and Conv with constant float32 weights
//     gets int8 weights, symmetric per output channel, and quantizes its
//     activation as the model runs: DynamicQuantizeLinear, then
//     MatMulInteger or ConvInteger, Cast to float32, Mul by the product
//     of the activation's and the weights' scales, and the bias Add (the
//     form of ONNX Runtime's quantize_dynamic).
//   - Static: QuantizeLinear/DequantizeLinear pairs on the inputs and
//     the output of the same float ops (QDQ node units, the form of ONNX
//     Runtime's quantize_static): activations uint8 per tensor with
//     ranges measured by running the float model on calibration samples,
//     weights int8 per channel, biases int32 with scale activation scale
//     × weight scale; a 2-D MatMul and its bias Add become a Gemm, and a
//     Relu or Clip after the op joins its unit.
//
// Rules:
//   - Everything else in the file is kept as it stands: other nodes,
//     initializers, value_info, opset imports (the default one raised
//     when the emitted ops need it), metadata and docs.
//   - Bad input never panics: errors wrap the sentinels of package
//     compute (errs): InvalidArtifact for a malformed file, Unsupported
//     for one this package cannot quantize (external data, an opset it
//     cannot raise).
package quantize
