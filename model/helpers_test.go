package model

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

const (
	f32 = payload.Float32
	i64 = payload.Int64
)

func vin(name string, dt payload.DType, dims ...int) ValueInfo {
	return ValueInfo{Name: name, DType: dt, Shape: append([]int{}, dims...), RankKnown: true}
}

func nd(op string, ins, outs []string, attrs ...Attr) *Node {
	return &Node{OpType: op, Inputs: ins, Outputs: outs, Attrs: attrs}
}

func aI(name string, v int64) Attr { return Attr{Name: name, Type: AttrInt, I: v} }
func aF(name string, v float32) Attr {
	return Attr{Name: name, Type: AttrFloat, F: v}
}
func aS(name, v string) Attr             { return Attr{Name: name, Type: AttrString, S: v} }
func aIs(name string, v ...int64) Attr   { return Attr{Name: name, Type: AttrInts, Ints: v} }
func aFs(name string, v ...float32) Attr { return Attr{Name: name, Type: AttrFloats, Floats: v} }
func aT(name string, t *Tensor) Attr     { return Attr{Name: name, Type: AttrTensor, T: t} }

func ints(name string, v ...int64) *Tensor { return NewTensor(name, []int{len(v)}, v) }
func floats(name string, v ...float32) *Tensor {
	return NewTensor(name, []int{len(v)}, v)
}

// graph builds a graph with the given inputs, constants and nodes; its
// outputs are the nodes' last node's outputs.
func graph(opset int64, inputs []ValueInfo, consts []*Tensor, nodes ...*Node) *Graph {
	g := NewGraph()
	g.Opset = opset
	g.Inputs = inputs
	for _, t := range consts {
		g.Initializers[t.Name] = t
	}
	g.Nodes = nodes
	if len(nodes) > 0 {
		for _, o := range nodes[len(nodes)-1].Outputs {
			if o != "" {
				g.Outputs = append(g.Outputs, ValueInfo{Name: o})
			}
		}
	}
	return g
}

func wantKind(t *testing.T, err, kind error) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v", kind)
	}
	if !errors.Is(err, kind) {
		t.Fatalf("error %v does not wrap %v", err, kind)
	}
}
