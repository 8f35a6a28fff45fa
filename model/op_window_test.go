package model

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// winIn is what a window-op rule test knows of one input.
type winIn struct {
	dt       payload.DType
	dims     []int
	unranked bool
	absent   bool
	ints     []int64
	floats   []float64
}

// wx is a float32 input of known rank.
func wx(dims ...int) winIn { return winIn{dt: f32, dims: dims} }

// wu is a float32 input of unknown rank.
func wu() winIn { return winIn{dt: f32, unranked: true} }

// wabs is an absent input.
func wabs() winIn { return winIn{absent: true} }

// wf is a 1-D float32 input with known contents.
func wf(v ...float64) winIn { return winIn{dt: f32, dims: []int{len(v)}, floats: v} }

// wi is a 1-D int64 input with known contents.
func wi(v ...int64) winIn { return winIn{dt: i64, dims: []int{len(v)}, ints: v} }

// winUnr marks an output of unknown rank in winCase.want.
var winUnr = []int{-9}

// winCase runs one node's rule on the inputs given.
type winCase struct {
	name    string
	opset   int64
	node    *Node
	in      []winIn
	runtime bool
	// want holds each output's dims (winUnr: unknown rank); wantDT the
	// element types, when checked.
	want   [][]int
	wantDT []payload.DType
	// err is the sentinel the binding or the rule must fail with.
	err error
}

// winCtx binds c's node and fills a context with its inputs.
func winCtx(c winCase) (Rule, *InferCtx, error) {
	opset := c.opset
	if opset == 0 {
		opset = 21
	}
	c.node.Name = "n"
	_, rule, err := BindNode(c.node, opset)
	if err != nil {
		return nil, nil, err
	}
	if rule == nil {
		return nil, nil, fmt.Errorf("%s: no descriptor", c.node.OpType)
	}
	ctx := NewInferCtx(c.node, opset, c.runtime)
	for i, v := range c.in {
		if i >= ctx.NumIn() {
			break
		}
		switch {
		case v.absent:
			ctx.SetAbsent(i)
		case v.unranked:
			ctx.SetInput(i, v.dt, nil, false)
		default:
			ctx.SetInput(i, v.dt, v.dims, true)
		}
		if v.ints != nil {
			ctx.SetInts(i, v.ints)
		}
		if v.floats != nil {
			ctx.SetFloats(i, v.floats)
		}
	}
	return rule, ctx, nil
}

func runWinCases(t *testing.T, cases []winCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, ctx, err := winCtx(c)
			if err == nil {
				err = rule.Infer(ctx)
			}
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got error %v, want %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			for j, w := range c.want {
				o := ctx.Out(j)
				got := winUnr
				if o.Ranked {
					got = o.Dims
				}
				if fmt.Sprint(got) != fmt.Sprint(w) {
					t.Errorf("output %d: got %v, want %v", j, got, w)
				}
			}
			for j, w := range c.wantDT {
				if got := ctx.Out(j).DType; got != w {
					t.Errorf("output %d: got type %s, want %s", j, got, w)
				}
			}
		})
	}
}

func dims(d ...int) []int { return d }

func TestWindowBind(t *testing.T) {
	x, w := wx(1, 3, 32, 32), wx(16, 3, 3, 3)
	conv := func(attrs ...Attr) *Node { return nd("Conv", []string{"x", "w"}, []string{"y"}, attrs...) }
	runWinCases(t, []winCase{
		{name: "auto_pad unknown", node: conv(aS("auto_pad", "FULL")), in: []winIn{x, w}, err: errs.Unsupported},
		{name: "auto_pad as int", node: conv(aI("auto_pad", 1)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "zero stride", node: conv(aIs("strides", 0, 1)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "zero dilation", node: conv(aIs("dilations", 1, 0)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "zero kernel", node: conv(aIs("kernel_shape", 0, 3)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "negative pads", node: conv(aIs("pads", -1, 0, 0, 0)), in: []winIn{x, w}, err: errs.Unsupported},
		{name: "odd pads", node: conv(aIs("pads", 1, 1, 1)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "pads with auto_pad", node: conv(aS("auto_pad", "VALID"), aIs("pads", 1, 1, 1, 1)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "zero pads with auto_pad", node: conv(aS("auto_pad", "VALID"), aIs("pads", 0, 0, 0, 0)), in: []winIn{x, w}, want: [][]int{dims(1, 16, 30, 30)}},
		{name: "lists disagree", node: conv(aIs("strides", 1, 1), aIs("dilations", 1, 1, 1)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "lists misfit rank", node: conv(aIs("strides", 1, 1, 1)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "lists misfit rank at run time", node: conv(aIs("strides", 1, 1, 1)), in: []winIn{x, w}, runtime: true, err: errs.ShapeMismatch},
		{name: "group zero", node: conv(aI("group", 0)), in: []winIn{x, w}, err: errs.InvalidArtifact},
	})
}

func TestWindowDim(t *testing.T) {
	cases := []struct {
		name  string
		w     Window
		in, k int
		want  WindowDim
		bad   bool
	}{
		{name: "plain", in: 32, k: 3, want: WindowDim{Out: 30}},
		{name: "pads strides", w: Window{Strides: []int64{2}, Pads: []int64{1, 1}}, in: 32, k: 3, want: WindowDim{Out: 16, PadBegin: 1, PadEnd: 1}},
		{name: "dilation", w: Window{Dilations: []int64{3}}, in: 32, k: 3, want: WindowDim{Out: 26}},
		{name: "same upper", w: Window{Strides: []int64{2}, AutoPad: PadSameUpper}, in: 5, k: 4, want: WindowDim{Out: 3, PadBegin: 1, PadEnd: 2}},
		{name: "same lower", w: Window{Strides: []int64{2}, AutoPad: PadSameLower}, in: 5, k: 4, want: WindowDim{Out: 3, PadBegin: 2, PadEnd: 1}},
		{name: "valid ignores pads", w: Window{AutoPad: PadValid}, in: 5, k: 2, want: WindowDim{Out: 4}},
		{name: "ceil", w: Window{Strides: []int64{2}, CeilMode: true}, in: 5, k: 2, want: WindowDim{Out: 3}},
		{name: "ceil drops a window in the end pad", w: Window{Strides: []int64{2}, Pads: []int64{1, 1}, CeilMode: true}, in: 4, k: 2, want: WindowDim{Out: 3, PadBegin: 1, PadEnd: 1}},
		{name: "too small", in: 2, k: 3, bad: true},
		{name: "kernel overflows", w: Window{Dilations: []int64{1 << 62}}, in: 8, k: 1 << 40, bad: true},
	}
	for _, c := range cases {
		got, err := c.w.Dim(0, 1, c.in, c.k)
		if c.bad {
			if err == nil {
				t.Errorf("%s: got %+v, want an error", c.name, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %+v, %v, want %+v", c.name, got, err, c.want)
		}
	}
}

// TestWindowRulesAllocs runs the heaviest rules on known shapes and
// values, as the CPU executor does on every call: they must not allocate.
func TestWindowRulesAllocs(t *testing.T) {
	cases := []winCase{
		{name: "conv", node: nd("Conv", []string{"x", "w", "b"}, []string{"y"}, aIs("pads", 1, 1, 1, 1), aIs("strides", 2, 2), aIs("kernel_shape", 3, 3)), in: []winIn{wx(1, 3, 32, 32), wx(16, 3, 3, 3), wx(16)}},
		{name: "convtranspose", node: nd("ConvTranspose", []string{"x", "w"}, []string{"y"}, aIs("strides", 2, 2), aS("auto_pad", "SAME_LOWER")), in: []winIn{wx(1, 16, 8, 8), wx(16, 4, 3, 3)}},
		{name: "maxpool", node: nd("MaxPool", []string{"x"}, []string{"y", "i"}, aIs("kernel_shape", 3, 3), aI("ceil_mode", 1)), in: []winIn{wx(1, 3, 32, 32)}},
		{name: "resize sizes", opset: 18, node: nd("Resize", []string{"x", "", "", "z"}, []string{"y"}, aIs("axes", 2, 3), aS("keep_aspect_ratio_policy", "not_larger")), in: []winIn{wx(1, 3, 4, 8), wabs(), wabs(), wi(8, 8)}},
		{name: "resize scales", opset: 13, node: nd("Resize", []string{"x", "", "s"}, []string{"y"}), in: []winIn{wx(1, 3, 5, 5), wabs(), wf(1, 1, 2, 1.5)}},
	}
	for _, c := range cases {
		c.runtime = true
		rule, ctx, err := winCtx(c)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := rule.Infer(ctx); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := testing.AllocsPerRun(100, func() { _ = rule.Infer(ctx) }); got != 0 {
			t.Errorf("%s: got %v allocations per run, want 0", c.name, got)
		}
	}
}
