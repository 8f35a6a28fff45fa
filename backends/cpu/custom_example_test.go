package cpu_test

import (
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// scale is the kernel of com.example's Scale op, y = x * factor, on
// float32 tensors.
type scale struct{ factor float32 }

func newScale(n *model.Node) (cpu.CustomKernel, error) {
	f, err := n.Float("factor", 1)
	if err != nil {
		return nil, err
	}
	return &scale{factor: f}, nil
}

// Infer: y has x's type and shape.
func (s *scale) Infer(c *model.InferCtx) error {
	if dt := c.DType(0); dt != payload.Float32 && dt != payload.Undefined {
		return c.Errorf("Scale takes float32, not %s", dt)
	}
	c.Same(0, 0)
	return nil
}

// Run computes y.
func (s *scale) Run(in, out []payload.Dynamic) error {
	x, err := payload.Typed[float32](in[0])
	if err != nil {
		return fmt.Errorf("com.example.Scale: %w: %v", compute.ErrExecutionFailed, err)
	}
	y, err := payload.Typed[float32](out[0])
	if err != nil {
		return fmt.Errorf("com.example.Scale: %w: %v", compute.ErrExecutionFailed, err)
	}
	for i, v := range x.Data {
		y.Data[i] = v * s.factor
	}
	return nil
}

// scaleModel is y = Scale(x, factor=2.5) followed by ONNX's Relu.
func scaleModel() []byte {
	m := onnxbuild.Model{Opsets: map[string]int64{"com.example": 1}, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 3)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 3)},
		Nodes: []onnxbuild.Node{
			{Name: "scale", Op: "Scale", Domain: "com.example", Inputs: []string{"x"}, Outputs: []string{"s"},
				Attrs: []onnxbuild.Attr{onnxbuild.AFloat("factor", 2.5)}},
			{Name: "relu", Op: "Relu", Inputs: []string{"s"}, Outputs: []string{"y"}},
		},
	}}
	return m.Encode()
}

// Register the op once, before loading models that use it.
func init() {
	err := cpu.RegisterCustomOp(cpu.CustomOp{
		Domain: "com.example", Type: "Scale",
		MinInputs: 1, MaxInputs: 1, Outputs: 1,
		New: newScale,
	})
	if err != nil {
		panic(err)
	}
}

// A model with an op of a service's own domain runs once a Go kernel for
// it is registered.
func ExampleRegisterCustomOp() {
	art, err := artifacts.FromBytes(scaleModel(), "scale.onnx")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := cpu.New[payload.Tensor[float32], payload.Tensor[float32]](compute.Options{}).LoadModel(art)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		fmt.Println(err)
		return
	}
	in := payload.Tensor[float32]{Shape: []int{1, 3}, Data: []float32{-1, 0, 2}}
	var out payload.Tensor[float32]
	if err := m.InferOne(&in, &out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Shape, out.Data)
	// Output: [1 3] [0 0 5]
}
