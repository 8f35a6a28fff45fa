package cpu

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// moments returns the mean and variance of v.
func moments(v []float64) (mean, variance float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(v))
}

// numbers returns a float, int or bool tensor's values as float64.
func numbers(t *tensor) []float64 {
	n := t.numel()
	out := make([]float64, n)
	for i := range out {
		switch t.dt {
		case payload.Float32:
			out[i] = float64(t.f32()[i])
		case payload.Float64:
			out[i] = t.f64()[i]
		case payload.Int32:
			out[i] = float64(t.i32()[i])
		case payload.Int64:
			out[i] = float64(t.i64()[i])
		case payload.Bool:
			if t.bools()[i] {
				out[i] = 1
			}
		}
	}
	return out
}

func TestRandomDistributions(t *testing.T) {
	const n = 20000
	fill := func(v float32) *tensor {
		x := make([]float32, n)
		for i := range x {
			x[i] = v
		}
		return mk([]int{n}, x)
	}
	cases := []struct {
		name     string
		op       string
		attrs    []model.Attr
		in       *tensor
		out      payload.DType
		shape    []int
		mean, vr float64
		lo, hi   float64 // the range of every draw (high excluded for uniform draws)
	}{
		{"uniform", "RandomUniform", []model.Attr{aInts("shape", 100, n/100), aFloat("low", -2), aFloat("high", 3), aFloat("seed", 1)}, nil,
			payload.Float32, []int{100, n / 100}, 0.5, 25.0 / 12, -2, 3},
		{"uniform float64 default", "RandomUniform", []model.Attr{aInts("shape", n), aInt("dtype", int64(payload.Float64))}, nil,
			payload.Float64, []int{n}, 0.5, 1.0 / 12, 0, 1},
		{"normal", "RandomNormal", []model.Attr{aInts("shape", n), aFloat("mean", 1), aFloat("scale", 2), aFloat("seed", 3)}, nil,
			payload.Float32, []int{n}, 1, 4, math.Inf(-1), math.Inf(1)},
		{"uniform like", "RandomUniformLike", []model.Attr{aFloat("high", 10), aInt("dtype", int64(payload.Float32))}, mk([]int{n}, make([]int64, n)),
			payload.Float32, []int{n}, 5, 100.0 / 12, 0, 10},
		{"normal like float64", "RandomNormalLike", nil, mk([]int{2, n / 2}, make([]float64, n)),
			payload.Float64, []int{2, n / 2}, 0, 1, math.Inf(-1), math.Inf(1)},
		{"bernoulli", "Bernoulli", []model.Attr{aFloat("seed", 2)}, fill(0.3),
			payload.Float32, []int{n}, 0.3, 0.21, 0, 1},
		{"bernoulli bool", "Bernoulli", []model.Attr{aInt("dtype", int64(payload.Bool))}, fill(0.75),
			payload.Bool, []int{n}, 0.75, 0.1875, 0, 1},
		{"bernoulli certain", "Bernoulli", []model.Attr{aInt("dtype", int64(payload.Int32))}, fill(1),
			payload.Int32, []int{n}, 1, 0, 1, 1},
		{"multinomial", "Multinomial", []model.Attr{aInt("sample_size", n), aInt("dtype", int64(payload.Int64))},
			mk([]int{1, 2}, []float32{5 + float32(math.Log(0.25)), 5 + float32(math.Log(0.75))}),
			payload.Int64, []int{1, n}, 0.75, 0.1875, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ins []*tensor
			var names []string
			if c.in != nil {
				ins, names = []*tensor{c.in}, []string{"x"}
			}
			nc := nodeCase{node: node(c.op, names, c.attrs...), opset: 15, outTypes: []payload.DType{c.out}}
			outs, err := runNode(t, nc, ins...)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if outs[0].dt != c.out || !sameShape(outs[0].shape, c.shape) {
				t.Fatalf("got %s %v, want %s %v", outs[0].dt, outs[0].shape, c.out, c.shape)
			}
			v := numbers(outs[0])
			for i, x := range v {
				// Uniform draws stay below high; 0/1 draws reach it.
				open := c.op == "RandomUniform" || c.op == "RandomUniformLike"
				if x < c.lo || x > c.hi || open && x == c.hi {
					t.Fatalf("draw %d is %v, outside [%v, %v]", i, x, c.lo, c.hi)
				}
			}
			m, va := moments(v)
			// Five standard errors of the mean; 5% of the variance.
			if tol := 5 * math.Sqrt(c.vr/n); math.Abs(m-c.mean) > tol+1e-12 {
				t.Errorf("mean: got %v, want %v ± %v", m, c.mean, tol)
			}
			if math.Abs(va-c.vr) > 0.05*c.vr+1e-12 {
				t.Errorf("variance: got %v, want %v ± 5%%", va, c.vr)
			}
			if got := steadyAllocs(t, nc, ins...); got != 0 {
				t.Errorf("got %v allocations per run, want 0", got)
			}
		})
	}
}

func TestRandomSeeds(t *testing.T) {
	draw := func(attrs ...model.Attr) func() []float64 {
		step := newStepper(t, nodeCase{node: node("RandomNormal", nil, append(attrs, aInts("shape", 8))...), opset: 15})
		return func() []float64 { return numbers(step()[0]) }
	}
	seeded := draw(aFloat("seed", 7))
	first, second := seeded(), seeded()
	if slices.Equal(first, second) {
		t.Errorf("two calls of one seeded node drew the same values %v", first)
	}
	again := draw(aFloat("seed", 7))
	if got := again(); !slices.Equal(got, first) {
		t.Errorf("seed 7 again: got first draws %v, want %v", got, first)
	}
	if got := again(); !slices.Equal(got, second) {
		t.Errorf("seed 7 again: got second draws %v, want %v", got, second)
	}
	if got := draw(aFloat("seed", 8))(); slices.Equal(got, first) {
		t.Errorf("seeds 7 and 8 drew the same values %v", got)
	}
	if a, b := draw()(), draw()(); slices.Equal(a, b) {
		t.Errorf("two unseeded nodes drew the same values %v", a)
	}
}

func TestRandomErrors(t *testing.T) {
	cases := []struct {
		name string
		n    *model.Node
		ins  []*tensor
		want error
	}{
		{"no shape", node("RandomUniform", nil), nil, errs.InvalidArtifact},
		{"negative shape", node("RandomNormal", nil, aInts("shape", 2, -1)), nil, errs.InvalidArtifact},
		{"int output", node("RandomNormal", nil, aInts("shape", 2), aInt("dtype", int64(payload.Int32))), nil, errs.Unsupported},
		{"bad dtype", node("RandomUniform", nil, aInts("shape", 2), aInt("dtype", 99)), nil, errs.InvalidArtifact},
		{"multinomial float output", node("Multinomial", []string{"x"}, aInt("dtype", int64(payload.Float32))), []*tensor{mk([]int{1, 2}, []float32{0, 0})}, errs.InvalidArtifact},
		{"multinomial rank", node("Multinomial", []string{"x"}), []*tensor{mk([]int{2}, []float32{0, 0})}, errs.ShapeMismatch},
		{"multinomial no classes", node("Multinomial", []string{"x"}), []*tensor{mk([]int{1, 0}, []float32{})}, errs.ShapeMismatch},
		{"bernoulli int input", node("Bernoulli", []string{"x"}), []*tensor{mk([]int{2}, []int32{0, 1})}, errs.Unsupported},
	}
	for _, c := range cases {
		_, err := runNode(t, nodeCase{node: c.n, opset: 15, outTypes: []payload.DType{payload.Int32}}, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got error %v, want one wrapping %v", c.name, err, c.want)
		}
	}
}
