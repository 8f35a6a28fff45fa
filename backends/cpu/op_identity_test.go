package cpu

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIdentity(t *testing.T) {
	x := mk([]int{2, 2}, []float32{1, 2, 3, 4})
	outs, err := runNode(t, nodeCase{node: node("Identity", []string{"x"})}, x)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{1, 2, 3, 4}, outs[0].f32()); d != "" {
		t.Fatal(d)
	}
}
