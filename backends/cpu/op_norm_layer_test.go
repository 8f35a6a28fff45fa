package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestLayerNormalization(t *testing.T) {
	s := []int{2, 3, 4}
	x := ewSeq(24, func(i int) float32 { return float32((i*5)%7)*0.7 - 1 })
	type tc struct {
		name  string
		axis  int64
		scale *tensor
		bias  *tensor
	}
	cases := []tc{
		{"last", -1, mk([]int{4}, []float32{1, 2, 0.5, -1}), mk([]int{4}, []float32{0.1, 0.2, 0.3, 0.4})},
		{"last no bias", 2, mk([]int{4}, []float32{1, 2, 0.5, -1}), nil},
		{"two axes", 1, mk([]int{3, 4}, ewSeq(12, func(i int) float32 { return float32(i) * 0.1 })), mk([]int{3, 4}, ewSeq(12, func(i int) float32 { return -float32(i) }))},
		{"scalar scale", -2, mk([]int{1}, []float32{2}), mk([]int{1}, []float32{1})},
	}
	for _, c := range cases {
		ins := []*tensor{mk(s, x), c.scale}
		names := []string{"x", "s"}
		if c.bias != nil {
			ins = append(ins, c.bias)
			names = append(names, "b")
		}
		n := node("LayerNormalization", names, aInt("axis", c.axis), aFloat("epsilon", 1e-3))
		n.Outputs = []string{"y", "mean", "inv"}
		outs, err := runNode(t, nodeCase{node: n, opset: 17}, ins...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		a, _ := normAxis(c.axis, 3)
		rows, m := ewNumel(s[:a]), ewNumel(s[a:])
		if !sameShape(outs[1].shape, append(append([]int{}, s[:a]...), []int{1, 1, 1}[:3-a]...)) {
			t.Errorf("%s: mean shape %v", c.name, outs[1].shape)
		}
		sc, bs := c.scale.f32(), []float32{0}
		if c.bias != nil {
			bs = c.bias.f32()
		}
		for r := range rows {
			var mu, v float64
			for i := range m {
				mu += float64(x[r*m+i])
			}
			mu /= float64(m)
			for i := range m {
				d := float64(x[r*m+i]) - mu
				v += d * d
			}
			inv := 1 / math.Sqrt(v/float64(m)+float64(float32(1e-3)))
			if g := float64(outs[1].f32()[r]); math.Abs(g-mu) > 1e-6 {
				t.Errorf("%s: mean[%d] = %v, want %v", c.name, r, g, mu)
			}
			if g := float64(outs[2].f32()[r]); math.Abs(g-inv) > 1e-5*inv {
				t.Errorf("%s: inv[%d] = %v, want %v", c.name, r, g, inv)
			}
			for i := range m {
				want := (float64(x[r*m+i])-mu)*inv*float64(sc[i%len(sc)]) + float64(bs[i%len(bs)])
				if g := float64(outs[0].f32()[r*m+i]); math.Abs(g-want) > 1e-5*math.Max(1, math.Abs(want)) {
					t.Errorf("%s: y[%d] = %v, want %v", c.name, r*m+i, g, want)
				}
			}
		}
	}
	for _, c := range []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"scale size", nodeCase{node: node("LayerNormalization", []string{"x", "s"})}, []*tensor{mk(s, x), mk([]int{3}, []float32{1, 2, 3})}, errs.ShapeMismatch},
		{"axis", nodeCase{node: node("LayerNormalization", []string{"x", "s"}, aInt("axis", 3))}, []*tensor{mk(s, x), mk([]int{1}, []float32{1})}, errs.InvalidArtifact},
		{"no scale", nodeCase{node: node("LayerNormalization", []string{"x"})}, []*tensor{mk(s, x)}, errs.InvalidArtifact},
		{"int", nodeCase{node: node("LayerNormalization", []string{"x", "s"})}, []*tensor{mk([]int{1}, []int32{1}), mk([]int{1}, []int32{1})}, errs.Unsupported},
	} {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}
