package cpu

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// refMatMul is numpy's matmul in float64 on float32 values.
func refMatMul(a []float32, as []int, b []float32, bs []int) ([]int, []float64) {
	pa, pb := append([]int{}, as...), append([]int{}, bs...)
	if len(pa) == 1 {
		pa = []int{1, pa[0]}
	}
	if len(pb) == 1 {
		pb = []int{pb[0], 1}
	}
	m, k, n := pa[len(pa)-2], pa[len(pa)-1], pb[len(pb)-1]
	ba, bb := pa[:len(pa)-2], pb[:len(pb)-2]
	r := max(len(ba), len(bb))
	batch := make([]int, r)
	for i := range r {
		da, db := 1, 1
		if j := i - (r - len(ba)); j >= 0 {
			da = ba[j]
		}
		if j := i - (r - len(bb)); j >= 0 {
			db = bb[j]
		}
		batch[i] = max(da, db)
	}
	nb := nnProd(batch)
	y := make([]float64, nb*m*n)
	idx := make([]int, r)
	for bi := range nb {
		rem := bi
		for i := r - 1; i >= 0; i-- {
			idx[i] = rem % batch[i]
			rem /= batch[i]
		}
		offA, offB := 0, 0
		for i, j := 0, r-len(ba); i < len(ba); i, j = i+1, j+1 {
			offA = offA*ba[i] + min(idx[j], ba[i]-1)
		}
		for i, j := 0, r-len(bb); i < len(bb); i, j = i+1, j+1 {
			offB = offB*bb[i] + min(idx[j], bb[i]-1)
		}
		for i := range m {
			for jj := range n {
				var s float64
				for p := range k {
					s += float64(a[offA*m*k+i*k+p]) * float64(b[offB*k*n+p*n+jj])
				}
				y[bi*m*n+i*n+jj] = s
			}
		}
	}
	out := append([]int{}, batch...)
	if len(as) > 1 {
		out = append(out, m)
	}
	if len(bs) > 1 {
		out = append(out, n)
	}
	return out, y
}

func TestMatMulAgainstReference(t *testing.T) {
	cases := [][2][]int{
		{{3}, {3}},
		{{17}, {17, 5}},
		{{4, 17}, {17}},
		{{1, 1}, {1, 1}},
		{{3, 64}, {64, 17}},
		{{64, 3}, {3, 1}},
		{{2, 5, 17}, {17, 3}},
		{{2, 3, 5, 7}, {7, 4}},
		{{17, 5}, {2, 5, 3}},
		{{2, 1, 3, 4}, {3, 4, 5}},
		{{1, 3, 4}, {2, 1, 4, 6}},
		{{3, 5, 4}, {2, 3, 4, 2}},
		{{4, 0}, {0, 3}},
		{{0, 4}, {4, 3}},
		{{2, 3, 8}, {8}},
		{{8}, {2, 8, 3}},
	}
	r := nnRng(9)
	for _, c := range cases {
		for _, dt := range []payload.DType{payload.Float32, payload.Float64, payload.Int32, payload.Int64} {
			name := fmt.Sprintf("%v x %v %s", c[0], c[1], dt)
			a, b := nnRand(r, nnProd(c[0])), nnRand(r, nnProd(c[1]))
			if dt == payload.Int32 || dt == payload.Int64 {
				for i := range a {
					a[i] = float32(int(a[i] * 10))
				}
				for i := range b {
					b[i] = float32(int(b[i] * 10))
				}
			}
			ws, want := refMatMul(a, c[0], b, c[1])
			outs, err := runNode(t, nodeCase{node: node("MatMul", []string{"a", "b"}), outTypes: []payload.DType{dt}}, nnTyped(dt, c[0], a), nnTyped(dt, c[1], b))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			nnShape(t, name, outs[0].shape, ws)
			got := make([]float32, 0, len(want))
			switch dt {
			case payload.Int32:
				for _, v := range outs[0].i32() {
					got = append(got, float32(v))
				}
			case payload.Int64:
				for _, v := range outs[0].i64() {
					got = append(got, float32(v))
				}
			default:
				got = nnFloats(outs[0])
			}
			nnClose(t, name, got, want, 1e-5)
		}
	}
}

// nnTyped makes a tensor of dt (float or integer) from float32 values.
func nnTyped(dt payload.DType, shape []int, v []float32) *tensor {
	switch dt {
	case payload.Int32:
		d := make([]int32, len(v))
		for i, x := range v {
			d[i] = int32(x)
		}
		return mk(shape, d)
	case payload.Int64:
		d := make([]int64, len(v))
		for i, x := range v {
			d[i] = int64(x)
		}
		return mk(shape, d)
	}
	return nnTensor(dt, shape, v)
}

func TestMatMulErrors(t *testing.T) {
	_, err := runNode(t, nodeCase{node: node("MatMul", []string{"a", "b"})}, mk([]int{2, 3}, make([]float32, 6)), mk([]int{4, 2}, make([]float32, 8)))
	nnWantErr(t, "K", err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("MatMul", []string{"a", "b"})}, mk([]int{2, 2, 3}, make([]float32, 12)), mk([]int{3, 3, 2}, make([]float32, 18)))
	nnWantErr(t, "batch", err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("MatMul", []string{"a", "b"})}, mk([]int{}, []float32{1}), mk([]int{1}, []float32{1}))
	nnWantErr(t, "scalar", err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("MatMul", []string{"a", "b"})}, mk([]int{2}, []bool{true, false}), mk([]int{2}, []bool{true, false}))
	nnWantErr(t, "bool", err, errs.Unsupported)
	_, err = runNode(t, nodeCase{node: node("MatMul", []string{"a", "b"})}, mk([]int{2}, []float32{1, 2}), mk([]int{2}, []float64{1, 2}))
	nnWantErr(t, "mixed", err, errs.InvalidArtifact)
}
