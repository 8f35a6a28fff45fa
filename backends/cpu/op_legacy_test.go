package cpu

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// TestLegacyForms runs the forms of the elementwise ops from before opset
// 7 (legacy broadcast, per-channel PRelu, Cast's type names), checking
// values against plain index arithmetic.
func TestLegacyForms(t *testing.T) {
	seq := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(i) - 5
		}
		return v
	}
	a := seq(12) // [2,3,2]
	cases := []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want string
	}{
		{"add axis 1", nodeCase{node: node("Add", []string{"a", "b"}, aInt("broadcast", 1), aInt("axis", 1)), opset: 6},
			[]*tensor{mk([]int{2, 3, 2}, a), mk([]int{3}, []float32{10, 20, 30})},
			"[5 6 17 18 29 30 11 12 23 24 35 36]"},
		{"add axis 0 with ones", nodeCase{node: node("Add", []string{"a", "b"}, aInt("broadcast", 1), aInt("axis", 0)), opset: 6},
			[]*tensor{mk([]int{2, 3, 2}, a), mk([]int{2, 1}, []float32{100, 200})},
			"[95 96 97 98 99 100 201 202 203 204 205 206]"},
		{"mul suffix", nodeCase{node: node("Mul", []string{"a", "b"}, aInt("broadcast", 1)), opset: 1},
			[]*tensor{mk([]int{2, 3, 2}, a), mk([]int{3, 2}, []float32{1, 0, 1, 0, 1, 0})},
			"[-5 -0 -3 -0 -1 0 1 0 3 0 5 0]"},
		{"sub scalar", nodeCase{node: node("Sub", []string{"a", "b"}, aInt("broadcast", 1)), opset: 6},
			[]*tensor{mk([]int{2, 3, 2}, a), mk([]int{}, []float32{1})},
			"[-6 -5 -4 -3 -2 -1 0 1 2 3 4 5]"},
		{"same shapes", nodeCase{node: node("Div", []string{"a", "b"}), opset: 6},
			[]*tensor{mk([]int{2}, []float32{6, 8}), mk([]int{2}, []float32{2, 4})},
			"[3 2]"},
		{"equal axis 0", nodeCase{node: node("Equal", []string{"a", "b"}, aInt("broadcast", 1), aInt("axis", 0)), opset: 1, outTypes: []payload.DType{payload.Bool}},
			[]*tensor{mk([]int{2, 2}, []int32{1, 2, 3, 3}), mk([]int{2}, []int32{1, 3})},
			"[true false true true]"},
		{"prelu per channel", nodeCase{node: node("PRelu", []string{"x", "s"}), opset: 6},
			[]*tensor{mk([]int{1, 2, 2}, []float32{-1, 2, -3, 4}), mk([]int{2}, []float32{0.5, 2})},
			"[-0.5 2 -6 4]"},
		{"prelu one slope", nodeCase{node: node("PRelu", []string{"x", "s"}), opset: 1},
			[]*tensor{mk([]int{2, 2}, []float32{-1, 2, -3, 4}), mk([]int{1, 1}, []float32{3})},
			"[-3 2 -9 4]"},
		{"cast type name", nodeCase{node: node("Cast", []string{"x"}, aString("to", "INT32")), opset: 1, outTypes: []payload.DType{payload.Int32}},
			[]*tensor{mk([]int{3}, []float32{1.5, -2.5, 7})},
			"[1 -2 7]"},
		{"sum equal shapes", nodeCase{node: node("Sum", []string{"a", "b", "c"}), opset: 6},
			[]*tensor{mk([]int{2}, []float32{1, 2}), mk([]int{2}, []float32{10, 20}), mk([]int{2}, []float32{100, 200})},
			"[111 222]"},
	}
	for _, c := range cases {
		outs, err := runNode(t, c.c, c.ins...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got string
		switch outs[0].dt {
		case payload.Bool:
			got = fmt.Sprint(outs[0].bools())
		case payload.Int32:
			got = fmt.Sprint(outs[0].i32())
		default:
			got = fmt.Sprint(outs[0].f32())
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// TestLegacyRefusals checks that the legacy forms lintel cannot run, or
// shapes they do not allow, are refused rather than run.
func TestLegacyRefusals(t *testing.T) {
	f := func(shape ...int) *tensor { return mk(shape, make([]float32, ewNumel(shape))) }
	cases := []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"no broadcast attribute", nodeCase{node: node("Add", []string{"a", "b"}), opset: 6}, []*tensor{f(2, 3), f(3)}, errs.ShapeMismatch},
		{"B expands A", nodeCase{node: node("Add", []string{"a", "b"}, aInt("broadcast", 1)), opset: 6}, []*tensor{f(2, 1), f(3)}, errs.ShapeMismatch},
		{"axis out of range", nodeCase{node: node("Mul", []string{"a", "b"}, aInt("broadcast", 1), aInt("axis", 2)), opset: 6}, []*tensor{f(2, 3), f(3)}, errs.ShapeMismatch},
		{"sum broadcast before 8", nodeCase{node: node("Sum", []string{"a", "b"}), opset: 7}, []*tensor{f(2, 3), f(3)}, errs.ShapeMismatch},
		{"prelu trailing slope before 7", nodeCase{node: node("PRelu", []string{"x", "s"}), opset: 6}, []*tensor{f(2, 3, 4), f(4)}, errs.ShapeMismatch},
		{"dropout training by default", nodeCase{node: node("Dropout", []string{"x"}), opset: 6}, []*tensor{f(2)}, errs.Unsupported},
		{"clip float64 before 11", nodeCase{node: node("Clip", []string{"x"}), opset: 6}, []*tensor{mk([]int{1}, []float64{1})}, errs.Unsupported},
	}
	for _, c := range cases {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}
