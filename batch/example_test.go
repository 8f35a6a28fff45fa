package batch_test

import (
	"fmt"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/payload"
)

// A Batch is a view of items a caller already holds: building one copies
// nothing, and InferBatch writes out[i] for item i.
func ExampleOf() {
	items := []payload.Tensor[float32]{
		{Shape: []int{1, 2}, Data: []float32{1, 2}},
		{Shape: []int{1, 2}, Data: []float32{3, 4}},
	}
	b := batch.Of(items)
	b.At(1).Data[0] = 30 // the batch shares the items' memory
	fmt.Println(b.Len(), items[1].Data)
	// Output: 2 [30 4]
}
