package cpu

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

// msNode is node for an op of ONNX Runtime's contrib domain.
func msNode(op string, inputs []string, attrs ...model.Attr) *model.Node {
	n := node(op, inputs, attrs...)
	n.Domain = msDomain
	return n
}

func TestMSGelu(t *testing.T) {
	x := func() *tensor { return mk([]int{2, 2}, []float32{-1, 0, 1, 2}) }
	b := mk([]int{2}, []float32{1, -1})
	nc := func(op string, in []string, a ...model.Attr) nodeCase { return nodeCase{node: msNode(op, in, a...)} }
	runKernelCases(t, []kernelCase{
		// 0.5·x·(1+erf(x/√2))
		{name: "Gelu", c: nc("Gelu", []string{"x"}), ins: []*tensor{x()}, shape: []int{2, 2},
			want: []float64{-0.15865525, 0, 0.84134475, 1.9544997}},
		// gelu(x + [1, -1])
		{name: "BiasGelu", c: nc("BiasGelu", []string{"x", "b"}), ins: []*tensor{x(), b}, shape: []int{2, 2},
			want: []float64{0, -0.15865525, 1.9544997, 0.84134475}},
		// 0.5·x·(1+tanh(√(2/π)·(x+0.044715x³)))
		{name: "FastGelu", c: nc("FastGelu", []string{"x"}), ins: []*tensor{x()}, shape: []int{2, 2},
			want: []float64{-0.15880801, 0, 0.84119199, 1.9545977}},
		{name: "FastGelu bias", c: nc("FastGelu", []string{"x", "b"}), ins: []*tensor{x(), b}, shape: []int{2, 2},
			want: []float64{0, -0.15880801, 1.9545977, 0.84119199}},
		// x·sigmoid(1.702x)
		{name: "QuickGelu", c: nc("QuickGelu", []string{"x"}), ins: []*tensor{x()}, shape: []int{2, 2},
			want: []float64{-0.15420423, 0, 0.84579577, 1.93565869}},
		{name: "QuickGelu alpha", c: nc("QuickGelu", []string{"x"}, aFloat("alpha", 1)), ins: []*tensor{x()}, shape: []int{2, 2},
			want: []float64{-0.26894142, 0, 0.73105858, 1.7615942}},
		{name: "bias length", c: nc("BiasGelu", []string{"x", "b"}), ins: []*tensor{x(), mk([]int{3}, []float32{1, 2, 3})}, err: errs.ShapeMismatch},
		{name: "int32", c: nc("Gelu", []string{"x"}), ins: []*tensor{mk([]int{1}, []int32{1})}, err: errs.Unsupported},
	})
	wantSteadyNoAllocs(t, nc("BiasGelu", []string{"x", "b"}), x(), b)
}

func TestMSDomainRefusesOthers(t *testing.T) {
	_, err := builderOf(msNode("DecoderMaskedMultiHeadAttention", []string{"x"}))
	if !errors.Is(err, errs.Unsupported) {
		t.Fatalf("got %v, want an unsupported-op error", err)
	}
	if got := SupportedDomainOps(msDomain); len(got) == 0 {
		t.Errorf("SupportedDomainOps(%q) is empty", msDomain)
	}
	if got := SupportedDomainOps("com.example"); got != nil {
		t.Errorf("SupportedDomainOps(com.example) = %v, want nil", got)
	}
}
