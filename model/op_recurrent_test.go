package model

import (
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestRecurrentRules(t *testing.T) {
	lstm := func(outs []string, attrs ...Attr) *Node {
		return nd("LSTM", []string{"x", "w", "r", "b", "sl", "h", "c", "p"}, outs, attrs...)
	}
	gru := func(attrs ...Attr) *Node {
		return nd("GRU", []string{"x", "w", "r", "b", "sl", "h"}, []string{"y", "yh"}, attrs...)
	}
	rnn := func(attrs ...Attr) *Node { return nd("RNN", []string{"x", "w", "r"}, []string{"y", "yh"}, attrs...) }
	yyc := []string{"y", "yh", "yc"}
	i32 := payload.Int32
	hs := aI("hidden_size", 4)
	bi := aS("direction", "bidirectional")
	l1 := aI("layout", 1)
	full := []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4), kin(f32, 1, 32), kin(i32, 3), kin(f32, 1, 3, 4), kin(f32, 1, 3, 4), kin(f32, 1, 12)}
	runNNCases(t, []nnCase{
		{name: "LSTM all inputs", opset: 14, node: lstm(yyc, hs), in: full, want: []nnOut{ko(f32, 5, 1, 3, 4), ko(f32, 1, 3, 4), ko(f32, 1, 3, 4)}},
		{name: "LSTM opset 7", opset: 7, node: lstm(yyc, hs), in: full, want: []nnOut{ko(f32, 5, 1, 3, 4), ko(f32, 1, 3, 4), ko(f32, 1, 3, 4)}},
		{name: "LSTM opset 1", opset: 1, node: lstm(yyc, hs, aI("output_sequence", 1)), in: full, want: []nnOut{ko(f32, 5, 1, 3, 4), ko(f32, 1, 3, 4), ko(f32, 1, 3, 4)}},
		{name: "LSTM opset 22 float64", opset: 22, node: nd("LSTM", []string{"x", "w", "r"}, yyc, hs),
			in: []nnIn{kin(payload.Float64, 5, 3, 2), kin(payload.Float64, 1, 16, 2), kin(payload.Float64, 1, 16, 4)}, want: []nnOut{ko(payload.Float64, 5, 1, 3, 4), ko(payload.Float64, 1, 3, 4), ko(payload.Float64, 1, 3, 4)}},
		{name: "LSTM only Y_c", opset: 14, node: lstm([]string{"", "", "yc"}, hs), in: full, want: []nnOut{ko(f32, 5, 1, 3, 4), ko(f32, 1, 3, 4), ko(f32, 1, 3, 4)}},
		{name: "LSTM layout 1 bidirectional", opset: 14, node: nd("LSTM", []string{"x", "w", "r", "", "", "h"}, yyc, hs, bi, l1),
			in: []nnIn{kin(f32, 3, 5, 2), kin(f32, 2, 16, 2), kin(f32, 2, 16, 4), rnnAbsent, rnnAbsent, kin(f32, 3, 2, 4)}, want: []nnOut{ko(f32, 3, 5, 2, 4), ko(f32, 3, 2, 4), ko(f32, 3, 2, 4)}},
		{name: "layout ignored before 14", opset: 13, node: nd("LSTM", []string{"x", "w", "r"}, yyc, hs, l1),
			in: []nnIn{kin(f32, 3, 5, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4)}, want: []nnOut{ko(f32, 3, 1, 5, 4), ko(f32, 1, 5, 4), ko(f32, 1, 5, 4)}},
		{name: "hidden from R", opset: 14, node: nd("LSTM", []string{"x", "w", "r"}, yyc),
			in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4)}, want: []nnOut{ko(f32, 5, 1, 3, 4), ko(f32, 1, 3, 4), ko(f32, 1, 3, 4)}},
		{name: "partial X", opset: 14, node: lstm(yyc, hs), in: []nnIn{kin(f32, -1, -1, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4)},
			want: []nnOut{ko(f32, -1, 1, -1, 4), ko(f32, 1, -1, 4), ko(f32, 1, -1, 4)}},
		{name: "batch from initial_h", opset: 14, node: lstm(yyc), in: []nnIn{kin(f32, -1, -1, 2), uin(f32), uin(f32), rnnAbsent, rnnAbsent, kin(f32, 1, 3, 4)},
			want: []nnOut{ko(f32, -1, 1, 3, 4), ko(f32, 1, 3, 4), ko(f32, 1, 3, 4)}},
		{name: "unknown ranks", opset: 14, node: lstm(yyc), in: []nnIn{uin(f32), uin(f32), uin(f32)},
			want: []nnOut{ko(f32, -1, 1, -1, -1), ko(f32, 1, -1, -1), ko(f32, 1, -1, -1)}},
		{name: "GRU", opset: 14, node: gru(hs, bi), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 2, 12, 2), kin(f32, 2, 12, 4), kin(f32, 2, 24), kin(i32, 3), kin(f32, 2, 3, 4)},
			want: []nnOut{ko(f32, 5, 2, 3, 4), ko(f32, 2, 3, 4)}},
		{name: "GRU opset 3", opset: 3, node: gru(hs, aI("linear_before_reset", 1)), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 12, 2), kin(f32, 1, 12, 4)},
			want: []nnOut{ko(f32, 5, 1, 3, 4), ko(f32, 1, 3, 4)}},
		{name: "RNN", opset: 7, node: rnn(hs, aS("direction", "reverse")), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 4, 2), kin(f32, 1, 4, 4)},
			want: []nnOut{ko(f32, 5, 1, 3, 4), ko(f32, 1, 3, 4)}},
		{name: "RNN layout 1", opset: 22, node: rnn(hs, l1), in: []nnIn{kin(f32, 3, 5, 2), kin(f32, 1, 4, 2), kin(f32, 1, 4, 4)},
			want: []nnOut{ko(f32, 3, 5, 1, 4), ko(f32, 3, 1, 4)}},

		{name: "X rank", opset: 14, node: rnn(hs), in: []nnIn{kin(f32, 5, 3), kin(f32, 1, 4, 2), kin(f32, 1, 4, 4)}, err: errs.InvalidArtifact, errHas: "X has rank 2"},
		{name: "W rows", opset: 14, node: gru(hs), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 8, 2), kin(f32, 1, 12, 4)}, err: errs.InvalidArtifact, errHas: "W has shape"},
		{name: "W input", runtime: true, opset: 14, node: gru(hs), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 12, 3), kin(f32, 1, 12, 4)}, err: errs.ShapeMismatch, errHas: "W has shape"},
		{name: "R hidden", opset: 14, node: rnn(hs), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 4, 2), kin(f32, 1, 4, 3)}, err: errs.InvalidArtifact, errHas: "R has shape"},
		{name: "R not a multiple", opset: 14, node: nd("GRU", []string{"x", "w", "r"}, []string{"y"}), in: []nnIn{kin(f32, 5, 3, 2), uin(f32), kin(f32, 1, 10, -1)}, err: errs.InvalidArtifact, errHas: "multiple of 3"},
		{name: "directions", opset: 14, node: rnn(hs, bi), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 4, 2), kin(f32, 1, 4, 4)}, err: errs.InvalidArtifact, errHas: "has shape"},
		{name: "B", opset: 14, node: lstm(yyc, hs), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4), kin(f32, 1, 16)}, err: errs.InvalidArtifact, errHas: "B has shape"},
		{name: "sequence_lens", opset: 14, node: lstm(yyc, hs), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4), rnnAbsent, kin(i32, 2)}, err: errs.InvalidArtifact, errHas: "sequence_lens"},
		{name: "initial_c", runtime: true, opset: 14, node: lstm(yyc, hs), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4), rnnAbsent, rnnAbsent, rnnAbsent, kin(f32, 1, 2, 4)}, err: errs.ShapeMismatch, errHas: "initial_c"},
		{name: "initial_h layout 1", opset: 14, node: lstm(yyc, hs, l1), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4), rnnAbsent, rnnAbsent, kin(f32, 1, 5, 4)}, err: errs.InvalidArtifact, errHas: "initial_h"},
		{name: "P", opset: 14, node: lstm(yyc, hs), in: []nnIn{kin(f32, 5, 3, 2), kin(f32, 1, 16, 2), kin(f32, 1, 16, 4), rnnAbsent, rnnAbsent, rnnAbsent, rnnAbsent, kin(f32, 1, 16)}, err: errs.InvalidArtifact, errHas: "P has shape"},
		{name: "direction", opset: 14, node: rnn(aS("direction", "sideways")), err: errs.InvalidArtifact, errHas: "direction"},
		{name: "layout", opset: 14, node: rnn(aI("layout", 2)), err: errs.InvalidArtifact, errHas: "layout"},
		{name: "clip", opset: 14, node: rnn(aF("clip", 0)), err: errs.InvalidArtifact, errHas: "clip"},
		{name: "hidden_size", opset: 14, node: rnn(aI("hidden_size", -1)), err: errs.InvalidArtifact, errHas: "hidden_size"},
		{name: "activation name", opset: 14, node: rnn(aSs("activations", "Swish")), err: errs.InvalidArtifact, errHas: "Swish"},
		{name: "activation count", opset: 14, node: gru(aSs("activations", "Tanh")), err: errs.InvalidArtifact, errHas: "1 activations, want 2"},
		{name: "activations type", opset: 14, node: rnn(aS("activations", "Tanh")), err: errs.InvalidArtifact, errHas: "activations"},
		{name: "too many inputs", opset: 14, node: nd("GRU", []string{"x", "w", "r", "b", "sl", "h", "c"}, []string{"y"}), err: errs.InvalidArtifact, errHas: "at most 6"},
		{name: "too many outputs", opset: 14, node: nd("RNN", []string{"x", "w", "r"}, []string{"y", "yh", "yc"}), err: errs.InvalidArtifact, errHas: "at most 2"},
	})
}

func TestRecurrentActivations(t *testing.T) {
	act := func(f RNNActFunc, a, b float32) RNNActivation { return RNNActivation{Func: f, Alpha: a, Beta: b} }
	cases := []struct {
		name string
		op   string
		dir  string
		at   []Attr
		want []RNNActivation
	}{
		{"LSTM defaults", "LSTM", "forward", nil, []RNNActivation{act(RNNActSigmoid, 0, 0), act(RNNActTanh, 0, 0), act(RNNActTanh, 0, 0)}},
		{"GRU defaults bidirectional", "GRU", "bidirectional", nil, []RNNActivation{act(RNNActSigmoid, 0, 0), act(RNNActTanh, 0, 0), act(RNNActSigmoid, 0, 0), act(RNNActTanh, 0, 0)}},
		{"RNN Tanh Tanh forward", "RNN", "forward", []Attr{aSs("activations", "Tanh", "Tanh")}, []RNNActivation{act(RNNActTanh, 0, 0)}},
		{"alpha and beta in order", "GRU", "bidirectional",
			[]Attr{aSs("activations", "hardsigmoid", "LeakyRelu", "Affine", "Relu"), aFs("activation_alpha", 0.1, 0.2, 0.3), aFs("activation_beta", 0.4, 0.5)},
			[]RNNActivation{act(RNNActHardSigmoid, 0.1, 0.4), act(RNNActLeakyRelu, 0.2, 0), act(RNNActAffine, 0.3, 0.5), act(RNNActRelu, 0, 0)}},
		{"defaults when the lists run out", "LSTM", "forward",
			[]Attr{aSs("activations", "Elu", "HardSigmoid", "ScaledTanh")},
			[]RNNActivation{act(RNNActElu, 1, 0), act(RNNActHardSigmoid, 0.2, 0.5), act(RNNActScaledTanh, 0, 0)}},
		{"the others", "RNN", "bidirectional", []Attr{aSs("activations", "Softsign", "Softplus")}, []RNNActivation{act(RNNActSoftsign, 0, 0), act(RNNActSoftplus, 0, 0)}},
	}
	for _, c := range cases {
		n := nd(c.op, []string{"x", "w", "r"}, []string{"y"}, append(c.at, aS("direction", c.dir))...)
		_, r, err := BindNode(n, 14)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []RNNActivation
		switch a := r.(type) {
		case *LSTMAttrs:
			got = a.Activations
		case *GRUAttrs:
			got = a.Activations
		case *RNNAttrs:
			got = a.Activations
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestRNNActivationEval(t *testing.T) {
	cases := []struct {
		a    RNNActivation
		x    float64
		want float64
	}{
		{RNNActivation{Func: RNNActRelu}, -1, 0},
		{RNNActivation{Func: RNNActTanh}, 0.5, 0.46211715726000974},
		{RNNActivation{Func: RNNActSigmoid}, -2, 0.11920292202211755},
		{RNNActivation{Func: RNNActAffine, Alpha: 2, Beta: 1}, 3, 7},
		{RNNActivation{Func: RNNActLeakyRelu, Alpha: 0.5}, -2, -1},
		{RNNActivation{Func: RNNActThresholdedRelu, Alpha: 1}, 0.5, 0},
		{RNNActivation{Func: RNNActThresholdedRelu, Alpha: 1}, 1.5, 1.5},
		{RNNActivation{Func: RNNActScaledTanh, Alpha: 2, Beta: 0.5}, 1, 2 * 0.46211715726000974},
		{RNNActivation{Func: RNNActHardSigmoid, Alpha: 0.5, Beta: 0.5}, 0.5, 0.75},
		{RNNActivation{Func: RNNActElu, Alpha: 1}, -1, -0.6321205588285577},
		{RNNActivation{Func: RNNActSoftsign}, -3, -0.75},
		{RNNActivation{Func: RNNActSoftplus}, 0, 0.6931471805599453},
		{RNNActivation{Func: RNNActSoftplus}, 40, 40},
	}
	for _, c := range cases {
		if got := c.a.Eval(c.x); got-c.want > 1e-12 || c.want-got > 1e-12 {
			t.Errorf("%+v at %v: got %v, want %v", c.a, c.x, got, c.want)
		}
	}
}

func TestRecurrentRuleDoesNotAllocate(t *testing.T) {
	n := nd("LSTM", []string{"x", "w", "r", "b", "sl", "h", "c", "p"}, []string{"y", "yh", "yc"}, aI("hidden_size", 4), aS("direction", "bidirectional"))
	in := []nnIn{kin(f32, 5, 3, 2), kin(f32, 2, 16, 2), kin(f32, 2, 16, 4), kin(f32, 2, 32), kin(payload.Int32, 3), kin(f32, 2, 3, 4), kin(f32, 2, 3, 4), kin(f32, 2, 12)}
	r, c, err := nnCtx(n, 14, true, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Infer(c); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(20, func() { _ = r.Infer(c) }); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
}

// rnnAbsent is an optional input left out.
var rnnAbsent = nnIn{absent: true}
