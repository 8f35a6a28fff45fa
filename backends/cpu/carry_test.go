package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// loadCarried loads m for payload.Multi on one thread with opts.
func loadCarried(tb testing.TB, m onnxbuild.Model, opts compute.Options) (*Model[payload.Multi, payload.Multi], error) {
	tb.Helper()
	art, err := artifacts.FromBytes(m.Encode(), "m.onnx")
	if err != nil {
		tb.Fatal(err)
	}
	mod, err := New[payload.Multi, payload.Multi](opts).LoadModel(art)
	if err != nil {
		return nil, err
	}
	if err := mod.Init(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = mod.Close() })
	return mod, nil
}

// accumulator is s_next = s + x (or, with view, Reshape of it: a value
// the output views), y = s_next · 1; s_next is carried to s.
func accumulator(view bool) onnxbuild.Model {
	nodes := []onnxbuild.Node{testmodels.Node("Add", []string{"s", "x"}, "sum")}
	if view {
		nodes = append(nodes, testmodels.Node("Reshape", []string{"sum", "shape"}, "s_next"))
	} else {
		nodes[0] = testmodels.Node("Add", []string{"s", "x"}, "s_next")
	}
	nodes = append(nodes, testmodels.Node("Mul", []string{"s_next", "one"}, "y"))
	return onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:       []onnxbuild.Value{onnxbuild.Input("s", payload.Float32, 2), onnxbuild.Input("x", payload.Float32, 2)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 2), onnxbuild.Input("s_next", payload.Float32, 2)},
		Initializers: []onnxbuild.Tensor{onnxbuild.Scalar("one", float32(1)), onnxbuild.TensorOf("shape", []int64{1}, []int64{2})},
		Nodes:        nodes,
	}}
}

// A carried state accumulates call after call, starts from zeros, goes
// back to zeros with ResetCarries, and is neither given nor returned.
func TestCarryAccumulates(t *testing.T) {
	for _, view := range []bool{false, true} {
		m, err := loadCarried(t, accumulator(view), compute.Options{Carries: []compute.Carry{{Output: "s_next", Input: "s"}}})
		if err != nil {
			t.Fatal(err)
		}
		md := m.Metadata()
		if len(md.Inputs) != 1 || md.Inputs[0].Name != "x" || len(md.Outputs) != 1 || md.Outputs[0].Name != "y" {
			t.Fatalf("view %v: metadata lists inputs %v and outputs %v, want x and y", view, md.Inputs, md.Outputs)
		}
		x := []float32{1, 10}
		in := &payload.Multi{Tensors: []payload.Dynamic{payload.DynamicOf("x", payload.Tensor[float32]{Shape: []int{2}, Data: x})}}
		var out payload.Multi
		step := func() []float32 {
			if err := m.InferOne(in, &out); err != nil {
				t.Fatal(err)
			}
			y, _ := payload.FromBytes[float32](out.Get("y").Data)
			return y
		}
		for k := 1; k <= 3; k++ {
			if got := step(); got[0] != float32(k) || got[1] != float32(10*k) {
				t.Fatalf("view %v: call %d: got %v, want [%d %d]", view, k, got, k, 10*k)
			}
		}
		if err := m.ResetCarries(); err != nil {
			t.Fatal(err)
		}
		if got := step(); got[0] != 1 {
			t.Fatalf("view %v: after ResetCarries got %v, want [1 10]", view, got)
		}
		if n := testing.AllocsPerRun(20, func() { step() }); n != 0 {
			t.Errorf("view %v: got %v allocations per call, want 0", view, n)
		}
		err = m.InferBatch(batch.Of([]payload.Multi{*in, *in}), make([]payload.Multi, 2))
		if !errors.Is(err, compute.ErrUnsupported) {
			t.Errorf("view %v: InferBatch: got %v, want ErrUnsupported", view, err)
		}
	}
}

func TestCarryErrors(t *testing.T) {
	cases := []struct {
		name   string
		carry  compute.Carry
		target error
	}{
		{"no such input", compute.Carry{Output: "s_next", Input: "nope"}, compute.ErrShapeMismatch},
		{"no such output", compute.Carry{Output: "nope", Input: "s"}, compute.ErrShapeMismatch},
		{"output twice", compute.Carry{Output: "y", Input: "x"}, nil},
	}
	for _, c := range cases {
		carries := []compute.Carry{c.carry}
		if c.target == nil {
			carries = append(carries, compute.Carry{Output: "y", Input: "s"})
			c.target = compute.ErrShapeMismatch
		}
		_, err := loadCarried(t, accumulator(false), compute.Options{Carries: carries})
		if !errors.Is(err, c.target) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.target)
		}
	}
}

// attnCache is one Attention node over a cache: q, k, v [1, 2, s, 4],
// past and present key and value [1, 2, p, 4], causal, with y returned.
func attnCache() onnxbuild.Model {
	v4 := func(name, dim string) onnxbuild.Value {
		return onnxbuild.Value{Name: name, DType: payload.Float32, Shape: []int64{1, 2, -1, 4}, DimParams: []string{"", "", dim, ""}}
	}
	return onnxbuild.Model{Opset: 23, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{v4("q", "s"), v4("k", "s"), v4("v", "s"), v4("pk", "p"), v4("pv", "p")},
		Outputs: []onnxbuild.Value{v4("y", "s"), v4("k2", "t"), v4("v2", "t")},
		Nodes: []onnxbuild.Node{{Name: "att", Op: "Attention", Inputs: []string{"q", "k", "v", "", "pk", "pv"}, Outputs: []string{"y", "k2", "v2"},
			Attrs: []onnxbuild.Attr{onnxbuild.AInt("is_causal", 1)}}},
	}}
}

// An Attention node's carried cache, appended in place under
// MaxSequence or in two buffers without it, gives what feeding present
// back as past by hand gives, step after step, allocating nothing.
func TestCarryAttentionCache(t *testing.T) {
	ref, err := loadCarried(t, attnCache(), compute.Options{})
	if err != nil {
		t.Fatal(err)
	}
	carries := []compute.Carry{{Output: "k2", Input: "pk"}, {Output: "v2", Input: "pv"}}
	for _, ms := range []int{0, 12} {
		m, err := loadCarried(t, attnCache(), compute.Options{Carries: carries, MaxSequence: ms})
		if err != nil {
			t.Fatal(err)
		}
		if ms > 0 {
			if k := m.prog.carries[0].mode; k != carryInPlace {
				t.Fatalf("MaxSequence %d: the cache is carried in mode %d, want in place", ms, k)
			}
		}
		past := [2]payload.Dynamic{
			{Name: "pk", DType: payload.Float32, Shape: []int{1, 2, 0, 4}},
			{Name: "pv", DType: payload.Float32, Shape: []int{1, 2, 0, 4}},
		}
		var refOut [2]payload.Multi
		var out payload.Multi
		n := 0
		for step, s := range []int{3, 1, 1, 2, 1, 1, 1} {
			qkv := func(salt int) payload.Dynamic {
				x := make([]float32, 2*s*4)
				for i := range x {
					x[i] = float32(math.Sin(float64(i*3+salt*7+step*11))) * 1.3
				}
				return payload.DynamicOf([]string{"q", "k", "v"}[salt], payload.Tensor[float32]{Shape: []int{1, 2, s, 4}, Data: x})
			}
			q, k, v := qkv(0), qkv(1), qkv(2)
			ro := &refOut[step%2]
			if err := ref.InferOne(&payload.Multi{Tensors: []payload.Dynamic{q, k, v, past[0], past[1]}}, ro); err != nil {
				t.Fatal(err)
			}
			past[0].Shape, past[0].Data = ro.Get("k2").Shape, ro.Get("k2").Data
			past[1].Shape, past[1].Data = ro.Get("v2").Shape, ro.Get("v2").Data
			in := &payload.Multi{Tensors: []payload.Dynamic{q, k, v}}
			if err := m.InferOne(in, &out); err != nil {
				t.Fatal(err)
			}
			got, _ := payload.FromBytes[float32](out.Get("y").Data)
			want, _ := payload.FromBytes[float32](ro.Get("y").Data)
			for i := range want {
				if math.Abs(float64(got[i]-want[i])) > 1e-6 {
					t.Fatalf("MaxSequence %d, step %d: y[%d] = %v, want %v", ms, step, i, got[i], want[i])
				}
			}
			n += s
			if ms > 0 && step == 5 {
				if a := testing.AllocsPerRun(1, func() {
					if err := m.InferOne(in, &out); err != nil {
						t.Fatal(err)
					}
				}); a != 0 {
					t.Errorf("got %v allocations per step, want 0", a)
				}
				// That run appended a position the reference lacks:
				// start over for the last step.
				break
			}
		}
		if ms > 0 {
			// Beyond MaxSequence: refused, naming the limit.
			big := payload.DynamicOf("q", payload.Tensor[float32]{Shape: []int{1, 2, 13, 4}, Data: make([]float32, 2*13*4)})
			_ = m.ResetCarries()
			in := &payload.Multi{Tensors: []payload.Dynamic{big, {Name: "k", DType: payload.Float32, Shape: big.Shape, Data: big.Data}, {Name: "v", DType: payload.Float32, Shape: big.Shape, Data: big.Data}}}
			if err := m.InferOne(in, &out); !errors.Is(err, compute.ErrResourceUnavailable) {
				t.Errorf("13 positions under MaxSequence 12: got %v, want ErrResourceUnavailable", err)
			}
		}
	}
}
