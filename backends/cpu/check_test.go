package cpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

func TestCheck(t *testing.T) {
	x := onnxbuild.Input("x", payload.Float32, 1, 4)
	y := onnxbuild.Input("y", payload.Float32, 1, 4)
	cases := []struct {
		name  string
		nodes []onnxbuild.Node
		// want lists "node op" for each issue, in graph order.
		want []string
	}{
		{"supported", []onnxbuild.Node{
			{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"a"}},
			{Op: "Sigmoid", Inputs: []string{"a"}, Outputs: []string{"y"}},
		}, nil},
		{"two unknown ops", []onnxbuild.Node{
			{Name: "n0", Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"a"}},
			{Name: "n1", Op: "NoSuchOp", Inputs: []string{"a"}, Outputs: []string{"b"}},
			{Name: "n2", Op: "Relu", Inputs: []string{"b"}, Outputs: []string{"c"}},
			{Name: "n3", Op: "AlsoMissing", Inputs: []string{"c"}, Outputs: []string{"y"}},
		}, []string{"n1 NoSuchOp", "n3 AlsoMissing"}},
		{"other domain", []onnxbuild.Node{
			{Name: "q", Op: "BiasSoftmax", Domain: "com.microsoft", Inputs: []string{"x"}, Outputs: []string{"y"}},
		}, []string{"q BiasSoftmax"}},
		{"only ai.onnx.ml", []onnxbuild.Node{
			{Name: "le", Op: "LabelEncoder", Domain: "ai.onnx.ml", Inputs: []string{"x"}, Outputs: []string{"y"}},
		}, []string{"le LabelEncoder"}},
		{"bad attribute", []onnxbuild.Node{
			{Name: "s", Op: "Softmax", Inputs: []string{"x"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", 5)}},
		}, []string{"s Softmax"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{Inputs: []onnxbuild.Value{x}, Outputs: []onnxbuild.Value{y}, Nodes: c.nodes}}
			switch c.name {
			case "other domain":
				m.Opsets = map[string]int64{"com.microsoft": 1}
			case "only ai.onnx.ml":
				// No default-domain opset_import at all.
				m.Opset, m.Opsets = -1, map[string]int64{"ai.onnx.ml": 2}
			}
			art, err := artifacts.FromBytes(m.Encode(), c.name+".onnx")
			if err != nil {
				t.Fatal(err)
			}
			issues := Check(art, compute.Options{})
			var got []string
			for _, is := range issues {
				got = append(got, is.Node+" "+is.Op)
				if !errors.Is(is.Err, errs.Unsupported) && !errors.Is(is.Err, errs.InvalidArtifact) {
					t.Errorf("%s: error wraps no sentinel: %v", is.Node, is.Err)
				}
				if !strings.Contains(is.Err.Error(), is.Node) {
					t.Errorf("error does not name node %q: %v", is.Node, is.Err)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("issues %q, want %q", got, c.want)
			}
			// Check agrees with LoadModel: no issues exactly when it loads,
			// and LoadModel's error is about the first issue.
			_, err = New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(art)
			if (err == nil) != (len(issues) == 0) {
				t.Fatalf("LoadModel: %v; Check: %d issues", err, len(issues))
			}
			if err != nil && !strings.Contains(err.Error(), issues[0].Node) {
				t.Errorf("LoadModel's error %v is not about %s", err, issues[0].Node)
			}
			if d := issues0Domain(issues); d != "" && (!errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), `domain "`+d+`" is not supported`) && !strings.Contains(err.Error(), "op "+d+"."+issues[0].Op+" is not supported")) {
				t.Errorf("LoadModel's error %v does not refuse domain %s", err, d)
			}
		})
	}
	if got := Check(nil, compute.Options{}); len(got) != 1 || !errors.Is(got[0].Err, errs.InvalidArtifact) {
		t.Errorf("nil artifact: %v", got)
	}
}

// issues0Domain returns the domain of the first issue's node, "" for none
// or the default domain.
func issues0Domain(issues []Issue) string {
	if len(issues) == 0 {
		return ""
	}
	return issues[0].Domain
}
