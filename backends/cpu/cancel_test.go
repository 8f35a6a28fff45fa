package cpu

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// cancelOnRun runs its kernel, then cancels a context: the next node must
// not run.
type cancelOnRun struct {
	kernel
	cancel func()
}

func (k *cancelOnRun) run(in, out []*tensor) error {
	err := k.kernel.run(in, out)
	k.cancel()
	return err
}

// A call whose context ends while a node runs stops before the next node,
// with an error that says where it stopped.
func TestCancelBetweenNodes(t *testing.T) {
	const nodes = 6
	g := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x0", payload.Float32, 2, 3)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("x6", payload.Float32, 2, 3)},
	}
	for i := range nodes {
		// Sin and Softmax in turn: no two elementwise nodes fuse.
		op := "Sin"
		if i%2 == 1 {
			op = "Softmax"
		}
		g.Nodes = append(g.Nodes, onnxbuild.Node{Op: op, Inputs: []string{"x" + itoa(i)}, Outputs: []string{"x" + itoa(i+1)}})
	}
	art, err := artifacts.FromBytes((&onnxbuild.Model{Graph: g}).Encode(), "chain")
	if err != nil {
		t.Fatal(err)
	}
	m, err := New[payload.Tensor[float32], payload.Tensor[float32]](compute.Options{}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	if got := len(m.prog.steps); got != nodes {
		t.Fatalf("%d steps, want %d", got, nodes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	m.prog.steps[2].k = &cancelOnRun{kernel: m.prog.steps[2].k, cancel: func() { calls++; cancel() }}
	in := payload.Tensor[float32]{Shape: []int{2, 3}, Data: make([]float32, 6)}
	var out payload.Tensor[float32]
	err = m.InferOneContext(ctx, &in, &out)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, compute.ErrExecutionFailed) {
		t.Fatalf("got %v, want context.Canceled and ErrExecutionFailed", err)
	}
	if want := "3 of 6 nodes run"; !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want it to say %q", err, want)
	}
	if calls != 1 {
		t.Errorf("the cancelling node ran %d times, want 1", calls)
	}
	if err := m.InferOne(&in, &out); err != nil {
		t.Errorf("InferOne after the cancelled call: %v", err)
	}
}

func itoa(i int) string { return string(rune('0' + i)) }
