package cpu

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// refAct is an activation of the reference below: a name and its alpha
// and beta (used by the functions that take them).
type refAct struct {
	name        string
	alpha, beta float64
}

// eval computes the activation in float64, written out here apart from
// the kernel's.
func (a refAct) eval(x float64) float64 {
	switch a.name {
	case "Relu":
		return math.Max(x, 0)
	case "Tanh":
		return math.Tanh(x)
	case "Sigmoid":
		return 1 / (1 + math.Exp(-x))
	case "Affine":
		return a.alpha*x + a.beta
	case "LeakyRelu":
		if x < 0 {
			return a.alpha * x
		}
		return x
	case "ThresholdedRelu":
		if x > a.alpha {
			return x
		}
		return 0
	case "ScaledTanh":
		return a.alpha * math.Tanh(a.beta*x)
	case "HardSigmoid":
		return math.Min(1, math.Max(0, a.alpha*x+a.beta))
	case "Elu":
		if x < 0 {
			return a.alpha * (math.Exp(x) - 1)
		}
		return x
	case "Softsign":
		return x / (1 + math.Abs(x))
	case "Softplus":
		return math.Log(1 + math.Exp(x))
	}
	panic("unknown activation " + a.name)
}

// rnnCase is one recurrent node run by the kernel and by rnnRef.
type rnnCase struct {
	name                      string
	op                        string // RNN, GRU or LSTM
	dir                       string
	layout                    int
	seq, batch, input, hidden int
	// acts, when set, is the activations attribute, per direction.
	acts             []refAct
	clip             float64
	inputForget, lbr bool
	// Optional inputs given: B, initial_h, initial_c, P; lens when set.
	bias, h0, c0, peep bool
	lens               []int32
	dt                 payload.DType
	constW             bool
}

func (c rnnCase) gates() int {
	return map[string]int{"RNN": 1, "GRU": 3, "LSTM": 4}[c.op]
}

func (c rnnCase) dirs() int {
	if c.dir == "bidirectional" {
		return 2
	}
	return 1
}

// defaultActs are the op's default activations for one direction.
func (c rnnCase) defaultActs() []refAct {
	switch c.op {
	case "GRU":
		return []refAct{{name: "Sigmoid"}, {name: "Tanh"}}
	case "LSTM":
		return []refAct{{name: "Sigmoid"}, {name: "Tanh"}, {name: "Tanh"}}
	}
	return []refAct{{name: "Tanh"}}
}

// rnnData is a case's inputs, in float64, row-major as ONNX lays them
// out.
type rnnData struct {
	x, w, r, b, h0, c0, p []float64
}

// rnnRef computes Y, Y_h and Y_c (LSTM) one item, one direction, one
// step and one unit at a time, straight from the equations of the ONNX
// specification.
func rnnRef(c rnnCase, in rnnData) (y, yh, yc []float64) {
	S, B, I, H, D, G := c.seq, c.batch, c.input, c.hidden, c.dirs(), c.gates()
	y = make([]float64, S*D*B*H)
	yh = make([]float64, D*B*H)
	yc = make([]float64, D*B*H)
	xAt := func(t, b, k int) float64 {
		if c.layout == 1 {
			return in.x[(b*S+t)*I+k]
		}
		return in.x[(t*B+b)*I+k]
	}
	yAt := func(t, d, b int) int {
		if c.layout == 1 {
			return ((b*S+t)*D + d) * H
		}
		return ((t*D+d)*B + b) * H
	}
	stAt := func(d, b int) int {
		if c.layout == 1 {
			return (b*D + d) * H
		}
		return (d*B + b) * H
	}
	clip := func(v float64) float64 {
		if c.clip > 0 {
			return math.Min(math.Max(v, -c.clip), c.clip)
		}
		return v
	}
	for d := range D {
		acts := c.defaultActs()
		if c.acts != nil {
			acts = c.acts[d*len(acts) : (d+1)*len(acts)]
		}
		reverse := c.dir == "reverse" || d == 1
		// wx, rh and the biases of gate g, unit j.
		wx := func(g, j, t, b int) float64 {
			s := 0.0
			for k := range I {
				s += in.w[((d*G+g)*H+j)*I+k] * xAt(t, b, k)
			}
			return s
		}
		rv := func(g, j int, h []float64) float64 {
			s := 0.0
			for k := range H {
				s += in.r[((d*G+g)*H+j)*H+k] * h[k]
			}
			return s
		}
		wb := func(g, j int) float64 {
			if in.b == nil {
				return 0
			}
			return in.b[d*2*G*H+g*H+j]
		}
		rb := func(g, j int) float64 {
			if in.b == nil {
				return 0
			}
			return in.b[d*2*G*H+(G+g)*H+j]
		}
		for b := range B {
			l := S
			if c.lens != nil {
				l = int(c.lens[b])
			}
			h := make([]float64, H)
			cs := make([]float64, H)
			if in.h0 != nil {
				copy(h, in.h0[stAt(d, b):])
			}
			if in.c0 != nil {
				copy(cs, in.c0[stAt(d, b):])
			}
			for s := range l {
				t := s
				if reverse {
					t = l - 1 - s
				}
				nh := make([]float64, H)
				switch c.op {
				case "RNN":
					for j := range H {
						nh[j] = acts[0].eval(clip(wx(0, j, t, b) + rv(0, j, h) + wb(0, j) + rb(0, j)))
					}
				case "GRU":
					z, r := make([]float64, H), make([]float64, H)
					for j := range H {
						z[j] = acts[0].eval(clip(wx(0, j, t, b) + rv(0, j, h) + wb(0, j) + rb(0, j)))
						r[j] = acts[0].eval(clip(wx(1, j, t, b) + rv(1, j, h) + wb(1, j) + rb(1, j)))
					}
					rh := make([]float64, H)
					for j := range H {
						rh[j] = r[j] * h[j]
					}
					for j := range H {
						var pre float64
						if c.lbr {
							pre = wx(2, j, t, b) + r[j]*(rv(2, j, h)+rb(2, j)) + wb(2, j)
						} else {
							pre = wx(2, j, t, b) + rv(2, j, rh) + rb(2, j) + wb(2, j)
						}
						hh := acts[1].eval(clip(pre))
						nh[j] = (1-z[j])*hh + z[j]*h[j]
					}
				case "LSTM":
					pv := func(g, j int, cv float64) float64 {
						if in.p == nil {
							return 0
						}
						return in.p[d*3*H+g*H+j] * cv
					}
					nc := make([]float64, H)
					for j := range H {
						pre := func(g int) float64 { return wx(g, j, t, b) + rv(g, j, h) + wb(g, j) + rb(g, j) }
						i := acts[0].eval(clip(pre(0) + pv(0, j, cs[j])))
						f := acts[0].eval(clip(pre(2) + pv(2, j, cs[j])))
						if c.inputForget {
							f = 1 - i
						}
						g := acts[1].eval(clip(pre(3)))
						nc[j] = f*cs[j] + i*g
						o := acts[0].eval(clip(pre(1) + pv(1, j, nc[j])))
						nh[j] = o * acts[2].eval(nc[j])
					}
					cs = nc
				}
				h = nh
				copy(y[yAt(t, d, b):], h)
			}
			if l > 0 {
				copy(yh[stAt(d, b):], h)
				copy(yc[stAt(d, b):], cs)
			}
		}
	}
	return y, yh, yc
}

// run builds the case's node and inputs, runs the kernel, and returns
// its outputs and the inputs given.
func (c rnnCase) run(t *testing.T, seed uint64) ([]*tensor, rnnData, error) {
	t.Helper()
	r := nnRng(seed)
	S, B, I, H, D, G := c.seq, c.batch, c.input, c.hidden, c.dirs(), c.gates()
	draw := func(n int, scale float32) ([]float32, []float64) {
		v := nnRand(r, n)
		f := make([]float64, n)
		for i := range v {
			v[i] *= scale
			f[i] = float64(v[i])
		}
		return v, f
	}
	dt := c.dt
	if dt == 0 {
		dt = payload.Float32
	}
	var data rnnData
	ins := make([]*tensor, 8)
	names := []string{"x", "w", "r", "", "", "", "", ""}
	xs := []int{S, B, I}
	st := []int{D, B, H}
	if c.layout == 1 {
		xs, st = []int{B, S, I}, []int{B, D, H}
	}
	var v []float32
	v, data.x = draw(S*B*I, 1.5)
	ins[0] = nnTensor(dt, xs, v)
	v, data.w = draw(D*G*H*I, 0.8)
	ins[1] = nnTensor(dt, []int{D, G * H, I}, v)
	v, data.r = draw(D*G*H*H, 0.8)
	ins[2] = nnTensor(dt, []int{D, G * H, H}, v)
	if c.bias {
		v, data.b = draw(D*2*G*H, 0.5)
		ins[3], names[3] = nnTensor(dt, []int{D, 2 * G * H}, v), "b"
	}
	if c.lens != nil {
		ins[4], names[4] = mk([]int{B}, c.lens), "sl"
	}
	if c.h0 {
		v, data.h0 = draw(D*B*H, 1)
		ins[5], names[5] = nnTensor(dt, st, v), "h0"
	}
	if c.c0 {
		v, data.c0 = draw(D*B*H, 1)
		ins[6], names[6] = nnTensor(dt, st, v), "c0"
	}
	if c.peep {
		v, data.p = draw(D*3*H, 0.5)
		ins[7], names[7] = nnTensor(dt, []int{D, 3 * H}, v), "p"
	}
	n := len(names)
	for n > 3 && names[n-1] == "" {
		n--
	}
	ins, names = ins[:n], names[:n]
	attrs := []model.Attr{aInt("hidden_size", int64(H)), aString("direction", c.dir), aInt("layout", int64(c.layout))}
	if c.acts != nil {
		var ns []string
		var al, be []float32
		for _, a := range c.acts {
			ns = append(ns, a.name)
			switch a.name {
			case "Affine", "ScaledTanh", "HardSigmoid":
				al, be = append(al, float32(a.alpha)), append(be, float32(a.beta))
			case "LeakyRelu", "ThresholdedRelu", "Elu":
				al = append(al, float32(a.alpha))
			}
		}
		attrs = append(attrs, model.Attr{Name: "activations", Type: model.AttrStrings, Strings: ns},
			model.Attr{Name: "activation_alpha", Type: model.AttrFloats, Floats: al},
			model.Attr{Name: "activation_beta", Type: model.AttrFloats, Floats: be})
	}
	if c.clip > 0 {
		attrs = append(attrs, aFloat("clip", float32(c.clip)))
	}
	if c.inputForget {
		attrs = append(attrs, aInt("input_forget", 1))
	}
	if c.lbr {
		attrs = append(attrs, aInt("linear_before_reset", 1))
	}
	outs := []string{"y", "yh"}
	if c.op == "LSTM" {
		outs = append(outs, "yc")
	}
	nd := &model.Node{Name: c.name, OpType: c.op, Inputs: names, Outputs: outs, Attrs: attrs}
	nc := nodeCase{node: nd, opset: 14, outTypes: []payload.DType{dt, dt, dt}}
	if c.constW {
		nc.consts = []int{1, 2}
	}
	got, err := runNode(t, nc, ins...)
	return got, data, err
}

func rnnCases() []rnnCase {
	var cases []rnnCase
	for _, op := range []string{"RNN", "GRU", "LSTM"} {
		lstm := op == "LSTM"
		add := func(c rnnCase) {
			c.op = op
			c.name = op + "/" + c.name
			if c.seq == 0 {
				c.seq, c.batch, c.input, c.hidden = 4, 3, 5, 6
			}
			if c.dir == "" {
				c.dir = "forward"
			}
			cases = append(cases, c)
		}
		add(rnnCase{name: "defaults"})
		add(rnnCase{name: "bias h0", bias: true, h0: true})
		add(rnnCase{name: "reverse", dir: "reverse", bias: true, h0: true, c0: lstm})
		add(rnnCase{name: "bidirectional", dir: "bidirectional", bias: true, h0: true, c0: lstm, peep: lstm})
		add(rnnCase{name: "lens forward", bias: true, lens: []int32{4, 0, 2}, h0: true, c0: lstm})
		add(rnnCase{name: "lens reverse", dir: "reverse", lens: []int32{1, 3, 0}, h0: true})
		add(rnnCase{name: "lens bidirectional", dir: "bidirectional", bias: true, lens: []int32{2, 4, 3}, peep: lstm})
		add(rnnCase{name: "layout 1", layout: 1, dir: "bidirectional", bias: true, h0: true, c0: lstm, lens: []int32{3, 1, 4}})
		add(rnnCase{name: "clip", clip: 0.3, bias: true})
		add(rnnCase{name: "const weights", constW: true, bias: true, dir: "bidirectional"})
		add(rnnCase{name: "float64", dt: payload.Float64, dir: "bidirectional", bias: true, h0: true, c0: lstm, peep: lstm, lens: []int32{4, 2, 1}})
		add(rnnCase{name: "batch 1 seq 1", seq: 1, batch: 1, input: 7, hidden: 20, bias: true, h0: true, c0: lstm, constW: true})
		add(rnnCase{name: "hidden 40 seq 3", seq: 3, batch: 2, input: 33, hidden: 40, bias: true, h0: true, c0: lstm})
		add(rnnCase{name: "input 0", seq: 2, batch: 2, input: 0, hidden: 3, bias: true, h0: true})
		add(rnnCase{name: "batch 0", seq: 2, batch: 0, input: 3, hidden: 3, bias: true})
		k := len(rnnCases0(op))
		all := []refAct{
			{name: "Relu"}, {name: "Tanh"}, {name: "Sigmoid"}, {name: "Affine", alpha: 0.7, beta: 0.2},
			{name: "LeakyRelu", alpha: 0.1}, {name: "ThresholdedRelu", alpha: 0.2}, {name: "ScaledTanh", alpha: 1.2, beta: 0.6},
			{name: "HardSigmoid", alpha: 0.3, beta: 0.4}, {name: "Elu", alpha: 0.8}, {name: "Softsign"}, {name: "Softplus"},
		}
		for i := 0; i < len(all); i += k {
			var acts []refAct
			for j := range 2 * k {
				acts = append(acts, all[(i+j)%len(all)])
			}
			add(rnnCase{name: fmt.Sprintf("activations %d", i), dir: "bidirectional", acts: acts, bias: true, h0: true})
		}
		switch op {
		case "GRU":
			add(rnnCase{name: "linear before reset", lbr: true, bias: true, h0: true})
			add(rnnCase{name: "linear before reset bidirectional lens", lbr: true, dir: "bidirectional", bias: true, lens: []int32{3, 0, 4}})
			add(rnnCase{name: "linear before reset no bias", lbr: true, h0: true, constW: true})
		case "LSTM":
			add(rnnCase{name: "peepholes", bias: true, h0: true, c0: true, peep: true})
			add(rnnCase{name: "input forget", inputForget: true, bias: true, peep: true, c0: true})
			add(rnnCase{name: "input forget clip", inputForget: true, clip: 0.5, bias: true})
		}
	}
	return cases
}

// rnnCases0 is the default activations of op, for the counts.
func rnnCases0(op string) []refAct { return rnnCase{op: op}.defaultActs() }

func TestRecurrentAgainstReference(t *testing.T) {
	for i, c := range rnnCases() {
		t.Run(c.name, func(t *testing.T) {
			got, in, err := c.run(t, uint64(100+i))
			if err != nil {
				t.Fatal(err)
			}
			y, yh, yc := rnnRef(c, in)
			want := [][]float64{y, yh, yc}
			for o, g := range got {
				gv := toF64(g)
				if len(gv) != len(want[o]) {
					t.Fatalf("output %d: got %d values (shape %v), want %d", o, len(gv), g.shape, len(want[o]))
				}
				for j := range gv {
					if math.Abs(gv[j]-want[o][j]) > 2e-5*max(1, math.Abs(want[o][j])) {
						t.Fatalf("output %d [%d]: got %v, want %v\ngot  %v\nwant %v", o, j, gv[j], want[o][j], gv, want[o])
					}
				}
			}
		})
	}
}

// TestRecurrentHandChecked runs cases small enough to check by hand.
func TestRecurrentHandChecked(t *testing.T) {
	x := mk([]int{2, 1, 1}, []float32{1, -1})
	w := mk([]int{1, 1, 1}, []float32{2})
	r := mk([]int{1, 1, 1}, []float32{0.5})
	h1 := math.Tanh(2)
	h2 := math.Tanh(-2 + 0.5*h1)
	// Reverse: step x[1] first, then x[0].
	r1 := math.Tanh(-2)
	r0 := math.Tanh(2 + 0.5*r1)
	cases := []struct {
		name   string
		attrs  []model.Attr
		wantY  []float64
		wantYh []float64
	}{
		{"forward", nil, []float64{h1, h2}, []float64{h2}},
		{"reverse", []model.Attr{aString("direction", "reverse")}, []float64{r0, r1}, []float64{r0}},
		{"relu", []model.Attr{{Name: "activations", Type: model.AttrStrings, Strings: []string{"Relu"}}}, []float64{2, 0}, []float64{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := &model.Node{Name: "rnn", OpType: "RNN", Inputs: []string{"x", "w", "r"}, Outputs: []string{"y", "yh"}, Attrs: append([]model.Attr{aInt("hidden_size", 1)}, c.attrs...)}
			got, err := runNode(t, nodeCase{node: n}, x, w, r)
			if err != nil {
				t.Fatal(err)
			}
			for o, want := range [][]float64{c.wantY, c.wantYh} {
				g := toF64(got[o])
				for i := range want {
					if math.Abs(g[i]-want[i]) > 1e-6 {
						t.Fatalf("output %d: got %v, want %v", o, g, want)
					}
				}
			}
		})
	}
	// LSTM, hidden 1, all weights 1, no bias: i = f = o = σ(x + h),
	// c̃ = tanh(x + h), C = f·C0 + i·c̃, H = o·tanh(C).
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	n := &model.Node{Name: "lstm", OpType: "LSTM", Inputs: []string{"x", "w", "r", "", "", "h0", "c0"}, Outputs: []string{"", "yh", "yc"}, Attrs: []model.Attr{aInt("hidden_size", 1)}}
	ones := mk([]int{1, 4, 1}, []float32{1, 1, 1, 1})
	got, err := runNode(t, nodeCase{node: n}, mk([]int{1, 1, 1}, []float32{0.5}), ones, ones, nil, nil, mk([]int{1, 1, 1}, []float32{0.25}), mk([]int{1, 1, 1}, []float32{-1}))
	if err != nil {
		t.Fatal(err)
	}
	g := sig(0.75)
	cw := g*-1 + g*math.Tanh(0.75)
	hw := g * math.Tanh(cw)
	if gh, gc := toF64(got[1])[0], toF64(got[2])[0]; math.Abs(gh-hw) > 1e-6 || math.Abs(gc-cw) > 1e-6 {
		t.Errorf("got Y_h %v Y_c %v, want %v %v", gh, gc, hw, cw)
	}
}

func TestRecurrentErrors(t *testing.T) {
	x := mk([]int{2, 1, 3}, make([]float32, 6))
	w := mk([]int{1, 4, 3}, make([]float32, 12))
	r := mk([]int{1, 4, 4}, make([]float32, 16))
	cases := []struct {
		name string
		ins  []string
		vals []*tensor
		want error
	}{
		{"W rows", []string{"x", "w", "r"}, []*tensor{x, mk([]int{1, 3, 3}, make([]float32, 9)), r}, errs.ShapeMismatch},
		{"X rank", []string{"x", "w", "r"}, []*tensor{mk([]int{2, 3}, make([]float32, 6)), w, r}, errs.ShapeMismatch},
		{"lens too long", []string{"x", "w", "r", "", "sl"}, []*tensor{x, w, r, nil, mk([]int{1}, []int32{3})}, errs.ShapeMismatch},
		{"lens negative", []string{"x", "w", "r", "", "sl"}, []*tensor{x, w, r, nil, mk([]int{1}, []int32{-1})}, errs.ShapeMismatch},
		{"lens int64", []string{"x", "w", "r", "", "sl"}, []*tensor{x, w, r, nil, mk([]int{1}, []int64{1})}, errs.InvalidArtifact},
		{"bfloat16", []string{"x", "w", "r"}, []*tensor{mk([]int{2, 1, 3}, make([]payload.BFloat16, 6)), w, r}, errs.Unsupported},
		{"mixed types", []string{"x", "w", "r"}, []*tensor{x, mk([]int{1, 4, 3}, make([]float64, 12)), r}, errs.InvalidArtifact},
		{"initial_h batch", []string{"x", "w", "r", "", "", "h"}, []*tensor{x, w, r, nil, nil, mk([]int{1, 2, 4}, make([]float32, 8))}, errs.ShapeMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := &model.Node{Name: "rnn", OpType: "RNN", Inputs: c.ins, Outputs: []string{"y"}, Attrs: []model.Attr{aInt("hidden_size", 4)}}
			_, err := runNode(t, nodeCase{node: n}, c.vals...)
			if !errors.Is(err, c.want) {
				t.Fatalf("got error %v, want one wrapping %v", err, c.want)
			}
		})
	}
}

func TestRecurrentSteadyNoAllocs(t *testing.T) {
	r := nnRng(3)
	f := func(shape ...int) *tensor { return mk(shape, nnRand(r, nnProd(shape))) }
	for _, c := range []struct {
		op     string
		g      int
		attrs  []model.Attr
		consts []int
	}{
		{"RNN", 1, nil, nil},
		{"GRU", 3, nil, []int{1, 2}},
		{"GRU", 3, []model.Attr{aInt("linear_before_reset", 1)}, nil},
		{"LSTM", 4, nil, []int{1, 2}},
		{"LSTM", 4, []model.Attr{aString("direction", "bidirectional")}, nil},
	} {
		d := 1
		if len(c.attrs) > 0 && c.attrs[0].S == "bidirectional" {
			d = 2
		}
		ins := []*tensor{f(3, 2, 5), f(d, c.g*8, 5), f(d, c.g*8, 8), f(d, 2*c.g*8), mk([]int{2}, []int32{3, 2}), f(d, 2, 8)}
		names := []string{"x", "w", "r", "b", "sl", "h"}
		n := &model.Node{Name: c.op, OpType: c.op, Inputs: names, Outputs: []string{"y"}, Attrs: append([]model.Attr{aInt("hidden_size", 8)}, c.attrs...)}
		wantSteadyNoAllocs(t, nodeCase{node: n, opset: 14, consts: c.consts}, ins...)
	}
}

// TestRecurrentNotStacked checks that InferBatch never stacks items
// through a recurrent op: with layout 0 the batch is X's axis 1, and
// with layout 1, where it is axis 0, the initial states still mix in.
func TestRecurrentNotStacked(t *testing.T) {
	for _, c := range []struct {
		op     string
		g      int
		layout int64
		x      onnxbuild.Value
	}{
		{"LSTM", 4, 0, onnxbuild.Input("x", payload.Float32, -1, 2, 3)},
		{"LSTM", 4, 1, onnxbuild.Input("x", payload.Float32, -1, 2, 3)},
		{"GRU", 3, 1, onnxbuild.Input("x", payload.Float32, -1, 2, 3)},
		{"RNN", 1, 0, onnxbuild.Input("x", payload.Float32, -1, 2, 3)},
	} {
		t.Run(fmt.Sprintf("%s layout %d", c.op, c.layout), func(t *testing.T) {
			m := onnxbuild.Model{Opset: 14, Graph: onnxbuild.Graph{
				Inputs:  []onnxbuild.Value{c.x},
				Outputs: []onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true}},
				Nodes: []onnxbuild.Node{{Op: c.op, Inputs: []string{"x", "w", "r"}, Outputs: []string{"y"},
					Attrs: []onnxbuild.Attr{onnxbuild.AInt("hidden_size", 2), onnxbuild.AInt("layout", c.layout)}}},
				Initializers: []onnxbuild.Tensor{
					onnxbuild.TensorOf("w", []int64{1, int64(2 * c.g), 3}, make([]float32, 6*c.g)),
					onnxbuild.TensorOf("r", []int64{1, int64(2 * c.g), 2}, make([]float32, 4*c.g)),
				},
			}}
			art, err := artifacts.FromBytes(m.Encode(), c.op)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := New[payload.Tensor[float32], payload.Tensor[float32]](compute.Options{}).LoadModel(art)
			if err != nil {
				t.Fatal(err)
			}
			if mod.prog.stackable {
				t.Fatal("stackable = true, want false")
			}
		})
	}
}

func TestRecurrentSigmoidTanh32(t *testing.T) {
	var xs []float32
	for x := -100.0; x <= 100; x += 1.0 / 256 {
		xs = append(xs, float32(x))
	}
	xs = append(xs, 1e-30, -1e-30, 0, float32(math.Inf(1)), float32(math.Inf(-1)))
	for _, c := range []struct {
		name string
		f    func(d, e []float32)
		ref  func(float64) float64
	}{
		{"sigmoid", sigmoidSlice32, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }},
		{"tanh", tanhSlice32, math.Tanh},
	} {
		d := append([]float32{}, xs...)
		c.f(d, make([]float32, len(d)))
		for i, x := range xs {
			want := c.ref(float64(x))
			if err := math.Abs(float64(d[i]) - want); err > 4e-7*max(math.Abs(want), 1e-2) {
				t.Errorf("%s(%g): got %g, want %g", c.name, x, d[i], want)
			}
		}
		nan := []float32{float32(math.NaN())}
		if c.f(nan, make([]float32, 1)); nan[0] == nan[0] {
			t.Errorf("%s(NaN): got %v, want NaN", c.name, nan[0])
		}
	}
}

// BenchmarkLSTMStep is one step of an LSTM the size of Silero VAD's
// (hidden 128, batch 1, constant weights), as a streaming service runs
// it per chunk.
func BenchmarkLSTMStep(b *testing.B) {
	r := nnRng(5)
	f := func(shape ...int) *tensor { return mk(shape, nnRand(r, nnProd(shape))) }
	ins := []*tensor{f(1, 1, 128), f(1, 512, 128), f(1, 512, 128), f(1, 1024), nil, f(1, 1, 128), f(1, 1, 128)}
	n := &model.Node{Name: "lstm", OpType: "LSTM", Inputs: []string{"x", "w", "r", "b", "", "h", "c"}, Outputs: []string{"y", "yh", "yc"}, Attrs: []model.Attr{aInt("hidden_size", 128)}}
	g := model.NewGraph()
	g.Opset = 14
	bc := &buildCtx{g: g, n: n, opset: 14}
	for i, t := range ins {
		vi := model.ValueInfo{}
		if t != nil {
			vi = model.ValueInfo{Name: n.Input(i), DType: t.dt, Shape: t.shape, RankKnown: true}
			if i == 1 || i == 2 {
				g.Initializers[n.Input(i)] = &model.Tensor{Name: n.Input(i), DType: t.dt, Shape: t.shape, Raw: t.data}
			}
		}
		bc.in = append(bc.in, vi)
	}
	for _, o := range n.Outputs {
		bc.out = append(bc.out, model.ValueInfo{Name: o, DType: payload.Float32})
	}
	k, err := buildKernel(bc)
	if err != nil {
		b.Fatal(err)
	}
	sh := newOutShaper(bc, k)
	outs := []*tensor{{dt: payload.Float32}, {dt: payload.Float32}, {dt: payload.Float32}}
	if err := sh.shapes(ins, outs); err != nil {
		b.Fatal(err)
	}
	for _, o := range outs {
		o.data = alignedBytes(o.numel() * 4)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := k.run(ins, outs); err != nil {
			b.Fatal(err)
		}
	}
}
