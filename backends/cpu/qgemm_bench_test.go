package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// BenchmarkQgemm times the int8 GEMM on one thread, B prepacked, on
// every kernel this build runs.
func BenchmarkQgemm(b *testing.B) {
	kerns := append([]qKernel{{name: "go", l: qLayout{g: 4}, run: qrunGo4}}, qkernAsm...)
	for _, n := range []int{256, 1024} {
		for _, kern := range kerns {
			if kern.name == "go" && n > 256 {
				continue
			}
			b.Run(fmt.Sprintf("%s/%d", kern.name, n), func(b *testing.B) {
				g := newQgemmCtx(nil)
				g.kern = kern
				a, bb := make([]byte, n*n), make([]byte, n*n)
				c := make([]int32, n*n)
				cl := qCallFor(g, a, bb, true, false, []int32{3}, []int32{1}, n, n, n, true, c)
				b.SetBytes(int64(n * n * n))
				for b.Loop() {
					g.run(cl)
				}
			})
		}
	}
}

// benchQNode times one node's kernel, input idx constant, one thread.
func benchQNode(b *testing.B, c nodeCase, ins ...*tensor) {
	bc := caseCtx(c, ins)
	for _, i := range c.consts {
		in := ins[i]
		bc.g.Initializers[c.node.Input(i)] = &model.Tensor{Name: c.node.Input(i), DType: in.dt, Shape: append([]int{}, in.shape...), Raw: in.data}
	}
	k, err := buildKernel(bc)
	if err != nil {
		b.Fatal(err)
	}
	outs := []*tensor{{dt: bc.out[0].DType}}
	if err := newOutShaper(bc, k).shapes(ins, outs); err != nil {
		b.Fatal(err)
	}
	outs[0].data = alignedBytes(outs[0].numel() * outs[0].dt.Size())
	for b.Loop() {
		if err := k.run(ins, outs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQConv times ConvInteger and QLinearConv, 3×3 64→64 at 56×56,
// weights constant, one thread.
func BenchmarkQConv(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	x, w := rand8(r, false, -1, 1, 64, 56, 56), rand8(r, true, -1, 64, 64, 3, 3)
	f := func(v float32) *tensor { return mk(nil, []float32{v}) }
	pads := aInts("pads", 1, 1, 1, 1)
	b.Run("ConvInteger", func(b *testing.B) {
		benchQNode(b, nodeCase{node: node("ConvInteger", []string{"x", "w", "zx", "zw"}, pads), opset: 10, outTypes: []payload.DType{payload.Int32}, consts: []int{1}},
			x, w, rand8(r, false, -1), mk(nil, []int8{0}))
	})
	b.Run("QLinearConv", func(b *testing.B) {
		benchQNode(b, nodeCase{node: node("QLinearConv", []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy"}, pads), opset: 10, outTypes: []payload.DType{payload.Uint8}, consts: []int{3}},
			x, f(0.02), rand8(r, false, -1), w, f(0.01), mk(nil, []int8{0}), f(0.5), rand8(r, false, -1))
	})
	b.Run("QLinearMatMul256", func(b *testing.B) {
		benchQNode(b, nodeCase{node: node("QLinearMatMul", []string{"a", "sa", "za", "b", "sb", "zb", "sy", "zy"}), opset: 10, outTypes: []payload.DType{payload.Uint8}, consts: []int{3}},
			rand8(r, false, -1, 256, 256), f(0.02), rand8(r, false, -1), rand8(r, true, -1, 256, 256), f(0.01), rand8(r, true, -1), f(0.5), rand8(r, false, -1))
	})
}
