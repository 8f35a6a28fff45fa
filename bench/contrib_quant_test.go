//go:build ort && linux

package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// contribQuantOps returns single-op models of ONNX Runtime's quantized
// contrib ops (com.microsoft): the element-wise and pooling ops on a
// residual block's activations (64×56×56, uint8), the products on a
// 256³ GEMM with constant int8 weights.
func contribQuantOps(r *rand.Rand) []int8Op {
	u8 := func(name string, shape []int64) onnxbuild.Tensor {
		return onnxbuild.TensorOf(name, shape, randBytes(r, int(prod(shape))))
	}
	i8 := func(name string, shape []int64) onnxbuild.Tensor {
		b := randBytes(r, int(prod(shape)))
		v := make([]int8, len(b))
		for i, x := range b {
			v[i] = int8(x)
		}
		return onnxbuild.TensorOf(name, shape, v)
	}
	u8s := func(name string, v uint8) onnxbuild.Tensor { return onnxbuild.Scalar(name, v) }
	i8s := func(name string, v int8) onnxbuild.Tensor { return onnxbuild.Scalar(name, v) }
	f32s := func(name string, v float32) onnxbuild.Tensor { return onnxbuild.Scalar(name, v) }
	const ms = "com.microsoft"
	act := []int64{1, 64, 56, 56}
	const m, k, n = 256, 256, 256
	bin := func(op string) int8Op {
		return int8Op{name: op + " u8 64x56x56", op: op, domain: ms, x: payload.Uint8, shape: act, out: payload.Uint8,
			inputs: []string{"sa", "za", "b", "sb", "zb", "sc", "zc"},
			consts: []onnxbuild.Tensor{f32s("sa", 0.03), u8s("za", 100), u8("b", act), f32s("sb", 0.02), u8s("zb", 90), f32s("sc", 0.05), u8s("zc", 128)}}
	}
	lut := func(op string, attrs ...onnxbuild.Attr) int8Op {
		return int8Op{name: op + " u8 64x56x56", op: op, domain: ms, x: payload.Uint8, shape: act, out: payload.Uint8,
			inputs: []string{"xs", "xz", "ys", "yz"}, attrs: attrs,
			consts: []onnxbuild.Tensor{f32s("xs", 0.05), u8s("xz", 128), f32s("ys", 1.0/256), u8s("yz", 0)}}
	}
	return []int8Op{
		bin("QLinearAdd"),
		bin("QLinearMul"),
		lut("QLinearSigmoid"),
		lut("QLinearLeakyRelu", onnxbuild.AFloat("alpha", 0.1)),
		lut("QLinearGlobalAveragePool"),
		{name: "QLinearConcat u8 2x64x56x56", op: "QLinearConcat", domain: ms, x: payload.Float32, shape: []int64{1}, out: payload.Uint8,
			inputs: []string{"yz", "a", "as", "az", "b", "bs", "bz"}, attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", 1)},
			consts: []onnxbuild.Tensor{u8s("yz", 128), u8("a", act), f32s("as", 0.05), u8s("az", 128), u8("b", act), f32s("bs", 0.03), u8s("bz", 120)}},
		{name: fmt.Sprintf("QGemm u8s8 %dx%dx%d", m, k, n), op: "QGemm", domain: ms, x: payload.Uint8, shape: []int64{m, k}, out: payload.Uint8,
			inputs: []string{"as", "az", "b", "bs", "bz", "", "ys", "yz"},
			consts: []onnxbuild.Tensor{f32s("as", 0.02), u8s("az", 117), i8("b", []int64{k, n}), f32s("bs", 0.01), i8s("bz", 0), f32s("ys", 0.5), u8s("yz", 128)}},
		{name: fmt.Sprintf("MatMulIntegerToFloat u8s8 %dx%dx%d", m, k, n), op: "MatMulIntegerToFloat", domain: ms, x: payload.Uint8, shape: []int64{m, k}, out: payload.Float32,
			inputs: []string{"b", "as", "bs", "az", "bz"},
			consts: []onnxbuild.Tensor{i8("b", []int64{k, n}), f32s("as", 0.02), f32s("bs", 0.01), u8s("az", 117), i8s("bz", 0)}},
		{name: fmt.Sprintf("DynamicQuantizeMatMul s8 %dx%dx%d", m, k, n), op: "DynamicQuantizeMatMul", domain: ms, x: payload.Float32, shape: []int64{m, k}, out: payload.Float32,
			inputs: []string{"b", "bs", "bz"},
			consts: []onnxbuild.Tensor{i8("b", []int64{k, n}), f32s("bs", 0.01), i8s("bz", 0)}},
	}
}

// TestContribQuantVsORT times the quantized contrib ops on one thread,
// lintel and ONNX Runtime interleaved, medians of the thread's CPU time.
// Set BENCH_ROUNDS to change the rounds.
func TestContribQuantVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_ROUNDS", 11)
	r := rand.New(rand.NewPCG(9, 9))
	var rows [][]string
	for _, o := range contribQuantOps(r) {
		n := int(prod(o.shape))
		var x []byte
		if o.x == payload.Float32 {
			v := make([]float32, n)
			for j := range v {
				v[j] = r.Float32()*2 - 1
				if o.op == "QLinearConcat" {
					v[j] = 0.05 // QLinearConcat's y_scale
				}
			}
			x = payload.AsBytes(v)
		} else {
			x = randBytes(r, n)
		}
		l, lOut := int8Lintel(t, o, x)
		l()
		ox := int8ORT(t, o, x, lOut.Tensors[0].Shape)
		ts := interleaveCPUFor([]func(){l, ox}, rounds, 50*time.Millisecond)
		rows = append(rows, []string{o.name, us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1]))})
		t.Logf("%v", rows[len(rows)-1])
	}
	t.Logf("lintel kernels: %s; %d rounds\n%s", kernelInfo(), rounds, table([]string{"op (one thread)", "lintel", "ONNX Runtime", "lintel / ORT"}, rows))
}
