package quantize_test

import (
	"fmt"

	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
	"github.com/lintel-ml/lintel/quantize"
)

// ExampleModel quantizes a three-layer MLP both ways: dynamically, and
// statically with one calibration sample (quantize.ReadSamples reads
// samples from .npy files).
func ExampleModel() {
	data := testmodels.MLP() // a float32 model file's bytes, as os.ReadFile gives them

	dynamic, report, err := quantize.Model(data, quantize.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("dynamic: %d nodes quantized, %d → %d bytes\n", len(report.Quantized), len(data), len(dynamic))

	x := make([]float32, 4*784)
	for i := range x {
		x[i] = float32(i%17)/8 - 1
	}
	sample := quantize.Sample{{Name: "x", DType: payload.Float32, Shape: []int{4, 784}, Data: payload.AsBytes(x)}}
	static, report, err := quantize.Model(data, quantize.Options{Mode: quantize.Static, Samples: []quantize.Sample{sample}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("static: %d nodes quantized, opset %d, %d bytes\n", len(report.Quantized), report.OpsetTo, len(static))
	// Output:
	// dynamic: 3 nodes quantized, 2679193 → 678447 bytes
	// static: 3 nodes quantized, opset 17, 688746 bytes
}
