package cpu_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// roundTo returns v rounded to nearest even in dt (float16 or bfloat16)
// and widened back, or v itself for float32.
func roundTo(dt payload.DType, v float32) float32 {
	switch dt {
	case payload.Float16:
		return float16.Fromfloat32(v).Float32()
	case payload.BF16:
		return payload.BFloat16From(v).Float32()
	}
	return v
}

// halfTensor returns an initializer holding vals in dt.
func halfTensor(name string, dt payload.DType, shape []int64, vals []float32) onnxbuild.Tensor {
	switch dt {
	case payload.Float16:
		h := make([]float16.Float16, len(vals))
		for i, v := range vals {
			h[i] = float16.Fromfloat32(v)
		}
		return onnxbuild.TensorOf(name, shape, h)
	case payload.BF16:
		h := make([]payload.BFloat16, len(vals))
		for i, v := range vals {
			h[i] = payload.BFloat16From(v)
		}
		return onnxbuild.TensorOf(name, shape, h)
	}
	return onnxbuild.TensorOf(name, shape, vals)
}

// smallUNet returns a small U-shaped CNN with ISNet's ops (Conv, Relu,
// MaxPool, Resize, Concat, Add, Sigmoid) computing in dt, its weights
// drawn from seed and rounded to half (so that the float32 and the half
// forms hold the same numbers). With castIO its input and outputs are
// float32, cast to and from dt at the ends, as converters that keep the
// model's interface emit; otherwise they are of type dt. Input x is
// 1×3×16×16; outputs y (1×1×16×16) and side (1×8×8×8).
func smallUNet(dt, half payload.DType, castIO bool) []byte {
	r := rand.New(rand.NewPCG(11, 12))
	w := func(name string, shape ...int64) onnxbuild.Tensor {
		n := int64(1)
		for _, d := range shape {
			n *= d
		}
		v := make([]float32, n)
		s := float32(1 / math.Sqrt(float64(n/shape[0])))
		for i := range v {
			v[i] = roundTo(half, (r.Float32()*2-1)*s)
		}
		return halfTensor(name, dt, shape, v)
	}
	io := dt
	if castIO {
		io = payload.Float32
	}
	g := onnxbuild.Graph{
		Name:    "unet",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", io, 1, 3, 16, 16)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", io, 1, 1, 16, 16), onnxbuild.Input("side", io, 1, 8, 8, 8)},
		Initializers: []onnxbuild.Tensor{
			w("w1", 8, 3, 3, 3), w("b1", 8), w("w2", 8, 8, 3, 3), w("b2", 8),
			w("w3", 8, 16, 3, 3), w("b3", 8), w("w4", 1, 8, 1, 1), w("b4", 1),
			onnxbuild.TensorOf("sizes", []int64{4}, []int64{1, 8, 16, 16}),
		},
	}
	pad := onnxbuild.AInts("pads", 1, 1, 1, 1)
	in, y, side := "x", "y", "side"
	if castIO {
		in, y, side = "xh", "yh", "sideh"
		g.Nodes = append(g.Nodes, onnxbuild.Node{Op: "Cast", Inputs: []string{"x"}, Outputs: []string{in}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("to", int64(dt))}})
	}
	g.Nodes = append(g.Nodes,
		onnxbuild.Node{Op: "Conv", Inputs: []string{in, "w1", "b1"}, Outputs: []string{"c1"}, Attrs: []onnxbuild.Attr{pad}},
		onnxbuild.Node{Op: "Relu", Inputs: []string{"c1"}, Outputs: []string{"r1"}},
		onnxbuild.Node{Op: "MaxPool", Inputs: []string{"r1"}, Outputs: []string{"p1"}, Attrs: []onnxbuild.Attr{onnxbuild.AInts("kernel_shape", 2, 2), onnxbuild.AInts("strides", 2, 2)}},
		onnxbuild.Node{Op: "Conv", Inputs: []string{"p1", "w2", "b2"}, Outputs: []string{"c2"}, Attrs: []onnxbuild.Attr{pad}},
		onnxbuild.Node{Op: "Relu", Inputs: []string{"c2"}, Outputs: []string{"r2"}},
		onnxbuild.Node{Op: "Add", Inputs: []string{"r2", "p1"}, Outputs: []string{side}},
		onnxbuild.Node{Op: "Resize", Inputs: []string{side, "", "", "sizes"}, Outputs: []string{"u2"}, Attrs: []onnxbuild.Attr{onnxbuild.AString("mode", "linear")}},
		onnxbuild.Node{Op: "Concat", Inputs: []string{"u2", "r1"}, Outputs: []string{"cat"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", 1)}},
		onnxbuild.Node{Op: "Conv", Inputs: []string{"cat", "w3", "b3"}, Outputs: []string{"c3"}, Attrs: []onnxbuild.Attr{pad}},
		onnxbuild.Node{Op: "Relu", Inputs: []string{"c3"}, Outputs: []string{"r3"}},
		onnxbuild.Node{Op: "Conv", Inputs: []string{"r3", "w4", "b4"}, Outputs: []string{"c4"}},
		onnxbuild.Node{Op: "Sigmoid", Inputs: []string{"c4"}, Outputs: []string{y}},
	)
	if castIO {
		to := []onnxbuild.Attr{onnxbuild.AInt("to", int64(payload.Float32))}
		g.Nodes = append(g.Nodes,
			onnxbuild.Node{Op: "Cast", Inputs: []string{y}, Outputs: []string{"y"}, Attrs: to},
			onnxbuild.Node{Op: "Cast", Inputs: []string{side}, Outputs: []string{"side"}, Attrs: to})
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// runMulti loads b on one thread, runs it on x (of type dt, 1×3×16×16)
// and returns its outputs widened to float32.
func runMulti(t *testing.T, b []byte, dt payload.DType, x []float32) [][]float32 {
	t.Helper()
	art, err := artifacts.FromBytes(b, "unet")
	if err != nil {
		t.Fatal(err)
	}
	m, err := cpu.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	raw := halfTensor("x", dt, nil, x).Raw
	if dt == payload.Float32 {
		raw = payload.AsBytes(x)
	}
	in := payload.Multi{Tensors: []payload.Dynamic{{Name: "x", DType: dt, Shape: []int{1, 3, 16, 16}, Data: raw}}}
	var out payload.Multi
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(5, func() {
		if err := m.InferOne(&in, &out); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Errorf("%s: InferOne allocates %v times", dt, got)
	}
	var res [][]float32
	for _, d := range out.Tensors {
		if d.DType != dt {
			t.Fatalf("output %q is %s, want %s", d.Name, d.DType, dt)
		}
		v := make([]float32, len(d.Data)/d.DType.Size())
		for i := range v {
			switch dt {
			case payload.Float32:
				v[i] = math.Float32frombits(uint32(d.Data[4*i]) | uint32(d.Data[4*i+1])<<8 | uint32(d.Data[4*i+2])<<16 | uint32(d.Data[4*i+3])<<24)
			case payload.Float16:
				v[i] = float16.Frombits(uint16(d.Data[2*i]) | uint16(d.Data[2*i+1])<<8).Float32()
			case payload.BF16:
				v[i] = payload.BFloat16(uint16(d.Data[2*i]) | uint16(d.Data[2*i+1])<<8).Float32()
			}
		}
		res = append(res, v)
	}
	return res
}

// TestHalfGraphComputesInFloat32 checks that a float16 or bfloat16 graph
// computes in float32 between its inputs and outputs: its half outputs
// are the float32 form's outputs (same weights, same input) rounded once,
// bit for bit, and where the graph's interface is float32 with Casts
// inside, its outputs are the float32 form's exactly. Rounding every
// node's result to 16 bits would move them by more.
func TestHalfGraphComputesInFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, half := range []payload.DType{payload.Float16, payload.BF16} {
		x := make([]float32, 3*16*16)
		for i := range x {
			x[i] = roundTo(half, r.Float32()*2-1)
		}
		want := runMulti(t, smallUNet(payload.Float32, half, false), payload.Float32, x)
		for _, castIO := range []bool{false, true} {
			dt := half
			if castIO {
				dt = payload.Float32
			}
			got := runMulti(t, smallUNet(half, half, castIO), dt, x)
			for k := range want {
				for i, w := range want[k] {
					if !castIO {
						w = roundTo(half, w)
					}
					if g := got[k][i]; math.Float32bits(g) != math.Float32bits(w) {
						t.Fatalf("%s castIO=%v: output %d element %d = %v, want %v (the float32 form's)", half, castIO, k, i, g, w)
					}
				}
			}
		}
	}
}
