package cpu

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestComputeOpsRegistered(t *testing.T) {
	for _, op := range []string{
		"Gemm", "MatMul", "Conv", "ConvTranspose",
		"MaxPool", "AveragePool", "LpPool", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool",
		"BatchNormalization", "InstanceNormalization",
	} {
		if _, ok := registry[op]; !ok {
			t.Errorf("%s is not registered", op)
		}
	}
}

func TestGemmAgainstReference(t *testing.T) {
	r := nnRng(8)
	type cshape struct {
		name  string
		shape func(m, n int) []int
	}
	cshapes := []cshape{
		{"none", nil},
		{"scalar", func(m, n int) []int { return []int{} }},
		{"[1]", func(m, n int) []int { return []int{1} }},
		{"[N]", func(m, n int) []int { return []int{n} }},
		{"[1,N]", func(m, n int) []int { return []int{1, n} }},
		{"[M,1]", func(m, n int) []int { return []int{m, 1} }},
		{"[M,N]", func(m, n int) []int { return []int{m, n} }},
	}
	for _, mnk := range [][3]int{{1, 1, 1}, {3, 17, 64}, {17, 3, 5}, {64, 33, 17}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		for ci, cs := range cshapes {
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				for _, constB := range []bool{false, true} {
					for _, dt := range []payload.DType{payload.Float32, payload.Float64} {
						name := fmt.Sprintf("m%d n%d k%d C%s trans%v const%t %s", m, n, k, cs.name, tr, constB, dt)
						alpha, beta := float32(1), float32(1)
						if ci%2 == 1 {
							alpha, beta = 0.25, -2
						}
						as, bs := []int{m, k}, []int{k, n}
						if tr[0] {
							as = []int{k, m}
						}
						if tr[1] {
							bs = []int{n, k}
						}
						a, b := nnRand(r, m*k), nnRand(r, k*n)
						attrs := []model.Attr{aInt("transA", b2i(tr[0])), aInt("transB", b2i(tr[1])), aFloat("alpha", alpha), aFloat("beta", beta)}
						inputs := []string{"a", "b"}
						ins := []*tensor{nnTensor(dt, as, a), nnTensor(dt, bs, b)}
						full := make([]float32, m*n)
						if cs.shape != nil {
							csh := cs.shape(m, n)
							cv := nnRand(r, nnProd(csh))
							inputs = append(inputs, "c")
							ins = append(ins, nnTensor(dt, csh, cv))
							for i := range m {
								for j := range n {
									ii, jj := i, j
									if len(csh) < 2 || csh[0] == 1 {
										ii = 0
									}
									if len(csh) == 0 || csh[len(csh)-1] == 1 {
										jj = 0
									}
									w := 1
									if len(csh) > 0 {
										w = csh[len(csh)-1]
									}
									full[i*n+j] = cv[ii*w+jj]
								}
							}
						}
						lda, ldb := k, n
						if tr[0] {
							lda = m
						}
						if tr[1] {
							ldb = k
						}
						effBeta := float64(beta)
						if cs.shape == nil {
							effBeta = 0
						}
						want := refGemm(tr[0], tr[1], m, n, k, float64(alpha), a, lda, b, ldb, effBeta, full, n)
						nc := nodeCase{node: node("Gemm", inputs, attrs...), outTypes: []payload.DType{dt}}
						if constB {
							nc.consts = []int{1}
						}
						outs, err := runNode(t, nc, ins...)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						nnShape(t, name, outs[0].shape, []int{m, n})
						nnClose(t, name, nnFloats(outs[0]), want, 1e-5)
					}
				}
			}
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func TestGemmErrors(t *testing.T) {
	a, b := mk([]int{2, 3}, make([]float32, 6)), mk([]int{4, 5}, make([]float32, 20))
	_, err := runNode(t, nodeCase{node: node("Gemm", []string{"a", "b"})}, a, b)
	nnWantErr(t, "K", err, errs.ShapeMismatch)
	b = mk([]int{3, 5}, make([]float32, 15))
	_, err = runNode(t, nodeCase{node: node("Gemm", []string{"a", "b", "c"})}, a, b, mk([]int{3, 5}, make([]float32, 15)))
	nnWantErr(t, "C rows", err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Gemm", []string{"a", "b", "c"})}, a, b, mk([]int{4}, make([]float32, 4)))
	nnWantErr(t, "C cols", err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Gemm", []string{"a", "b"})}, mk([]int{2, 3, 1}, make([]float32, 6)), b)
	nnWantErr(t, "rank", err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("Gemm", []string{"a", "b"})}, mk([]int{2, 3}, make([]int8, 6)), mk([]int{3, 5}, make([]int8, 15)))
	nnWantErr(t, "int8", err, errs.Unsupported)
	_, err = runNode(t, nodeCase{node: node("Gemm", []string{"a", "b"}, aFloat("transA", 1))}, a, b)
	nnWantErr(t, "attribute type", err, errs.InvalidArtifact)
}

// TestComputeKernelsAllocateNothing runs each kernel again after a first
// run and checks that shape and run allocate nothing.
func TestComputeKernelsAllocateNothing(t *testing.T) {
	r := nnRng(12)
	cases := []struct {
		n   *model.Node
		ins []*tensor
	}{
		{node("Gemm", []string{"a", "b", "c"}, aInt("transB", 1)), []*tensor{mk([]int{3, 4}, nnRand(r, 12)), mk([]int{5, 4}, nnRand(r, 20)), mk([]int{5}, nnRand(r, 5))}},
		{node("MatMul", []string{"a", "b"}), []*tensor{mk([]int{2, 3, 4}, nnRand(r, 24)), mk([]int{2, 4, 5}, nnRand(r, 40))}},
		{node("Conv", []string{"x", "w", "b"}, aInts("pads", 1, 1, 1, 1)), []*tensor{mk([]int{1, 2, 5, 5}, nnRand(r, 50)), mk([]int{3, 2, 3, 3}, nnRand(r, 54)), mk([]int{3}, nnRand(r, 3))}},
		{node("Conv", []string{"x", "w"}, aInt("group", 2)), []*tensor{mk([]int{1, 2, 5, 5}, nnRand(r, 50)), mk([]int{2, 1, 3, 3}, nnRand(r, 18))}},
		{node("ConvTranspose", []string{"x", "w"}, aInts("strides", 2, 2)), []*tensor{mk([]int{1, 2, 3, 3}, nnRand(r, 18)), mk([]int{2, 3, 3, 3}, nnRand(r, 54))}},
		{node("MaxPool", []string{"x"}, aInts("kernel_shape", 2, 2)), []*tensor{mk([]int{1, 2, 5, 5}, nnRand(r, 50))}},
		{node("AveragePool", []string{"x"}, aInts("kernel_shape", 2, 2)), []*tensor{mk([]int{1, 2, 5, 5}, nnRand(r, 50))}},
		{node("GlobalAveragePool", []string{"x"}), []*tensor{mk([]int{1, 2, 5, 5}, nnRand(r, 50))}},
		{node("BatchNormalization", []string{"x", "s", "b", "m", "v"}), []*tensor{mk([]int{1, 2, 5}, nnRand(r, 10)), mk([]int{2}, []float32{1, 2}), mk([]int{2}, []float32{1, 2}), mk([]int{2}, []float32{1, 2}), mk([]int{2}, []float32{1, 2})}},
		{node("InstanceNormalization", []string{"x", "s", "b"}), []*tensor{mk([]int{1, 2, 5}, nnRand(r, 10)), mk([]int{2}, []float32{1, 2}), mk([]int{2}, []float32{1, 2})}},
	}
	for _, c := range cases {
		bc := &buildCtx{g: model.NewGraph(), n: c.n, opset: 17}
		for _, in := range c.ins {
			bc.in = append(bc.in, model.ValueInfo{DType: in.dt, Shape: in.shape, RankKnown: true})
		}
		bc.out = []model.ValueInfo{{DType: payload.Float32}}
		k, err := buildKernel(bc)
		if err != nil {
			t.Fatal(err)
		}
		sh := newOutShaper(bc, k)
		out := []*tensor{{dt: payload.Float32}}
		step := func() {
			if err := sh.shapes(c.ins, out); err != nil {
				t.Fatal(err)
			}
			if need := out[0].numel() * 4; len(out[0].data) != need {
				out[0].data = alignedBytes(need)
			}
			if err := k.run(c.ins, out); err != nil {
				t.Fatal(err)
			}
		}
		step()
		if a := testing.AllocsPerRun(5, step); a != 0 {
			t.Errorf("%s: %v allocations per run", c.n.OpType, a)
		}
	}
}
