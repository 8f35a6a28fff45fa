package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// einsumKernel runs Einsum (model.EinsumAttrs) by one general loop over
// every label's index: each output element is the sum, over the labels
// not in the output, of the product of the inputs' elements. It is
// correct for any equation (diagonals, traces, broadcast ellipsis dims)
// but makes no use of a MatMul's structure. Floats accumulate in float64,
// integers in int64.
type einsumKernel struct {
	a  *model.EinsumAttrs
	dt payload.DType
	// Plan scratch: each label's size and its position in the loop (-1
	// when unused); the loop's label sizes, strides (one row per input,
	// then the output's), counters and offsets.
	size, pos, loop, st, ctr, off, dst []int
	accF                               []float64
	accI                               []int64
}

// plan fills the loop for the inputs' shapes and returns the number of
// loop labels, or -1 when a size is 0 and the output is all zeros.
func (k *einsumKernel) plan(in []*tensor, outShape []int) int {
	a := k.a
	ell := 0
	for i, t := range a.In {
		ell = max(ell, model.EinsumEllipsisRank(t, len(in[i].shape)))
	}
	nl := model.EinsumLetters + ell
	size := growInts(&k.size, nl)
	pos := growInts(&k.pos, nl)
	for l := range size {
		size[l], pos[l] = 1, -1
	}
	// Each term's dims, label by label.
	label := func(i int, f func(d, l int)) {
		t := a.In[i]
		e := model.EinsumEllipsisRank(t, len(in[i].shape))
		d := 0
		for _, l := range t {
			if l != model.EinsumEllipsis {
				f(d, l)
				d++
				continue
			}
			for q := range e {
				f(d, model.EinsumLetters+ell-e+q)
				d++
			}
		}
	}
	used := 0
	loop := growInts(&k.loop, nl)[:0]
	addLabel := func(l int) {
		if pos[l] < 0 {
			pos[l] = used
			loop = append(loop, 0)
			used++
		}
	}
	// Output labels first, in the output's order.
	for _, l := range a.Out {
		if l != model.EinsumEllipsis {
			addLabel(l)
			continue
		}
		for q := range ell {
			addLabel(model.EinsumLetters + q)
		}
	}
	for i := range a.In {
		label(i, func(d, l int) {
			addLabel(l)
			size[l] = max(size[l], in[i].shape[d]) // a broadcast 1 gives way
			if in[i].shape[d] == 0 {
				size[l] = 0
			}
		})
	}
	for l, p := range pos {
		if p >= 0 {
			loop[p] = size[l]
		}
	}
	nin := len(a.In)
	st := growInts(&k.st, (nin+1)*used)
	clear(st)
	for i := range a.In {
		s := in[i].shape
		dst := growInts(&k.dst, len(s))
		rowStrides(dst, s)
		label(i, func(d, l int) {
			if s[d] != 1 || size[l] == 1 {
				st[i*used+pos[l]] += dst[d]
			}
		})
	}
	dst := growInts(&k.dst, len(outShape))
	rowStrides(dst, outShape)
	j := 0
	for _, l := range a.Out {
		if l != model.EinsumEllipsis {
			st[nin*used+pos[l]] = dst[j]
			j++
			continue
		}
		for q := range ell {
			st[nin*used+pos[model.EinsumLetters+q]] = dst[j]
			j++
		}
	}
	k.loop = loop
	k.ctr = growInts(&k.ctr, used)
	k.off = growInts(&k.off, nin+1)
	for _, n := range loop {
		if n == 0 {
			return -1
		}
	}
	return used
}

func (k *einsumKernel) run(in, out []*tensor) error {
	used := k.plan(in, out[0].shape)
	switch k.dt {
	case payload.Float32:
		einsumRun(k, out[0].f32(), in, used, &k.accF)
	case payload.Float64:
		einsumRun(k, out[0].f64(), in, used, &k.accF)
	case payload.Int32:
		einsumRun(k, out[0].i32(), in, used, &k.accI)
	case payload.Int64:
		einsumRun(k, out[0].i64(), in, used, &k.accI)
	}
	return nil
}

// einsumRun runs the planned loop over used labels, accumulating in A.
func einsumRun[T ewNum, A float64 | int64](k *einsumKernel, d []T, in []*tensor, used int, accBuf *[]A) {
	n := len(d)
	if cap(*accBuf) < n {
		*accBuf = make([]A, n)
	}
	acc := (*accBuf)[:n]
	clear(acc)
	if used >= 0 {
		nin := len(k.a.In)
		st, ctr, off, loop := k.st, k.ctr[:used], k.off, k.loop
		clear(ctr)
		clear(off)
		for {
			p := A(1)
			for i := range nin {
				p *= A(elems[T](in[i])[off[i]])
			}
			acc[off[nin]] += p
			// Advance the innermost label, carrying outwards.
			q := used - 1
			for ; q >= 0; q-- {
				ctr[q]++
				for i := 0; i <= nin; i++ {
					off[i] += st[i*used+q]
				}
				if ctr[q] < loop[q] {
					break
				}
				for i := 0; i <= nin; i++ {
					off[i] -= st[i*used+q] * loop[q]
				}
				ctr[q] = 0
			}
			if q < 0 {
				break
			}
		}
	}
	for i, v := range acc {
		d[i] = T(v)
	}
}

func init() {
	register("Einsum", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64, payload.Int32, payload.Int64); err != nil {
			return nil, err
		}
		for i := range c.n.Inputs {
			if c.inType(i) != c.inType(0) {
				return nil, c.unsupported("input %d element type %s, input 0 %s", i, c.inType(i), c.inType(0))
			}
		}
		return &einsumKernel{a: c.rule.(*model.EinsumAttrs), dt: c.inType(0)}, nil
	})
}
