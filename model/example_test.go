package model_test

import (
	"errors"
	"fmt"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Build a graph by hand (artifacts builds one from an ONNX file), sort it
// and infer the type and shape of every value. x has a free batch
// dimension, so the outputs keep it as -1.
func ExampleInferTypes() {
	g := model.NewGraph()
	g.Opset = 17
	g.Inputs = []model.ValueInfo{{Name: "x", DType: payload.Float32, Shape: []int{-1, 3, 4}, RankKnown: true}}
	g.Outputs = []model.ValueInfo{{Name: "y"}}
	g.Initializers["shape"] = model.NewTensor("shape", []int{2}, []int64{0, 12})
	// Listed out of order on purpose: Sort puts Reshape before Relu.
	g.Nodes = []*model.Node{
		{Name: "act", OpType: "Relu", Inputs: []string{"flat"}, Outputs: []string{"y"}},
		{Name: "flatten", OpType: "Reshape", Inputs: []string{"x", "shape"}, Outputs: []string{"flat"}},
	}
	if err := model.Sort(g); err != nil {
		panic(err)
	}
	if err := model.InferTypes(g); err != nil {
		panic(err)
	}
	for _, n := range g.Nodes {
		v := g.Value(n.Outputs[0])
		fmt.Println(n.OpType, v.Name, v.DType, v.Shape)
	}
	// Output:
	// Reshape flat float32 [-1 12]
	// Relu y float32 [-1 12]
}

// Every op type lintel knows has one descriptor: its arity at each opset
// and the parser of its attributes.
func ExampleLookupOp() {
	op := model.LookupOp("", "Reshape")
	fmt.Println(op.Type, op.InputNames)
	for _, v := range op.Versions {
		fmt.Printf("since opset %d: %d to %d inputs, contents read from inputs %v\n", v.Since, v.MinIn, v.MaxIn, v.Values)
	}
	fmt.Println(model.LookupOp("com.example", "Frob") == nil)
	// Output:
	// Reshape [data shape]
	// since opset 1: 1 to 1 inputs, contents read from inputs []
	// since opset 5: 2 to 2 inputs, contents read from inputs [1]
	// true
}

// BindNode parses a node's attributes once and returns its shape rule.
// A backend runs the same rule at run time on the actual shapes: here a
// Reshape of a [2, 3, 4] tensor to [0, -1], where 0 copies the input's
// dim and -1 takes what is left.
func ExampleBindNode() {
	n := &model.Node{OpType: "Reshape", Inputs: []string{"x", "shape"}, Outputs: []string{"y"}}
	op, rule, err := model.BindNode(n, 17)
	if err != nil {
		panic(err)
	}
	attrs := rule.(*model.ReshapeAttrs)
	fmt.Println(op.Type, "allowzero:", attrs.AllowZero)

	c := model.NewInferCtx(n, 17, true)
	c.SetInput(0, payload.Float32, []int{2, 3, 4}, true)
	c.SetInput(1, payload.Int64, []int{2}, true)
	c.SetInts(1, []int64{0, -1})
	if err := rule.Infer(c); err != nil {
		panic(err)
	}
	fmt.Println(c.Out(0).DType, c.Out(0).Dims)

	// At run time a shape that does not fit is a shape mismatch.
	c.SetInput(1, payload.Int64, []int{2}, true)
	c.SetInts(1, []int64{5, -1})
	err = rule.Infer(c)
	fmt.Println(errors.Is(err, compute.ErrShapeMismatch))
	// Output:
	// Reshape allowzero: false
	// float32 [2 12]
	// true
}
