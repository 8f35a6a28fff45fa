//go:build openblas

package bench

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// matmulCase is an n×n input times a constant n×n weight: lintel's GEMM
// as a user reaches it, with the weight packed at load.
func matmulCase(n int) benchCase {
	r := testmodels.Rand(uint64(n))
	g := onnxbuild.Graph{
		Name:         "matmul",
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, int64(n), int64(n))},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, int64(n), int64(n))},
		Initializers: []onnxbuild.Tensor{testmodels.Weight(r, "w", int64(n), int64(n))},
		Nodes:        []onnxbuild.Node{testmodels.Node("MatMul", []string{"x", "w"}, "y")},
	}
	return benchCase{name: fmt.Sprintf("sgemm_n%d", n), onnx: testmodels.Encode(g), in: []int{n, n}, batch: n}
}

// TestVsOpenBLAS multiplies n×n matrices on one thread with lintel (a
// MatMul model) and OpenBLAS's cblas_sgemm, interleaved, and prints
// GFLOPS and their ratio as a Markdown table. It checks that both
// computed the same product: every element within blasTol of OpenBLAS's,
// the two summing in different orders.
func TestVsOpenBLAS(t *testing.T) {
	blasOneThread()
	rounds := envInt("BENCH_ROUNDS", 21)
	var rows [][]string
	for _, n := range []int{256, 512, 1024} {
		c := matmulCase(n)
		l := loadLintel(t, c, 1)
		w := testmodels.Uniform(testmodels.Rand(uint64(n)), n*n, 1/float32(math.Sqrt(float64(n))))
		out := make([]float32, n*n)
		ts := interleave([]func(){func() { l.inferOne(t) }, func() { blasSgemm(n, l.in.Data, w, out) }}, rounds, 50*time.Millisecond)
		if got, want := len(l.out.Data), n*n; got != want {
			t.Fatalf("n=%d: lintel gave %d elements, want %d", n, got, want)
		}
		worst, at := float32(0), 0
		for i, want := range out {
			if d := absDiff(l.out.Data[i], want); d > worst || d != d {
				worst, at = d, i
			}
		}
		if !(worst <= blasTol) {
			t.Errorf("n=%d: element %d is %v in lintel, want %v (OpenBLAS) within %g", n, at, l.out.Data[at], out[at], blasTol)
		}
		gf := func(d time.Duration) float64 { return 2 * float64(n*n*n) / d.Seconds() / 1e9 }
		rows = append(rows, []string{fmt.Sprint(n), fmt.Sprintf("%.1f", gf(ts[0])), fmt.Sprintf("%.1f", gf(ts[1])), fmt.Sprintf("%.0f%%", 100*gf(ts[0])/gf(ts[1])), fmt.Sprintf("%.1e", worst)})
	}
	t.Logf("lintel kernels: %s; %d rounds\n%s", kernelInfo(), rounds, table([]string{"n (one thread)", "lintel GFLOPS", "OpenBLAS GFLOPS", "lintel / OpenBLAS", "max |diff|"}, rows))
}

// blasTol bounds |lintel − OpenBLAS| on one element of the products
// above: sums of n ≤ 1024 float32 products of magnitude below 1/√n, in
// a different order, differ by far less.
const blasTol = 1e-4

// absDiff is |a − b|.
func absDiff(a, b float32) float32 { return float32(math.Abs(float64(a) - float64(b))) }
