package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// mk returns a run-time tensor holding a copy of data.
func mk[E payload.Elem](shape []int, data []E) *tensor {
	t := &tensor{dt: payload.DTypeOf[E](), shape: append([]int{}, shape...)}
	b := payload.AsBytes(data)
	t.data = alignedBytes(len(b))
	copy(t.data, b)
	return t
}

// nodeCase describes one kernel run for unit tests.
type nodeCase struct {
	node     *model.Node
	opset    int64 // 0 means 17
	outTypes []payload.DType
	// consts lists the inputs that are constants (initializers) at build
	// time; the others are run-time values.
	consts []int
}

// caseCtx returns the build context of c's node over inputs of ins'
// types and shapes (none of them constant), at c's opset (17 when 0),
// its outputs of c.outTypes (float32 where not given).
func caseCtx(c nodeCase, ins []*tensor) *buildCtx {
	g := model.NewGraph()
	g.Opset = c.opset
	if g.Opset == 0 {
		g.Opset = 17
	}
	n := c.node
	bc := &buildCtx{g: g, n: n, opset: g.Opset}
	for i, t := range ins {
		vi := model.ValueInfo{}
		if t != nil {
			vi = model.ValueInfo{Name: n.Input(i), DType: t.dt, Shape: append([]int{}, t.shape...), RankKnown: true}
		}
		bc.in = append(bc.in, vi)
	}
	for i := range n.Outputs {
		dt := payload.Float32
		if i < len(c.outTypes) {
			dt = c.outTypes[i]
		}
		bc.out = append(bc.out, model.ValueInfo{Name: n.Outputs[i], DType: dt})
	}
	return bc
}

// runNode builds the node's kernel and runs it once on ins, as the
// executor would. It returns the outputs or the first error.
func runNode(tb testing.TB, c nodeCase, ins ...*tensor) ([]*tensor, error) {
	tb.Helper()
	return runNodeOn(tb, c, nil, ins...)
}

// runNodeOn is runNode with the kernel's products on pool (nil: one
// thread).
func runNodeOn(tb testing.TB, c nodeCase, pool *workerPool, ins ...*tensor) ([]*tensor, error) {
	tb.Helper()
	bc := caseCtx(c, ins)
	if pool != nil {
		bc.gemm = newGemmCtx(pool)
	}
	n, g := c.node, bc.g
	for _, i := range c.consts {
		t := ins[i]
		g.Initializers[n.Input(i)] = &model.Tensor{Name: n.Input(i), DType: t.dt, Shape: append([]int{}, t.shape...), Raw: t.data}
	}
	if _, err := builderOf(n); err != nil {
		tb.Fatalf("op %s not registered: %v", n.OpType, err)
	}
	k, err := buildKernel(bc)
	if err != nil {
		return nil, err
	}
	outs := make([]*tensor, len(n.Outputs))
	for i := range outs {
		outs[i] = &tensor{dt: bc.out[i].DType}
	}
	if err := newOutShaper(bc, k).shapes(ins, outs); err != nil {
		return nil, err
	}
	if a, ok := k.(aliaser); ok {
		src := ins[a.aliasInput()]
		outs[0].data = src.data[:outs[0].numel()*outs[0].dt.Size()]
		return outs, nil
	}
	for _, o := range outs {
		o.data = alignedBytes(o.numel() * o.dt.Size())
	}
	if err := k.run(ins, outs); err != nil {
		return nil, err
	}
	return outs, nil
}

// node is shorthand for a model.Node with one output "y".
func node(op string, inputs []string, attrs ...model.Attr) *model.Node {
	return &model.Node{Name: op + "_test", OpType: op, Inputs: inputs, Outputs: []string{"y"}, Attrs: attrs}
}

func aInt(name string, v int64) model.Attr { return model.Attr{Name: name, Type: model.AttrInt, I: v} }
func aFloat(name string, v float32) model.Attr {
	return model.Attr{Name: name, Type: model.AttrFloat, F: v}
}
func aInts(name string, v ...int64) model.Attr {
	return model.Attr{Name: name, Type: model.AttrInts, Ints: v}
}
func aString(name, v string) model.Attr { return model.Attr{Name: name, Type: model.AttrString, S: v} }
