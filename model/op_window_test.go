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

// unr marks an output of unknown rank in winCase.want.
var unr = []int{-9}

// winCase runs one node's rule on the inputs given.
type winCase struct {
	name    string
	opset   int64
	node    *Node
	in      []winIn
	runtime bool
	// want holds each output's dims (unr: unknown rank); wantDT the
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
				got := unr
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

func TestConvRule(t *testing.T) {
	x, w := wx(1, 3, 32, 32), wx(16, 3, 3, 3)
	conv := func(attrs ...Attr) *Node { return nd("Conv", []string{"x", "w"}, []string{"y"}, attrs...) }
	convB := func(attrs ...Attr) *Node { return nd("Conv", []string{"x", "w", "b"}, []string{"y"}, attrs...) }
	runWinCases(t, []winCase{
		{name: "plain", node: conv(), in: []winIn{x, w}, want: [][]int{dims(1, 16, 30, 30)}, wantDT: []payload.DType{f32}},
		{name: "opset 1", opset: 1, node: conv(), in: []winIn{x, w}, want: [][]int{dims(1, 16, 30, 30)}},
		{name: "pads strides", node: conv(aIs("pads", 1, 1, 1, 1), aIs("strides", 2, 2)), in: []winIn{x, w}, want: [][]int{dims(1, 16, 16, 16)}},
		{name: "same lower", node: conv(aS("auto_pad", "SAME_LOWER"), aIs("strides", 3, 3)), in: []winIn{x, w}, want: [][]int{dims(1, 16, 11, 11)}},
		{name: "group", node: conv(aI("group", 4)), in: []winIn{wx(1, 8, 10, 10), wx(8, 2, 3, 3)}, want: [][]int{dims(1, 8, 8, 8)}},
		{name: "bias", node: convB(), in: []winIn{x, w, wx(16)}, want: [][]int{dims(1, 16, 30, 30)}},
		{name: "1-D dynamic", node: conv(), in: []winIn{wx(-1, 4, -1), wx(6, 4, 5)}, want: [][]int{dims(-1, 6, -1)}},
		{name: "3-D", node: conv(aIs("strides", 1, 2, 2)), in: []winIn{wx(2, 1, 5, 6, 7), wx(4, 1, 3, 3, 3)}, want: [][]int{dims(2, 4, 3, 2, 3)}},
		{name: "unknown input rank", node: conv(), in: []winIn{wu(), w}, want: [][]int{dims(-1, 16, -1, -1)}},
		{name: "unknown weight rank", node: conv(aIs("kernel_shape", 3, 3)), in: []winIn{x, wu()}, want: [][]int{dims(1, -1, 30, 30)}},
		{name: "unknown weight rank no kernel_shape", node: conv(), in: []winIn{x, wu()}, want: [][]int{dims(1, -1, -1, -1)}},
		{name: "unknown ranks", node: conv(), in: []winIn{wu(), wu()}, want: [][]int{unr}},
		{name: "unknown kernel dims", node: conv(aIs("kernel_shape", 3, 3)), in: []winIn{x, wx(16, 3, -1, -1)}, want: [][]int{dims(1, 16, 30, 30)}},
		{name: "channels", node: conv(), in: []winIn{wx(1, 4, 10, 10), w}, err: errs.InvalidArtifact},
		{name: "channels at run time", node: conv(), in: []winIn{wx(1, 4, 10, 10), w}, runtime: true, err: errs.ShapeMismatch},
		{name: "group channels", node: conv(aI("group", 3)), in: []winIn{wx(1, 3, 5, 5), wx(3, 2, 3, 3)}, err: errs.InvalidArtifact},
		{name: "outputs not divisible by group", node: conv(aI("group", 3)), in: []winIn{wx(1, 3, 5, 5), wx(4, 1, 3, 3)}, err: errs.InvalidArtifact},
		{name: "rank mismatch", node: conv(), in: []winIn{x, wx(16, 3, 3)}, err: errs.InvalidArtifact},
		{name: "rank 2", node: conv(), in: []winIn{wx(1, 3), wx(16, 3)}, err: errs.InvalidArtifact},
		{name: "kernel_shape mismatch", node: conv(aIs("kernel_shape", 2, 2)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "too small", node: conv(), in: []winIn{wx(1, 3, 2, 2), w}, err: errs.InvalidArtifact},
		{name: "bias length", node: convB(), in: []winIn{x, w, wx(3)}, runtime: true, err: errs.ShapeMismatch},
		{name: "missing weights", node: nd("Conv", []string{"x", ""}, []string{"y"}), in: []winIn{x, wabs()}, err: errs.InvalidArtifact},
	})
}

func TestConvTransposeRule(t *testing.T) {
	x, w := wx(1, 16, 8, 8), wx(16, 4, 3, 3)
	ct := func(attrs ...Attr) *Node { return nd("ConvTranspose", []string{"x", "w"}, []string{"y"}, attrs...) }
	runWinCases(t, []winCase{
		{name: "plain", node: ct(), in: []winIn{x, w}, want: [][]int{dims(1, 4, 10, 10)}},
		{name: "strides pads output_padding", node: ct(aIs("strides", 2, 2), aIs("pads", 1, 1, 1, 1), aIs("output_padding", 1, 1)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 16, 16)}},
		{name: "group", node: ct(aI("group", 2)), in: []winIn{x, w}, want: [][]int{dims(1, 8, 10, 10)}},
		{name: "output_shape", node: ct(aIs("strides", 2, 2), aIs("output_shape", 15, 16)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 15, 16)}},
		{name: "output_shape with N and C", node: ct(aIs("output_shape", 1, 4, 12, 12)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 12, 12)}},
		{name: "same upper", node: ct(aIs("strides", 2, 2), aS("auto_pad", "SAME_UPPER")), in: []winIn{x, w}, want: [][]int{dims(1, 4, 16, 16)}},
		{name: "same beyond the full output", node: ct(aIs("strides", 4, 4), aS("auto_pad", "SAME_UPPER")), in: []winIn{x, wx(16, 4, 1, 1)}, want: [][]int{dims(1, 4, 29, 29)}},
		{name: "valid", node: ct(aS("auto_pad", "VALID"), aIs("strides", 2, 2)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 17, 17)}},
		{name: "dilations", node: ct(aIs("dilations", 2, 2)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 12, 12)}},
		{name: "dynamic", node: ct(), in: []winIn{wx(-1, 16, -1, 8), w}, want: [][]int{dims(-1, 4, -1, 10)}},
		{name: "unknown input rank", node: ct(), in: []winIn{wu(), w}, want: [][]int{dims(-1, 4, -1, -1)}},
		{name: "channels", node: ct(), in: []winIn{wx(1, 3, 4, 4), wx(2, 2, 3, 3)}, err: errs.InvalidArtifact},
		{name: "group channels", node: ct(aI("group", 2)), in: []winIn{wx(1, 3, 4, 4), wx(3, 2, 3, 3)}, runtime: true, err: errs.ShapeMismatch},
		{name: "output_padding rank", node: ct(aIs("output_padding", 1)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "output_padding negative", node: ct(aIs("output_padding", -1, 0)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "output_shape rank", node: ct(aIs("output_shape", 3)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "negative size", node: ct(aIs("pads", 9, 0, 9, 0)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "huge stride", node: ct(aIs("strides", 1<<62, 1<<62)), in: []winIn{x, w}, err: errs.InvalidArtifact},
	})
}

func TestPoolRule(t *testing.T) {
	x := wx(1, 3, 32, 32)
	pool := func(op string, attrs ...Attr) *Node { return nd(op, []string{"x"}, []string{"y"}, attrs...) }
	k2 := aIs("kernel_shape", 2, 2)
	runWinCases(t, []winCase{
		{name: "maxpool indices", node: nd("MaxPool", []string{"x"}, []string{"y", "i"}, k2, aIs("strides", 2, 2)), in: []winIn{x}, want: [][]int{dims(1, 3, 16, 16), dims(1, 3, 16, 16)}, wantDT: []payload.DType{f32, i64}},
		{name: "maxpool indices opset 7", opset: 7, node: nd("MaxPool", []string{"x"}, []string{"y", "i"}, k2), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "maxpool opset 1", opset: 1, node: pool("MaxPool", k2), in: []winIn{x}, want: [][]int{dims(1, 3, 31, 31)}},
		{name: "maxpool ceil", node: pool("MaxPool", k2, aIs("strides", 2, 2), aI("ceil_mode", 1)), in: []winIn{wx(1, 1, 5, 5)}, want: [][]int{dims(1, 1, 3, 3)}},
		{name: "maxpool ceil drop last", node: pool("MaxPool", aIs("kernel_shape", 2), aIs("strides", 2), aIs("pads", 1, 1), aI("ceil_mode", 1)), in: []winIn{wx(1, 1, 4)}, want: [][]int{dims(1, 1, 3)}},
		{name: "maxpool dilation", node: pool("MaxPool", aIs("kernel_shape", 3), aIs("dilations", 2)), in: []winIn{wx(1, 1, 10)}, want: [][]int{dims(1, 1, 6)}},
		{name: "maxpool storage_order", node: pool("MaxPool", k2, aI("storage_order", 1)), in: []winIn{x}, want: [][]int{dims(1, 3, 31, 31)}},
		{name: "maxpool bad storage_order", node: pool("MaxPool", k2, aI("storage_order", 2)), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "averagepool same lower", node: pool("AveragePool", aIs("kernel_shape", 3, 3), aIs("strides", 2, 2), aS("auto_pad", "SAME_LOWER")), in: []winIn{wx(1, 1, 5, 5)}, want: [][]int{dims(1, 1, 3, 3)}},
		{name: "averagepool count_include_pad", node: pool("AveragePool", k2, aI("count_include_pad", 1), aIs("pads", 1, 1, 1, 1)), in: []winIn{x}, want: [][]int{dims(1, 3, 33, 33)}},
		{name: "lppool", node: pool("LpPool", aIs("kernel_shape", 3, 3), aI("p", 3)), in: []winIn{wx(2, 3, 6, 6)}, want: [][]int{dims(2, 3, 4, 4)}},
		{name: "lppool float p opset 1", opset: 1, node: pool("LpPool", aIs("kernel_shape", 3, 3), aF("p", 2)), in: []winIn{wx(2, 3, 6, 6)}, want: [][]int{dims(2, 3, 4, 4)}},
		{name: "lppool p 0", node: pool("LpPool", k2, aI("p", 0)), in: []winIn{x}, err: errs.Unsupported},
		{name: "dynamic", node: pool("MaxPool", k2), in: []winIn{wx(-1, 3, -1, 8)}, want: [][]int{dims(-1, 3, -1, 7)}},
		{name: "unknown rank", node: nd("MaxPool", []string{"x"}, []string{"y", "i"}, k2), in: []winIn{wu()}, want: [][]int{dims(-1, -1, -1, -1), dims(-1, -1, -1, -1)}},
		{name: "no kernel_shape", node: pool("MaxPool"), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "kernel rank", node: pool("MaxPool", aIs("kernel_shape", 2)), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "kernel too big", node: pool("AveragePool", aIs("kernel_shape", 5, 5)), in: []winIn{wx(1, 1, 4, 4)}, runtime: true, err: errs.ShapeMismatch},
		{name: "huge kernel", node: pool("MaxPool", aIs("kernel_shape", 1<<62, 1<<62), aIs("dilations", 1<<62, 4)), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "global average", node: pool("GlobalAveragePool"), in: []winIn{wx(-1, 3, 7, 7)}, want: [][]int{dims(-1, 3, 1, 1)}},
		{name: "global max 1-D", node: pool("GlobalMaxPool"), in: []winIn{wx(2, 3, 7)}, want: [][]int{dims(2, 3, 1)}},
		{name: "global lp", node: pool("GlobalLpPool", aI("p", 1)), in: []winIn{wx(2, 3, 7, 7, 7)}, want: [][]int{dims(2, 3, 1, 1, 1)}},
		{name: "global unknown rank", node: pool("GlobalMaxPool"), in: []winIn{wu()}, want: [][]int{unr}},
		{name: "global rank 1", node: pool("GlobalMaxPool"), in: []winIn{wx(4)}, runtime: true, err: errs.ShapeMismatch},
		{name: "global lp p 0", node: pool("GlobalLpPool", aI("p", 0)), in: []winIn{x}, err: errs.Unsupported},
	})
}

func TestResizeRule(t *testing.T) {
	x := wx(1, 3, 5, 5)
	rs := func(ins []string, attrs ...Attr) *Node { return nd("Resize", ins, []string{"y"}, attrs...) }
	xs, xz := []string{"x", "", "s"}, []string{"x", "", "", "z"}
	runWinCases(t, []winCase{
		{name: "scales", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wf(1, 1, 2, 1.5)}, want: [][]int{dims(1, 3, 10, 7)}},
		{name: "scales float32 product", opset: 13, node: rs(xs), in: []winIn{wx(1, 1, 3, 10), wabs(), wf(1, 1, float64(float32(1.0/3)), float64(float32(0.7)))}, want: [][]int{dims(1, 1, 1, 7)}},
		{name: "sizes", opset: 13, node: rs(xz), in: []winIn{x, wabs(), wabs(), wi(1, 3, 8, 9)}, want: [][]int{dims(1, 3, 8, 9)}},
		{name: "empty scales with sizes", opset: 11, node: rs([]string{"x", "r", "s", "z"}), in: []winIn{x, wf(), wf(), wi(1, 3, 8, 9)}, want: [][]int{dims(1, 3, 8, 9)}},
		{name: "sizes axes", opset: 18, node: rs(xz, aIs("axes", 2, -1)), in: []winIn{x, wabs(), wabs(), wi(8, 9)}, want: [][]int{dims(1, 3, 8, 9)}},
		{name: "axes ignored before 18", opset: 13, node: rs(xz, aIs("axes", 2, 3)), in: []winIn{x, wabs(), wabs(), wi(8, 9)}, err: errs.InvalidArtifact},
		{name: "not_larger", opset: 18, node: rs(xz, aIs("axes", 2, 3), aS("keep_aspect_ratio_policy", "not_larger")), in: []winIn{wx(1, 3, 4, 8), wabs(), wabs(), wi(8, 8)}, want: [][]int{dims(1, 3, 4, 8)}},
		{name: "not_smaller", opset: 18, node: rs(xz, aIs("axes", 2, 3), aS("keep_aspect_ratio_policy", "not_smaller")), in: []winIn{wx(1, 3, 4, 8), wabs(), wabs(), wi(8, 8)}, want: [][]int{dims(1, 3, 8, 16)}},
		{name: "not_smaller unknown dim", opset: 18, node: rs(xz, aIs("axes", 2, 3), aS("keep_aspect_ratio_policy", "not_smaller")), in: []winIn{wx(1, 3, -1, 8), wabs(), wabs(), wi(8, 8)}, want: [][]int{dims(1, 3, -1, -1)}},
		{name: "bad policy", opset: 18, node: rs(xz, aS("keep_aspect_ratio_policy", "fill")), in: []winIn{x, wabs(), wabs(), wi(1, 3, 8, 9)}, err: errs.Unsupported},
		{name: "opset 10", opset: 10, node: rs([]string{"x", "s"}), in: []winIn{x, wf(1, 1, 2, 2)}, want: [][]int{dims(1, 3, 10, 10)}},
		{name: "opset 10 without scales", opset: 10, node: rs([]string{"x"}), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "opset 9", opset: 9, node: rs([]string{"x", "s"}), in: []winIn{x, wf(1, 1, 2, 2)}, err: errs.Unsupported},
		{name: "dynamic scales", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wx(4)}, want: [][]int{dims(-1, -1, -1, -1)}},
		{name: "dynamic sizes axes", opset: 18, node: rs(xz, aIs("axes", 3)), in: []winIn{x, wabs(), wabs(), {dt: i64, dims: []int{1}}}, want: [][]int{dims(1, 3, 5, -1)}},
		{name: "unknown dim", opset: 13, node: rs(xs), in: []winIn{wx(-1, 3, 5, 5), wabs(), wf(1, 1, 2, 2)}, want: [][]int{dims(-1, 3, 10, 10)}},
		{name: "unknown rank", opset: 13, node: rs(xs), in: []winIn{wu(), wabs(), wf(1, 1, 2, 2)}, want: [][]int{unr}},
		{name: "tf_crop_and_resize", opset: 13, node: rs([]string{"x", "r", "s"}, aS("coordinate_transformation_mode", "tf_crop_and_resize")), in: []winIn{x, wf(0, 0, 0, 0, 1, 1, 1, 1), wf(1, 1, 2, 2)}, want: [][]int{dims(1, 3, 10, 10)}},
		{name: "bad scale", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wf(1, 1, 0, 1)}, err: errs.InvalidArtifact},
		{name: "bad scale at run time", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wf(1, 1, -2, 1)}, runtime: true, err: errs.ShapeMismatch},
		{name: "scales count", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wf(1, 2)}, runtime: true, err: errs.ShapeMismatch},
		{name: "both", opset: 13, node: rs([]string{"x", "", "s", "z"}), in: []winIn{x, wabs(), wf(1, 1, 2, 2), wi(1, 1, 4, 4)}, runtime: true, err: errs.ShapeMismatch},
		{name: "neither", opset: 13, node: rs([]string{"x"}), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "negative size", opset: 13, node: rs(xz), in: []winIn{x, wabs(), wabs(), wi(1, 3, -1, 4)}, err: errs.InvalidArtifact},
		{name: "size for an empty dim", opset: 13, node: rs(xz), in: []winIn{wx(1, 3, 0, 5), wabs(), wabs(), wi(1, 3, 2, 4)}, err: errs.InvalidArtifact},
		{name: "axes repeated", opset: 18, node: rs(xz, aIs("axes", 2, -2)), in: []winIn{x, wabs(), wabs(), wi(8, 9)}, err: errs.InvalidArtifact},
		{name: "bad coordinate mode", opset: 13, node: rs(xs, aS("coordinate_transformation_mode", "bogus")), in: []winIn{x, wabs(), wf(1, 1, 2, 2)}, err: errs.Unsupported},
		{name: "bad nearest mode", opset: 13, node: rs(xs, aS("nearest_mode", "bogus")), in: []winIn{x, wabs(), wf(1, 1, 2, 2)}, err: errs.Unsupported},
		{name: "bad mode", opset: 13, node: rs(xs, aS("mode", "area")), in: []winIn{x, wabs(), wf(1, 1, 2, 2)}, err: errs.Unsupported},
		{name: "upsample input", opset: 9, node: nd("Upsample", []string{"x", "s"}, []string{"y"}), in: []winIn{x, wf(1, 1, 2, 3)}, want: [][]int{dims(1, 3, 10, 15)}},
		{name: "upsample attribute", opset: 7, node: nd("Upsample", []string{"x"}, []string{"y"}, aFs("scales", 1, 1, 3, 3)), in: []winIn{x}, want: [][]int{dims(1, 3, 15, 15)}},
		{name: "upsample no scales attribute", opset: 8, node: nd("Upsample", []string{"x"}, []string{"y"}), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "upsample no scales input", opset: 9, node: nd("Upsample", []string{"x"}, []string{"y"}), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "upsample downscale", opset: 9, node: nd("Upsample", []string{"x", "s"}, []string{"y"}), in: []winIn{x, wf(1, 1, 0.5, 1)}, runtime: true, err: errs.ShapeMismatch},
		{name: "upsample cubic", opset: 9, node: nd("Upsample", []string{"x", "s"}, []string{"y"}, aS("mode", "cubic")), in: []winIn{x, wf(1, 1, 2, 2)}, err: errs.Unsupported},
	})
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
