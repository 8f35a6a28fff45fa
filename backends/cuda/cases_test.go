package cuda

import (
	"math"

	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/internal/testmodels"
)

// modelCase is a whole model and the shape of one call's input.
type modelCase struct {
	name  string
	onnx  []byte
	shape []int
}

func modelCases() []modelCase {
	mlp := testmodels.MLP()
	return []modelCase{
		{"mlp b1", mlp, []int{1, 784}},
		{"mlp b64", mlp, []int{64, 784}},
		{"encoder", testmodels.Encoder(), []int{1, 32, 128}},
		{"cnn", testmodels.CNN(), []int{2, 3, 32, 32}},
		{"ppocr classifier", models.PPOCRClassifier, []int{1, 3, 48, 192}},
	}
}

// relL2 returns the relative L2 error of got against want.
func relL2(got, want []float32) float64 {
	if len(got) != len(want) {
		return math.Inf(1)
	}
	var num, den float64
	for i := range want {
		d := float64(got[i]) - float64(want[i])
		num += d * d
		den += float64(want[i]) * float64(want[i])
	}
	return math.Sqrt(num) / math.Max(math.Sqrt(den), 1e-30)
}
