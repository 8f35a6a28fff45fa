package cpu

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// The quantized ops of ONNX Runtime's contrib domain. Their parity with
// ONNX Runtime, bit for bit, is checked by the ortcheck suite; these
// tests pin hand-computed values, the refusals and the allocations.

var (
	qu8 = func(shape []int, v ...uint8) *tensor { return mk(shape, v) }
	qs8 = func(shape []int, v ...int8) *tensor { return mk(shape, v) }
	qf  = func(shape []int, v ...float32) *tensor { return mk(shape, v) }
	qi  = func(shape []int, v ...int32) *tensor { return mk(shape, v) }
)

var (
	u8T  = []payload.DType{payload.Uint8}
	s8T  = []payload.DType{payload.Int8}
	f32T = []payload.DType{payload.Float32}
)

func TestQLinearBinary(t *testing.T) {
	in := []string{"a", "sa", "za", "b", "sb", "zb", "sc", "zc"}
	add := nodeCase{node: msNode("QLinearAdd", in)}
	mul := nodeCase{node: msNode("QLinearMul", in)}
	one := qf(nil, 1)
	runDMCases(t, []dmCase{
		// 10·0.5 + 6·0.25 = 11.5 rounds to 12; plus 100.
		{name: "add ties to even", c: add, ins: []*tensor{qu8([]int{2}, 10, 20), qf(nil, 0.5), qu8(nil, 0), qu8([]int{2}, 4, 6), qf(nil, 0.25), qu8(nil, 0), one, qu8(nil, 100)},
			vals: []string{"[106 112]"}},
		{name: "add saturates", c: add, ins: []*tensor{qs8([]int{2}, 100, -100), one, qs8(nil, 0), qs8([]int{2}, 100, -100), one, qs8(nil, 0), one, qs8(nil, 0)},
			vals: []string{"[127 -128]"}},
		{name: "add broadcast scalar b", c: add, ins: []*tensor{qu8([]int{2, 2}, 1, 2, 3, 4), one, qu8(nil, 0), qu8([]int{1}, 2), one, qu8(nil, 0), one, qu8(nil, 0)},
			shapes: [][]int{{2, 2}}, vals: []string{"[3 4 5 6]"}},
		{name: "add broadcast scalar a", c: add, ins: []*tensor{qs8(nil, 2), one, qs8(nil, 1), qs8([]int{3}, 1, 2, 3), one, qs8(nil, 0), one, qs8(nil, -1)},
			vals: []string{"[1 2 3]"}},
		{name: "add columns", c: add, ins: []*tensor{qu8([]int{2, 1}, 1, 2), one, qu8(nil, 0), qu8([]int{2, 3}, 1, 2, 3, 4, 5, 6), one, qu8(nil, 0), qf(nil, 2), qu8(nil, 0)},
			shapes: [][]int{{2, 3}}, vals: []string{"[1 2 2 3 4 4]"}},
		{name: "add absent zero points", c: nodeCase{node: msNode("QLinearAdd", in[:7])}, ins: []*tensor{qu8([]int{1}, 5), one, nil, qu8([]int{1}, 6), one, nil, one},
			vals: []string{"[11]"}},
		// (3-1)·(5-1)·0.5·2/1 + 10.
		{name: "mul", c: mul, ins: []*tensor{qu8([]int{1}, 3), qf(nil, 0.5), qu8(nil, 1), qu8([]int{1}, 5), qf(nil, 2), qu8(nil, 1), one, qu8(nil, 10)},
			vals: []string{"[18]"}},
		{name: "mul int8 broadcast", c: mul, ins: []*tensor{qs8([]int{2, 2}, -1, 2, -3, 4), one, qs8(nil, 0), qs8([]int{2}, 10, -10), one, qs8(nil, 0), qf(nil, 0.5), qs8(nil, 0)},
			shapes: [][]int{{2, 2}}, vals: []string{"[-20 -40 -60 -80]"}},
		{name: "mul long row scalar b", c: mul, ins: []*tensor{qu8([]int{1, 600}, make([]uint8, 600)...), one, qu8(nil, 1), qu8([]int{1, 1}, 3), one, qu8(nil, 0), one, qu8(nil, 200)},
			shapes: [][]int{{1, 600}}, vals: []string{"[" + strings.TrimSuffix(strings.Repeat("197 ", 600), " ") + "]"}},
		{name: "mul saturates", c: mul, ins: []*tensor{qu8([]int{1}, 200), one, qu8(nil, 0), qu8([]int{1}, 200), one, qu8(nil, 0), one, qu8(nil, 0)},
			vals: []string{"[255]"}},
		{name: "per-channel scale refused", c: add, ins: []*tensor{qu8([]int{2}, 1, 2), qf([]int{2}, 1, 1), qu8(nil, 0), qu8([]int{2}, 1, 2), one, qu8(nil, 0), one, qu8(nil, 0)},
			err: errs.ShapeMismatch},
		{name: "zero point of another type", c: add, ins: []*tensor{qu8([]int{1}, 1), one, qs8(nil, 0), qu8([]int{1}, 1), one, qu8(nil, 0), one, qu8(nil, 0)},
			err: errs.InvalidArtifact},
		{name: "mixed operand types", c: add, ins: []*tensor{qu8([]int{1}, 1), one, qu8(nil, 0), qs8([]int{1}, 1), one, qs8(nil, 0), one, qu8(nil, 0)},
			err: errs.InvalidArtifact},
		{name: "empty", c: add, ins: []*tensor{qu8([]int{0, 3}), one, qu8(nil, 0), qu8([]int{1}, 2), one, qu8(nil, 0), one, qu8(nil, 0)}, shapes: [][]int{{0, 3}}, vals: []string{"[]"}},
		{name: "C_scale missing", c: nodeCase{node: msNode("QLinearAdd", in[:5])}, ins: []*tensor{qu8([]int{1}, 1), one, qu8(nil, 0), qu8([]int{1}, 1), one}, err: errs.InvalidArtifact},
		{name: "uint16 refused", c: add, ins: []*tensor{mk([]int{1}, []uint16{1}), one, mk(nil, []uint16{0}), mk([]int{1}, []uint16{1}), one, mk(nil, []uint16{0}), one, mk(nil, []uint16{0})},
			err: errs.Unsupported},
		{name: "float64 scale refused", c: add, ins: []*tensor{qu8([]int{1}, 1), mk(nil, []float64{1}), qu8(nil, 0), qu8([]int{1}, 1), one, qu8(nil, 0), one, qu8(nil, 0)},
			err: errs.Unsupported},
	})
	big := func() []*tensor {
		a, b := make([]uint8, 96), make([]uint8, 32)
		for i := range a {
			a[i] = uint8(i * 7)
		}
		for i := range b {
			b[i] = uint8(i * 13)
		}
		return []*tensor{qu8([]int{3, 32}, a...), qf(nil, 0.03), qu8(nil, 100), qu8([]int{32}, b...), qf(nil, 0.02), qu8(nil, 90), qf(nil, 0.05), qu8(nil, 128)}
	}
	dmNoAllocs(t, "qlinearadd", add, big()...)
	large := func() []*tensor {
		v := make([]uint8, 1<<15)
		for i := range v {
			v[i] = uint8(i * 5)
		}
		return []*tensor{qu8([]int{2, 1 << 14}, v...), qf(nil, 0.03), qu8(nil, 100), qu8([]int{2, 1 << 14}, v...), qf(nil, 0.02), qu8(nil, 90), qf(nil, 0.05), qu8(nil, 128)}
	}
	dmNoAllocs(t, "qlinearadd table", add, large()...)
	dmNoAllocs(t, "qlinearmul table", mul, large()...)
	dmNoAllocs(t, "qlinearmul", mul, big()...)
}

// TestQLinearAddNearReference holds QLinearAdd and QLinearMul on random
// operands within one step of the exact real result, rounded half to
// even and saturated (ONNX Runtime's float32 arithmetic may round a value
// within float32's error of a half the other way).
func TestQLinearAddNearReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	in := []string{"a", "sa", "za", "b", "sb", "zb", "sc", "zc"}
	for _, op := range []string{"QLinearAdd", "QLinearMul"} {
		for _, s8 := range []bool{false, true} {
			n := 300
			a, b := make([]uint8, n), make([]uint8, n)
			for i := range a {
				a[i], b[i] = uint8(r.IntN(256)), uint8(r.IntN(256))
			}
			dt := payload.Uint8
			if s8 {
				dt = payload.Int8
			}
			z := func(v int) *tensor { return &tensor{dt: dt, shape: nil, data: []byte{byte(v)}} }
			ta := &tensor{dt: dt, shape: []int{n}, data: a}
			tb := &tensor{dt: dt, shape: []int{n}, data: b}
			sa, sb, sc := float32(0.02), float32(0.013), float32(0.05)
			if op == "QLinearMul" {
				sc = 0.6
			}
			outs, err := runNode(t, nodeCase{node: msNode(op, in), outTypes: []payload.DType{dt}}, ta, qf(nil, sa), z(7), tb, qf(nil, sb), z(250), qf(nil, sc), z(3))
			if err != nil {
				t.Fatal(err)
			}
			lo, hi, _ := quantRange(dt)
			for i := range a {
				x := float64(sa) * float64(q8At(dt, a, i)-q8At(dt, []byte{7}, 0))
				y := float64(sb) * float64(q8At(dt, b, i)-q8At(dt, []byte{250}, 0))
				v := x + y
				if op == "QLinearMul" {
					v = x * y
				}
				want := roundClamp(v/float64(sc), float64(q8At(dt, []byte{3}, 0)), lo, hi)
				got := float64(q8At(dt, outs[0].data, i))
				if math.Abs(got-want) > 1 {
					t.Fatalf("%s s8=%v element %d: got %v, want %v", op, s8, i, got, want)
				}
			}
		}
	}
}

func TestQLinearLookup(t *testing.T) {
	in := []string{"x", "xs", "xz", "ys", "yz"}
	sig := nodeCase{node: msNode("QLinearSigmoid", in)}
	sigConst := nodeCase{node: msNode("QLinearSigmoid", in), consts: []int{1, 2, 3, 4}}
	leaky := func(alpha float32) nodeCase {
		return nodeCase{node: msNode("QLinearLeakyRelu", in, aFloat("alpha", alpha)), consts: []int{1, 2, 3, 4}}
	}
	runDMCases(t, []dmCase{
		// sigmoid(0) = 0.5 = 128/256; sigmoid(±large) saturates.
		{name: "sigmoid", c: sig, ins: []*tensor{qu8([]int{3}, 100, 0, 255), qf(nil, 0.5), qu8(nil, 100), qf(nil, 1.0/256), qu8(nil, 0)},
			vals: []string{"[128 0 255]"}},
		{name: "sigmoid constant table", c: sigConst, ins: []*tensor{qu8([]int{3}, 100, 0, 255), qf(nil, 0.5), qu8(nil, 100), qf(nil, 1.0/256), qu8(nil, 0)},
			vals: []string{"[128 0 255]"}},
		{name: "sigmoid int8", c: sig, ins: []*tensor{qs8([]int{2}, 0, 127), qf(nil, 0.1), qs8(nil, 0), qf(nil, 1.0/256), qs8(nil, -128)},
			vals: []string{"[0 127]"}},
		{name: "leaky relu", c: leaky(0.5), ins: []*tensor{qs8([]int{3}, -10, 0, 10), qf(nil, 0.25), qs8(nil, 0), qf(nil, 0.25), qs8(nil, 0)},
			vals: []string{"[-5 0 10]"}},
		{name: "leaky relu zero points", c: leaky(0.1), ins: []*tensor{qu8([]int{2}, 0, 200), qf(nil, 1), qu8(nil, 100), qf(nil, 1), qu8(nil, 20)},
			vals: []string{"[10 120]"}},
		{name: "leaky relu absent zero points", c: nodeCase{node: msNode("QLinearLeakyRelu", in[:4])}, ins: []*tensor{qs8([]int{2}, -20, 20), qf(nil, 1), nil, qf(nil, 1)},
			vals: []string{"[0 20]"}},
		{name: "Y_scale missing", c: nodeCase{node: msNode("QLinearSigmoid", in[:3])}, ins: []*tensor{qu8([]int{1}, 1), one32(), qu8(nil, 0)}, err: errs.InvalidArtifact},
		{name: "vector scale", c: sig, ins: []*tensor{qu8([]int{1}, 1), qf([]int{2}, 1, 1), qu8(nil, 0), one32(), qu8(nil, 0)}, err: errs.ShapeMismatch},
		{name: "constant vector scale", c: sigConst, ins: []*tensor{qu8([]int{1}, 1), qf([]int{2}, 1, 1), qu8(nil, 0), one32(), qu8(nil, 0)}, err: errs.InvalidArtifact},
		{name: "zero point of another type", c: sig, ins: []*tensor{qu8([]int{1}, 1), one32(), qs8(nil, 0), one32(), qu8(nil, 0)}, err: errs.InvalidArtifact},
		{name: "int32 refused", c: sig, ins: []*tensor{qi([]int{1}, 1), one32(), qi(nil, 0), one32(), qi(nil, 0)}, err: errs.Unsupported},
	})
	x := make([]uint8, 1000)
	for i := range x {
		x[i] = uint8(i)
	}
	dmNoAllocs(t, "qlinearsigmoid", sig, qu8([]int{1000}, x...), qf(nil, 0.05), qu8(nil, 128), qf(nil, 1.0/256), qu8(nil, 0))
	dmNoAllocs(t, "qlinearleakyrelu", leaky(0.1), qu8([]int{1000}, x...), qf(nil, 0.05), qu8(nil, 128), qf(nil, 0.05), qu8(nil, 30))
}

// one32 is a float32 scalar 1.
func one32() *tensor { return qf(nil, 1) }

// TestQTableNearReference holds the sigmoid table within one step of the
// exact logistic function, rounded half to even.
func TestQTableNearReference(t *testing.T) {
	for _, s8 := range []bool{false, true} {
		var tab qTable
		p := qParams{xs: 0.07, xz: 5, ys: 1.0 / 255, yz: 0}
		if s8 {
			p.yz = -128
		}
		tab.build(p, s8, mlasLogistic, new([256]float32))
		lo, hi := 0.0, 255.0
		if s8 {
			lo, hi = -128, 127
		}
		for i := range 256 {
			x := int32(i)
			if s8 {
				x = int32(int8(i))
			}
			v := float64(p.xs) * float64(x-p.xz)
			want := roundClamp(1/(1+math.Exp(-v))/float64(p.ys), float64(p.yz), lo, hi)
			got := float64(int32(tab[i]))
			if s8 {
				got = float64(int8(tab[i]))
			}
			if math.Abs(got-want) > 1 {
				t.Errorf("s8=%v value %d: got %v, want %v", s8, i, got, want)
			}
		}
	}
}

func TestQLinearGlobalAveragePool(t *testing.T) {
	in := []string{"x", "xs", "xz", "ys", "yz"}
	gap := nodeCase{node: msNode("QLinearGlobalAveragePool", in)}
	last := nodeCase{node: msNode("QLinearGlobalAveragePool", in, aInt("channels_last", 1))}
	x := func() *tensor { return qu8([]int{1, 2, 2, 2}, 1, 2, 3, 4, 10, 20, 30, 40) }
	runDMCases(t, []dmCase{
		// Means 2.5 (to even: 2) and 25.
		{name: "nchw", c: gap, ins: []*tensor{x(), one32(), qu8(nil, 0), one32(), qu8(nil, 0)}, shapes: [][]int{{1, 2, 1, 1}}, vals: []string{"[2 25]"}},
		// Channels of the last dim: means 11 and 16.5 (to even: 16).
		{name: "nhwc", c: last, ins: []*tensor{x(), one32(), qu8(nil, 0), one32(), qu8(nil, 0)}, shapes: [][]int{{1, 1, 1, 2}}, vals: []string{"[11 16]"}},
		{name: "int8 zero points", c: gap, ins: []*tensor{qs8([]int{1, 1, 4}, -4, -2, 0, 2), qf(nil, 0.5), qs8(nil, -3), qf(nil, 0.25), qs8(nil, 3)},
			shapes: [][]int{{1, 1, 1}}, vals: []string{"[7]"}},
		{name: "scale out of range", c: gap, ins: []*tensor{x(), qf(nil, 2000), qu8(nil, 0), qf(nil, 1), qu8(nil, 0)}, err: errs.ShapeMismatch},
		{name: "rank 2", c: gap, ins: []*tensor{qu8([]int{2, 2}, 1, 2, 3, 4), one32(), qu8(nil, 0), one32(), qu8(nil, 0)}, err: errs.ShapeMismatch},
		{name: "zero point of another type", c: gap, ins: []*tensor{x(), one32(), qs8(nil, 0), one32(), qu8(nil, 0)}, err: errs.InvalidArtifact},
	})
	big := make([]uint8, 2*8*49)
	for i := range big {
		big[i] = uint8(i)
	}
	dmNoAllocs(t, "qlinearglobalaveragepool", gap, qu8([]int{2, 8, 7, 7}, big...), qf(nil, 0.03), qu8(nil, 100), qf(nil, 0.02), qu8(nil, 110))
	dmNoAllocs(t, "qlinearglobalaveragepool nhwc", last, qu8([]int{2, 7, 7, 8}, big...), qf(nil, 0.03), qu8(nil, 100), qf(nil, 0.02), qu8(nil, 110))
}

func TestQLinearConcat(t *testing.T) {
	cat := func(axis int64, nin int, consts ...int) nodeCase {
		names := []string{"ys", "yz"}
		for i := range nin {
			names = append(names, "x"+string(rune('0'+i)), "s"+string(rune('0'+i)), "z"+string(rune('0'+i)))
		}
		return nodeCase{node: msNode("QLinearConcat", names, aInt("axis", axis)), outTypes: u8T, consts: consts}
	}
	runDMCases(t, []dmCase{
		// The first input copies, the second maps 10·0.5 → 5.
		{name: "axis 1", c: cat(1, 2), ins: []*tensor{one32(), qu8(nil, 0), qu8([]int{1, 2}, 1, 2), one32(), qu8(nil, 0), qu8([]int{1, 1}, 10), qf(nil, 0.5), qu8(nil, 0)},
			shapes: [][]int{{1, 3}}, vals: []string{"[1 2 5]"}},
		{name: "axis 0 constant tables", c: cat(0, 2, 0, 1, 3, 4, 6, 7), ins: []*tensor{one32(), qu8(nil, 10), qu8([]int{1, 2}, 1, 2), one32(), qu8(nil, 10), qu8([]int{2, 2}, 10, 20, 30, 40), qf(nil, 2), qu8(nil, 20)},
			shapes: [][]int{{3, 2}}, vals: []string{"[1 2 0 10 30 50]"}},
		{name: "negative axis int8", c: nodeCase{node: cat(-1, 2).node, outTypes: s8T}, ins: []*tensor{qf(nil, 2), qs8(nil, 0), qs8([]int{2, 1}, 4, -4), one32(), qs8(nil, 0), qs8([]int{2, 1}, 100, -100), one32(), qs8(nil, 0)},
			shapes: [][]int{{2, 2}}, vals: []string{"[2 50 -2 -50]"}},
		{name: "zero point of another type", c: cat(0, 1), ins: []*tensor{one32(), qu8(nil, 0), qu8([]int{1}, 1), one32(), qs8(nil, 0)}, err: errs.InvalidArtifact},
		{name: "vector scale", c: cat(0, 1), ins: []*tensor{one32(), qu8(nil, 0), qu8([]int{1}, 1), qf([]int{2}, 1, 2), qu8(nil, 0)}, err: errs.ShapeMismatch},
		{name: "shapes differ", c: cat(0, 2), ins: []*tensor{one32(), qu8(nil, 0), qu8([]int{1, 2}, 1, 2), one32(), qu8(nil, 0), qu8([]int{1, 3}, 1, 2, 3), one32(), qu8(nil, 0)}, err: errs.ShapeMismatch},
	})
	dmNoAllocs(t, "qlinearconcat", cat(1, 2), qf(nil, 2), qu8(nil, 1), qu8([]int{2, 3, 4}, make([]uint8, 24)...), one32(), qu8(nil, 0), qu8([]int{2, 2, 4}, make([]uint8, 16)...), qf(nil, 0.5), qu8(nil, 3))
}

func TestQGemm(t *testing.T) {
	in := []string{"a", "as", "az", "b", "bs", "bz", "c", "ys", "yz"}
	q := func(nin int, outT []payload.DType, attrs ...model.Attr) nodeCase {
		return nodeCase{node: msNode("QGemm", in[:nin], attrs...), outTypes: outT}
	}
	a := func() *tensor { return qu8([]int{1, 2}, 1, 2) }
	b := func() *tensor { return qu8([]int{2, 2}, 1, 2, 3, 4) }
	runDMCases(t, []dmCase{
		// [1 2]·[[1 2] [3 4]] = [7 10], plus C [10 20].
		{name: "requantized", c: q(9, u8T), ins: []*tensor{a(), one32(), qu8(nil, 0), b(), one32(), qu8(nil, 0), qi([]int{2}, 10, 20), one32(), qu8(nil, 0)}, vals: []string{"[17 30]"}},
		{name: "float out alpha", c: q(7, f32T, aFloat("alpha", 2)), ins: []*tensor{a(), one32(), qu8(nil, 0), b(), one32(), qu8(nil, 0), qi([]int{2}, 10, 20)}, vals: []string{"[34 60]"}},
		{name: "transposes", c: q(6, f32T, aInt("transA", 1), aInt("transB", 1)), ins: []*tensor{qu8([]int{2, 1}, 1, 2), one32(), qu8(nil, 0), qu8([]int{2, 2}, 1, 3, 2, 4), one32(), qu8(nil, 0)}, vals: []string{"[7 10]"}},
		{name: "per-column b", c: q(6, f32T), ins: []*tensor{a(), qf(nil, 0.5), qu8(nil, 1), b(), qf([]int{2}, 1, 2), qu8([]int{2}, 1, 2), qi([]int{2}, 0, 0)}, vals: []string{"[1 2]"}},
		{name: "int8 bias rows", c: q(9, s8T), ins: []*tensor{qs8([]int{2, 1}, 1, -1), one32(), qs8(nil, 0), qs8([]int{1, 2}, 3, 4), one32(), qs8(nil, 0), qi([]int{2, 1}, 100, 200), qf(nil, 2), qs8(nil, 0)},
			shapes: [][]int{{2, 2}}, vals: []string{"[52 52 98 98]"}},
		{name: "int8 A with uint8 B refused", c: q(6, f32T), ins: []*tensor{qs8([]int{1, 1}, 1), one32(), qs8(nil, 0), qu8([]int{1, 1}, 1), one32(), qu8(nil, 0)}, err: errs.Unsupported},
		{name: "b scale and zero point shapes differ", c: q(6, f32T), ins: []*tensor{a(), one32(), qu8(nil, 0), b(), qf([]int{2}, 1, 1), qu8(nil, 0)}, err: errs.ShapeMismatch},
		{name: "per-row a zero point", c: q(6, f32T), ins: []*tensor{a(), one32(), qu8([]int{2}, 0, 0), b(), one32(), qu8(nil, 0)}, err: errs.ShapeMismatch},
		{name: "C of another shape", c: q(7, f32T), ins: []*tensor{a(), one32(), qu8(nil, 0), b(), one32(), qu8(nil, 0), qi([]int{3}, 1, 2, 3)}, err: errs.ShapeMismatch},
		{name: "int8 C refused", c: q(7, f32T), ins: []*tensor{a(), one32(), qu8(nil, 0), b(), one32(), qu8(nil, 0), qs8([]int{2}, 1, 2)}, err: errs.InvalidArtifact},
	})
	big := func(shape []int) *tensor {
		v := make([]uint8, shape[0]*shape[1])
		for i := range v {
			v[i] = uint8(i * 31)
		}
		return qu8(shape, v...)
	}
	dmNoAllocs(t, "qgemm", nodeCase{node: msNode("QGemm", in, aInt("transB", 1)), outTypes: u8T, consts: []int{3}},
		big([]int{9, 40}), qf(nil, 0.02), qu8(nil, 100), big([]int{35, 40}), qf(nil, 0.01), qu8(nil, 7), qi([]int{35}, make([]int32, 35)...), qf(nil, 0.5), qu8(nil, 90))
	dmNoAllocs(t, "qgemm transA fed B", nodeCase{node: msNode("QGemm", in[:6], aInt("transA", 1)), outTypes: f32T},
		big([]int{40, 9}), qf(nil, 0.02), qu8(nil, 100), big([]int{40, 35}), qf(nil, 0.01), qu8(nil, 7))
}

// qRandBytes is a tensor of type dt (8-bit) and shape of random bytes.
func qRandBytes(r *rand.Rand, dt payload.DType, shape ...int) *tensor {
	v := make([]byte, payload.NumElems(shape))
	for i := range v {
		v[i] = byte(r.IntN(256))
	}
	return &tensor{dt: dt, shape: shape, data: v}
}

// TestQGemmMatchesReference holds QGemm's int32 product to the widened
// reference on random operands of every supported type pair.
func TestQGemmMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	in := []string{"a", "as", "az", "b", "bs", "bz"}
	for _, pair := range [][2]payload.DType{{payload.Uint8, payload.Uint8}, {payload.Uint8, payload.Int8}, {payload.Int8, payload.Int8}} {
		m, k, n := 13, 70, 37
		rnd := func(dt payload.DType, shape ...int) *tensor { return qRandBytes(r, dt, shape...) }
		a, b := rnd(pair[0], m, k), rnd(pair[1], k, n)
		za, zb := rnd(pair[0], 1), rnd(pair[1], n)
		za.shape, zb.shape = nil, []int{n}
		bs := make([]float32, n)
		for i := range bs {
			bs[i] = 1
		}
		outs, err := runNode(t, nodeCase{node: msNode("QGemm", in), outTypes: f32T}, a, one32(), za, b, qf([]int{n}, bs...), zb)
		if err != nil {
			t.Fatal(err)
		}
		zbt := &tensor{dt: zb.dt, shape: []int{n}, data: zb.data}
		want := refQMatMul(t, a, b, za, zbt)
		for i, w := range want {
			if got := outs[0].f32()[i]; got != float32(w) {
				t.Fatalf("%v×%v element %d: got %v, want %v", pair[0], pair[1], i, got, w)
			}
		}
	}
}

func TestQMatMulToFloat(t *testing.T) {
	mif := func(nin int) nodeCase {
		return nodeCase{node: msNode("MatMulIntegerToFloat", []string{"a", "b", "as", "bs", "az", "bz", "bias"}[:nin]), outTypes: f32T}
	}
	dqm := func(nin int, consts ...int) nodeCase {
		return nodeCase{node: msNode("DynamicQuantizeMatMul", []string{"a", "b", "bs", "bz", "bias"}[:nin]), outTypes: f32T, consts: consts}
	}
	runKernelCases(t, []kernelCase{
		// ((1·3 + 2·-4)·0.5·2) + 1.
		{name: "MatMulIntegerToFloat", c: mif(7), ins: []*tensor{qu8([]int{1, 2}, 1, 2), qs8([]int{2, 1}, 3, -4), qf(nil, 0.5), qf(nil, 2), qu8(nil, 0), qs8(nil, 0), qf([]int{1}, 1)},
			shape: []int{1, 1}, want: []float64{-4}},
		{name: "MatMulIntegerToFloat per column", c: mif(6), ins: []*tensor{qs8([]int{1, 2}, 1, 2), qs8([]int{2, 2}, 1, 2, 3, 4), qf(nil, 1), qf([]int{2}, 1, 0.5), qs8(nil, 1), qs8([]int{2}, 0, 2)},
			shape: []int{1, 2}, want: []float64{3, 1}},
		// A's range [0, 2.55]: scale 0.01, zero point 0.
		{name: "DynamicQuantizeMatMul", c: dqm(3), ins: []*tensor{qf([]int{1, 2}, 0, 2.55), qu8([]int{2, 1}, 1, 1), qf(nil, 1)},
			shape: []int{1, 1}, want: []float64{2.55}},
		{name: "DynamicQuantizeMatMul constant B bias", c: dqm(5, 1), ins: []*tensor{qf([]int{2, 2}, -1.28, 1.27, 0.5, 0), qs8([]int{2, 2}, 1, 0, 0, 1), qf([]int{2}, 1, 2), qs8([]int{2}, 0, 0), qf([]int{2}, 10, 20)},
			shape: []int{2, 2}, want: []float64{8.72, 22.54, 10.5, 20}},
		{name: "a_scale vector", c: mif(4), ins: []*tensor{qu8([]int{1, 1}, 1), qu8([]int{1, 1}, 1), qf([]int{2}, 1, 1), one32()}, err: errs.ShapeMismatch},
		{name: "bias length", c: mif(7), ins: []*tensor{qu8([]int{1, 1}, 1), qu8([]int{1, 1}, 1), one32(), one32(), nil, nil, qf([]int{2}, 1, 1)}, err: errs.ShapeMismatch},
		{name: "per-column scale with batched B", c: dqm(3), ins: []*tensor{qf([]int{2, 1, 2}, 1, 2, 3, 4), qu8([]int{2, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8), qf([]int{2}, 1, 1)}, err: errs.ShapeMismatch},
		{name: "float16 A refused", c: dqm(3), ins: []*tensor{mk([]int{1, 1}, []uint16{0}), qu8([]int{1, 1}, 1), one32()}, err: errs.Unsupported},
		{name: "zero point of another type", c: mif(6), ins: []*tensor{qu8([]int{1, 1}, 1), qu8([]int{1, 1}, 1), one32(), one32(), qs8(nil, 0), qu8(nil, 0)}, err: errs.InvalidArtifact},
	})
	a := make([]float32, 5*64)
	for i := range a {
		a[i] = float32(i%17) - 8
	}
	w := make([]int8, 64*24)
	for i := range w {
		w[i] = int8(i * 7)
	}
	dmNoAllocs(t, "dynamicquantizematmul", dqm(5, 1), qf([]int{5, 64}, a...), qs8([]int{64, 24}, w...), qf(nil, 0.01), qs8(nil, 0), qf([]int{24}, make([]float32, 24)...))
	dmNoAllocs(t, "matmulintegertofloat", mif(7), qu8([]int{5, 64}, make([]uint8, 320)...), qs8([]int{64, 24}, w...), qf(nil, 0.5), qf([]int{24}, make([]float32, 24)...), qu8(nil, 3), qs8([]int{24}, make([]int8, 24)...), qf([]int{24}, make([]float32, 24)...))
}

func TestSumBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 7, 8, 9, 1023, 1024, 1025, 5000, 70000} {
		x := make([]byte, n)
		for i := range x {
			x[i] = byte(r.IntN(256))
		}
		if n > 0 {
			x[0] = 255
		}
		for _, flip := range []byte{0, 0x80} {
			var want uint32
			for _, v := range x {
				want += uint32(v ^ flip)
			}
			if got := sumBytes(x, flip); got != want {
				t.Errorf("n=%d flip=%#x: got %d, want %d", n, flip, got, want)
			}
		}
	}
	all := make([]byte, 4096)
	for i := range all {
		all[i] = 255
	}
	if got, want := sumBytes(all, 0), uint32(255*4096); got != want {
		t.Errorf("all 255: got %d, want %d", got, want)
	}
}

// TestQMatMulToFloatMatchesReference holds MatMulIntegerToFloat to
// float32(product)·(a_scale·b_scale[j]) + bias[j] bit for bit on random
// operands big enough for whole and partial tiles (rows 8 at a time and
// a row alone, columns 32 at a time and a remainder), with B constant
// (packed at load) and fed at run time, on one thread and on three.
func TestQMatMulToFloatMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	m, k, n := 41, 70, 70
	rnd := func(dt payload.DType, shape ...int) *tensor { return qRandBytes(r, dt, shape...) }
	a, b := rnd(payload.Uint8, m, k), rnd(payload.Int8, k, n)
	za, zb := rnd(payload.Uint8), rnd(payload.Int8, n)
	za.shape = nil
	bs, bias := make([]float32, n), make([]float32, n)
	for j := range bs {
		bs[j] = float32(r.Float64()*0.02 + 0.001)
		bias[j] = float32(r.NormFloat64())
	}
	const as = float32(0.03)
	sums := refQMatMul(t, a, b, za, zb)
	pool := newWorkerPool(3)
	defer pool.close()
	for _, c := range []struct {
		name   string
		consts []int
		pool   *workerPool
	}{{"B fed", nil, nil}, {"B constant", []int{1}, nil}, {"B constant, three threads", []int{1}, pool}} {
		nc := nodeCase{node: msNode("MatMulIntegerToFloat", []string{"a", "b", "as", "bs", "az", "bz", "bias"}), outTypes: f32T, consts: c.consts}
		outs, err := runNodeOn(t, nc, c.pool, a, b, qf(nil, as), qf([]int{n}, bs...), za, zb, qf([]int{n}, bias...))
		if err != nil {
			t.Fatal(err)
		}
		got := outs[0].f32()
		for i, s := range sums {
			j := i % n
			want := float32(float32(s)*(as*bs[j])) + bias[j]
			if math.Float32bits(got[i]) != math.Float32bits(want) {
				t.Fatalf("%s: element %d (row %d, column %d) = %v, want %v", c.name, i, i/n, j, got[i], want)
			}
		}
	}
}
