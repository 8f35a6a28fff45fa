package main

import (
	"cmp"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

// inspectReport is what inspect finds in a model. Its JSON form is the
// output of "lintel inspect -json".
type inspectReport struct {
	File            string           `json:"file"`
	Bytes           int              `json:"bytes"`
	SHA256          string           `json:"sha256"`
	IRVersion       int64            `json:"ir_version"`
	Opsets          map[string]int64 `json:"opsets"`
	Producer        string           `json:"producer"`
	ProducerVersion string           `json:"producer_version"`
	GraphName       string           `json:"graph_name"`
	Inputs          []valueDesc      `json:"inputs"`
	Outputs         []valueDesc      `json:"outputs"`
	// Params and ParamBytes count the elements and bytes of the constant
	// tensors: the Initializers, and the values of the ConstantNodes
	// (exporters such as Paddle2ONNX store weights that way).
	Initializers  int   `json:"initializers"`
	ConstantNodes int   `json:"constant_nodes"`
	Params        int64 `json:"params"`
	ParamBytes    int64 `json:"param_bytes"`
	// Nodes counts the top-level nodes; Ops is their histogram, most
	// frequent first. SubgraphNodes counts the nodes inside If, Loop and
	// Scan bodies, which Ops leaves out.
	Nodes         int       `json:"nodes"`
	Ops           []opCount `json:"ops"`
	SubgraphNodes int       `json:"subgraph_nodes"`
	// SubgraphOps is the histogram of the nodes inside subgraphs.
	SubgraphOps []opCount `json:"subgraph_ops,omitempty"`
	// Backend is the backend this binary holds; Unsupported lists what it
	// would refuse (empty when the model loads).
	Backend     string      `json:"backend"`
	Unsupported []issueDesc `json:"unsupported"`
}

// valueDesc is one graph input or output.
type valueDesc struct {
	Name  string `json:"name"`
	DType string `json:"dtype"`
	// Shape has -1 for free dimensions, DimNames their names ("" where
	// the file gives none); Shape is null when the rank is unknown.
	Shape    []int    `json:"shape"`
	DimNames []string `json:"dim_names,omitempty"`
}

// opCount is one row of the op histogram.
type opCount struct {
	Op     string `json:"op"`
	Domain string `json:"domain,omitempty"`
	Count  int    `json:"count"`
}

// issueDesc is one node the backend would refuse.
type issueDesc struct {
	Node   string `json:"node"`
	Op     string `json:"op"`
	Domain string `json:"domain,omitempty"`
	Error  string `json:"error"`
}

// inspectModel opens the model at path and describes it.
func inspectModel(path string) (*inspectReport, error) {
	art, err := artifacts.Open(path)
	if err != nil {
		return nil, err
	}
	return describe(art), nil
}

// describe builds the report for a decoded artifact.
func describe(art *artifacts.Artifact) *inspectReport {
	g := art.Graph()
	digest := art.Digest()
	r := &inspectReport{
		File: art.Label(), Bytes: art.Size(), SHA256: hex.EncodeToString(digest[:]),
		IRVersion: g.IRVersion, Opsets: map[string]int64{},
		Producer: g.ProducerName, ProducerVersion: g.ProducerVersion, GraphName: g.Name,
		Backend: backends.Name, Unsupported: []issueDesc{},
		Inputs: []valueDesc{}, Outputs: []valueDesc{},
	}
	for d, v := range g.Opsets {
		if d == "" {
			d = "ai.onnx"
		}
		r.Opsets[d] = v
	}
	if len(r.Opsets) == 0 && g.Opset > 0 {
		r.Opsets["ai.onnx"] = g.Opset
	}
	for _, v := range g.Inputs {
		r.Inputs = append(r.Inputs, describeValue(g, v))
	}
	for _, v := range g.Outputs {
		r.Outputs = append(r.Outputs, describeValue(g, v))
	}
	for _, t := range g.Initializers {
		r.Initializers++
		r.Params += int64(max(t.NumElems(), 0))
		r.ParamBytes += int64(len(t.Raw))
	}
	for _, n := range g.Nodes {
		if n.OpType != "Constant" || (n.Domain != "" && n.Domain != "ai.onnx") {
			continue
		}
		r.ConstantNodes++
		for _, a := range n.Attrs {
			switch {
			case a.T != nil:
				r.Params += int64(max(a.T.NumElems(), 0))
				r.ParamBytes += int64(len(a.T.Raw))
			case a.Type == model.AttrFloats:
				r.Params += int64(len(a.Floats))
				r.ParamBytes += 4 * int64(len(a.Floats))
			case a.Type == model.AttrInts:
				r.Params += int64(len(a.Ints))
				r.ParamBytes += 8 * int64(len(a.Ints))
			case a.Type == model.AttrFloat:
				r.Params++
				r.ParamBytes += 4
			case a.Type == model.AttrInt:
				r.Params++
				r.ParamBytes += 8
			}
		}
	}
	r.Nodes = len(g.Nodes)
	r.Ops = histogram(g.Nodes)
	inner := subgraphNodes(g.Nodes)
	r.SubgraphNodes = len(inner)
	r.SubgraphOps = histogram(inner)
	for _, is := range backends.Check(art, compute.Options{}) {
		r.Unsupported = append(r.Unsupported, issueDesc{Node: is.Node, Op: is.Op, Domain: is.Domain, Error: is.Err.Error()})
	}
	return r
}

// describeValue describes a graph input or output, with the shape that
// type inference found when the file's is less precise.
func describeValue(g *model.Graph, v model.ValueInfo) valueDesc {
	if k := g.Values[v.Name]; k != nil && k.RankKnown && (!v.RankKnown || known(k.Shape) > known(v.Shape)) {
		names := v.DimParams
		v = *k
		if len(names) == len(v.Shape) {
			v.DimParams = names
		}
	}
	d := valueDesc{Name: v.Name, DType: v.DType.String()}
	if v.RankKnown {
		d.Shape = append([]int{}, v.Shape...)
		if slices.ContainsFunc(v.DimParams, func(s string) bool { return s != "" }) {
			d.DimNames = v.DimParams
		}
	}
	return d
}

// known counts the static dimensions of a shape.
func known(shape []int) int {
	n := 0
	for _, d := range shape {
		if d >= 0 {
			n++
		}
	}
	return n
}

// histogram counts nodes by op type and domain, most frequent first, then
// by name.
func histogram(nodes []*model.Node) []opCount {
	counts := map[[2]string]int{}
	for _, n := range nodes {
		counts[[2]string{n.Domain, n.OpType}]++
	}
	out := make([]opCount, 0, len(counts))
	for k, c := range counts {
		out = append(out, opCount{Domain: k[0], Op: k[1], Count: c})
	}
	slices.SortFunc(out, func(a, b opCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Op, b.Op), cmp.Compare(a.Domain, b.Domain))
	})
	return out
}

// subgraphNodes returns the nodes of every graph-valued attribute, at
// every depth.
func subgraphNodes(nodes []*model.Node) []*model.Node {
	var out []*model.Node
	for _, node := range nodes {
		for _, a := range node.Attrs {
			for _, sg := range append([]*model.Graph{a.G}, a.Graphs...) {
				if sg != nil {
					out = append(out, sg.Nodes...)
					out = append(out, subgraphNodes(sg.Nodes)...)
				}
			}
		}
	}
	return out
}

// printInspect writes the report as text.
func printInspect(w io.Writer, r *inspectReport) {
	fmt.Fprintf(w, "model     %s\n", r.File)
	fmt.Fprintf(w, "size      %s (%d bytes), sha256 %s\n", humanBytes(int64(r.Bytes)), r.Bytes, r.SHA256)
	producer := r.Producer
	if r.ProducerVersion != "" {
		producer += " " + r.ProducerVersion
	}
	if producer == "" {
		producer = "(not given)"
	}
	fmt.Fprintf(w, "producer  %s\n", producer)
	domains := make([]string, 0, len(r.Opsets))
	for d := range r.Opsets {
		domains = append(domains, d)
	}
	slices.Sort(domains)
	fmt.Fprintf(w, "format    ONNX IR version %d, opset", r.IRVersion)
	for i, d := range domains {
		sep := " "
		if i > 0 {
			sep = ", "
		}
		fmt.Fprintf(w, "%s%s %d", sep, d, r.Opsets[d])
	}
	fmt.Fprintln(w)
	if r.GraphName != "" {
		fmt.Fprintf(w, "graph     %s\n", r.GraphName)
	}
	printValues(w, "inputs", r.Inputs)
	printValues(w, "outputs", r.Outputs)
	fmt.Fprintf(w, "\nparameters  %s (%s) in %d initializers and %d Constant nodes\n", groupDigits(r.Params), humanBytes(r.ParamBytes), r.Initializers, r.ConstantNodes)

	fmt.Fprintf(w, "\nops: %d nodes, %d op types\n", r.Nodes, len(r.Ops))
	opW := len("op")
	for _, o := range append(slices.Clip(r.Ops), r.SubgraphOps...) {
		opW = max(opW, len(opName(o.Op, o.Domain)))
	}
	for _, o := range r.Ops {
		fmt.Fprintf(w, "  %-*s  %5d\n", opW, opName(o.Op, o.Domain), o.Count)
	}
	if r.SubgraphNodes > 0 {
		fmt.Fprintf(w, "\nops inside subgraphs (If, Loop and Scan bodies): %d nodes, %d op types\n", r.SubgraphNodes, len(r.SubgraphOps))
		for _, o := range r.SubgraphOps {
			fmt.Fprintf(w, "  %-*s  %5d\n", opW, opName(o.Op, o.Domain), o.Count)
		}
	}

	fmt.Fprintln(w)
	if len(r.Unsupported) == 0 {
		fmt.Fprintf(w, "backend %s: supports every op; the model loads\n", r.Backend)
		return
	}
	fmt.Fprintf(w, "backend %s: cannot load the model; %d problems:\n", r.Backend, len(r.Unsupported))
	for _, is := range r.Unsupported {
		if is.Node == "" {
			fmt.Fprintf(w, "  %s\n", is.Error)
			continue
		}
		fmt.Fprintf(w, "  node %q  %s\n      %s\n", is.Node, opName(is.Op, is.Domain), is.Error)
	}
}

func printValues(w io.Writer, title string, vs []valueDesc) {
	fmt.Fprintf(w, "\n%s\n", title)
	nameW, typeW := 4, 5
	for _, v := range vs {
		nameW = max(nameW, len(v.Name))
		typeW = max(typeW, len(v.DType))
	}
	for _, v := range vs {
		fmt.Fprintf(w, "  %-*s  %-*s  %s\n", nameW, v.Name, typeW, v.DType, shapeString(v.Shape, v.DimNames))
	}
}

// opName writes an op with its domain when that is not the default.
func opName(op, domain string) string {
	if domain == "" || domain == "ai.onnx" {
		return op
	}
	return domain + "." + op
}

// humanBytes writes a size in B, KiB, MiB or GiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 2; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMG"[exp])
}

// groupDigits writes n with thousands separators: 1,234,567.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + groupDigits(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// runInspect is the inspect subcommand.
func runInspect(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	verbose := fs.Bool("v", false, "when the file cannot be decoded, print the whole path to what is wrong")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lintel inspect [-json] [-v] MODEL.onnx")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Describes a model: producer, opsets, inputs and outputs, parameters, a")
		fmt.Fprintln(stderr, "histogram of its ops, and every node the backend in this binary cannot run.")
		fmt.Fprintln(stderr, "Exits 0 when the model loads; 3 when it is valid but lintel cannot run it:")
		fmt.Fprintln(stderr, "an op the backend lacks, or something lintel cannot represent (a string,")
		fmt.Fprintln(stderr, "sequence, map, optional or sparse value, an opset out of range); 1 when it")
		fmt.Fprintln(stderr, "cannot be read or is not a valid model.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "lintel inspect: want exactly one model file")
		fs.Usage()
		return 2
	}
	r, err := inspectModel(pos[0])
	if err != nil {
		return inspectFailed(stderr, pos[0], err, *verbose)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(stderr, "lintel inspect: %v\n", err)
			return 1
		}
	} else {
		printInspect(stdout, r)
	}
	if len(r.Unsupported) > 0 {
		return 3
	}
	return 0
}

// inspectFailed reports a model that could not be decoded and returns the
// exit status: 3 for a file lintel cannot represent (compute.ErrUnsupported),
// 1 for one it cannot read. The reason is one line, naming the nearest
// node; verbose prints the whole error, with the decoder's full path.
func inspectFailed(stderr io.Writer, path string, err error, verbose bool) int {
	code, what := 1, "not a valid model"
	if errors.Is(err, compute.ErrUnsupported) {
		code, what = 3, "lintel cannot represent the model"
	}
	brief := errs.Brief(err)
	if verbose || brief == err.Error() {
		// The whole error names the file itself.
		fmt.Fprintf(stderr, "lintel inspect: %v\n", err)
	} else {
		fmt.Fprintf(stderr, "lintel inspect: %s: %s: %s\n", path, what, brief)
	}
	return code
}
