package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// The recurrent ops: RNN, GRU and LSTM share one kernel. For each
// direction it computes the input projection X·Wᵀ + bias of every step
// in one product, then runs the steps in turn: the recurrent product
// H·Rᵀ of the batch (a GEMV at batch 1), then the gates of the op's
// cell (op_rnn.go, op_gru.go, op_lstm.go). float32 products run on the
// packed SGEMM, with constant weights packed once at build and shared by
// the artifact's instances; float64 ones on the plain loop.

// rnnCell says which op a recurrent kernel runs.
type rnnCell uint8

const (
	cellRNN rnnCell = iota
	cellGRU
	cellLSTM
)

// rnnWeight is one direction's weight matrix M (rows×cols, row-major),
// multiplied as op(B) = Mᵀ: its rows are the gate units.
type rnnWeight[E float32 | float64] struct {
	m          []E
	rows, cols int
	// b is M prepacked for the float32 SGEMM, or zero.
	b gemmB
}

// rnnKernel runs one RNN, GRU or LSTM node on element type E.
type rnnKernel[E float32 | float64] struct {
	n     *model.Node
	cell  rnnCell
	a     *model.RecurrentAttrs
	wantY bool
	// inputForget (LSTM) and lbr (GRU's linear_before_reset).
	inputForget, lbr bool
	clip             E
	// acts holds each direction's activations, as functions applied in
	// place to a slice of pre-activations.
	acts [][]func([]E)
	// mm computes C = H·Mᵀ + beta·C for m rows of H (lda apart) and adds
	// bias (nil: none) to each row of C.
	mm func(m int, h []E, lda int, w *rnnWeight[E], beta E, c []E, ldc int, bias []E)
	// cw and cr (cr2: GRU's Rh) are the constant weights of each
	// direction, packed at build (float32), or nil.
	cw, cr, cr2 []rnnWeight[E]
	// w, r, r2 are this call's weights; pr is the scratch that packs a
	// non-constant R once per call.
	w, r, r2 []rnnWeight[E]
	pr       []float32
	// packR packs M (n×kk) as op(B) = Mᵀ into dst (float32 only; nil
	// for float64).
	packR func(dst []float32, m []E, kk, n int)

	// Sizes of this call.
	seq, batch, input, hidden, dirs int
	// Scratch, grown when too small: the input projection of every step
	// (rows in X's order), the gates of one step, the state H and C, a
	// temporary row, GRU's rt ⊙ Ht-1, the combined biases and the
	// sequence lengths.
	proj, gates, h, c, tmp, rh, bias []E
	lens                             []int
	ep                               gemmEpilogue
}

// buildRecurrent checks a recurrent node's types and builds its kernel.
func buildRecurrent(c *buildCtx, cell rnnCell, a *model.RecurrentAttrs) (kernel, error) {
	if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
		return nil, err
	}
	dt := c.inType(0)
	for i := range c.n.Inputs {
		if c.n.Input(i) == "" || i == 4 {
			continue
		}
		if t := c.inType(i); t != dt {
			return nil, c.invalid("input %d has element type %s, X has %s", i, t, dt)
		}
	}
	if c.n.Input(4) != "" && c.inType(4) != payload.Int32 {
		return nil, c.invalid("sequence_lens has element type %s, want int32", c.inType(4))
	}
	wantY := len(c.n.Outputs) > 0 && c.n.Outputs[0] != ""
	if dt == payload.Float32 {
		k := &rnnKernel[float32]{n: c.n, cell: cell, a: a, wantY: wantY, clip: a.Clip}
		k.acts = rnnActFuncs(a, rnnAct32)
		gc := c.gemmCtx()
		k.mm = func(m int, h []float32, lda int, w *rnnWeight[float32], beta float32, cm []float32, ldc int, bias []float32) {
			b := w.b
			if !b.prepacked() {
				b = gemmB{data: w.m, ld: w.cols, trans: true}
			}
			var ep *gemmEpilogue
			if bias != nil {
				k.ep.bias = bias
				ep = &k.ep
			}
			gc.runFused(m, w.rows, w.cols, 1, gemmA{data: h, ld: lda}, b, beta, cm, ldc, ep)
		}
		k.packR = func(dst, m []float32, kk, n int) { packB(dst, m, kk, true, kk, n, 0, (n+gemmNR-1)/gemmNR) }
		if err := k.packConsts(c); err != nil {
			return nil, err
		}
		return k, nil
	}
	k := &rnnKernel[float64]{n: c.n, cell: cell, a: a, wantY: wantY, clip: float64(a.Clip)}
	k.acts = rnnActFuncs(a, rnnActGeneric[float64])
	k.mm = func(m int, h []float64, lda int, w *rnnWeight[float64], beta float64, cm []float64, ldc int, bias []float64) {
		gemmNaive(false, true, m, w.rows, w.cols, 1, h, lda, w.m, w.cols, beta, cm, ldc)
		if bias != nil {
			for i := range m {
				row := cm[i*ldc : i*ldc+w.rows]
				for j := range row {
					row[j] += bias[j]
				}
			}
		}
	}
	return k, nil
}

// packConsts packs constant W and R at build, each direction's once per
// artifact on this backend. GRU's R is packed as its z and r rows and
// its h rows apart, the two products its step takes.
func (k *rnnKernel[E]) packConsts(c *buildCtx) error {
	pack := func(key string, i int, r0, r1 int) ([]rnnWeight[E], error) {
		t := c.constInput(i)
		if t == nil || len(t.Shape) != 3 || t.DType != payload.Float32 {
			return nil, nil
		}
		return shareValue(c, key, func() ([]rnnWeight[E], error) {
			v, err := model.View[float32](t)
			if err != nil {
				return nil, err
			}
			dirs, rows, cols := t.Shape[0], t.Shape[1], t.Shape[2]
			if r1 < 0 {
				r1 = rows
			} else if rows%k.a.Gates != 0 {
				return nil, nil // the rule refuses the shape at run time
			} else {
				r0, r1 = r0*rows/k.a.Gates, r1*rows/k.a.Gates
			}
			out := make([]rnnWeight[E], dirs)
			for d := range dirs {
				m := v[(d*rows+r0)*cols : (d*rows+r1)*cols]
				out[d] = rnnWeight[E]{rows: r1 - r0, cols: cols, b: gemmB{packed: prepackB(m, cols, true, cols, r1-r0)}}
			}
			return out, nil
		})
	}
	var err error
	if k.cw, err = pack("rnnW", 1, 0, -1); err != nil {
		return err
	}
	if k.cell == cellGRU {
		if k.cr, err = pack("rnnRzr", 2, 0, 2); err != nil {
			return err
		}
		k.cr2, err = pack("rnnRh", 2, 2, 3)
		return err
	}
	k.cr, err = pack("rnnR", 2, 0, -1)
	return err
}

// grow returns s with length n, reallocated only when too small.
func growE[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}

// weights sets this call's weights of every direction from W and R:
// the constant ones packed at build, else views of the inputs, R packed
// into scratch once per call for the float32 products of every step.
func (k *rnnKernel[E]) weights(wv, rv []E) {
	g, hd, in, dirs := k.a.Gates, k.hidden, k.input, k.dirs
	k.w = growE(k.w, dirs)
	k.r = growE(k.r, dirs)
	if k.cell == cellGRU {
		k.r2 = growE(k.r2, dirs)
	}
	for d := range dirs {
		k.w[d] = rnnWeight[E]{m: wv[d*g*hd*in : (d+1)*g*hd*in], rows: g * hd, cols: in}
		if len(k.cw) == dirs && k.cw[d].rows == g*hd && k.cw[d].cols == in {
			k.w[d] = k.cw[d]
		}
		rd := rv[d*g*hd*hd : (d+1)*g*hd*hd]
		if k.cell == cellGRU {
			k.r[d] = rnnWeight[E]{m: rd[:2*hd*hd], rows: 2 * hd, cols: hd}
			k.r2[d] = rnnWeight[E]{m: rd[2*hd*hd:], rows: hd, cols: hd}
		} else {
			k.r[d] = rnnWeight[E]{m: rd, rows: g * hd, cols: hd}
		}
	}
	if len(k.cr) == dirs && k.cr[0].cols == hd {
		copy(k.r, k.cr)
		if k.cell == cellGRU {
			copy(k.r2, k.cr2)
		}
		return
	}
	// A run-time R: pack it once for the products of every step
	// (float32 only).
	if k.packR == nil || k.seq <= 1 {
		return
	}
	n1, n2 := packedBSize(hd, g*hd), 0
	if k.cell == cellGRU {
		n1, n2 = packedBSize(hd, 2*hd), packedBSize(hd, hd)
	}
	k.pr = growE(k.pr, dirs*(n1+n2))
	for d := range dirs {
		dst := k.pr[d*(n1+n2) : (d+1)*(n1+n2)]
		k.packR(dst[:n1], k.r[d].m, hd, k.r[d].rows)
		k.r[d].b = gemmB{packed: dst[:n1]}
		if k.cell == cellGRU {
			k.packR(dst[n1:], k.r2[d].m, hd, hd)
			k.r2[d].b = gemmB{packed: dst[n1:]}
		}
	}
}

func (k *rnnKernel[E]) run(in, out []*tensor) error {
	xs := in[0].shape
	k.seq, k.batch, k.input = xs[0], xs[1], xs[2]
	if k.a.Layout == 1 {
		k.seq, k.batch = xs[1], xs[0]
	}
	k.hidden = in[2].shape[2]
	k.dirs = k.a.Direction.Dirs()
	S, B, H, G := k.seq, k.batch, k.hidden, k.a.Gates
	k.lens = growE(k.lens, B)
	maxLen := 0
	for b := range B {
		k.lens[b] = S
		if len(in) > 4 && in[4] != nil {
			l := int(in[4].i32()[b])
			if l < 0 || l > S {
				return shapeErr(k.n, "sequence_lens[%d] is %d, want 0 to %d", b, l, S)
			}
			k.lens[b] = l
		}
		maxLen = max(maxLen, k.lens[b])
	}
	k.weights(elems[E](in[1]), elems[E](in[2]))
	var biases []E
	if len(in) > 3 && in[3] != nil {
		k.bias = growE(k.bias, k.dirs*G*H)
		biases = k.bias
		bv := elems[E](in[3])
		for d := range k.dirs {
			src := bv[d*2*G*H : (d+1)*2*G*H]
			dst := k.bias[d*G*H : (d+1)*G*H]
			for j := range dst {
				dst[j] = src[j] + src[G*H+j]
			}
			if k.cell == cellGRU && k.lbr {
				// With linear_before_reset, Rbh is added to Ht-1·Rhᵀ
				// before the reset gate: only Wbh goes in the projection.
				copy(dst[2*H:], src[2*H:3*H])
			}
		}
	}
	k.proj = growE(k.proj, S*B*G*H)
	k.gates = growE(k.gates, B*G*H)
	k.h = growE(k.h, B*H)
	k.tmp = growE(k.tmp, H)
	if k.cell == cellLSTM {
		k.c = growE(k.c, B*H)
	}
	if k.cell == cellGRU {
		k.rh = growE(k.rh, B*H)
	}
	var y []E
	if k.wantY {
		y = elems[E](out[0])
	}
	x := elems[E](in[0])
	for d := range k.dirs {
		var bias []E
		if biases != nil {
			bias = biases[d*G*H : (d+1)*G*H]
		}
		k.mm(S*B, x, k.input, &k.w[d], 0, k.proj, G*H, bias)
		k.initState(k.h, in, 5, d)
		if k.cell == cellLSTM {
			k.initState(k.c, in, 6, d)
		}
		reverse := k.a.Direction == model.RNNReverse || d == 1
		for s := range maxLen {
			switch k.cell {
			case cellRNN:
				k.stepRNN(d, s, reverse, y)
			case cellGRU:
				k.stepGRU(d, s, reverse, y, in)
			case cellLSTM:
				k.stepLSTM(d, s, reverse, y, in)
			}
		}
		if y != nil {
			for b := range B {
				for t := k.lens[b]; t < S; t++ {
					clear(y[k.yOff(t, d, b) : k.yOff(t, d, b)+H])
				}
			}
		}
		if len(out) > 1 {
			k.finalState(elems[E](out[1]), k.h, d)
		}
		if len(out) > 2 && k.cell == cellLSTM {
			k.finalState(elems[E](out[2]), k.c, d)
		}
	}
	return nil
}

// row returns the projection row of step t of batch item b: rows are in
// X's order.
func (k *rnnKernel[E]) row(t, b int) int {
	if k.a.Layout == 1 {
		return b*k.seq + t
	}
	return t*k.batch + b
}

// yOff returns the offset of Y's row for step t, direction d, item b.
func (k *rnnKernel[E]) yOff(t, d, b int) int {
	if k.a.Layout == 1 {
		return ((b*k.seq+t)*k.dirs + d) * k.hidden
	}
	return ((t*k.dirs+d)*k.batch + b) * k.hidden
}

// stateOff returns the offset of item b of direction d in initial_h,
// initial_c, Y_h and Y_c.
func (k *rnnKernel[E]) stateOff(d, b int) int {
	if k.a.Layout == 1 {
		return (b*k.dirs + d) * k.hidden
	}
	return (d*k.batch + b) * k.hidden
}

// initState fills st with direction d's initial state from input i, or
// zeros when it is absent.
func (k *rnnKernel[E]) initState(st []E, in []*tensor, i, d int) {
	if len(in) <= i || in[i] == nil {
		clear(st)
		return
	}
	src := elems[E](in[i])
	H := k.hidden
	for b := range k.batch {
		copy(st[b*H:(b+1)*H], src[k.stateOff(d, b):])
	}
}

// finalState writes st as direction d's final state: zeros for items of
// length 0, as ONNX Runtime gives.
func (k *rnnKernel[E]) finalState(dst, st []E, d int) {
	H := k.hidden
	for b := range k.batch {
		o := dst[k.stateOff(d, b) : k.stateOff(d, b)+H]
		if k.lens[b] == 0 {
			clear(o)
			continue
		}
		copy(o, st[b*H:(b+1)*H])
	}
}

// stepTime returns the time index step s of item b reads, and whether
// the item is still running: the reverse direction runs each item's own
// sequence from its last step.
func (k *rnnKernel[E]) stepTime(s, b int, reverse bool) (int, bool) {
	l := k.lens[b]
	if s >= l {
		return 0, false
	}
	if reverse {
		return l - 1 - s, true
	}
	return s, true
}

// addClip adds p to g and bounds the sums by the clip attribute.
func addClip[E float32 | float64](g, p []E, clip E) {
	p = p[:len(g)]
	if clip > 0 {
		for j := range g {
			g[j] = min(max(g[j]+p[j], -clip), clip)
		}
		return
	}
	for j := range g {
		g[j] += p[j]
	}
}
