package cpu

import (
	"strconv"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// TestChoosePrefetch checks the prefetch distance a model's products
// get from the size of its prepacked weights.
func TestChoosePrefetch(t *testing.T) {
	for _, tc := range []struct {
		packedB, want int
	}{
		{0, streamNear},
		{streamFarBytes - 1, streamNear},
		{streamFarBytes, streamFar},
		{4 * streamFarBytes, streamFar},
	} {
		g := newGemmCtx(nil)
		g.packedB = tc.packedB
		g.choosePrefetch()
		if g.prefetch != tc.want {
			t.Errorf("packedB %d: prefetch %d, want %d", tc.packedB, g.prefetch, tc.want)
		}
	}
}

// TestModelPrefetch loads chains of MatMuls against constant weights, of
// d×d each, and checks the distance the model chose and its results
// (each weight is a multiple of the identity, so y = x·∏ scales). Two
// of 2048×2048 are streamFarBytes: a token's products against them
// run in the far-prefetching tiles.
func TestModelPrefetch(t *testing.T) {
	for _, tc := range []struct {
		d, layers, want int
	}{
		{64, 2, streamNear},
		{1024, 4, streamNear},
		{2048, 2, streamFar},
	} {
		name := strconv.Itoa(tc.layers) + "x" + strconv.Itoa(tc.d)
		g := onnxbuild.Graph{
			Inputs:  []onnxbuild.Value{onnxbuild.Input("x0", payload.Float32, 1, int64(tc.d))},
			Outputs: []onnxbuild.Value{onnxbuild.Input("x"+strconv.Itoa(tc.layers), payload.Float32, 1, int64(tc.d))},
		}
		scale := float32(1)
		for l := range tc.layers {
			w := make([]float32, tc.d*tc.d)
			s := float32(l + 2)
			scale *= s
			for i := range tc.d {
				w[i*tc.d+i] = s
			}
			wn := "w" + strconv.Itoa(l)
			g.Initializers = append(g.Initializers, onnxbuild.TensorOf(wn, []int64{int64(tc.d), int64(tc.d)}, w))
			g.Nodes = append(g.Nodes, onnxbuild.Node{Op: "MatMul", Inputs: []string{"x" + strconv.Itoa(l), wn}, Outputs: []string{"x" + strconv.Itoa(l+1)}})
		}
		m, _ := loadFused(t, (&onnxbuild.Model{Graph: g}).Encode(), true, 1)
		if got := m.prog.gemm.prefetch; got != tc.want {
			t.Errorf("%s: prefetch %d, want %d", name, got, tc.want)
		}
		x := make([]float32, tc.d)
		for i := range x {
			x[i] = float32(i%7) - 3
		}
		var y f32t
		if err := m.InferOne(&f32t{Shape: []int{1, tc.d}, Data: x}, &y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, v := range y.Data {
			if want := x[i] * scale; v != want {
				t.Fatalf("%s: y[%d] = %g, want %g", name, i, v, want)
			}
		}
	}
}
