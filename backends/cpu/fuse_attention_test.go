package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// loadAttn compiles onnx with the load-time passes (fuse) or with
// Optimize alone and returns it ready to run, and how many Attention
// nodes its graph holds.
func loadAttn(t *testing.T, onnx []byte, fuse bool) (*Model[payload.Multi, payload.Multi], int) {
	t.Helper()
	art, err := artifacts.FromBytes(onnx, "attn")
	if err != nil {
		t.Fatal(err)
	}
	g := art.Graph().Clone()
	if fuse {
		err = optimizeGraph(g)
	} else {
		err = model.Optimize(g, evalNode)
	}
	if err != nil {
		t.Fatal(err)
	}
	att := 0
	for _, n := range g.Nodes {
		if n.OpType == "Attention" {
			att++
		}
	}
	p, err := compile(g, compute.Options{Threads: 1}, "attn", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model[payload.Multi, payload.Multi]{prog: p, label: "attn"}
	if err := m.bindTypes(); err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m, att
}

// attnModel is softmax(q·kᵀ·c + m)·v spelled out as exporters write it
// at opset: keys k [B, H, T, d] under Transpose (0, 1, 3, 2), or, when
// byToken, k [B, T, H, d] under Transpose (0, 2, 3, 1); the scale a Mul,
// or a Div when div; the mask m [B, 1, 1, T] added when mask, or
// [B, 1, 1, 1] (one value for every key) when maskOne too.
func attnModel(opset int64, bi, hi, sqi, tli, di, dvi int, byToken, div, mask, maskOne bool) []byte {
	b, h, sq, tl, d, dv := int64(bi), int64(hi), int64(sqi), int64(tli), int64(di), int64(dvi)
	nd := func(op string, in []string, out string, attrs ...onnxbuild.Attr) onnxbuild.Node {
		return onnxbuild.Node{Name: out, Op: op, Inputs: in, Outputs: []string{out}, Attrs: attrs}
	}
	g := onnxbuild.Graph{Name: "attn"}
	kshape := []int64{b, h, tl, d}
	perm := onnxbuild.AInts("perm", 0, 1, 3, 2)
	if byToken {
		kshape = []int64{b, tl, h, d}
		perm = onnxbuild.AInts("perm", 0, 2, 3, 1)
	}
	g.Inputs = []onnxbuild.Value{
		onnxbuild.Input("q", payload.Float32, b, h, sq, d),
		onnxbuild.Input("k", payload.Float32, kshape...),
		onnxbuild.Input("v", payload.Float32, b, h, tl, dv),
	}
	g.Outputs = []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, b, h, sq, dv)}
	c := float32(1 / math.Sqrt(float64(d)))
	op := "Mul"
	if div {
		c, op = float32(math.Sqrt(float64(d))), "Div"
	}
	g.Initializers = []onnxbuild.Tensor{onnxbuild.Scalar("c", c)}
	g.Nodes = []onnxbuild.Node{nd("Transpose", []string{"k"}, "kt", perm), nd("MatMul", []string{"q", "kt"}, "s"), nd(op, []string{"s", "c"}, "sc")}
	last := "sc"
	if mask {
		mw := tl
		if maskOne {
			mw = 1
		}
		g.Inputs = append(g.Inputs, onnxbuild.Input("m", payload.Float32, b, 1, 1, mw))
		g.Nodes = append(g.Nodes, nd("Add", []string{"m", "sc"}, "sm"))
		last = "sm"
	}
	g.Nodes = append(g.Nodes, nd("Softmax", []string{last}, "p", onnxbuild.AInt("axis", -1)), nd("MatMul", []string{"p", "v"}, "y"))
	m := onnxbuild.Model{Opset: opset, Graph: g}
	return m.Encode()
}

// TestFusedAttentionMatchesUnfused checks that the Attention node
// FuseAttention writes gives the spelled-out graph's results within
// 1e-5, relative, with no allocation per call.
func TestFusedAttentionMatchesUnfused(t *testing.T) {
	cases := []struct {
		name                     string
		opset                    int64
		b, h, sq, tl, d, dv      int
		byToken, div, mask, long bool
		maskOne                  bool
	}{
		{name: "mask, mul, opset 17", opset: 17, b: 2, h: 3, sq: 7, tl: 7, d: 16, dv: 16, mask: true},
		{name: "by token, div, opset 13", opset: 13, b: 1, h: 4, sq: 5, tl: 9, d: 8, dv: 12, byToken: true, div: true, mask: true},
		{name: "mask of one value for every key", opset: 17, b: 2, h: 3, sq: 4, tl: 9, d: 16, dv: 8, mask: true, maskOne: true},
		{name: "no mask, opset 23", opset: 23, b: 2, h: 2, sq: 3, tl: 11, d: 32, dv: 8},
		{name: "bert head, opset 11", opset: 11, b: 1, h: 12, sq: 128, tl: 128, d: 32, dv: 32, byToken: true, mask: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			onnx := attnModel(c.opset, c.b, c.h, c.sq, c.tl, c.d, c.dv, c.byToken, c.div, c.mask, c.maskOne)
			fused, na := loadAttn(t, onnx, true)
			plain, np := loadAttn(t, onnx, false)
			if na != 1 || np != 0 {
				t.Fatalf("got %d Attention nodes fused and %d unfused, want 1 and 0", na, np)
			}
			r := rand.New(rand.NewPCG(29, uint64(c.sq)))
			kshape := []int{c.b, c.h, c.tl, c.d}
			if c.byToken {
				kshape = []int{c.b, c.tl, c.h, c.d}
			}
			in := &payload.Multi{Tensors: []payload.Dynamic{
				payload.DynamicOf("q", f32t{Shape: []int{c.b, c.h, c.sq, c.d}, Data: fuseRand(r, c.b*c.h*c.sq*c.d, 2)}),
				payload.DynamicOf("k", f32t{Shape: kshape, Data: fuseRand(r, c.b*c.h*c.tl*c.d, 2)}),
				payload.DynamicOf("v", f32t{Shape: []int{c.b, c.h, c.tl, c.dv}, Data: fuseRand(r, c.b*c.h*c.tl*c.dv, 1)}),
			}}
			if c.mask {
				mw := c.tl
				if c.maskOne {
					mw = 1
				}
				m := make([]float32, c.b*mw)
				for i := range m {
					if r.IntN(4) == 0 {
						m[i] = -10000
					} else if c.maskOne {
						m[i] = float32(r.IntN(5)) - 2
					}
				}
				m[0] = 0 // every row keeps a key
				in.Tensors = append(in.Tensors, payload.DynamicOf("m", f32t{Shape: []int{c.b, 1, 1, mw}, Data: m}))
			}
			var a payload.Multi
			fusedMatches(t, fused, plain, in, &a, c.b*c.h*c.sq*c.dv, 1e-5)
			if n := testing.AllocsPerRun(10, func() {
				if err := fused.InferOne(in, &a); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("got %v allocations per call, want 0", n)
			}
		})
	}
}

// TestFuseAttentionBERTBasic checks that every layer of the generated
// BERT encoder in its basic form gets one Attention node at load, with
// the scale after the product or, as PyTorch exports
// scaled_dot_product_attention, on Q and Kᵀ before it, and that the
// fused model gives the unfused one's results, with padding.
func TestFuseAttentionBERTBasic(t *testing.T) {
	for _, sdpa := range []bool{false, true} {
		cfg := testmodels.EncoderConfig{Layers: 2, Seq: 16, Hidden: 32, Heads: 4, FFN: 64, SDPA: sdpa}
		onnx := cfg.Encoder(testmodels.Basic)
		fused, na := loadAttn(t, onnx, true)
		plain, _ := loadAttn(t, onnx, false)
		if na != cfg.Layers {
			t.Fatalf("SDPA %v: got %d Attention nodes, want %d", sdpa, na, cfg.Layers)
		}
		big := testmodels.BERTEncoder
		big.SDPA = sdpa
		if _, n := loadAttn(t, big.Encoder(testmodels.Basic), true); n != big.Layers {
			t.Fatalf("BERTEncoder, SDPA %v: got %d Attention nodes, want %d", sdpa, n, big.Layers)
		}
		r := testmodels.Rand(3)
		const batch = 2
		mask := make([]int64, batch*cfg.Seq)
		for i := range mask {
			if i%cfg.Seq < cfg.Seq-3*(i/cfg.Seq) {
				mask[i] = 1
			}
		}
		in := &payload.Multi{Tensors: []payload.Dynamic{
			payload.DynamicOf("x", f32t{Shape: []int{batch, cfg.Seq, cfg.Hidden}, Data: testmodels.Uniform(r, batch*cfg.Seq*cfg.Hidden, 1)}),
			payload.DynamicOf("attention_mask", payload.Tensor[int64]{Shape: []int{batch, cfg.Seq}, Data: mask}),
		}}
		var a payload.Multi
		fusedMatches(t, fused, plain, in, &a, batch*cfg.Seq*cfg.Hidden, 1e-4)
	}
}

// fusedMatches runs in on the fused and the unfused model, the fused
// one's outputs into a, and checks that output y holds n values, each
// within tol (relative, absolute below 1) of the unfused one's.
func fusedMatches(t *testing.T, fused, plain *Model[payload.Multi, payload.Multi], in, a *payload.Multi, n int, tol float64) {
	t.Helper()
	var b payload.Multi
	if err := fused.InferOne(in, a); err != nil {
		t.Fatal(err)
	}
	if err := plain.InferOne(in, &b); err != nil {
		t.Fatal(err)
	}
	got, _ := payload.FromBytes[float32](a.Get("y").Data)
	want, _ := payload.FromBytes[float32](b.Get("y").Data)
	if len(got) != len(want) || len(got) != n {
		t.Fatalf("got %d and %d elements, want %d", len(got), len(want), n)
	}
	for i := range got {
		if d := math.Abs(float64(got[i] - want[i])); d > tol*math.Max(1, math.Abs(float64(want[i]))) {
			t.Fatalf("element %d is %v fused, %v unfused", i, got[i], want[i])
		}
	}
}

// TestAttentionStacks checks that InferBatch stacks the items of the
// generated encoder in its basic form (Attention fused at load) and its
// standard form (opset 23's Attention), and that each stacked item gives
// what InferOne gives it.
func TestAttentionStacks(t *testing.T) {
	cfg := testmodels.EncoderConfig{Layers: 2, Seq: 16, Hidden: 32, Heads: 4, FFN: 64}
	for _, f := range []testmodels.Form{testmodels.Basic, testmodels.Standard} {
		art, err := artifacts.FromBytes(cfg.Encoder(f), "enc")
		if err != nil {
			t.Fatal(err)
		}
		m, err := New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
		if err == nil {
			err = m.Init()
		}
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = m.Close() }()
		if !m.prog.stackable {
			t.Fatalf("%s: InferBatch does not stack the items", f)
		}
		r := testmodels.Rand(4)
		const items = 3
		ins := make([]payload.Multi, items)
		for i := range ins {
			mask := make([]int64, cfg.Seq)
			for j := range mask {
				if j < cfg.Seq-4*i {
					mask[j] = 1
				}
			}
			ins[i] = payload.Multi{Tensors: []payload.Dynamic{
				payload.DynamicOf("x", f32t{Shape: []int{1, cfg.Seq, cfg.Hidden}, Data: testmodels.Uniform(r, cfg.Seq*cfg.Hidden, 1)}),
				payload.DynamicOf("attention_mask", payload.Tensor[int64]{Shape: []int{1, cfg.Seq}, Data: mask}),
			}}
		}
		outs := make([]payload.Multi, items)
		if err := m.InferBatch(batch.Of(ins), outs); err != nil {
			t.Fatal(err)
		}
		for i := range ins {
			var one payload.Multi
			if err := m.InferOne(&ins[i], &one); err != nil {
				t.Fatal(err)
			}
			got, _ := payload.FromBytes[float32](outs[i].Get("y").Data)
			want, _ := payload.FromBytes[float32](one.Get("y").Data)
			if len(got) != len(want) {
				t.Fatalf("%s item %d: %d elements stacked, %d alone", f, i, len(got), len(want))
			}
			for j := range got {
				if d := math.Abs(float64(got[j] - want[j])); d > 1e-5*math.Max(1, math.Abs(float64(want[j]))) {
					t.Fatalf("%s item %d: element %d is %v stacked, %v alone", f, i, j, got[j], want[j])
				}
			}
		}
	}
}
