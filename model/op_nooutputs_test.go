package model

import (
	"fmt"
	"testing"
)

// A node may name fewer outputs than its op has, or none (ONNX lets a
// node leave optional outputs out, and a malformed file may drop them
// all): every rule must then infer without a panic. Each descriptor's
// every version runs on a node with its required inputs, typed and
// untyped, and no outputs, one empty output or a single output.
func TestInferWithoutOutputs(t *testing.T) {
	outs := [][]string{nil, {""}, {"y"}}
	for _, op := range Ops() {
		for _, v := range op.Versions {
			for _, typed := range []bool{true, false} {
				for _, o := range outs {
					name := fmt.Sprintf("%s.%s/v%d/typed=%v/outs=%q", op.Domain, op.Type, v.Since, typed, o)
					g := NewGraph()
					g.Opset = v.Since
					if op.Domain != "" {
						g.Opset = 21
						g.Opsets[op.Domain] = v.Since
					}
					n := &Node{Name: "n", Domain: op.Domain, OpType: op.Type, Outputs: o}
					for i := 0; i < v.MinIn || (v.MaxIn == Many && i < 1); i++ {
						in := fmt.Sprintf("x%d", i)
						n.Inputs = append(n.Inputs, in)
						if typed {
							g.Inputs = append(g.Inputs, vin(in, f32, 2, 3))
						} else {
							g.Inputs = append(g.Inputs, ValueInfo{Name: in})
						}
					}
					g.Nodes = []*Node{n}
					for i := range g.Inputs {
						g.Values[g.Inputs[i].Name] = &g.Inputs[i]
					}
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Errorf("%s: inference panicked: %v", name, r)
							}
						}()
						_ = InferTypes(g) // an error is fine; a panic is not
					}()
				}
			}
		}
	}
}
