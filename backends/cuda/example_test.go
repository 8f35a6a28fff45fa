package cuda_test

import (
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cuda"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// Chain two models on the GPU: model a's output stays in device memory
// and is model b's input; only the final result comes back to the host.
// The chain needs a GPU; run as a test, the example only checks that it
// compiles and prints the backend's name.
func ExampleNewTensor() {
	type T = payload.Tensor[float32]
	chain := func(artA, artB *artifacts.Artifact, x []float32) ([]float32, error) {
		be := cuda.New[T, T](compute.Options{})
		a, err := be.LoadModel(artA) // [1, 784] -> [1, 10]
		if err != nil {
			return nil, err
		}
		defer a.Close()
		b, err := be.LoadModel(artB) // [1, 10] -> [1, 10]
		if err != nil {
			return nil, err
		}
		defer b.Close()
		if err := a.Init(); err != nil {
			return nil, err
		}
		if err := b.Init(); err != nil {
			return nil, err
		}

		in, err := cuda.NewTensor[float32](memclass.Pinned, 1, 784) // page-locked host memory
		if err != nil {
			return nil, err
		}
		defer cuda.Free(&in)
		copy(in.Data, x)
		mid, err := cuda.NewTensor[float32](memclass.Device(0), 1, 10) // never index mid.Data
		if err != nil {
			return nil, err
		}
		defer cuda.Free(&mid)

		var out T // host memory, grown by the model
		if err := a.InferOne(&in, &mid); err != nil {
			return nil, err
		}
		if err := b.InferOne(&mid, &out); err != nil {
			return nil, err
		}
		return out.Data, nil
	}
	_ = chain
	fmt.Println(cuda.Name)
	// Output: cuda
}
