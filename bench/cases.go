package bench

import (
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// benchCase is one model and the shape of one input item.
type benchCase struct {
	name string
	// onnx is the model file.
	onnx []byte
	// in is the input's shape for the whole call, batch first.
	in []int
	// batch is how many items one call holds: InferBatch runs batch
	// items of shape in[1:] with a leading 1.
	batch int
}

// f32 is a float32 tensor payload.
type f32 = payload.Tensor[float32]

// cases returns every benchmark case.
func cases() []benchCase {
	mlp := testmodels.MLP()
	return []benchCase{
		{name: "mlp_784_512_512_10_b1", onnx: mlp, in: []int{1, 784}, batch: 1},
		{name: "mlp_784_512_512_10_b64", onnx: mlp, in: []int{64, 784}, batch: 64},
		{name: "gemm_256x256_b256", onnx: testmodels.Gemm(), in: []int{256, 256}, batch: 256},
		{name: "transformer_layer_s32_d128_b1", onnx: testmodels.Encoder(), in: []int{1, 32, 128}, batch: 1},
		{name: "cnn_32x32_b1", onnx: testmodels.CNN(), in: []int{1, 3, 32, 32}, batch: 1},
		{name: "ppocr_cls_b1", onnx: models.PPOCRClassifier, in: []int{1, 3, 48, 192}, batch: 1},
		{name: "mobile_cnn_b1", onnx: testmodels.MobileCNN(), in: []int{1, 3, 96, 96}, batch: 1},
	}
}
