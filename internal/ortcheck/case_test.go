//go:build ort

package ortcheck

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// Short names for the element types and attribute builders, so a case
// fits on one line.
const (
	F32  = payload.Float32
	F64  = payload.Float64
	F16  = payload.Float16
	BF16 = payload.BF16
	I8   = payload.Int8
	U8   = payload.Uint8
	I16  = payload.Int16
	U16  = payload.Uint16
	I32  = payload.Int32
	U32  = payload.Uint32
	I64  = payload.Int64
	U64  = payload.Uint64
	B    = payload.Bool
)

var (
	ai  = onnxbuild.AInt
	af  = onnxbuild.AFloat
	as  = onnxbuild.AString
	ais = onnxbuild.AInts
	afs = onnxbuild.AFloats
)

// attrs collects attributes.
func attrs(a ...onnxbuild.Attr) []onnxbuild.Attr { return a }

// arg is one input of a case: a graph input fed at run time, an
// initializer, or an omitted optional input.
type arg struct {
	name   string
	dt     payload.DType
	shape  []int   // the shape fed
	decl   []int64 // the declared shape, -1 for a free dim; nil: shape
	noRank bool    // declare no shape at all
	lo, hi float64 // random range
	signed bool    // floats in ±[lo, hi]
	fixed  []byte  // fixed data instead of random
	init   bool    // an initializer
	absent bool
}

// f32 is a float32 input uniform in [-2, 2].
func f32(shape ...int) arg { return arg{dt: F32, shape: shape, lo: -2, hi: 2} }

// pos is a float32 input uniform in [0.1, 3].
func pos(shape ...int) arg { return arg{dt: F32, shape: shape, lo: 0.1, hi: 3} }

// nz is a float32 input of magnitude in [0.5, 2] with a random sign.
func nz(shape ...int) arg { return arg{dt: F32, shape: shape, lo: 0.5, hi: 2, signed: true} }

// rng is a float32 input uniform in [lo, hi].
func rng(lo, hi float64, shape ...int) arg { return arg{dt: F32, shape: shape, lo: lo, hi: hi} }

// typed is an input of any element type: floats in [-2, 2], signed
// integers in [-100, 100], unsigned ones in [0, 200].
func typed(dt payload.DType, shape ...int) arg {
	a := arg{dt: dt, shape: shape, lo: -2, hi: 2}
	switch dt {
	case I8, I16, I32, I64:
		a.lo, a.hi = -100, 100
	case U8, U16, U32, U64:
		a.lo, a.hi = 0, 200
	}
	return a
}

// ints is an int64 input uniform in [lo, hi].
func ints(lo, hi int, shape ...int) arg {
	return arg{dt: I64, shape: shape, lo: float64(lo), hi: float64(hi)}
}

// i64 is a 1-D int64 initializer holding vals.
func i64(vals ...int64) arg {
	return arg{dt: I64, shape: []int{len(vals)}, fixed: bytesOf(vals), init: true}
}

// i64s is an int64 scalar initializer.
func i64s(v int64) arg { return arg{dt: I64, shape: []int{}, fixed: bytesOf([]int64{v}), init: true} }

// fc is a float32 initializer of the given shape holding vals.
func fc(shape []int, vals ...float32) arg {
	return arg{dt: F32, shape: shape, fixed: bytesOf(vals), init: true}
}

// fs is a float32 scalar initializer.
func fs(v float32) arg { return arg{dt: F32, shape: []int{}, fixed: bytesOf([]float32{v}), init: true} }

// none is an omitted optional input.
var none = arg{absent: true}

// c makes the input an initializer (random data drawn once per model).
func (a arg) c() arg { a.init = true; return a }

// fed makes a fixed-data initializer a graph input fed at run time.
func (a arg) fed() arg { a.init = false; return a }

// d declares the input's shape with free dims (-1) instead of its fed
// shape.
func (a arg) d(decl ...int64) arg { a.decl = decl; return a }

// as names the input.
func (a arg) as(name string) arg { a.name = name; return a }

// tc is one parity case: a single node (op) or a small graph (nodes) over
// the inputs in, with outputs y0, y1... of the element types out.
type tc struct {
	name  string
	opset int64
	op    string
	attrs []onnxbuild.Attr
	in    []arg
	out   []payload.DType
	nodes []onnxbuild.Node
	tol   float64 // 0: 1e-4
	// domain is the single node's domain, imported at version 1 besides
	// the default domain's opset; "" for the default one.
	domain string
}

// c1 is a single-node case whose one output has the first input's type.
func c1(name string, opset int64, op string, at []onnxbuild.Attr, in ...arg) tc {
	return tc{name: name, opset: opset, op: op, attrs: at, in: in}
}

// graph is a case over several nodes; the nodes read the inputs by the
// names given with arg.as and write y0, y1...
func graph(name string, opset int64, nodes []onnxbuild.Node, in ...arg) tc {
	return tc{name: name, opset: opset, nodes: nodes, in: in}
}

// outs sets the outputs' element types.
func (c tc) outs(dt ...payload.DType) tc { c.out = dt; return c }

// nd builds a node for graph cases.
func nd(op string, ins, outs []string, at ...onnxbuild.Attr) onnxbuild.Node {
	return onnxbuild.Node{Op: op, Inputs: ins, Outputs: outs, Attrs: at}
}

// names is shorthand for a list of value names.
func names(s ...string) []string { return s }

// build returns the case's model, with initializers drawn from r.
func (c tc) build(r *rand.Rand) ([]byte, []arg) {
	in := make([]arg, len(c.in))
	copy(in, c.in)
	var g onnxbuild.Graph
	var nodeIn []string
	for i := range in {
		a := &in[i]
		if a.absent {
			nodeIn = append(nodeIn, "")
			continue
		}
		if a.name == "" {
			a.name = fmt.Sprintf("x%d", i)
		}
		nodeIn = append(nodeIn, a.name)
		shape := make([]int64, len(a.shape))
		for k, d := range a.shape {
			shape[k] = int64(d)
		}
		if a.init {
			data := a.fixed
			if data == nil {
				data = fill(r, a.dt, payload.NumElems(a.shape), a.lo, a.hi, a.signed)
			}
			g.Initializers = append(g.Initializers, onnxbuild.Tensor{Name: a.name, DType: a.dt, Shape: shape, Raw: data})
			continue
		}
		if a.decl != nil {
			shape = a.decl
		}
		g.Inputs = append(g.Inputs, onnxbuild.Value{Name: a.name, DType: a.dt, Shape: shape, NoShape: a.noRank})
	}
	for len(nodeIn) > 0 && nodeIn[len(nodeIn)-1] == "" {
		nodeIn = nodeIn[:len(nodeIn)-1]
	}
	out := c.out
	if out == nil {
		out = []payload.DType{c.in[0].dt}
	}
	var outNames []string
	for i, dt := range out {
		n := fmt.Sprintf("y%d", i)
		outNames = append(outNames, n)
		g.Outputs = append(g.Outputs, onnxbuild.Value{Name: n, DType: dt, NoShape: true})
	}
	if c.nodes != nil {
		g.Nodes = c.nodes
	} else {
		g.Nodes = []onnxbuild.Node{{Name: "n0", Op: c.op, Domain: c.domain, Inputs: nodeIn, Outputs: outNames, Attrs: c.attrs}}
	}
	g.Name = c.name
	m := onnxbuild.Model{Opset: c.opset, Graph: g}
	if c.domain != "" {
		m.Opsets = map[string]int64{c.domain: 1}
	}
	return m.Encode(), in
}

// feeds draws fresh run-time inputs.
func feeds(r *rand.Rand, in []arg) []payload.Dynamic {
	var out []payload.Dynamic
	for _, a := range in {
		if a.absent || a.init {
			continue
		}
		data := a.fixed
		if data == nil {
			data = fill(r, a.dt, payload.NumElems(a.shape), a.lo, a.hi, a.signed)
		}
		out = append(out, payload.Dynamic{Name: a.name, DType: a.dt, Shape: append([]int{}, a.shape...), Data: data})
	}
	return out
}

// failures collects failing cases for the summary printed after the run.
var failures struct {
	sync.Mutex
	m map[string]string
}

func recordFailure(name, msg string) {
	failures.Lock()
	defer failures.Unlock()
	if failures.m == nil {
		failures.m = map[string]string{}
	}
	if _, ok := failures.m[name]; !ok {
		failures.m[name] = msg
	}
}

func failureSummary() string {
	failures.Lock()
	defer failures.Unlock()
	if len(failures.m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(failures.m))
	for k := range failures.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%d failing cases (seed %d):\n", len(keys), seedVal)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %s\n", k, failures.m[k])
	}
	return b.String()
}

// runCases runs each case as a subtest named after it.
func runCases(t *testing.T, cases []tc) {
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			r := caseRand(t, c.name)
			model, in := c.build(r)
			tol := c.tol
			if tol == 0 {
				tol = 1e-4
			}
			draws := make([][]payload.Dynamic, 2)
			for i := range draws {
				draws[i] = feeds(r, in)
			}
			checkModel(t, model, c.name, draws, tol)
		})
	}
}

// checkModel runs the model on both runtimes for each set of feeds and
// compares every output.
func checkModel(t *testing.T, model []byte, label string, draws [][]payload.Dynamic, tol float64) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		recordFailure(t.Name(), msg)
		t.Error(msg)
	}
	refs := make([][]value, len(draws))
	for i, f := range draws {
		ref, err := ortRun(model, f)
		if err != nil {
			recordFailure(t.Name(), "reference runtime rejects the case: "+err.Error())
			t.Fatalf("reference runtime rejects the case: %v", err)
		}
		refs[i] = ref
		for _, v := range ref {
			if len(v.f) > 0 {
				lo, hi := v.f[0], v.f[0]
				for _, x := range v.f {
					lo, hi = min(lo, x), max(hi, x)
				}
				t.Logf("run %d: reference %q %v in [%.3g, %.3g]", i, v.name, v.shape, lo, hi)
			}
		}
	}
	m, err := loadLintel(model, label)
	if err != nil {
		fail("lintel: %v", err)
		t.FailNow()
	}
	defer m.close()
	for i, f := range draws {
		got, err := m.infer(f)
		if err != nil {
			fail("lintel: run %d: %v", i, err)
			return
		}
		if len(got) != len(refs[i]) {
			fail("lintel returned %d outputs, reference %d", len(got), len(refs[i]))
			return
		}
		maxErr := 0.0
		for k := range refs[i] {
			e, err := compare(got[k], refs[i][k], tol)
			if err != nil {
				fail("run %d: %v", i, err)
			}
			maxErr = max(maxErr, e)
		}
		t.Logf("run %d: max relative L2 error %.3g", i, maxErr)
	}
	if len(draws) < 2 {
		return
	}
	// The same draws as one batch: each item must match the reference too
	// (InferBatch may stack items into one run).
	batched, err := m.inferBatch(draws)
	if err != nil {
		fail("lintel: %v", err)
		return
	}
	for i := range draws {
		if len(batched[i]) != len(refs[i]) {
			fail("lintel batch item %d returned %d outputs, reference %d", i, len(batched[i]), len(refs[i]))
			return
		}
		for k := range refs[i] {
			if _, err := compare(batched[i][k], refs[i][k], tol); err != nil {
				fail("batch item %d: %v", i, err)
			}
		}
	}
}
