package cpu

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// threadsCase is one node run on one thread and on two.
type threadsCase struct {
	name string
	c    nodeCase
	ins  []*tensor
	// noSplit marks a case too small to split: two threads must then
	// run it on one.
	noSplit bool
}

// runThreads builds c's kernel on a model with threads threads, runs it
// twice (the second run on grown scratch) and returns the outputs and
// the allocations of a further run.
func runThreads(t *testing.T, c nodeCase, threads int, ins []*tensor) ([]*tensor, float64) {
	t.Helper()
	var outs []*tensor
	step := threadsStepper(t, c, threads, ins)
	outs = step()
	step()
	return outs, testing.AllocsPerRun(10, func() { step() })
}

// threadsStepper builds c's kernel on a model with threads threads and
// returns a function that runs the node's rule, shaper and kernel on
// ins, returning the outputs, reused from call to call.
func threadsStepper(t testing.TB, c nodeCase, threads int, ins []*tensor) func() []*tensor {
	t.Helper()
	bc := caseCtx(c, ins)
	pool := newWorkerPool(threads)
	t.Cleanup(pool.close)
	bc.gemm = newGemmCtx(pool)
	for _, i := range c.consts {
		x := ins[i]
		bc.g.Initializers[c.node.Input(i)] = &model.Tensor{Name: c.node.Input(i), DType: x.dt, Shape: append([]int{}, x.shape...), Raw: x.data}
	}
	k, err := buildKernel(bc)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	s := newOutShaper(bc, k)
	outs := make([]*tensor, len(bc.out))
	for i, o := range bc.out {
		outs[i] = &tensor{dt: o.DType}
	}
	return func() []*tensor {
		if err := s.shapes(ins, outs); err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			if sz := o.numel() * o.dt.Size(); len(o.data) != sz {
				o.data = alignedBytes(sz)
			}
		}
		if err := k.run(ins, outs); err != nil {
			t.Fatal(err)
		}
		return outs
	}
}

// checkThreads runs each case on one thread and on two and wants the
// same bits, a split where the case is big enough, and no allocation.
func checkThreads(t *testing.T, cases []threadsCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			one, _ := runThreads(t, tc.c, 1, tc.ins)
			before := parSplits.Load()
			two, allocs := runThreads(t, tc.c, 2, tc.ins)
			split := parSplits.Load() != before
			if split == tc.noSplit {
				t.Errorf("split = %v, want %v", split, !tc.noSplit)
			}
			if allocs != 0 {
				t.Errorf("allocs per run = %v, want 0", allocs)
			}
			for i := range one {
				if !bytes.Equal(one[i].data, two[i].data) {
					t.Errorf("output %d differs between one thread and two", i)
				}
			}
		})
	}
}

// randF32s returns n values in [-scale, scale).
func randF32s(r *rand.Rand, n int, scale float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = (r.Float32()*2 - 1) * scale
	}
	return s
}

// randT returns a float32 tensor of shape with values in [-scale, scale).
func randT(r *rand.Rand, scale float32, shape ...int) *tensor {
	return mk(shape, randF32s(r, payload.NumElems(shape), scale))
}

// TestThreadsSoftmax splits Softmax and LogSoftmax rows.
func TestThreadsSoftmax(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	checkThreads(t, []threadsCase{
		{name: "softmax last axis", c: nodeCase{node: node("Softmax", []string{"x"})}, ins: []*tensor{randT(r, 8, 2, 8, 40, 97)}},
		{name: "softmax strided axis", c: nodeCase{node: node("Softmax", []string{"x"}, aInt("axis", 1))}, ins: []*tensor{randT(r, 8, 6, 30, 70)}},
		{name: "log softmax", c: nodeCase{node: node("LogSoftmax", []string{"x"})}, ins: []*tensor{randT(r, 8, 64, 300)}},
		{name: "softmax float64", c: nodeCase{node: node("Softmax", []string{"x"}), outTypes: []payload.DType{payload.Float64}}, ins: []*tensor{mk([]int{64, 300}, f64sOf(randF32s(r, 64*300, 8)))}},
		{name: "softmax small", c: nodeCase{node: node("Softmax", []string{"x"})}, ins: []*tensor{randT(r, 8, 4, 32)}, noSplit: true},
	})
}

// TestThreadsNorms splits the normalisations' rows, planes and groups.
func TestThreadsNorms(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	pos := func(n int) *tensor { // positive variances
		v := randF32s(r, n, 1)
		for i := range v {
			v[i] = v[i]*v[i] + 0.1
		}
		return mk([]int{n}, v)
	}
	checkThreads(t, []threadsCase{
		{name: "layer norm", c: nodeCase{node: node("LayerNormalization", []string{"x", "s", "b"}, aInt("axis", -1))},
			ins: []*tensor{randT(r, 4, 3, 64, 128), randT(r, 1, 128), randT(r, 1, 128)}},
		{name: "layer norm small", c: nodeCase{node: node("LayerNormalization", []string{"x", "s", "b"}, aInt("axis", -1))},
			ins: []*tensor{randT(r, 4, 4, 16), randT(r, 1, 16), randT(r, 1, 16)}, noSplit: true},
		{name: "rms norm", c: nodeCase{node: node("RMSNormalization", []string{"x", "s"}, aInt("axis", -1)), opset: 23},
			ins: []*tensor{randT(r, 4, 200, 96), randT(r, 1, 96)}},
		{name: "instance norm", c: nodeCase{node: node("InstanceNormalization", []string{"x", "s", "b"})},
			ins: []*tensor{randT(r, 4, 2, 8, 30, 30), randT(r, 1, 8), randT(r, 1, 8)}},
		{name: "group norm", c: nodeCase{node: node("GroupNormalization", []string{"x", "s", "b"}, aInt("num_groups", 4)), opset: 21},
			ins: []*tensor{randT(r, 4, 2, 8, 24, 24), randT(r, 1, 8), randT(r, 1, 8)}},
		{name: "batch norm", c: nodeCase{node: node("BatchNormalization", []string{"x", "s", "b", "m", "v"})},
			ins: []*tensor{randT(r, 4, 1, 24, 40, 40), randT(r, 1, 24), randT(r, 1, 24), randT(r, 1, 24), pos(24)}},
	})
}

// TestThreadsDataMovement splits Transpose, Concat, Slice and Gather.
func TestThreadsDataMovement(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	i64 := func(v ...int64) *tensor { return mk([]int{len(v)}, v) }
	idx := make([]int64, 300)
	for i := range idx {
		idx[i] = int64(r.IntN(200)) - 100
	}
	checkThreads(t, []threadsCase{
		{name: "transpose last two", c: nodeCase{node: node("Transpose", []string{"x"}, aInts("perm", 0, 2, 1))}, ins: []*tensor{randT(r, 1, 3, 100, 70)}},
		{name: "transpose heads", c: nodeCase{node: node("Transpose", []string{"x"}, aInts("perm", 0, 2, 1, 3))}, ins: []*tensor{randT(r, 1, 2, 64, 8, 40)}},
		{name: "transpose gather", c: nodeCase{node: node("Transpose", []string{"x"}, aInts("perm", 2, 0, 1))}, ins: []*tensor{randT(r, 1, 30, 41, 17)}},
		{name: "transpose small", c: nodeCase{node: node("Transpose", []string{"x"}, aInts("perm", 1, 0))}, ins: []*tensor{randT(r, 1, 8, 9)}, noSplit: true},
		{name: "concat channels", c: nodeCase{node: node("Concat", []string{"a", "b", "c"}, aInt("axis", 1))},
			ins: []*tensor{randT(r, 1, 1, 5, 64, 64), randT(r, 1, 1, 3, 64, 64), randT(r, 1, 1, 7, 64, 64)}},
		{name: "concat last axis", c: nodeCase{node: node("Concat", []string{"a", "b"}, aInt("axis", -1))},
			ins: []*tensor{randT(r, 1, 600, 33), randT(r, 1, 600, 61)}},
		{name: "slice", c: nodeCase{node: node("Slice", []string{"x", "s", "e", "a", "st"}), consts: []int{1, 2, 3, 4}},
			ins: []*tensor{randT(r, 1, 4, 90, 80), i64(1, 3), i64(85, 70), i64(1, 2), i64(1, 2)}},
		{name: "gather rows", c: nodeCase{node: node("Gather", []string{"x", "i"}, aInt("axis", 1))},
			ins: []*tensor{randT(r, 1, 3, 200, 64), mk([]int{300}, idx)}},
	})
}

// TestThreadsPool splits the pooling planes.
func TestThreadsPool(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	pool := func(op string, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node(op, []string{"x"}, attrs...)}
	}
	checkThreads(t, []threadsCase{
		{name: "max 2x2", c: pool("MaxPool", aInts("kernel_shape", 2, 2), aInts("strides", 2, 2)), ins: []*tensor{randT(r, 1, 1, 16, 64, 64)}},
		{name: "max 3x3 padded", c: pool("MaxPool", aInts("kernel_shape", 3, 3), aInts("strides", 2, 2), aInts("pads", 1, 1, 1, 1)), ins: []*tensor{randT(r, 1, 1, 16, 50, 50)}},
		{name: "max with indices", c: nodeCase{node: &model.Node{Name: "mp", OpType: "MaxPool", Inputs: []string{"x"}, Outputs: []string{"y", "i"},
			Attrs: []model.Attr{aInts("kernel_shape", 3, 3)}}, outTypes: []payload.DType{payload.Float32, payload.Int64}},
			ins: []*tensor{randT(r, 1, 1, 8, 30, 30)}},
		{name: "average", c: pool("AveragePool", aInts("kernel_shape", 3, 2), aInts("strides", 3, 2)), ins: []*tensor{randT(r, 1, 1, 96, 3, 80)}},
		{name: "average dilated", c: pool("AveragePool", aInts("kernel_shape", 3, 3), aInts("dilations", 2, 2)), ins: []*tensor{randT(r, 1, 1, 16, 30, 30)}},
		{name: "lp", c: pool("LpPool", aInts("kernel_shape", 2, 2), aInt("p", 3)), ins: []*tensor{randT(r, 1, 1, 16, 30, 30)}},
		{name: "global average", c: pool("GlobalAveragePool"), ins: []*tensor{randT(r, 1, 1, 96, 20, 20)}},
		{name: "global max", c: pool("GlobalMaxPool"), ins: []*tensor{randT(r, 1, 1, 96, 20, 20)}},
		{name: "global small", c: pool("GlobalAveragePool"), ins: []*tensor{randT(r, 1, 1, 8, 4, 4)}, noSplit: true},
	})
}

// TestThreadsResize splits Resize's output rows.
func TestThreadsResize(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	scales := func(v ...float32) *tensor { return mk([]int{len(v)}, v) }
	resize := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("Resize", []string{"x", "", "s"}, attrs...), consts: []int{2}, opset: 13}
	}
	checkThreads(t, []threadsCase{
		{name: "nearest 2x", c: resize(aString("mode", "nearest"), aString("coordinate_transformation_mode", "asymmetric"), aString("nearest_mode", "floor")),
			ins: []*tensor{randT(r, 1, 1, 24, 40, 40), nil, scales(1, 1, 2, 2)}},
		{name: "nearest 8x", c: resize(aString("mode", "nearest"), aString("coordinate_transformation_mode", "asymmetric"), aString("nearest_mode", "floor")),
			ins: []*tensor{randT(r, 1, 1, 4, 10, 10), nil, scales(1, 1, 8, 8)}},
		{name: "nearest half pixel", c: resize(aString("mode", "nearest")), ins: []*tensor{randT(r, 1, 1, 8, 30, 30), nil, scales(1, 1, 1.7, 2.3)}},
		{name: "linear", c: resize(aString("mode", "linear")), ins: []*tensor{randT(r, 1, 1, 16, 30, 30), nil, scales(1, 1, 2, 2)}},
		{name: "cubic", c: resize(aString("mode", "cubic")), ins: []*tensor{randT(r, 1, 1, 8, 20, 20), nil, scales(1, 1, 2, 1.5)}},
	})
}

// TestThreadsReduce splits reductions along the dims before the first
// reduced axis.
func TestThreadsReduce(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	red := func(op string, axes ...int64) nodeCase {
		return nodeCase{node: node(op, []string{"x"}, aInts("axes", axes...)), opset: 13}
	}
	ints := make([]int32, 8*50*60)
	for i := range ints {
		ints[i] = int32(r.IntN(1000)) - 500
	}
	checkThreads(t, []threadsCase{
		{name: "mean last", c: red("ReduceMean", -1), ins: []*tensor{randT(r, 1, 2, 200, 120)}},
		{name: "sum middle", c: nodeCase{node: node("ReduceSum", []string{"x"}, aInts("axes", 1)), opset: 11}, ins: []*tensor{randT(r, 1, 40, 30, 50)}},
		{name: "max two axes", c: red("ReduceMax", 1, 3), ins: []*tensor{randT(r, 1, 30, 8, 20, 9)}},
		{name: "log sum exp", c: red("ReduceLogSumExp", 2), ins: []*tensor{randT(r, 4, 20, 30, 40)}},
		{name: "int sum", c: nodeCase{node: node("ReduceSum", []string{"x"}, aInts("axes", 2)), opset: 11, outTypes: []payload.DType{payload.Int32}},
			ins: []*tensor{mk([]int{8, 50, 60}, ints)}},
		{name: "first axis", c: red("ReduceSum", 0), ins: []*tensor{randT(r, 1, 200, 120)}, noSplit: true},
	})
}
