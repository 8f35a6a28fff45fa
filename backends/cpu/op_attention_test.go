package cpu

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// attnCase is one Attention run checked against attnRef.
type attnCase struct {
	name                             string
	rank                             int
	b, hq, hkv, sq, skv, d, dv, past int
	mask                             []int // attn_mask's shape; nil when absent
	maskBool, causal                 bool
	nonpad                           []int64
	softcap, scale                   float32
	mode                             int64
	half                             bool
	// noQK leaves the qk output out, so that long rows run the tiled
	// online-softmax path.
	noQK bool
}

// attnVal is a deterministic test value for element i of input salt.
func attnVal(salt, i int) float32 {
	return float32(math.Sin(float64(i*7+salt*13)*0.37)) * 1.5
}

// attnInputs builds the case's inputs and its node.
func (c attnCase) inputs() (*model.Node, []*tensor) {
	mkv := func(salt int, shape []int) *tensor {
		n := ewNumel(shape)
		v := ewSeq(n, func(i int) float32 { return attnVal(salt, i) })
		if c.half {
			h := make([]float16.Float16, n)
			for i, x := range v {
				h[i] = float16.Fromfloat32(x)
			}
			return mk(shape, h)
		}
		return mk(shape, v)
	}
	var qs, ks, vs []int
	if c.rank == 3 {
		qs, ks, vs = []int{c.b, c.sq, c.hq * c.d}, []int{c.b, c.skv, c.hkv * c.d}, []int{c.b, c.skv, c.hkv * c.dv}
	} else {
		qs, ks, vs = []int{c.b, c.hq, c.sq, c.d}, []int{c.b, c.hkv, c.skv, c.d}, []int{c.b, c.hkv, c.skv, c.dv}
	}
	names := []string{"q", "k", "v", "", "", "", ""}
	ins := []*tensor{mkv(1, qs), mkv(2, ks), mkv(3, vs), nil, nil, nil, nil}
	if c.mask != nil {
		names[3] = "m"
		if c.maskBool {
			ins[3] = mk(c.mask, ewSeq(ewNumel(c.mask), func(i int) bool { return (i*5)%7 != 3 }))
		} else {
			m := ewSeq(ewNumel(c.mask), func(i int) float32 {
				if i%11 == 4 {
					return float32(math.Inf(-1))
				}
				return attnVal(4, i)
			})
			if c.half {
				ins[3] = mk(c.mask, ewSeq(len(m), func(i int) float16.Float16 { return float16.Fromfloat32(m[i]) }))
			} else {
				ins[3] = mk(c.mask, m)
			}
		}
	}
	if c.past > 0 {
		names[4], names[5] = "pk", "pv"
		ins[4], ins[5] = mkv(5, []int{c.b, c.hkv, c.past, c.d}), mkv(6, []int{c.b, c.hkv, c.past, c.dv})
	}
	if c.nonpad != nil {
		names[6] = "n"
		ins[6] = mk([]int{len(c.nonpad)}, c.nonpad)
	}
	for len(names) > 3 && names[len(names)-1] == "" {
		names, ins = names[:len(names)-1], ins[:len(ins)-1]
	}
	attrs := []model.Attr{aInt("qk_matmul_output_mode", c.mode)}
	if c.rank == 3 {
		attrs = append(attrs, aInt("q_num_heads", int64(c.hq)), aInt("kv_num_heads", int64(c.hkv)))
	}
	if c.causal {
		attrs = append(attrs, aInt("is_causal", 1))
	}
	if c.softcap != 0 {
		attrs = append(attrs, aFloat("softcap", c.softcap))
	}
	if c.scale != 0 {
		attrs = append(attrs, aFloat("scale", c.scale))
	}
	n := node("Attention", names, attrs...)
	n.Outputs = []string{"y", "pk2", "pv2", "qk"}
	if c.noQK {
		n.Outputs = n.Outputs[:3]
	}
	return n, ins
}

// attnRef computes the case's outputs in float64 from ins, as ONNX's
// reference does: scores, softcap, bias, softmax (zeros for a row with
// every key masked), times V.
func (c attnCase) ref(ins []*tensor) (y, pk, pv, qk []float64) {
	get := attnF64
	q, k, v := get(ins[0]), get(ins[1]), get(ins[2])
	tl := c.past + c.skv
	at := func(x []float64, heads, seq, w, b, h, i, j int) float64 {
		if c.rank == 3 {
			return x[(b*seq+i)*heads*w+h*w+j]
		}
		return x[((b*heads+h)*seq+i)*w+j]
	}
	kv := func(x, p []float64, w, b, h, t, j int) float64 {
		if t < c.past {
			return p[((b*c.hkv+h)*c.past+t)*w+j]
		}
		return at(x, c.hkv, c.skv, w, b, h, t-c.past, j)
	}
	var pkv, pvv []float64
	if c.past > 0 {
		pkv, pvv = get(ins[4]), get(ins[5])
	}
	pk = make([]float64, c.b*c.hkv*tl*c.d)
	pv = make([]float64, c.b*c.hkv*tl*c.dv)
	for b := range c.b {
		for h := range c.hkv {
			for t := range tl {
				for j := range c.d {
					pk[((b*c.hkv+h)*tl+t)*c.d+j] = kv(k, pkv, c.d, b, h, t, j)
				}
				for j := range c.dv {
					pv[((b*c.hkv+h)*tl+t)*c.dv+j] = kv(v, pvv, c.dv, b, h, t, j)
				}
			}
		}
	}
	scale := float64(c.scale)
	if scale == 0 {
		scale = 1 / math.Sqrt(float64(c.d))
	}
	var mask []float64
	if c.mask != nil {
		mask = get(ins[3])
	}
	bias := func(b, h, i, j int) float64 {
		r := 0.0
		if c.mask != nil {
			ms := c.mask
			tm := ms[len(ms)-1]
			if j >= tm {
				return math.Inf(-1)
			}
			idx, st := j, tm
			pos := [3]int{b, h, i}
			for a := 1; a < len(ms); a++ {
				d := ms[len(ms)-1-a]
				if d != 1 {
					idx += pos[3-a] * st
				}
				st *= d
			}
			if c.maskBool {
				if mask[idx] == 0 {
					return math.Inf(-1)
				}
			} else {
				r += mask[idx]
			}
		}
		if c.causal {
			off := c.past
			if c.past == 0 && c.nonpad != nil {
				off = int(c.nonpad[b]) - c.sq
			}
			if j > i+off {
				return math.Inf(-1)
			}
		}
		if c.nonpad != nil && int64(j) >= c.nonpad[b] {
			return math.Inf(-1)
		}
		return r
	}
	y = make([]float64, c.b*c.hq*c.sq*c.dv)
	qk = make([]float64, c.b*c.hq*c.sq*tl)
	grp := c.hq / c.hkv
	row := make([]float64, tl)
	for b := range c.b {
		for h := range c.hq {
			kh := h / grp
			for i := range c.sq {
				for t := range tl {
					s := 0.0
					for j := range c.d {
						s += at(q, c.hq, c.sq, c.d, b, h, i, j) * pk[((b*c.hkv+kh)*tl+t)*c.d+j]
					}
					s *= scale
					if c.mode == 0 {
						qk[((b*c.hq+h)*c.sq+i)*tl+t] = s
					}
					if c.softcap > 0 {
						s = float64(c.softcap) * math.Tanh(s/float64(c.softcap))
					}
					if c.mode == 1 {
						qk[((b*c.hq+h)*c.sq+i)*tl+t] = s
					}
					s += bias(b, h, i, t)
					if c.mode == 2 {
						qk[((b*c.hq+h)*c.sq+i)*tl+t] = s
					}
					row[t] = s
				}
				m := math.Inf(-1)
				for _, s := range row {
					m = max(m, s)
				}
				sum := 0.0
				for t, s := range row {
					if math.IsInf(m, -1) {
						row[t] = 0
						continue
					}
					row[t] = math.Exp(s - m)
					sum += row[t]
				}
				for t := range row {
					if sum > 0 {
						row[t] /= sum
					}
					if c.mode == 3 {
						qk[((b*c.hq+h)*c.sq+i)*tl+t] = row[t]
					}
				}
				for j := range c.dv {
					s := 0.0
					for t := range tl {
						s += row[t] * pv[((b*c.hkv+kh)*tl+t)*c.dv+j]
					}
					if c.rank == 3 {
						y[(b*c.sq+i)*c.hq*c.dv+h*c.dv+j] = s
					} else {
						y[((b*c.hq+h)*c.sq+i)*c.dv+j] = s
					}
				}
			}
		}
	}
	return y, pk, pv, qk
}

// attnF64 returns a float32, float16 or bool tensor's values.
func attnF64(t *tensor) []float64 {
	var o []float64
	switch t.dt {
	case payload.Float16:
		for _, h := range elems[float16.Float16](t) {
			o = append(o, float64(h.Float32()))
		}
	case payload.Bool:
		for _, b := range t.bools() {
			o = append(o, map[bool]float64{true: 1}[b])
		}
	default:
		return toF64(t)
	}
	return o
}

var attnCases = []attnCase{
	{name: "4-D", rank: 4, b: 2, hq: 3, hkv: 3, sq: 4, skv: 6, d: 8, dv: 8},
	{name: "4-D value width", rank: 4, b: 2, hq: 3, hkv: 3, sq: 4, skv: 6, d: 8, dv: 5, scale: 0.3},
	{name: "3-D grouped", rank: 3, b: 2, hq: 6, hkv: 2, sq: 3, skv: 5, d: 4, dv: 6},
	{name: "3-D past float mask", rank: 3, b: 2, hq: 4, hkv: 2, sq: 3, skv: 2, d: 4, dv: 4, past: 5, mask: []int{3, 7}, mode: 2},
	{name: "4-D past causal", rank: 4, b: 1, hq: 2, hkv: 1, sq: 3, skv: 3, d: 8, dv: 8, past: 4, causal: true, mode: 3},
	{name: "causal no past", rank: 4, b: 2, hq: 2, hkv: 2, sq: 5, skv: 5, d: 4, dv: 4, causal: true},
	{name: "bool mask 4-D", rank: 4, b: 2, hq: 3, hkv: 3, sq: 4, skv: 6, d: 4, dv: 4, mask: []int{2, 3, 4, 6}, maskBool: true, mode: 3},
	{name: "bool mask broadcast heads", rank: 4, b: 2, hq: 3, hkv: 1, sq: 4, skv: 6, d: 4, dv: 4, mask: []int{2, 1, 4, 6}, maskBool: true, causal: true},
	{name: "mask padded", rank: 4, b: 2, hq: 2, hkv: 2, sq: 3, skv: 6, d: 4, dv: 4, mask: []int{2, 2, 3, 4}},
	{name: "mask row broadcast", rank: 4, b: 1, hq: 2, hkv: 2, sq: 3, skv: 5, d: 4, dv: 4, mask: []int{1, 5}},
	{name: "softcap", rank: 4, b: 1, hq: 2, hkv: 2, sq: 3, skv: 5, d: 4, dv: 4, softcap: 0.5, mask: []int{3, 5}, mode: 1},
	{name: "softcap raw scores", rank: 4, b: 1, hq: 2, hkv: 2, sq: 3, skv: 5, d: 4, dv: 4, softcap: 0.5, mode: 0},
	{name: "nonpad causal", rank: 4, b: 3, hq: 2, hkv: 1, sq: 2, skv: 6, d: 4, dv: 4, causal: true, nonpad: []int64{6, 3, 1}},
	{name: "nonpad with mask", rank: 4, b: 2, hq: 2, hkv: 2, sq: 2, skv: 5, d: 4, dv: 4, nonpad: []int64{2, 0}, mask: []int{2, 1, 2, 5}, maskBool: true},
	{name: "float16", rank: 4, b: 2, hq: 4, hkv: 2, sq: 3, skv: 4, d: 8, dv: 8, past: 2, mask: []int{3, 6}, half: true, mode: 3},
	{name: "no keys", rank: 4, b: 1, hq: 1, hkv: 1, sq: 2, skv: 0, d: 4, dv: 4},
	{name: "3-D no keys", rank: 3, b: 2, hq: 2, hkv: 2, sq: 2, skv: 0, d: 4, dv: 4},
	{name: "3-D no keys with past", rank: 3, b: 1, hq: 2, hkv: 1, sq: 2, skv: 0, d: 4, dv: 4, past: 2, causal: true},
	{name: "empty query", rank: 3, b: 1, hq: 2, hkv: 2, sq: 0, skv: 3, d: 4, dv: 4},
	// Decoding: a few query rows, head sizes the decoding kernels take
	// (rows of one, of three and of eight per key/value head, keys in
	// the kernels' blocks and tails).
	{name: "decode one head a group", rank: 4, b: 2, hq: 3, hkv: 3, sq: 1, skv: 1, d: 16, dv: 64, past: 37, mask: []int{2, 1, 1, 38}},
	{name: "decode 3-D grouped causal", rank: 3, b: 1, hq: 6, hkv: 2, sq: 1, skv: 1, d: 32, dv: 64, past: 21, causal: true, mode: 2},
	{name: "decode eight rows a group", rank: 4, b: 1, hq: 16, hkv: 2, sq: 1, skv: 2, d: 48, dv: 128, past: 31, softcap: 0.7, scale: 0.2},
	{name: "decode three queries causal", rank: 4, b: 1, hq: 4, hkv: 2, sq: 3, skv: 3, d: 16, dv: 64, past: 10, causal: true, mode: 3},
	{name: "decode head of 80", rank: 4, b: 1, hq: 8, hkv: 2, sq: 1, skv: 1, d: 80, dv: 80, past: 19},
	{name: "decode one head a group, values of 96", rank: 3, b: 2, hq: 2, hkv: 2, sq: 1, skv: 1, d: 32, dv: 96, past: 6, causal: true},
	// Rows longer than attnTileCols, more than attnFewRows of them, no
	// qk output: the tiled path, over past and new keys, several key
	// tiles and query blocks.
	{name: "tiled 4-D causal past", rank: 4, b: 1, hq: 2, hkv: 1, sq: 70, skv: 70, d: 16, dv: 8, past: 300, causal: true, noQK: true},
	{name: "tiled 3-D grouped float mask", rank: 3, b: 2, hq: 4, hkv: 2, sq: 65, skv: 530, d: 8, dv: 8, mask: []int{65, 530}, noQK: true},
	{name: "tiled bool mask nonpad softcap", rank: 4, b: 3, hq: 2, hkv: 2, sq: 20, skv: 600, d: 4, dv: 4, mask: []int{3, 1, 20, 600}, maskBool: true, nonpad: []int64{600, 270, 0}, softcap: 0.5, noQK: true},
	{name: "tiled short mask", rank: 4, b: 1, hq: 1, hkv: 1, sq: 12, skv: 520, d: 4, dv: 4, mask: []int{12, 300}, noQK: true},
}

func TestAttention(t *testing.T) {
	for _, c := range attnCases {
		t.Run(c.name, func(t *testing.T) {
			n, ins := c.inputs()
			dt := payload.Float32
			tol := 1e-5
			if c.half {
				dt, tol = payload.Float16, 4e-3
			}
			outs, err := runNode(t, nodeCase{node: n, opset: 24, outTypes: []payload.DType{dt, dt, dt, dt}[:len(n.Outputs)]}, ins...)
			if err != nil {
				t.Fatal(err)
			}
			y, pk, pv, qk := c.ref(ins)
			for j, want := range [][]float64{y, pk, pv, qk}[:len(n.Outputs)] {
				got := attnF64(outs[j])
				if len(got) != len(want) {
					t.Fatalf("output %d: got %d values, want %d", j, len(got), len(want))
				}
				for i := range got {
					if d := math.Abs(got[i] - want[i]); d > tol*math.Max(1, math.Abs(want[i])) && !(math.IsInf(want[i], -1) && math.IsInf(got[i], -1)) {
						t.Fatalf("output %d [%d]: got %v, want %v", j, i, got[i], want[i])
					}
				}
			}
		})
	}
}

// TestAttentionSmall checks a case by hand: one head, two keys, the
// second masked for the first query.
func TestAttentionSmall(t *testing.T) {
	q := mk([]int{1, 1, 2, 2}, []float32{1, 0, 0, 1})
	k := mk([]int{1, 1, 2, 2}, []float32{1, 0, 0, 2})
	v := mk([]int{1, 1, 2, 1}, []float32{10, 20})
	m := mk([]int{2, 2}, []bool{true, false, true, true})
	n := node("Attention", []string{"q", "k", "v", "m"}, aFloat("scale", 1))
	outs, err := runNode(t, nodeCase{node: n, opset: 23}, q, k, v, m)
	if err != nil {
		t.Fatal(err)
	}
	// Query 0 sees key 0 only: 10. Query 1 scores 0 and 2: weights
	// 1/(1+e²) and e²/(1+e²).
	e2 := math.Exp(2)
	want := []float64{10, (10 + 20*e2) / (1 + e2)}
	got := toF64(outs[0])
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-5 {
			t.Errorf("y[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestAttentionErrors(t *testing.T) {
	f := mk([]int{1, 1, 2, 2}, []float32{1, 2, 3, 4})
	d := mk([]int{1, 1, 2, 2}, []float64{1, 2, 3, 4})
	i32 := mk([]int{1, 1, 2, 2}, []int32{1, 2, 3, 4})
	cases := []struct {
		name string
		n    *model.Node
		ins  []*tensor
		err  error
	}{
		{"float64", node("Attention", []string{"q", "k", "v"}), []*tensor{d, d, d}, errs.Unsupported},
		{"K type", node("Attention", []string{"q", "k", "v"}), []*tensor{f, d, f}, errs.InvalidArtifact},
		{"mask type", node("Attention", []string{"q", "k", "v", "m"}), []*tensor{f, f, f, i32}, errs.InvalidArtifact},
		{"nonpad type", node("Attention", []string{"q", "k", "v", "", "", "", "n"}), []*tensor{f, f, f, nil, nil, nil, mk([]int{1}, []int32{1})}, errs.InvalidArtifact},
		{"head sizes", node("Attention", []string{"q", "k", "v"}), []*tensor{f, mk([]int{1, 1, 4, 1}, []float32{1, 2, 3, 4}), f}, errs.ShapeMismatch},
	}
	for _, c := range cases {
		_, err := runNode(t, nodeCase{node: c.n, opset: 24}, c.ins...)
		if !errors.Is(err, c.err) {
			t.Errorf("%s: got error %v, want one wrapping %v", c.name, err, c.err)
		}
	}
}

// attnCaseNamed returns the case of attnCases with that name.
func attnCaseNamed(name string) attnCase {
	for _, c := range attnCases {
		if c.name == name {
			return c
		}
	}
	panic("no attention case " + name)
}

func TestAttentionSteadyNoAllocs(t *testing.T) {
	for _, c := range []attnCase{attnCases[3], attnCases[12], attnCases[14], attnCaseNamed("tiled bool mask nonpad softcap")} {
		n, ins := c.inputs()
		n.Outputs = n.Outputs[:1]
		dt := payload.Float32
		if c.half {
			dt = payload.Float16
		}
		t.Run(fmt.Sprint(c.name), func(t *testing.T) {
			wantSteadyNoAllocs(t, nodeCase{node: n, opset: 24, outTypes: []payload.DType{dt}}, ins...)
		})
	}
}

// TestAttentionThreads wants the same bits from calls split across
// threads as from one thread.
func TestAttentionThreads(t *testing.T) {
	pool := newWorkerPool(3)
	defer pool.close()
	cases := []attnCase{
		{name: "4-D past mask", rank: 4, b: 2, hq: 4, hkv: 4, sq: 16, skv: 48, d: 32, dv: 32, past: 16, mask: []int{2, 1, 16, 64}, causal: true},
		{name: "3-D grouped", rank: 3, b: 2, hq: 8, hkv: 2, sq: 16, skv: 64, d: 32, dv: 16, mask: []int{16, 64}, maskBool: true},
		{name: "decode grouped", rank: 4, b: 3, hq: 8, hkv: 2, sq: 1, skv: 1, d: 64, dv: 64, past: 511, softcap: 2},
		{name: "tiled", rank: 4, b: 2, hq: 4, hkv: 2, sq: 80, skv: 300, d: 16, dv: 16, causal: true, noQK: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k1, ins1, out1 := buildAttention(t, c, nil)
			k3, ins3, out3 := buildAttention(t, c, pool)
			if err := k1.run(ins1, out1); err != nil {
				t.Fatal(err)
			}
			if err := k3.run(ins3, out3); err != nil {
				t.Fatal(err)
			}
			if n := len(k3.(*attentionKernel).workers); n < 2 {
				t.Fatalf("the call ran as %d parts, want several", n)
			}
			a, b := out1[0].f32(), out3[0].f32()
			for i := range a {
				if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
					t.Fatalf("y[%d]: got %v on three threads, %v on one", i, b[i], a[i])
				}
			}
			y, _, _, _ := c.ref(ins1)
			for i := range y {
				if math.Abs(float64(a[i])-y[i]) > 1e-4*math.Max(1, math.Abs(y[i])) {
					t.Fatalf("y[%d] = %v, want %v", i, a[i], y[i])
				}
			}
		})
	}
}

// TestAttnRowMaxMatchesGo checks attnRowMax (the vector loop where the
// CPU has it) against its Go loop on every length up to 70, on random
// scores and rows holding NaN, ±Inf and -MaxFloat32.
func TestAttnRowMaxMatchesGo(t *testing.T) {
	needAsm(t)
	r := rand.New(rand.NewPCG(5, 6))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), -math.MaxFloat32, 0, float32(math.Copysign(0, -1))}
	for n := range 71 {
		for trial := range 20 {
			row := make([]float32, n)
			for i := range row {
				row[i] = (r.Float32()*2 - 1) * 50
				if trial > 0 && r.IntN(16) == 0 {
					row[i] = specials[r.IntN(len(specials))]
				}
			}
			m, nan, ninf := attnRowMax(row)
			wm, wnan, wninf := attnRowMaxGo(row)
			if m != wm || nan != wnan || ninf != wninf {
				t.Fatalf("n=%d %v: got (%v, %v, %v), want (%v, %v, %v)", n, row, m, nan, ninf, wm, wnan, wninf)
			}
		}
	}
}

// TestAttnBiasMasks checks that a bool mask sets exactly its false keys
// to -inf and a float mask is added, on rows up to 40 keys long.
func TestAttnBiasMasks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for n := 1; n <= 40; n++ {
		mb := make([]bool, n)
		mf := make([]float32, n)
		row := make([]float32, n)
		for i := range mb {
			mb[i] = r.IntN(4) != 0 || n%3 == 0
			mf[i] = r.Float32() - 0.5
			row[i] = r.Float32()
		}
		got := append([]float32(nil), row...)
		bb := attnBias{mb: mb, mlen: n}
		if end := bb.applyAt(got, 0, 0, 0, 0, n); end != n {
			t.Fatalf("n=%d: bool mask end %d, want %d", n, end, n)
		}
		for i := range got {
			want := row[i]
			if !mb[i] {
				want = float32(math.Inf(-1))
			}
			if got[i] != want {
				t.Fatalf("n=%d bool mask: key %d is %v, want %v", n, i, got[i], want)
			}
		}
		got = append(got[:0], row...)
		fb := attnBias{mf: mf, mlen: n}
		fb.applyAt(got, 0, 0, 0, 0, n)
		for i := range got {
			if want := row[i] + mf[i]; got[i] != want {
				t.Fatalf("n=%d float mask: key %d is %v, want %v", n, i, got[i], want)
			}
		}
	}
}
