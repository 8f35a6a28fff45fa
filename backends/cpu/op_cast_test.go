package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// castOut reads a tensor's elements as float64 for comparison.
func castOut(t *tensor) []float64 {
	n := t.numel()
	out := make([]float64, n)
	for i := range out {
		switch t.dt {
		case payload.Float32:
			out[i] = float64(t.f32()[i])
		case payload.Float64:
			out[i] = t.f64()[i]
		case payload.Float16:
			out[i] = float64(elems[float16.Float16](t)[i].Float32())
		case payload.BF16:
			out[i] = float64(elems[payload.BFloat16](t)[i].Float32())
		case payload.Int8:
			out[i] = float64(elems[int8](t)[i])
		case payload.Uint8:
			out[i] = float64(t.u8()[i])
		case payload.Int16:
			out[i] = float64(elems[int16](t)[i])
		case payload.Uint16:
			out[i] = float64(elems[uint16](t)[i])
		case payload.Int32:
			out[i] = float64(t.i32()[i])
		case payload.Int64:
			out[i] = float64(t.i64()[i])
		case payload.Uint32:
			out[i] = float64(elems[uint32](t)[i])
		case payload.Uint64:
			out[i] = float64(elems[uint64](t)[i])
		case payload.Bool:
			if t.bools()[i] {
				out[i] = 1
			}
		}
	}
	return out
}

// castIn builds a tensor of dt holding vals, which must be representable.
func castIn(dt payload.DType, vals []float64) *tensor {
	n := len(vals)
	switch dt {
	case payload.Float32:
		return mk([]int{n}, ewMap(vals, func(v float64) float32 { return float32(v) }))
	case payload.Float64:
		return mk([]int{n}, vals)
	case payload.Float16:
		return mk([]int{n}, ewMap(vals, func(v float64) float16.Float16 { return float16.Fromfloat32(float32(v)) }))
	case payload.BF16:
		return mk([]int{n}, ewMap(vals, func(v float64) payload.BFloat16 { return payload.BFloat16From(float32(v)) }))
	case payload.Int8:
		return mk([]int{n}, ewMap(vals, func(v float64) int8 { return int8(v) }))
	case payload.Uint8:
		return mk([]int{n}, ewMap(vals, func(v float64) uint8 { return uint8(v) }))
	case payload.Int16:
		return mk([]int{n}, ewMap(vals, func(v float64) int16 { return int16(v) }))
	case payload.Uint16:
		return mk([]int{n}, ewMap(vals, func(v float64) uint16 { return uint16(v) }))
	case payload.Int32:
		return mk([]int{n}, ewMap(vals, func(v float64) int32 { return int32(v) }))
	case payload.Int64:
		return mk([]int{n}, ewMap(vals, func(v float64) int64 { return int64(v) }))
	case payload.Uint32:
		return mk([]int{n}, ewMap(vals, func(v float64) uint32 { return uint32(v) }))
	case payload.Uint64:
		return mk([]int{n}, ewMap(vals, func(v float64) uint64 { return uint64(v) }))
	case payload.Bool:
		return mk([]int{n}, ewMap(vals, func(v float64) bool { return v != 0 }))
	}
	return nil
}

// ewMap applies f to every element of v.
func ewMap[S, E any](v []S, f func(S) E) []E {
	out := make([]E, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

var castTypes = []payload.DType{
	payload.Float32, payload.Float64, payload.Float16, payload.BF16,
	payload.Int8, payload.Uint8, payload.Int16, payload.Uint16,
	payload.Int32, payload.Int64, payload.Uint32, payload.Uint64, payload.Bool,
}

func TestCastAllPairs(t *testing.T) {
	// Values every type holds exactly (bool aside: non-zero is true).
	vals := []float64{0, 1, 2, 7, 100}
	for _, from := range castTypes {
		for _, to := range castTypes {
			in := castIn(from, vals)
			outs, err := runNode(t, nodeCase{node: node("Cast", []string{"x"}, aInt("to", int64(to))), opset: 13, outTypes: []payload.DType{to}}, in)
			if err != nil {
				t.Fatalf("%s->%s: %v", from, to, err)
			}
			want := castOut(in)
			if to == payload.Bool {
				want = ewMap(want, func(v float64) float64 { return map[bool]float64{true: 1}[v != 0] })
			}
			if d := cmp.Diff(want, castOut(outs[0])); d != "" {
				t.Errorf("%s->%s: %s", from, to, d)
			}
			// CastLike takes its target from input 1.
			outs, err = runNode(t, nodeCase{node: node("CastLike", []string{"x", "like"}), opset: 15, outTypes: []payload.DType{to}}, in, castIn(to, []float64{1}))
			if err != nil {
				t.Fatalf("CastLike %s->%s: %v", from, to, err)
			}
			if d := cmp.Diff(want, castOut(outs[0])); d != "" {
				t.Errorf("CastLike %s->%s: %s", from, to, d)
			}
		}
	}
}

func TestCastSemantics(t *testing.T) {
	x := mk([]int{6}, []float32{-2.7, -0.5, 0.5, 2.7, float32(math.NaN()), 65504})
	cast := func(to payload.DType) *tensor {
		t.Helper()
		outs, err := runNode(t, nodeCase{node: node("Cast", []string{"x"}, aInt("to", int64(to))), opset: 19, outTypes: []payload.DType{to}}, x)
		if err != nil {
			t.Fatal(err)
		}
		return outs[0]
	}
	if d := cmp.Diff([]int32{-2, 0, 0, 2}, cast(payload.Int32).i32()[:4]); d != "" {
		t.Errorf("float32->int32 truncates: %s", d)
	}
	if d := cmp.Diff([]bool{true, true, true, true, true, true}, cast(payload.Bool).bools()); d != "" {
		t.Errorf("float32->bool: %s", d)
	}
	h := elems[float16.Float16](cast(payload.Float16))
	if !h[4].IsNaN() || h[5].Float32() != 65504 || h[3].Float32() != 2.69921875 {
		t.Errorf("float32->float16: %v", h)
	}
	b := elems[payload.BFloat16](cast(payload.BF16))
	if b[0].Float32() != -2.703125 || b[4].Float32() == b[4].Float32() {
		t.Errorf("float32->bfloat16: %v %v", b[0].Float32(), b[4].Float32())
	}
	outs, err := runNode(t, nodeCase{node: node("Cast", []string{"x"}, aInt("to", int64(payload.Float32))), outTypes: []payload.DType{payload.Float32}},
		mk([]int{2}, []int64{-3, 1 << 40}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{-3, 1 << 40}, outs[0].f32()); d != "" {
		t.Error(d)
	}
	for _, c := range []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"no to", nodeCase{node: node("Cast", []string{"x"})}, []*tensor{x}, errs.InvalidArtifact},
		{"to string", nodeCase{node: node("Cast", []string{"x"}, aInt("to", int64(payload.String))), outTypes: []payload.DType{payload.String}}, []*tensor{x}, errs.Unsupported},
		{"to complex64", nodeCase{node: node("Cast", []string{"x"}, aInt("to", int64(payload.Complex64))), outTypes: []payload.DType{payload.Complex64}}, []*tensor{x}, errs.Unsupported},
		{"out type", nodeCase{node: node("Cast", []string{"x"}, aInt("to", int64(payload.Int32))), outTypes: []payload.DType{payload.Int64}}, []*tensor{x}, errs.InvalidArtifact},
	} {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}
