package gpu_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	gt "github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/compute"
	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// Before opset 7, Add with broadcast=1 aligns B with A's dims from axis
// on. The kernels broadcast from the last dims, so a node whose axis puts
// B elsewhere is refused at load; one whose axis leaves B at the end runs.
func TestLegacyBroadcastAxis(t *testing.T) {
	f32 := payload.Float32
	// A is square, so that numpy's broadcast of B from the last dim would
	// run, and give the wrong answer, where axis 0 asks for the first.
	model := func(axis int64, b int64) []byte {
		m := ob.Model{Opset: 6, Graph: ob.Graph{
			Inputs:  []ob.Value{gt.In("a", f32, 3, 3), gt.In("b", f32, b)},
			Outputs: []ob.Value{gt.In("y", f32, 3, 3)},
			Nodes: []ob.Node{{Op: "Add", Inputs: []string{"a", "b"}, Outputs: []string{"y"},
				Attrs: []ob.Attr{ob.AInt("broadcast", 1), ob.AInt("axis", axis)}}},
		}}
		return m.Encode()
	}
	open := func() (gpu.Device, error) { return gt.New(), nil }
	tests := []struct {
		name    string
		axis, b int64
		refuse  bool
	}{
		{"axis 0", 0, 3, true},
		{"trailing axis", 1, 3, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			art, err := artifacts.FromBytes(model(tc.axis, tc.b), tc.name)
			if err != nil {
				t.Fatal(err)
			}
			_, err = gpu.Load[payload.Multi, payload.Multi](gt.Config(open, false), compute.Options{}, art)
			switch {
			case tc.refuse && (!errors.Is(err, compute.ErrUnsupported) || !strings.Contains(err.Error(), "axis")):
				t.Errorf("got %v, want ErrUnsupported naming the axis", err)
			case !tc.refuse && err != nil:
				t.Errorf("got %v, want the model to load", err)
			}
		})
	}
}
