// Package customop is the code of the guide "Custom ops on the CPU
// backend" (docs/custom-ops.md): a Go kernel for com.example's Scale op,
// y = x * factor on float32 tensors, registered with cpu.RegisterCustomOp.
package customop

import (
	"fmt"

	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

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

// scale is one Scale node's kernel, with its factor attribute read.
type scale struct{ factor float32 }

// newScale reads a node's attributes when a model is loaded.
func newScale(n *model.Node) (cpu.CustomKernel, error) {
	f, err := n.Float("factor", 1)
	if err != nil {
		return nil, err
	}
	return &scale{factor: f}, nil
}

// Infer is the type and shape rule: y has x's type and shape.
func (s *scale) Infer(c *model.InferCtx) error {
	if dt := c.DType(0); dt != payload.Float32 && dt != payload.Undefined {
		return c.Errorf("Scale takes float32, not %s", dt)
	}
	c.Same(0, 0)
	return nil
}

// Run computes y into the output the backend sized from Infer.
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
