package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// TestDirectPadShared runs three direct convolutions in a row that
// share the model's padded-input buffer with different layouts: the
// first without padding fills the buffer with data where the second's
// padding (2, dilation 2) lies, and the third pads by 1. Each must read
// zeros in its padding, call after call, and all three must use the one
// buffer.
func TestDirectPadShared(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	type layer struct {
		c, m, pad, dil int
		w, b           []float32
	}
	layers := []layer{{c: 4, m: 6, pad: 0, dil: 1}, {c: 6, m: 5, pad: 2, dil: 2}, {c: 5, m: 4, pad: 1, dil: 1}}
	g := onnxbuild.Graph{Name: "pads"}
	g.Inputs = []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 4, 23, 23)}
	g.Outputs = []onnxbuild.Value{{Name: "y2", DType: payload.Float32, NoShape: true}}
	in := "x"
	for i := range layers {
		l := &layers[i]
		l.w, l.b = make([]float32, l.m*l.c*9), make([]float32, l.m)
		for j := range l.w {
			l.w[j] = float32(r.NormFloat64()) * 0.3
		}
		for j := range l.b {
			l.b[j] = float32(r.NormFloat64())
		}
		wn, bn, out := "w"+string(rune('0'+i)), "b"+string(rune('0'+i)), "y"+string(rune('0'+i))
		g.Initializers = append(g.Initializers, onnxbuild.TensorOf(wn, []int64{int64(l.m), int64(l.c), 3, 3}, l.w), onnxbuild.TensorOf(bn, []int64{int64(l.m)}, l.b))
		p, d := int64(l.pad), int64(l.dil)
		g.Nodes = append(g.Nodes, onnxbuild.Node{Name: out, Op: "Conv", Inputs: []string{in, wn, bn}, Outputs: []string{out},
			Attrs: []onnxbuild.Attr{onnxbuild.AInts("pads", p, p, p, p), onnxbuild.AInts("dilations", d, d), onnxbuild.AInts("kernel_shape", 3, 3)}})
		in = out
	}
	mod := onnxbuild.Model{Opset: 17, Graph: g}
	m, _ := loadFused(t, mod.Encode(), false, 1)
	x := make([]float32, 4*23*23)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	// The reference, layer by layer, rounded to float32 between layers.
	want, shape := x, []int{1, 4, 23, 23}
	for _, l := range layers {
		oh := shape[2] + 2*l.pad - 2*l.dil
		ref := refConv(want, shape, l.w, []int{l.m, l.c, 3, 3}, l.b, 1, []int{1, 1}, []int{l.dil, l.dil}, []int{l.pad, l.pad}, []int{oh, oh})
		want = make([]float32, len(ref))
		for i, v := range ref {
			want[i] = float32(v)
		}
		shape = []int{1, l.m, oh, oh}
	}
	var out f32t
	for call := range 3 {
		if err := m.InferOne(&f32t{Shape: []int{1, 4, 23, 23}, Data: x}, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Data) != len(want) {
			t.Fatalf("call %d: %d outputs, want %d", call, len(out.Data), len(want))
		}
		for i := range want {
			if d := math.Abs(float64(out.Data[i] - want[i])); d > 1e-4*max(1, math.Abs(float64(want[i]))) {
				t.Fatalf("call %d: y[%d] = %v, want %v", call, i, out.Data[i], want[i])
			}
		}
	}
	var bufs []*float32
	for _, st := range m.prog.steps {
		if k, ok := st.k.(*convKernel); ok {
			if k.dp.pad == nil {
				t.Fatalf("conv %s did not run on the direct kernels", st.n.Name)
			}
			bufs = append(bufs, &k.dp.pad[0])
		}
	}
	if len(bufs) != 3 || bufs[0] != bufs[1] || bufs[1] != bufs[2] {
		t.Errorf("the convolutions' padded inputs: %v, want three views of one buffer", bufs)
	}
}
