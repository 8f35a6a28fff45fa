package cpu

import (
	"math"
	"sort"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestTopK(t *testing.T) {
	tk := func(dt payload.DType, attrs ...model.Attr) nodeCase {
		n := node("TopK", []string{"x", "k"}, attrs...)
		n.Outputs = []string{"v", "i"}
		return nodeCase{node: n, opset: 24, outTypes: []payload.DType{dt, payload.Int64}}
	}
	k := func(v int64) *tensor { return mk([]int{1}, []int64{v}) }
	m := mk([]int{3, 4}, []float32{0, 1, 2, 3, 4, 5, 6, 7, 11, 10, 9, 8})
	nan := float32(math.NaN())
	runDMCases(t, []dmCase{
		{name: "largest", c: tk(payload.Float32, aInt("axis", 1)), ins: []*tensor{m, k(3)}, shapes: [][]int{{3, 3}, {3, 3}},
			vals: []string{"[3 2 1 7 6 5 11 10 9]", "[3 2 1 3 2 1 0 1 2]"}},
		{name: "smallest", c: tk(payload.Float32, aInt("largest", 0)), ins: []*tensor{m, k(3)},
			vals: []string{"[0 1 2 4 5 6 8 9 10]", "[0 1 2 0 1 2 3 2 1]"}},
		{name: "axis 0", c: tk(payload.Float32, aInt("axis", 0)), ins: []*tensor{m, k(1)}, shapes: [][]int{{1, 4}, {1, 4}},
			vals: []string{"[11 10 9 8]", "[2 2 2 2]"}},
		{name: "ties by lower index", c: tk(payload.Int64), ins: []*tensor{mk([]int{2, 4}, []int64{0, 0, 0, 0, 2, 1, 2, 1}), k(3)},
			vals: []string{"[0 0 0 2 2 1]", "[0 1 2 0 2 1]"}},
		{name: "ties smallest", c: tk(payload.Int32, aInt("largest", 0)), ins: []*tensor{mk([]int{5}, []int32{3, 1, 3, 1, 2}), k(4)},
			vals: []string{"[1 1 2 3]", "[1 3 4 0]"}},
		{name: "all", c: tk(payload.Uint64), ins: []*tensor{mk([]int{4}, []uint64{5, 9, 1, 9}), k(4)},
			vals: []string{"[9 9 5 1]", "[1 3 0 2]"}},
		{name: "nan ranks highest", c: tk(payload.Float32), ins: []*tensor{mk([]int{4}, []float32{1, nan, 3, nan}), k(3)},
			vals: []string{"[NaN NaN 3]", "[1 3 2]"}},
		{name: "nan ranks last when smallest", c: tk(payload.Float32, aInt("largest", 0)), ins: []*tensor{mk([]int{3}, []float32{nan, 2, 1}), k(3)},
			vals: []string{"[1 2 NaN]", "[2 1 0]"}},
		{name: "k zero", c: tk(payload.Float32), ins: []*tensor{m, k(0)}, shapes: [][]int{{3, 0}, {3, 0}}},
		{name: "k too large", c: tk(payload.Float32), ins: []*tensor{m, k(5)}, err: errs.ShapeMismatch},
		{name: "opset 1 attribute", c: nodeCase{node: &model.Node{Name: "t", OpType: "TopK", Inputs: []string{"x"}, Outputs: []string{"v", "i"}, Attrs: []model.Attr{aInt("k", 2)}},
			opset: 1, outTypes: []payload.DType{payload.Float32, payload.Int64}}, ins: []*tensor{m}, vals: []string{"[3 2 7 6 11 10]", "[3 2 3 2 0 1]"}},
		{name: "bool refused", c: tk(payload.Bool), ins: []*tensor{mk([]int{2}, []bool{true, false}), k(1)}, err: errs.Unsupported},
		{name: "int32 k refused", c: tk(payload.Float32), ins: []*tensor{m, mk([]int{1}, []int32{1})}, err: errs.Unsupported},
	})
	// Without the indices output.
	one := node("TopK", []string{"x", "k"})
	runDMCases(t, []dmCase{{name: "values only", c: nodeCase{node: one, opset: 11}, ins: []*tensor{m, k(2)}, vals: []string{"[3 2 7 6 11 10]"}}})
	big := make([]float32, 1000)
	for i := range big {
		big[i] = float32((i * 37) % 101)
	}
	dmNoAllocs(t, "topk", tk(payload.Float32), mk([]int{4, 250}, big), k(5))
}

// TestTopKHeapMatchesSort checks the heap search against a full stable
// sort on rows with many ties.
func TestTopKHeapMatchesSort(t *testing.T) {
	const n = 200
	x := make([]int32, n)
	seed := uint32(7)
	for i := range x {
		seed = seed*1664525 + 1013904223
		x[i] = int32(seed>>24) % 17
	}
	for _, largest := range []int64{0, 1} {
		for _, kk := range []int{1, 2, 7, 64, 199, 200} {
			n := node("TopK", []string{"x", "k"}, aInt("largest", largest))
			n.Outputs = []string{"v", "i"}
			outs, err := runNode(t, nodeCase{node: n, opset: 11, outTypes: []payload.DType{payload.Int32, payload.Int64}}, mk([]int{len(x)}, x), mk([]int{1}, []int64{int64(kk)}))
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int, len(x))
			for i := range want {
				want[i] = i
			}
			sort.SliceStable(want, func(a, b int) bool {
				if largest == 1 {
					return x[want[a]] > x[want[b]]
				}
				return x[want[a]] < x[want[b]]
			})
			for m, got := range outs[1].i64() {
				if int(got) != want[m] {
					t.Fatalf("largest %d, k %d: index %d: got %d, want %d", largest, kk, m, got, want[m])
				}
			}
		}
	}
}
