package quantize

import (
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
	"google.golang.org/protobuf/encoding/protowire"
)

// editor holds a model file split into the parts this package rewrites
// (the main graph's nodes and initializers, the default opset import)
// and everything else as it stands.
type editor struct {
	g      *model.Graph
	fields []field // the model's fields
	gf     []field // the graph's fields other than nodes
	nodes  []*node
	// inits are the initializers' encodings by name; consts the Constant
	// nodes by output.
	inits    map[string][]byte
	consts   map[string]*node
	inputs   map[string]bool
	outputs  map[string]bool
	names    map[string]bool
	opset    int64
	newInits [][]byte
	// extraOut are graph outputs to add (ValueInfoProto encodings).
	extraOut [][]byte
	// replaced are the weights and biases whose float tensors may go.
	replaced map[string]bool
	// subgraphs is set when some node holds a subgraph, which may read
	// any outer value: nothing is then removed.
	subgraphs bool
}

// parseModel splits the model file data; g is its decoded graph, set by
// the caller when it has one (the file's value types).
func parseModel(data []byte, g *model.Graph) (*editor, error) {
	fs, err := fields(data, "model")
	if err != nil {
		return nil, err
	}
	e := &editor{g: g, fields: fs, inits: map[string][]byte{}, consts: map[string]*node{},
		inputs: map[string]bool{}, outputs: map[string]bool{}, names: map[string]bool{}, replaced: map[string]bool{}}
	graphs := 0
	var graph []byte
	for _, f := range fs {
		switch f.num {
		case modelGraph:
			graphs++
			graph = f.val
		case modelOpset:
			ofs, err := fields(f.val, "opset_import")
			if err != nil {
				return nil, err
			}
			dom, ver := "", int64(0)
			for _, of := range ofs {
				switch of.num {
				case opsetDomain:
					dom = string(of.val)
				case opsetVer:
					ver = int64(of.v)
				}
			}
			if dom == "" || dom == "ai.onnx" {
				e.opset = ver
			}
		}
	}
	if graphs == 0 {
		return nil, errs.New(errs.InvalidArtifact, "quantize: the model has no graph")
	}
	if graphs != 1 {
		return nil, errs.New(errs.Unsupported, "quantize: the model has %d graph fields, want 1", graphs)
	}
	gfs, err := fields(graph, "graph")
	if err != nil {
		return nil, err
	}
	for _, f := range gfs {
		switch f.num {
		case graphNode:
			n, err := parseNode(f.val)
			if err != nil {
				return nil, err
			}
			e.nodes = append(e.nodes, n)
			for _, o := range n.outputs {
				e.names[o] = true
			}
			if n.op == "Constant" && n.dom == "" && len(n.outputs) == 1 {
				e.consts[n.outputs[0]] = n
			}
			e.subgraphs = e.subgraphs || n.hasGraph
			continue
		case graphInit:
			name, ext, err := tensorInfo(f.val)
			if err != nil {
				return nil, err
			}
			if ext {
				return nil, errs.New(errs.Unsupported, "quantize: initializer %q has external data; load and save the model with its data inline first", name)
			}
			e.inits[name] = f.val
			e.names[name] = true
		case graphInput, graphOutput:
			vfs, err := fields(f.val, "value_info")
			if err != nil {
				return nil, err
			}
			for _, vf := range vfs {
				if vf.num == 1 {
					if f.num == graphInput {
						e.inputs[string(vf.val)] = true
					} else {
						e.outputs[string(vf.val)] = true
					}
					e.names[string(vf.val)] = true
				}
			}
		}
		e.gf = append(e.gf, f)
	}
	if g != nil {
		e.setGraph(g)
	}
	return e, nil
}

// setGraph records the decoded graph, whose value names are then taken.
func (e *editor) setGraph(g *model.Graph) {
	e.g = g
	for name := range g.Values {
		e.names[name] = true
	}
}

// name returns a value or node name built from base that is not yet
// used, and reserves it.
func (e *editor) name(base string) string {
	s := base
	for i := 1; e.names[s]; i++ {
		s = fmt.Sprintf("%s_%d", base, i)
	}
	e.names[s] = true
	return s
}

// isConst reports whether name is an initializer (not a graph input) or
// a Constant node's output.
func (e *editor) isConst(name string) bool {
	if e.consts[name] != nil {
		return true
	}
	_, ok := e.inits[name]
	return ok && !e.inputs[name]
}

// constFloat returns the float32 constant called name, or why it is not
// one.
func (e *editor) constFloat(name string) (*model.Tensor, string) {
	var raw []byte
	if n := e.consts[name]; n != nil {
		if a := n.attr("value"); a != nil && a.t != nil {
			raw = a.t
		}
	} else if r, ok := e.inits[name]; ok && !e.inputs[name] {
		raw = r
	}
	if raw == nil {
		return nil, "is not a constant"
	}
	t, err := artifacts.DecodeTensor(raw, name)
	if err != nil {
		return nil, "cannot be decoded: " + err.Error()
	}
	if t.DType != payload.Float32 {
		return nil, "is not float32"
	}
	return t, ""
}

// addInit adds an initializer.
func (e *editor) addInit(t onnxbuild.Tensor) {
	e.names[t.Name] = true
	e.newInits = append(e.newInits, t.Encode())
}

// initOf adds an initializer holding data under a fresh name built from
// base and returns the name.
func initOf[E payload.Elem](e *editor, base string, shape []int64, data []E) string {
	name := e.name(base)
	e.addInit(onnxbuild.TensorOf(name, shape, data))
	return name
}

// sweep removes the float weights that nothing reads any more.
func (e *editor) sweep() {
	if e.subgraphs {
		return
	}
	used := map[string]bool{}
	for _, n := range e.nodes {
		for _, in := range n.inputs {
			used[in] = true
		}
	}
	keep := e.nodes[:0]
	for _, n := range e.nodes {
		if n.op == "Constant" && n.dom == "" && len(n.outputs) == 1 && e.replaced[n.outputs[0]] &&
			!used[n.outputs[0]] && !e.outputs[n.outputs[0]] {
			continue
		}
		keep = append(keep, n)
	}
	e.nodes = keep
	gf := e.gf[:0]
	for _, f := range e.gf {
		if f.num == graphInit {
			name, _, _ := tensorInfo(f.val)
			if e.replaced[name] && !used[name] && !e.outputs[name] && !e.inputs[name] {
				continue
			}
		}
		gf = append(gf, f)
	}
	e.gf = gf
}

// encode returns the model file.
func (e *editor) encode() []byte {
	var g []byte
	for _, n := range e.nodes {
		g = appendBytes(g, graphNode, n.encode())
	}
	for _, f := range e.gf {
		g = append(g, f.raw...)
	}
	for _, t := range e.newInits {
		g = appendBytes(g, graphInit, t)
	}
	for _, v := range e.extraOut {
		g = appendBytes(g, graphOutput, v)
	}
	var b []byte
	hasDefault := false
	for _, f := range e.fields {
		switch f.num {
		case modelGraph:
			b = appendBytes(b, modelGraph, g)
			continue
		case modelOpset:
			ofs, _ := fields(f.val, "opset_import")
			dom := ""
			for _, of := range ofs {
				if of.num == opsetDomain {
					dom = string(of.val)
				}
			}
			if dom == "" || dom == "ai.onnx" {
				hasDefault = true
				b = appendBytes(b, modelOpset, opsetImport(dom, e.opset))
				continue
			}
		case 1: // ir_version: opset 11 needs IR version 6, 13 needs 7
			if need := irFor(e.opset); f.v < need {
				b = protowire.AppendTag(b, 1, protowire.VarintType)
				b = protowire.AppendVarint(b, need)
				continue
			}
		}
		b = append(b, f.raw...)
	}
	if !hasDefault {
		b = appendBytes(b, modelOpset, opsetImport("", e.opset))
	}
	return b
}

// irFor returns the lowest IR version that the default-domain opset v
// may be used with, for the opsets this package raises to.
func irFor(v int64) uint64 {
	switch {
	case v >= 13:
		return 7
	case v >= 11:
		return 6
	}
	return 0
}

func opsetImport(dom string, v int64) []byte {
	var b []byte
	if dom != "" {
		b = appendString(b, opsetDomain, dom)
	}
	b = protowire.AppendTag(b, opsetVer, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}
