package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// TestQLinearConvDepthwiseMatchesReference checks QLinearConv, which
// runs as an exact float32 depthwise convolution (dwQLinear) or, with
// constant weights, zero points and bias, on its float32 twin (buildF32)
// where its sums stay below 2²⁴, and as the integer GEMM otherwise (a
// bias too large, weight zero points not constant), against the widened
// reference sums, requantized by formula.
func TestQLinearConvDepthwiseMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 5))
	cases := []struct {
		x, w  []int
		attrs []model.Attr
	}{
		{[]int{1, 4, 13, 13}, []int{4, 1, 3, 3}, []model.Attr{aInt("group", 4), aInts("pads", 1, 1, 1, 1)}},
		{[]int{2, 6, 10, 9}, []int{12, 1, 3, 3}, []model.Attr{aInt("group", 6), aInts("pads", 1, 0, 1, 1), aInts("strides", 2, 2)}},
		{[]int{1, 3, 9, 9}, []int{3, 1, 5, 5}, []model.Attr{aInt("group", 3), aInts("pads", 4, 4, 4, 4), aInts("dilations", 2, 2)}},
		{[]int{1, 32, 20, 20}, []int{32, 1, 3, 3}, []model.Attr{aInt("group", 32), aInts("pads", 1, 1, 1, 1)}},
		// Planes large enough to be taken a few at a time
		// (qdwChunkFloats), chunks ending inside a batch item.
		{[]int{3, 10, 48, 48}, []int{20, 1, 3, 3}, []model.Attr{aInt("group", 10), aInts("pads", 1, 1, 1, 1)}},
		{[]int{1, 13, 64, 64}, []int{13, 1, 3, 3}, []model.Attr{aInt("group", 13), aInts("pads", 1, 1, 1, 1), aInts("strides", 2, 2)}},
		// Not depthwise: the float32 twin with constant weights.
		{[]int{1, 3, 17, 16}, []int{8, 3, 3, 3}, []model.Attr{aInts("pads", 1, 1, 1, 1)}},
		{[]int{2, 16, 9, 9}, []int{12, 16, 1, 1}, nil},
		{[]int{1, 32, 12, 12}, []int{16, 32, 3, 3}, []model.Attr{aInts("pads", 1, 1, 1, 1), aInts("strides", 2, 2)}},
		{[]int{1, 4, 11, 10}, []int{6, 2, 3, 3}, []model.Attr{aInt("group", 2), aInts("pads", 1, 2, 0, 1)}},
		{[]int{1, 2, 30}, []int{5, 2, 4}, []model.Attr{aInts("pads", 3, 1), aInts("strides", 3)}},
	}
	for _, cc := range cases {
		for _, xs8 := range []bool{false, true} {
			for _, ws8 := range []bool{false, true} {
				for _, big := range []bool{false, true} {
					for _, konst := range [][]int{{3}, {3, 5, 8}} {
						m := cc.w[0]
						x, w := rand8(r, xs8, -1, cc.x...), rand8(r, ws8, -1, cc.w...)
						zx, zw := rand8(r, xs8, -1), rand8(r, ws8, -1, m)
						bias := make([]int32, m)
						for i := range bias {
							bias[i] = int32(r.IntN(20001) - 10000)
							if big {
								bias[i] = 1<<24 - 5
							}
						}
						sw := make([]float32, m)
						for i := range sw {
							sw[i] = 0.001 + 0.01*r.Float32()
						}
						zy := rand8(r, xs8, -1)
						ins := []*tensor{x, mk(nil, []float32{0.05}), zx, w, mk([]int{m}, sw), zw, mk(nil, []float32{0.7}), zy, mk([]int{m}, bias)}
						c := nodeCase{node: node("QLinearConv", []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy", "b"}, cc.attrs...), opset: 10, consts: konst, outTypes: []payload.DType{zy.dt}}
						name := fmt.Sprintf("x%v w%v %v %s×%s big bias %v consts %v", cc.x, cc.w, cc.attrs, dt8(xs8), dt8(ws8), big, konst)
						outs, err := runNode(t, c, ins...)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						qk := shapedQConv(t, c, ins)
						acc := refQConv(qk, x, w, zx, zw)
						lo, hi, _ := quantRange(zy.dt)
						z := float64(widen8(zy)[0])
						spatial := len(acc) / (qk.nb * m)
						got := outs[0]
						for i, a := range acc {
							ch := i / spatial % m
							mult := float32(0.05) * sw[ch] / float32(0.7)
							want := roundClamp(float64(float32(a+bias[ch])*mult), z, lo, hi)
							g := float64(got.data[i])
							if got.dt == payload.Int8 {
								g = float64(int8(got.data[i]))
							}
							if g != want {
								t.Fatalf("%s: element %d is %v, want %v", name, i, g, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestQLinearConvDepthwiseThreads checks that a depthwise QLinearConv
// split across two threads gives the bits of one thread, batch items and
// chunks of planes split between the parts, and allocates nothing.
func TestQLinearConvDepthwiseThreads(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	for _, cc := range []struct {
		x, w  []int
		attrs []model.Attr
	}{
		{[]int{3, 10, 48, 48}, []int{20, 1, 3, 3}, []model.Attr{aInt("group", 10), aInts("pads", 1, 1, 1, 1)}},
		{[]int{1, 96, 56, 56}, []int{96, 1, 3, 3}, []model.Attr{aInt("group", 96), aInts("pads", 1, 1, 1, 1)}},
		{[]int{2, 7, 40, 40}, []int{7, 1, 5, 5}, []model.Attr{aInt("group", 7), aInts("pads", 2, 2, 2, 2), aInts("strides", 2, 2)}},
	} {
		m := cc.w[0]
		x, w := rand8(r, false, -1, cc.x...), rand8(r, true, -1, cc.w...)
		zx, zw := rand8(r, false, -1), rand8(r, true, -1, m)
		bias := make([]int32, m)
		sw := make([]float32, m)
		for i := range bias {
			bias[i] = int32(r.IntN(2001) - 1000)
			sw[i] = 0.001 + 0.01*r.Float32()
		}
		ins := []*tensor{x, mk(nil, []float32{0.05}), zx, w, mk([]int{m}, sw), zw, mk(nil, []float32{0.7}), rand8(r, false, -1), mk([]int{m}, bias)}
		c := nodeCase{node: node("QLinearConv", []string{"x", "sx", "zx", "w", "sw", "zw", "sy", "zy", "b"}, cc.attrs...), opset: 10, consts: []int{3}, outTypes: []payload.DType{payload.Uint8}}
		want, err := runNode(t, c, ins...)
		if err != nil {
			t.Fatal(err)
		}
		got, allocs := runThreads(t, c, 2, ins)
		for i := range want[0].data {
			if got[0].data[i] != want[0].data[i] {
				t.Fatalf("x%v w%v: element %d is %d on two threads, want %d", cc.x, cc.w, i, got[0].data[i], want[0].data[i])
			}
		}
		if allocs != 0 {
			t.Errorf("x%v w%v: %v allocations per call on two threads, want 0", cc.x, cc.w, allocs)
		}
	}
}
