package payload_test

import (
	"fmt"

	"github.com/lintel-ml/lintel/payload"
)

// A multi-tensor payload carries inputs of mixed element types by name.
func ExampleMulti() {
	feats := payload.Tensor[float32]{Shape: []int{1, 3}, Data: []float32{0.5, 1, 2}}
	ids := payload.Tensor[int64]{Shape: []int{1}, Data: []int64{42}}
	in := payload.Multi{Tensors: []payload.Dynamic{
		payload.DynamicOf("feats", feats),
		payload.DynamicOf("ids", ids),
	}}
	t, _ := payload.Typed[int64](*in.Get("ids"))
	fmt.Println(in.Get("feats").DType, t.Data)
	// Output: float32 [42]
}
