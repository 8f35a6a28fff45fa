//go:build ort && linux

package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// int8Op is one single-op model: its input x (element type and shape)
// feeds node op, whose other inputs are constants.
type int8Op struct {
	name  string
	op    string
	x     payload.DType
	shape []int64
	out   payload.DType
	// inputs names the node's inputs after x; consts holds them.
	inputs []string
	consts []onnxbuild.Tensor
	attrs  []onnxbuild.Attr
	opset  int64
	// domain is the node's domain, imported at version 1; "" for ONNX's.
	domain string
}

// model encodes o as an ONNX model.
func (o int8Op) model() []byte {
	m := onnxbuild.Model{Opset: o.opset, Graph: onnxbuild.Graph{
		Name:         o.name,
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", o.x, o.shape...)},
		Outputs:      []onnxbuild.Value{{Name: "y", DType: o.out, NoShape: true}},
		Nodes:        []onnxbuild.Node{{Name: "n", Op: o.op, Domain: o.domain, Inputs: append([]string{"x"}, o.inputs...), Outputs: []string{"y"}, Attrs: o.attrs}},
		Initializers: o.consts,
	}}
	if o.domain != "" {
		m.Opsets = map[string]int64{o.domain: 1}
	}
	return m.Encode()
}

// randBytes returns n random bytes.
func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return b
}

// int8Ops returns, for a GEMM of m×k by k×n, a 3×3 convolution of c
// channels to c at hw×hw and a depthwise 3×3 one, the float32 op and
// its int8 forms.
func int8Ops(r *rand.Rand) [][]int8Op {
	i8 := func(name string, shape []int64) onnxbuild.Tensor {
		b := randBytes(r, int(prod(shape)))
		v := make([]int8, len(b))
		for i, x := range b {
			v[i] = int8(x)
		}
		return onnxbuild.TensorOf(name, shape, v)
	}
	u8s := func(name string, v uint8) onnxbuild.Tensor { return onnxbuild.Scalar(name, v) }
	i8s := func(name string, v int8) onnxbuild.Tensor { return onnxbuild.Scalar(name, v) }
	f32s := func(name string, v float32) onnxbuild.Tensor { return onnxbuild.Scalar(name, v) }
	f32w := func(name string, shape []int64) onnxbuild.Tensor {
		v := make([]float32, prod(shape))
		for i := range v {
			v[i] = r.Float32()*2 - 1
		}
		return onnxbuild.TensorOf(name, shape, v)
	}
	var sets [][]int8Op
	for _, s := range [][3]int64{{256, 256, 256}, {1024, 1024, 1024}} {
		m, k, n := s[0], s[1], s[2]
		tag := fmt.Sprintf("gemm %dx%dx%d", m, k, n)
		a, b := []int64{m, k}, []int64{k, n}
		sets = append(sets, []int8Op{
			{name: tag + " MatMul f32", op: "MatMul", x: payload.Float32, shape: a, out: payload.Float32, inputs: []string{"b"}, consts: []onnxbuild.Tensor{f32w("b", b)}, opset: 13},
			{name: tag + " MatMulInteger u8s8", op: "MatMulInteger", x: payload.Uint8, shape: a, out: payload.Int32, inputs: []string{"b", "za", "zb"},
				consts: []onnxbuild.Tensor{i8("b", b), u8s("za", 117), i8s("zb", 0)}, opset: 10},
			{name: tag + " QLinearMatMul u8s8", op: "QLinearMatMul", x: payload.Uint8, shape: a, out: payload.Uint8, inputs: []string{"sa", "za", "b", "sb", "zb", "sy", "zy"},
				consts: []onnxbuild.Tensor{f32s("sa", 0.02), u8s("za", 117), i8("b", b), f32s("sb", 0.01), i8s("zb", 0), f32s("sy", 0.5), u8s("zy", 128)}, opset: 10},
		})
	}
	c, hw := int64(64), int64(56)
	x, w := []int64{1, c, hw, hw}, []int64{c, c, 3, 3}
	pads := onnxbuild.AInts("pads", 1, 1, 1, 1)
	tag := fmt.Sprintf("conv 3x3 %d->%d %dx%d", c, c, hw, hw)
	sets = append(sets, []int8Op{
		{name: tag + " Conv f32", op: "Conv", x: payload.Float32, shape: x, out: payload.Float32, inputs: []string{"w"}, consts: []onnxbuild.Tensor{f32w("w", w)}, attrs: []onnxbuild.Attr{pads}, opset: 13},
		{name: tag + " ConvInteger u8s8", op: "ConvInteger", x: payload.Uint8, shape: x, out: payload.Int32, inputs: []string{"w", "zx", "zw"},
			consts: []onnxbuild.Tensor{i8("w", w), u8s("zx", 117), i8s("zw", 0)}, attrs: []onnxbuild.Attr{pads}, opset: 10},
		{name: tag + " QLinearConv u8s8", op: "QLinearConv", x: payload.Uint8, shape: x, out: payload.Uint8, inputs: []string{"sx", "zx", "w", "sw", "zw", "sy", "zy"},
			consts: []onnxbuild.Tensor{f32s("sx", 0.02), u8s("zx", 117), i8("w", w), f32s("sw", 0.01), i8s("zw", 0), f32s("sy", 0.5), u8s("zy", 128)}, attrs: []onnxbuild.Attr{pads}, opset: 10},
	})
	// Depthwise, as MobileNet-style networks quantized to QOperator form
	// run it: 3×3 stride 1 over 144 channels at 56×56.
	dc, dhw := int64(144), int64(56)
	dx, dw := []int64{1, dc, dhw, dhw}, []int64{dc, 1, 3, 3}
	group := onnxbuild.AInt("group", dc)
	tag = fmt.Sprintf("depthwise 3x3 %d %dx%d", dc, dhw, dhw)
	sets = append(sets, []int8Op{
		{name: tag + " Conv f32", op: "Conv", x: payload.Float32, shape: dx, out: payload.Float32, inputs: []string{"w"}, consts: []onnxbuild.Tensor{f32w("w", dw)}, attrs: []onnxbuild.Attr{pads, group}, opset: 13},
		{name: tag + " ConvInteger u8s8", op: "ConvInteger", x: payload.Uint8, shape: dx, out: payload.Int32, inputs: []string{"w", "zx", "zw"},
			consts: []onnxbuild.Tensor{i8("w", dw), u8s("zx", 117), i8s("zw", 0)}, attrs: []onnxbuild.Attr{pads, group}, opset: 10},
		{name: tag + " QLinearConv u8s8", op: "QLinearConv", x: payload.Uint8, shape: dx, out: payload.Uint8, inputs: []string{"sx", "zx", "w", "sw", "zw", "sy", "zy"},
			consts: []onnxbuild.Tensor{f32s("sx", 0.02), u8s("zx", 117), i8("w", dw), f32s("sw", 0.01), i8s("zw", 0), f32s("sy", 0.5), u8s("zy", 128)}, attrs: []onnxbuild.Attr{pads, group}, opset: 10},
	})
	return sets
}

// prod is the product of dims.
func prod(s []int64) int64 {
	n := int64(1)
	for _, d := range s {
		n *= d
	}
	return n
}

// int8Lintel loads o on lintel, one thread, with input x; run infers
// once into out.
func int8Lintel(t *testing.T, o int8Op, x []byte) (run func(), out *payload.Multi) {
	art, err := artifacts.FromBytes(o.model(), o.name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	shape := make([]int, len(o.shape))
	for i, d := range o.shape {
		shape[i] = int(d)
	}
	in := payload.Multi{Tensors: []payload.Dynamic{{Name: "x", DType: o.x, Shape: shape, Data: x}}}
	out = &payload.Multi{}
	return func() {
		if err := m.InferOne(&in, out); err != nil {
			t.Fatal(err)
		}
	}, out
}

// ortValue returns an ORT tensor of type dt and shape over data (nil: an
// empty one).
func ortValue(t *testing.T, dt payload.DType, shape ort.Shape, data []byte) ort.Value {
	var v ort.Value
	var err error
	switch dt {
	case payload.Float32:
		if data == nil {
			v, err = ort.NewEmptyTensor[float32](shape)
		} else {
			f, ok := payload.FromBytes[float32](data)
			if !ok {
				t.Fatal("misaligned float32 input")
			}
			v, err = ort.NewTensor(shape, f)
		}
	case payload.Uint8:
		if data == nil {
			v, err = ort.NewEmptyTensor[uint8](shape)
		} else {
			v, err = ort.NewTensor(shape, data)
		}
	case payload.Int32:
		v, err = ort.NewEmptyTensor[int32](shape)
	default:
		t.Fatalf("type %s", dt)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Destroy() })
	return v
}

// int8ORT loads o in ONNX Runtime, one thread, with input x and an output
// of shape out; run infers once.
func int8ORT(t *testing.T, o int8Op, x []byte, out []int) func() {
	outShape := make(ort.Shape, len(out))
	for i, d := range out {
		outShape[i] = int64(d)
	}
	in, y := ortValue(t, o.x, ort.Shape(o.shape), x), ortValue(t, o.out, outShape, nil)
	opts, err := ort.NewSessionOptions()
	if err != nil {
		t.Fatal(err)
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(1); err != nil {
		t.Fatal(err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		t.Fatal(err)
	}
	s, err := ort.NewAdvancedSessionWithONNXData(o.model(), []string{"x"}, []string{"y"}, []ort.Value{in}, []ort.Value{y}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Destroy() })
	return func() {
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
	}
}

// interleaveCPUFor is interleaveCPU with each runner's repetitions per
// round chosen to take about target of the thread's CPU time. Where the
// thread's CPU time cannot be read it times nothing and returns zeros.
func interleaveCPUFor(runners []func(), rounds int, target time.Duration) []time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	round := func(f func(), n int) time.Duration {
		t0, _ := threadCPU()
		for range n {
			f()
		}
		t1, _ := threadCPU()
		return (t1 - t0) / time.Duration(n)
	}
	reps := make([]int, len(runners))
	for i, f := range runners {
		f()
		reps[i] = min(1000, max(1, int(target/max(round(f, 3), 10*time.Microsecond))))
	}
	times := make([][]time.Duration, len(runners))
	for range rounds {
		for i, f := range runners {
			times[i] = append(times[i], round(f, reps[i]))
		}
	}
	out := make([]time.Duration, len(runners))
	for i := range runners {
		out[i] = median(times[i])
	}
	return out
}

// TestInt8VsORT times single-op models on one thread, lintel and ONNX
// Runtime interleaved, medians of the thread's CPU time (interleaveCPU;
// BENCH_WALL=1 for wall time): each GEMM and convolution shape as
// float32 and as its int8 ops (uint8 activations, int8 weights, the
// weights constant). Set BENCH_ROUNDS to change the rounds.
func TestInt8VsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_ROUNDS", 11)
	// BENCH_INT8_SETS picks the shapes, a bit each: 1 the 256³ GEMM, 2
	// the 1024³ one, 4 the convolution, 8 the depthwise one (default 15:
	// all).
	r := rand.New(rand.NewPCG(8, 8))
	var rows [][]string
	sizes := envInt("BENCH_INT8_SETS", 15)
	for si, set := range int8Ops(r) {
		if sizes&(1<<si) == 0 {
			continue
		}
		var base time.Duration
		for i, o := range set {
			n := int(prod(o.shape))
			var x []byte
			if o.x == payload.Float32 {
				v := make([]float32, n)
				for j := range v {
					v[j] = r.Float32()*2 - 1
				}
				x = payload.AsBytes(v)
			} else {
				x = randBytes(r, n)
			}
			l, lOut := int8Lintel(t, o, x)
			l()
			out := lOut.Tensors[0].Shape
			ox := int8ORT(t, o, x, out)
			measure := interleaveCPUFor
			if envInt("BENCH_WALL", 0) == 1 {
				measure = interleave
			}
			ts := measure([]func(){l, ox}, rounds, 50*time.Millisecond)
			if i == 0 {
				base = ts[0]
			}
			rows = append(rows, []string{o.name, us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1])), fmt.Sprintf("%.2f×", float64(base)/float64(ts[0]))})
			t.Logf("%v", rows[len(rows)-1])
		}
	}
	t.Logf("lintel kernels: %s; %d rounds\n%s", kernelInfo(), rounds, table([]string{"op (one thread)", "lintel", "ONNX Runtime", "lintel / ORT", "lintel f32 / this"}, rows))
}

// qdqLintel loads the QDQ model b on lintel, one thread, with FuseQDQ
// on or off (LINTEL_QDQ_FUSION=0 while it loads); run infers once.
func qdqLintel(t *testing.T, b []byte, name string, fuse bool, x payload.Dynamic) func() {
	if !fuse {
		t.Setenv("LINTEL_QDQ_FUSION", "0")
		defer os.Unsetenv("LINTEL_QDQ_FUSION")
	}
	art, err := artifacts.FromBytes(b, name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	in := payload.Multi{Tensors: []payload.Dynamic{x}}
	out := &payload.Multi{}
	return func() {
		if err := m.InferOne(&in, out); err != nil {
			t.Fatal(err)
		}
	}
}

// qdqORT loads the QDQ model b in ONNX Runtime, one thread, all graph
// optimizations (its QDQ fusions) on, with float input x and outputs y
// (float32) and y_q (of type q), each of shape out; run infers once.
func qdqORT(t *testing.T, b []byte, x payload.Dynamic, q payload.DType, out []int64) func() {
	shape := make(ort.Shape, len(x.Shape))
	for i, d := range x.Shape {
		shape[i] = int64(d)
	}
	in := ortValue(t, payload.Float32, shape, x.Data)
	y := ortValue(t, payload.Float32, ort.Shape(out), nil)
	var yq ort.Value
	var err error
	if q == payload.Int8 {
		yq, err = ort.NewEmptyTensor[int8](ort.Shape(out))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { yq.Destroy() })
	} else {
		yq = ortValue(t, payload.Uint8, ort.Shape(out), nil)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		t.Fatal(err)
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(1); err != nil {
		t.Fatal(err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		t.Fatal(err)
	}
	s, err := ort.NewAdvancedSessionWithONNXData(b, []string{"x"}, []string{"y", "y_q"}, []ort.Value{in}, []ort.Value{y, yq}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Destroy() })
	return func() {
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestQDQVsORT times the generated QDQ models (testmodels.QDQCNN and
// QDQMLP, uint8 activations and int8 weights) on one thread: lintel
// without FuseQDQ (the float ops between DequantizeLinear and
// QuantizeLinear), lintel with it, and ONNX Runtime with its QDQ
// fusions, interleaved, medians of the thread's CPU time (BENCH_WALL=1
// for wall time). Set BENCH_ROUNDS to change the rounds.
func TestQDQVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_ROUNDS", 11)
	r := rand.New(rand.NewPCG(9, 9))
	cases := []struct {
		name string
		b    []byte
		x    []int
		q    payload.DType
	}{
		{"QDQ CNN u8s8 3x64x64 batch 1", testmodels.QDQCNN(payload.Uint8, false), []int{1, 3, 64, 64}, payload.Uint8},
		{"QDQ CNN s8s8 3x64x64 batch 1", testmodels.QDQCNN(payload.Int8, false), []int{1, 3, 64, 64}, payload.Int8},
		{"QDQ MLP u8s8 256-512-512-10 batch 1", testmodels.QDQMLP(payload.Uint8, false, false), []int{1, 256}, payload.Uint8},
		{"QDQ MLP u8s8 256-512-512-10 batch 64", testmodels.QDQMLP(payload.Uint8, false, false), []int{64, 256}, payload.Uint8},
	}
	var rows [][]string
	for _, c := range cases {
		xs := make([]float32, payload.NumElems(c.x))
		for i := range xs {
			xs[i] = r.Float32()*2 - 1
		}
		x := payload.Dynamic{Name: "x", DType: payload.Float32, Shape: c.x, Data: payload.AsBytes(xs)}
		off := qdqLintel(t, c.b, c.name, false, x)
		on := qdqLintel(t, c.b, c.name, true, x)
		o := qdqORT(t, c.b, x, c.q, []int64{int64(c.x[0]), 10})
		measure := interleaveCPUFor
		if envInt("BENCH_WALL", 0) == 1 {
			measure = interleave
		}
		ts := measure([]func(){off, on, o}, rounds, 50*time.Millisecond)
		rows = append(rows, []string{c.name, us(ts[0]), us(ts[1]), us(ts[2]),
			fmt.Sprintf("%.2f×", float64(ts[1])/float64(ts[2])), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1]))})
		t.Logf("%v", rows[len(rows)-1])
	}
	t.Logf("lintel kernels: %s; %d rounds\n%s", kernelInfo(), rounds, table([]string{"QDQ model (one thread)", "lintel, no FuseQDQ", "lintel", "ONNX Runtime", "lintel / ORT", "speed-up"}, rows))
}
