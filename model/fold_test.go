package model

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// fakeEval computes a few int64 ops on 0-D and 1-D tensors, counting its
// calls; others are Unsupported.
func fakeEval(calls *int) Evaluator {
	return func(n *Node, opset int64, in []*Tensor, outTypes []payload.DType) ([]*Tensor, error) {
		*calls++
		vals := make([][]int64, len(in))
		for i, t := range in {
			if t == nil {
				continue
			}
			v, err := t.Int64s()
			if err != nil {
				return nil, errs.New(errs.Unsupported, "fake: %v", err)
			}
			vals[i] = v
		}
		vec := func(v []int64) *Tensor { return NewTensor("", []int{len(v)}, v) }
		switch n.OpType {
		case "Add":
			a, b := vals[0], vals[1]
			if len(a) != len(b) || len(in[0].Shape) != len(in[1].Shape) {
				return nil, errs.New(errs.Unsupported, "fake: broadcasting")
			}
			out := make([]int64, len(a))
			for i := range a {
				out[i] = a[i] + b[i]
			}
			return []*Tensor{{DType: payload.Int64, Shape: append([]int{}, in[0].Shape...), Raw: NewTensor("", []int{len(out)}, out).Raw}}, nil
		case "Gather":
			var out []int64
			for _, i := range vals[1] {
				if i < 0 {
					i += int64(len(vals[0]))
				}
				out = append(out, vals[0][i])
			}
			if len(in[1].Shape) == 0 {
				return []*Tensor{NewTensor("", []int{}, out)}, nil
			}
			return []*Tensor{vec(out)}, nil
		case "Unsqueeze":
			if len(in[0].Shape) != 0 {
				return nil, errs.New(errs.Unsupported, "fake: unsqueeze of rank %d", len(in[0].Shape))
			}
			return []*Tensor{vec(vals[0])}, nil
		case "Concat":
			var out []int64
			for _, v := range vals {
				out = append(out, v...)
			}
			return []*Tensor{vec(out)}, nil
		case "Slice":
			s, e := vals[1][0], vals[2][0]
			return []*Tensor{vec(vals[0][s:e])}, nil
		case "Cast":
			f := make([]float32, len(vals[0]))
			for i, x := range vals[0] {
				f[i] = float32(x)
			}
			return []*Tensor{NewTensor("", in[0].Shape, f)}, nil
		case "Abs":
			// An evaluator failing without a sentinel.
			return nil, fmt.Errorf("boom")
		}
		return nil, errs.New(errs.Unsupported, "fake: %s", n.OpType)
	}
}

func i64s(t *testing.T, g *Graph, name string) []int64 {
	t.Helper()
	c := g.Initializers[name]
	if c == nil {
		t.Fatalf("%s is not a constant", name)
	}
	v, err := c.Int64s()
	if err != nil {
		t.Fatalf("c.Int64s: %v", err)
	}
	return v
}

func TestFoldShapeChain(t *testing.T) {
	// r = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1]))
	// s = Cast(Slice(Shape(r), 1, 2))
	// y = Add(r, r); the outputs are y and s.
	g := graph(17, []ValueInfo{vin("x", f32, 2, 3, 4)},
		[]*Tensor{scalar("zero", int64(0)), ints("ax0", 0), ints("minus1", -1), ints("one", 1), ints("two", 2)},
		nd("Shape", []string{"x"}, []string{"shx"}),
		nd("Gather", []string{"shx", "zero"}, []string{"n"}),
		nd("Unsqueeze", []string{"n", "ax0"}, []string{"n1"}),
		nd("Concat", []string{"n1", "minus1"}, []string{"target"}, aI("axis", 0)),
		nd("Reshape", []string{"x", "target"}, []string{"r"}),
		nd("Shape", []string{"r"}, []string{"shr"}),
		nd("Slice", []string{"shr", "one", "two"}, []string{"sl"}),
		nd("Cast", []string{"sl"}, []string{"s"}, aI("to", int64(payload.Float32))),
		nd("Add", []string{"r", "r"}, []string{"y"}),
	)
	g.Outputs = []ValueInfo{{Name: "y"}, {Name: "s"}}
	if err := Sort(g); err != nil {
		t.Fatalf("Sort: %v", err)
	}
	calls := 0
	if err := Fold(g, fakeEval(&calls)); err != nil {
		t.Fatalf("Fold: %v", err)
	}
	if labels := opTypes(g); labels != "Reshape,Add" {
		t.Fatalf("nodes left: got %s, want Reshape,Add", labels)
	}
	if v := i64s(t, g, "target"); fmt.Sprint(v) != "[2 -1]" {
		t.Fatalf("target: got %v, want [2 -1]", v)
	}
	s := g.Initializers["s"]
	if s == nil || s.DType != f32 {
		t.Fatalf("s: got %+v, want a float32 initializer", s)
	}
	if f, _ := View[float32](s); fmt.Sprint(f) != "[12]" {
		t.Fatalf("s: got %v, want [12]", f)
	}
	if v := g.Values["y"]; !sameDims(v.Shape, []int{2, 12}) {
		t.Fatalf("y: got %+v, want shape [2 12]", v)
	}
	// Dead values are gone: intermediate constants and the ones only they
	// used.
	for _, name := range []string{"shx", "n", "n1", "shr", "sl", "zero", "ax0", "minus1", "one", "two"} {
		if g.Initializers[name] != nil {
			t.Errorf("%s still an initializer", name)
		}
	}
}

func opTypes(g *Graph) string {
	s := ""
	for i, n := range g.Nodes {
		if i > 0 {
			s += ","
		}
		s += n.OpType
	}
	return s
}

func TestFoldKinds(t *testing.T) {
	t.Run("constant and identity without evaluator", func(t *testing.T) {
		cv := floats("", 1, 2)
		g := graph(17, []ValueInfo{vin("x", f32, 2)}, nil,
			nd("Constant", nil, []string{"c"}, aT("value", cv)),
			nd("Identity", []string{"c"}, []string{"ci"}),
			nd("Constant", nil, []string{"k"}, aIs("value_ints", 4, 5)),
			nd("Size", []string{"x"}, []string{"sz"}),
			nd("Add", []string{"x", "ci"}, []string{"y"}),
			nd("Add", []string{"k", "sz"}, []string{"z"}),
		)
		g.Outputs = []ValueInfo{{Name: "y"}, {Name: "z"}}
		if err := Fold(g, nil); err != nil {
			t.Fatalf("Fold: %v", err)
		}
		if opTypes(g) != "Add,Add" {
			t.Fatalf("nodes: got %s, want Add,Add", opTypes(g))
		}
		if g.Initializers["ci"] == nil || g.Initializers["ci"].Name != "ci" || &g.Initializers["ci"].Raw[0] != &cv.Raw[0] || cv.Name != "" {
			t.Fatal("Identity of a constant should share its bytes under the new name")
		}
		if v := i64s(t, g, "sz"); fmt.Sprint(v) != "[2]" || len(g.Initializers["sz"].Shape) != 0 {
			t.Fatalf("sz: got %v, want the scalar [2]", v)
		}
	})
	t.Run("nondeterministic", func(t *testing.T) {
		g := graph(17, nil, []*Tensor{floats("c", 1, 2)},
			nd("RandomNormalLike", []string{"c"}, []string{"r"}),
			nd("RandomUniform", nil, []string{"u"}, aIs("shape", 2)),
			nd("Add", []string{"r", "u"}, []string{"y"}),
		)
		calls := 0
		if err := Fold(g, fakeEval(&calls)); err != nil {
			t.Fatalf("Fold: %v", err)
		}
		if opTypes(g) != "RandomNormalLike,RandomUniform,Add" || calls != 0 {
			t.Fatalf("got nodes %s and %d evaluator calls, want RandomNormalLike,RandomUniform,Add and 0", opTypes(g), calls)
		}
	})
	t.Run("unsupported stays", func(t *testing.T) {
		g := graph(17, nil, []*Tensor{ints("c", 1, 2)}, nd("Neg", []string{"c"}, []string{"y"}))
		calls := 0
		if err := Fold(g, fakeEval(&calls)); err != nil {
			t.Fatalf("Fold: %v", err)
		}
		if opTypes(g) != "Neg" || calls != 1 {
			t.Fatalf("got nodes %s and %d evaluator calls, want Neg and 1", opTypes(g), calls)
		}
	})
	t.Run("other errors returned", func(t *testing.T) {
		g := graph(17, nil, []*Tensor{ints("c", 1, 2)}, nd("Abs", []string{"c"}, []string{"y"}))
		calls := 0
		err := Fold(g, fakeEval(&calls))
		if err == nil || !errors.Is(err, errs.InvalidArtifact) {
			t.Fatalf("Fold: got error %v, want one wrapping errs.InvalidArtifact", err)
		}
	})
	t.Run("too large", func(t *testing.T) {
		g := graph(17, nil, []*Tensor{ints("s", 2048, 1024)}, nd("ConstantOfShape", []string{"s"}, []string{"y"}))
		calls := 0
		if err := Fold(g, fakeEval(&calls)); err != nil {
			t.Fatalf("Fold: %v", err)
		}
		if opTypes(g) != "ConstantOfShape" || calls != 0 {
			t.Fatalf("got nodes %s and %d evaluator calls, want ConstantOfShape and 0", opTypes(g), calls)
		}
	})
	t.Run("dynamic shape stays", func(t *testing.T) {
		g := graph(17, []ValueInfo{vin("x", f32, -1, 3)}, nil, nd("Shape", []string{"x"}, []string{"y"}))
		if err := Fold(g, nil); err != nil {
			t.Fatalf("Fold: %v", err)
		}
		if opTypes(g) != "Shape" {
			t.Fatalf("nodes: got %s, want Shape", opTypes(g))
		}
	})
	t.Run("bad evaluator output", func(t *testing.T) {
		g := graph(17, nil, []*Tensor{ints("c", 1, 2)}, nd("Neg", []string{"c"}, []string{"y"}))
		bad := func(n *Node, opset int64, in []*Tensor, outTypes []payload.DType) ([]*Tensor, error) {
			return []*Tensor{ints("", 1, 2, 3)}, nil
		}
		if err := Fold(g, bad); err == nil {
			t.Fatal("an evaluator output of the wrong shape should be an error")
		}
	})
	t.Run("dead nodes", func(t *testing.T) {
		g := graph(17, []ValueInfo{vin("x", f32, 2)}, []*Tensor{floats("w", 1, 2), floats("unused", 3)},
			nd("Relu", []string{"x"}, []string{"dead"}),
			nd("Mul", []string{"x", "w"}, []string{"dead2"}),
			nd("Neg", []string{"x"}, []string{"y"}),
		)
		if err := Fold(g, nil); err != nil {
			t.Fatalf("Fold: %v", err)
		}
		if opTypes(g) != "Neg" || len(g.Initializers) != 0 || g.Values["dead"] != nil {
			t.Fatalf("got nodes %s, %d initializers, value dead %v; want Neg, 0 and nil", opTypes(g), len(g.Initializers), g.Values["dead"])
		}
	})
}
