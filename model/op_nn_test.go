package model

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// nnIn is what a rule test knows of one input.
type nnIn struct {
	dt       payload.DType
	dims     []int
	unranked bool
	absent   bool
	ints     []int64
	hasInts  bool
}

// nnOut is a rule's expected output: unranked when dims is nil and
// ranked is false.
type nnOut struct {
	dt     payload.DType
	dims   []int
	ranked bool
}

// kin is an input of known rank (dims -1 where unknown).
func kin(dt payload.DType, dims ...int) nnIn { return nnIn{dt: dt, dims: append([]int{}, dims...)} }

// uin is an input of unknown rank.
func uin(dt payload.DType) nnIn { return nnIn{dt: dt, unranked: true} }

// vin64 is a 1-D int64 input whose values are known.
func vin64(v ...int64) nnIn {
	return nnIn{dt: i64, dims: []int{len(v)}, ints: append([]int64{}, v...), hasInts: true}
}

// ko is an output of known rank.
func ko(dt payload.DType, dims ...int) nnOut {
	return nnOut{dt: dt, dims: append([]int{}, dims...), ranked: true}
}

// uo is an output of unknown rank.
func uo(dt payload.DType) nnOut { return nnOut{dt: dt} }

// nnCase runs one node's rule, at load or at run time.
type nnCase struct {
	name    string
	opset   int64 // 0 means 17
	runtime bool
	node    *Node
	in      []nnIn
	want    []nnOut
	// err is the sentinel a failure wraps (from Bind or the rule), nil
	// for success; errHas is a part of its message.
	err    error
	errHas string
}

// nnCtx binds n at opset and fills a context with in.
func nnCtx(n *Node, opset int64, runtime bool, in []nnIn) (Rule, *InferCtx, error) {
	_, r, err := BindNode(n, opset)
	if err != nil {
		return nil, nil, err
	}
	if r == nil {
		return nil, nil, errors.New("no descriptor for " + n.OpType)
	}
	c := NewInferCtx(n, opset, runtime)
	for i, v := range in {
		if i >= c.NumIn() {
			break
		}
		if v.absent {
			c.SetAbsent(i)
			continue
		}
		c.SetInput(i, v.dt, v.dims, !v.unranked)
		if v.hasInts {
			c.SetInts(i, v.ints)
		}
	}
	return r, c, nil
}

func runNNCases(t *testing.T, cases []nnCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opset := tc.opset
			if opset == 0 {
				opset = 17
			}
			tc.node.Name = "n"
			r, c, err := nnCtx(tc.node, opset, tc.runtime, tc.in)
			if err == nil {
				err = r.Infer(c)
			}
			if tc.err != nil {
				if err == nil {
					t.Fatalf("got no error, want %v", tc.err)
				}
				if !errors.Is(err, tc.err) {
					t.Fatalf("got error %v, want one wrapping %v", err, tc.err)
				}
				if !strings.Contains(err.Error(), tc.errHas) || !strings.Contains(err.Error(), `"n"`) {
					t.Fatalf("got error %q, want it to mention %q and the node", err, tc.errHas)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			for j, w := range tc.want {
				if tc.node.Outputs[j] == "" {
					continue // an output left out: nothing reads it
				}
				o := c.Out(j)
				got := nnOut{dt: o.DType, ranked: o.Ranked}
				if o.Ranked {
					got.dims = append([]int{}, o.Dims...)
				}
				if got.dt != w.dt || got.ranked != w.ranked || !slices.Equal(got.dims, w.dims) {
					t.Errorf("output %d: got %s %v (ranked %t), want %s %v (ranked %t)", j, got.dt, got.dims, got.ranked, w.dt, w.dims, w.ranked)
				}
			}
		})
	}
}

// TestNNRulesDoNotAllocate runs the heaviest rules of the matrix,
// normalization and reduction ops on known inputs, as a backend does on
// every call, and wants no allocation once the context has its buffers.
func TestNNRulesDoNotAllocate(t *testing.T) {
	cases := []struct {
		name  string
		opset int64
		node  *Node
		in    []nnIn
	}{
		{"MatMul batch broadcast", 17, nd("MatMul", []string{"a", "b"}, []string{"y"}),
			[]nnIn{kin(f32, 2, 1, 5, 3, 4), kin(f32, 7, 1, 4, 6)}},
		{"MatMul fused bias", 17, &Node{OpType: "MatMul", Inputs: []string{"a", "b", "c"}, Outputs: []string{"y"}, Fused: &Fusion{Bias: true}},
			[]nnIn{kin(f32, 3, 8, 4), kin(f32, 4, 6), kin(f32, 6)}},
		{"Gemm", 13, nd("Gemm", []string{"a", "b", "c"}, []string{"y"}, aI("transB", 1)),
			[]nnIn{kin(f32, 3, 4), kin(f32, 5, 4), kin(f32, 1, 5)}},
		{"BatchNormalization", 15, nd("BatchNormalization", []string{"x", "s", "b", "m", "v"}, []string{"y"}),
			[]nnIn{kin(f32, 2, 3, 4, 4), kin(f32, 3), kin(f32, 3), kin(f32, 3), kin(f32, 3)}},
		{"LayerNormalization", 17, nd("LayerNormalization", []string{"x", "s", "b"}, []string{"y", "m", "i"}, aI("axis", 1)),
			[]nnIn{kin(f32, 2, 5, 8), kin(f32, 5, 8), kin(f32, 5, 8)}},
		{"ReduceMean axes input", 18, nd("ReduceMean", []string{"x", "a"}, []string{"y"}, aI("keepdims", 0)),
			[]nnIn{kin(f32, 2, 3, 4, 5), vin64(-1, 1)}},
		{"ReduceSum attribute", 11, nd("ReduceSum", []string{"x"}, []string{"y"}, aIs("axes", 0, 2)),
			[]nnIn{kin(f32, 2, 3, 4)}},
		{"ArgMax", 13, nd("ArgMax", []string{"x"}, []string{"y"}, aI("axis", -1), aI("keepdims", 0)),
			[]nnIn{kin(f32, 2, 3, 4)}},
	}
	for _, tc := range cases {
		r, c, err := nnCtx(tc.node, tc.opset, true, tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := r.Infer(c); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := testing.AllocsPerRun(100, func() {
			if err := r.Infer(c); err != nil {
				t.Fatal(err)
			}
		})
		if got != 0 {
			t.Errorf("%s: got %v allocations per run, want 0", tc.name, got)
		}
	}
}
