package cpu

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestBatchNormalization(t *testing.T) {
	r := nnRng(10)
	for _, xs := range [][]int{{2, 3}, {2, 3, 5}, {1, 4, 3, 3}, {2, 2, 2, 3, 2}} {
		for _, dt := range []payload.DType{payload.Float32, payload.Float64} {
			c := xs[1]
			x := nnRand(r, nnProd(xs))
			scale, bias, mean := nnRand(r, c), nnRand(r, c), nnRand(r, c)
			vr := nnRand(r, c)
			for i := range vr {
				vr[i] = vr[i]*vr[i] + 0.1
			}
			eps := float32(1e-3)
			size := nnProd(xs[2:])
			want := make([]float64, len(x))
			for i := range x {
				ch := (i / size) % c
				want[i] = (float64(x[i])-float64(mean[ch]))/math.Sqrt(float64(vr[ch])+float64(eps))*float64(scale[ch]) + float64(bias[ch])
			}
			for _, opset := range []int64{7, 9, 15} {
				n := node("BatchNormalization", []string{"x", "s", "b", "m", "v"}, aFloat("epsilon", eps))
				ins := []*tensor{nnTensor(dt, xs, x), nnTensor(dt, []int{c}, scale), nnTensor(dt, []int{c}, bias), nnTensor(payload.Float32, []int{c}, mean), nnTensor(payload.Float32, []int{c}, vr)}
				outs, err := runNode(t, nodeCase{node: n, opset: opset, outTypes: []payload.DType{dt}, consts: []int{1, 2, 3, 4}}, ins...)
				if err != nil {
					t.Fatal(err)
				}
				nnShape(t, "batchnorm", outs[0].shape, xs)
				nnClose(t, "batchnorm", nnFloats(outs[0]), want, 1e-5)
			}
		}
	}
}

func TestBatchNormalizationErrors(t *testing.T) {
	x := mk([]int{1, 2, 2}, make([]float32, 4))
	p := mk([]int{2}, []float32{1, 1})
	cases := []struct {
		name string
		n    *model.Node
		ins  []*tensor
		kind error
	}{
		{"channels", node("BatchNormalization", []string{"x", "s", "b", "m", "v"}), []*tensor{x, p, p, p, mk([]int{3}, []float32{1, 1, 1})}, errs.ShapeMismatch},
		{"rank", node("BatchNormalization", []string{"x", "s", "b", "m", "v"}), []*tensor{mk([]int{2}, []float32{1, 1}), p, p, p, p}, errs.ShapeMismatch},
		{"spatial", node("BatchNormalization", []string{"x", "s", "b", "m", "v"}, aInt("spatial", 0)), []*tensor{x, p, p, p, p}, errs.Unsupported},
		{"int", node("BatchNormalization", []string{"x", "s", "b", "m", "v"}), []*tensor{mk([]int{1, 2}, []int32{1, 2}), p, p, p, p}, errs.Unsupported},
	}
	for _, c := range cases {
		_, err := runNode(t, nodeCase{node: c.n}, c.ins...)
		nnWantErr(t, c.name, err, c.kind)
	}
	// Training before opset 14 had other outputs, which lintel lacks.
	n6 := node("BatchNormalization", []string{"x", "s", "b", "m", "v"}, aInt("is_test", 0))
	_, err6 := runNode(t, nodeCase{node: n6, opset: 6}, x, p, p, p, p)
	nnWantErr(t, "is_test=0 at opset 6", err6, errs.Unsupported)
	n := node("BatchNormalization", []string{"x", "s", "b", "m", "v"})
	n.Outputs = append(n.Outputs, "running_mean")
	_, err := runNode(t, nodeCase{node: n}, x, p, p, p, p)
	nnWantErr(t, "training outputs", err, errs.Unsupported)
}

func TestInstanceNormalization(t *testing.T) {
	r := nnRng(11)
	for _, xs := range [][]int{{2, 3, 5}, {1, 4, 3, 3}, {2, 2, 2, 3, 2}} {
		for _, dt := range []payload.DType{payload.Float32, payload.Float64} {
			c := xs[1]
			x := nnRand(r, nnProd(xs))
			for i := range x {
				x[i] = 100 + x[i]*0.01 // a large mean and a small spread
			}
			scale, bias := nnRand(r, c), nnRand(r, c)
			size := nnProd(xs[2:])
			want := make([]float64, len(x))
			for p := range xs[0] * c {
				var s, ss float64
				for _, v := range x[p*size : (p+1)*size] {
					s += float64(v)
				}
				mean := s / float64(size)
				for _, v := range x[p*size : (p+1)*size] {
					ss += (float64(v) - mean) * (float64(v) - mean)
				}
				sd := math.Sqrt(ss/float64(size) + 1e-5)
				for i := p * size; i < (p+1)*size; i++ {
					want[i] = (float64(x[i])-mean)/sd*float64(scale[p%c]) + float64(bias[p%c])
				}
			}
			outs, err := runNode(t, nodeCase{node: node("InstanceNormalization", []string{"x", "s", "b"}), outTypes: []payload.DType{dt}},
				nnTensor(dt, xs, x), nnTensor(dt, []int{c}, scale), nnTensor(dt, []int{c}, bias))
			if err != nil {
				t.Fatal(err)
			}
			nnShape(t, "instancenorm", outs[0].shape, xs)
			nnClose(t, "instancenorm", nnFloats(outs[0]), want, 1e-5)
		}
	}
	_, err := runNode(t, nodeCase{node: node("InstanceNormalization", []string{"x", "s", "b"})},
		mk([]int{1, 2, 3}, make([]float32, 6)), mk([]int{3}, make([]float32, 3)), mk([]int{2}, make([]float32, 2)))
	nnWantErr(t, "channels", err, errs.ShapeMismatch)
	_, err = runNode(t, nodeCase{node: node("InstanceNormalization", []string{"x", "s", "b"})},
		mk([]int{1, 2}, make([]float32, 2)), mk([]int{2}, make([]float32, 2)), mk([]int{2}, make([]float32, 2)))
	nnWantErr(t, "rank", err, errs.ShapeMismatch)
}

// In training mode the statistics are the batch's, and the running ones
// mix them with the inputs by momentum; such a node never stacks a
// batch.
func TestBatchNormTraining(t *testing.T) {
	// x: N=2, C=2, 2 elements per plane. Channel 0 holds 1, 3, 5, 7
	// (mean 4, variance 5), channel 1 holds 2, 2, 2, 2 (mean 2, variance 0).
	x := mk([]int{2, 2, 2}, []float32{1, 3, 2, 2, 5, 7, 2, 2})
	scale, bias := mk([]int{2}, []float32{2, 1}), mk([]int{2}, []float32{0, 0.5})
	mean, vari := mk([]int{2}, []float32{0, 1}), mk([]int{2}, []float32{1, 1})
	n := node("BatchNormalization", []string{"x", "s", "b", "m", "v"},
		aInt("training_mode", 1), aFloat("epsilon", 0), aFloat("momentum", 0.5))
	n.Outputs = []string{"y", "rm", "rv"}
	outs, err := runNode(t, nodeCase{node: n, opset: 15, outTypes: []payload.DType{payload.Float32, payload.Float32, payload.Float32}},
		x, scale, bias, mean, vari)
	if err != nil {
		t.Fatal(err)
	}
	s5 := float32(math.Sqrt(5))
	want := [][]float32{
		{2 * -3 / s5, 2 * -1 / s5, 0.5, 0.5, 2 * 1 / s5, 2 * 3 / s5, 0.5, 0.5},
		{2, 1.5}, // 0·0.5 + 4·0.5, 1·0.5 + 2·0.5
		{3, 0.5}, // 1·0.5 + 5·0.5, 1·0.5 + 0·0.5
	}
	for i, w := range want {
		got := outs[i].f32()
		for j := range w {
			if math.Abs(float64(got[j]-w[j])) > 1e-5 {
				t.Fatalf("output %d: got %v, want %v", i, got, w)
			}
		}
	}
}
