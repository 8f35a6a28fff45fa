package cpu

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestEinsum(t *testing.T) {
	a23 := []float32{1, 2, 3, 4, 5, 6}         // 2×3
	b32 := []float32{1, 0, 2, 1, -1, 3}        // 3×2
	sq := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9} // 3×3
	type in struct {
		shape []int
		v     []float32
	}
	cases := []struct {
		name  string
		eq    string
		ins   []in
		shape []int
		want  []float64
	}{
		{"matmul", "ij,jk->ik", []in{{[]int{2, 3}, a23}, {[]int{3, 2}, b32}}, []int{2, 2}, []float64{2, 11, 8, 23}},
		{"implicit matmul", "ij,jk", []in{{[]int{2, 3}, a23}, {[]int{3, 2}, b32}}, []int{2, 2}, []float64{2, 11, 8, 23}},
		{"transpose", "ij->ji", []in{{[]int{2, 3}, a23}}, []int{3, 2}, []float64{1, 4, 2, 5, 3, 6}},
		{"implicit transpose", "ba", []in{{[]int{2, 3}, a23}}, []int{3, 2}, []float64{1, 4, 2, 5, 3, 6}},
		{"row sums", "ij->i", []in{{[]int{2, 3}, a23}}, []int{2}, []float64{6, 15}},
		{"total", "ij->", []in{{[]int{2, 3}, a23}}, []int{}, []float64{21}},
		{"trace", "ii", []in{{[]int{3, 3}, sq}}, []int{}, []float64{15}},
		{"diagonal", "ii->i", []in{{[]int{3, 3}, sq}}, []int{3}, []float64{1, 5, 9}},
		{"outer", "i,j->ij", []in{{[]int{2}, []float32{1, 2}}, {[]int{3}, []float32{1, 10, 100}}}, []int{2, 3}, []float64{1, 10, 100, 2, 20, 200}},
		{"three inputs", "i,i,i->", []in{{[]int{2}, []float32{1, 2}}, {[]int{2}, []float32{3, 4}}, {[]int{2}, []float32{5, 6}}}, []int{}, []float64{63}},
		{"ellipsis broadcast", "...i,...i->...", []in{{[]int{2, 3}, a23}, {[]int{3}, []float32{1, 1, 2}}}, []int{2}, []float64{9, 21}},
		{"batch diagonal", "...ii->...i", []in{{[]int{1, 3, 3}, sq}}, []int{1, 3}, []float64{1, 5, 9}},
		{"scalar", "->", []in{{[]int{}, []float32{7}}}, []int{}, []float64{7}},
		{"empty sum", "ij->i", []in{{[]int{2, 0}, nil}}, []int{2}, []float64{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, dt := range []payload.DType{payload.Float32, payload.Float64, payload.Int32, payload.Int64} {
				var ins []*tensor
				names := []string{}
				for i, x := range c.ins {
					ins = append(ins, convertTo(dt, x.shape, x.v))
					names = append(names, string(rune('a'+i)))
				}
				nc := nodeCase{node: node("Einsum", names, aString("equation", c.eq)), opset: 12, outTypes: []payload.DType{dt}}
				outs, err := runNode(t, nc, ins...)
				if err != nil {
					t.Fatalf("%s: got error %v, want none", dt, err)
				}
				g := make([]float64, outs[0].numel())
				for i := range g {
					switch dt {
					case payload.Float32:
						g[i] = float64(outs[0].f32()[i])
					case payload.Float64:
						g[i] = outs[0].f64()[i]
					case payload.Int32:
						g[i] = float64(outs[0].i32()[i])
					case payload.Int64:
						g[i] = float64(outs[0].i64()[i])
					}
				}
				got := mk(outs[0].shape, g)
				checkFloats(t, dt.String(), got, c.shape, c.want, 1e-6)
				if got := steadyAllocs(t, nc, ins...); got != 0 {
					t.Errorf("%s: got %v allocations per run, want 0", dt, got)
				}
			}
		})
	}
	_, err := runNode(t, nodeCase{node: node("Einsum", []string{"a"}, aString("equation", "i")), opset: 12}, mk([]int{2}, []uint8{1, 2}))
	if !errors.Is(err, errs.Unsupported) {
		t.Errorf("uint8: got error %v, want one wrapping %v", err, errs.Unsupported)
	}
}

// convertTo returns a tensor of type dt holding v.
func convertTo(dt payload.DType, shape []int, v []float32) *tensor {
	switch dt {
	case payload.Float64:
		return mk(shape, f64sOf(v))
	case payload.Int32:
		w := make([]int32, len(v))
		for i, x := range v {
			w[i] = int32(x)
		}
		return mk(shape, w)
	case payload.Int64:
		w := make([]int64, len(v))
		for i, x := range v {
			w[i] = int64(x)
		}
		return mk(shape, w)
	}
	return mk(shape, v)
}
