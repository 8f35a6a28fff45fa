package cpu

import (
	"context"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func init() { register("Scan", buildScan) }

// scanKernel runs a Scan node. shape runs every step, keeping the state
// variables and the scan outputs' elements in the kernel's buffers; run
// lays them out in the outputs. At opset 8 it runs each batch item in
// turn.
type scanKernel struct {
	n     *model.Node
	a     *model.ScanAttrs
	caps  []string
	body  *subRun
	first int // the node's first state input
	// state and next hold the state variables (see loopKernel); final
	// points at the values of the item that ran last.
	state, next []tensor
	final       []*tensor
	// items are the views of one batch item's state variables and scan
	// inputs (opset 8); slices the slices of the scan inputs bound at
	// one step, with gather the buffers of those not contiguous.
	items  []tensor
	slices []tensor
	gather [][]byte
	// scans holds each scan output's elements in the order the steps
	// ran; finals each state variable's final values, per batch item
	// (opset 8).
	scans  []stacked
	finals []stacked
	// steps is the number of steps; lens the steps of each batch item.
	steps int
	lens  []int
}

func buildScan(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.ScanAttrs)
	k := &scanKernel{n: c.n, a: a, caps: subCaptures(c, a.Body)}
	if a.Batched {
		k.first = 1
		if c.n.Input(0) != "" && c.inType(0) != payload.Int64 {
			return nil, c.unsupported("sequence_lens of element type %s", c.inType(0))
		}
	}
	s, err := compileSub(c, a.Body, k.caps)
	if err != nil {
		return nil, err
	}
	k.body = s
	for i := range a.State + a.Inputs {
		if got, want := s.inType(i), c.inType(k.first+i); got != want {
			return nil, c.invalid("input %d is %s, the body takes %s", k.first+i, want, got)
		}
	}
	for j := range c.out {
		if got, want := s.outType(j), c.out[j].DType; got != want {
			return nil, c.invalid("output %d is %s, the body gives %s", j, want, got)
		}
	}
	k.state = make([]tensor, a.State)
	k.next = make([]tensor, a.State)
	k.final = make([]*tensor, a.State)
	k.items = make([]tensor, a.State+a.Inputs)
	k.slices = make([]tensor, a.Inputs)
	k.gather = make([][]byte, a.Inputs)
	k.scans = make([]stacked, a.Outputs)
	for j := range k.scans {
		k.scans[j].static = staticElem(s.p, a.State+j)
		k.scans[j].limit = tensorLimit(c.opts)
	}
	if a.Batched {
		k.finals = make([]stacked, a.State)
		for i := range k.finals {
			k.finals[i].static = staticElem(s.p, i)
			k.finals[i].limit = tensorLimit(c.opts)
			if o := c.out[i]; o.RankKnown && len(o.Shape) > 0 {
				k.finals[i].static = zeroUnknown(o.Shape[1:])
			}
		}
		for j := range k.scans {
			if o := c.out[a.State+j]; o.RankKnown && len(o.Shape) > 1 {
				k.scans[j].static = zeroUnknown(o.Shape[2:])
			}
		}
	}
	return k, nil
}

func (k *scanKernel) captures() []string                              { return k.caps }
func (k *scanKernel) selfShaped()                                     {}
func (k *scanKernel) watch(done <-chan struct{}, ctx context.Context) { k.body.watch(done, ctx) }

// inputAxis returns scan input j's scan axis in a tensor of rank r, or
// -1 when it is out of range.
func (k *scanKernel) inputAxis(j, r int) int {
	if k.a.Batched {
		return 0 // of a batch item
	}
	ax := int(k.a.InputAxes[j])
	if ax < 0 {
		ax += r
	}
	if ax < 0 || ax >= r {
		return -1
	}
	return ax
}

// shape runs every step and sets the outputs' shapes.
func (k *scanKernel) shape(in, out []*tensor) error {
	a := k.a
	for j := range k.scans {
		k.scans[j].reset()
	}
	if !a.Batched {
		k.steps = -1
		for j := range a.Inputs {
			t := in[a.State+j]
			ax := k.inputAxis(j, len(t.shape))
			if ax < 0 {
				return shapeErr(k.n, "scan input %d of shape %v has no axis %d", j, t.shape, a.InputAxes[j])
			}
			if k.steps >= 0 && t.shape[ax] != k.steps {
				return shapeErr(k.n, "scan inputs have %d and %d steps", k.steps, t.shape[ax])
			}
			k.steps = t.shape[ax]
		}
		for i := range a.State {
			k.final[i] = in[i]
		}
		if err := k.runItem(in, in[a.State:a.State+a.Inputs], k.steps); err != nil {
			return err
		}
		for i := range a.State {
			setShape(out[i], k.final[i].shape)
		}
		for j := range k.scans {
			s := &k.scans[j]
			e := s.elemShape()
			ax := int(a.OutputAxes[j])
			if ax < 0 {
				ax += len(e) + 1
			}
			if ax < 0 || ax > len(e) {
				return shapeErr(k.n, "scan output %d of element shape %v has no axis %d", j, e, a.OutputAxes[j])
			}
			d := out[a.State+j].resize(len(e) + 1)
			copy(d, e[:ax])
			d[ax] = k.steps
			copy(d[ax+1:], e[ax:])
		}
		return nil
	}
	return k.shapeBatched(in, out)
}

// shapeBatched runs every batch item of an opset 8 Scan.
func (k *scanKernel) shapeBatched(in, out []*tensor) error {
	a := k.a
	batch, steps := -1, -1
	for i := range a.State + a.Inputs {
		t := in[k.first+i]
		if len(t.shape) < 1 || (i >= a.State && len(t.shape) < 2) {
			return shapeErr(k.n, "input %d has shape %v: it needs a batch dim (and a sequence dim for a scan input)", k.first+i, t.shape)
		}
		if batch >= 0 && t.shape[0] != batch {
			return shapeErr(k.n, "inputs have batch sizes %d and %d", batch, t.shape[0])
		}
		batch = t.shape[0]
		if i >= a.State {
			if steps >= 0 && t.shape[1] != steps {
				return shapeErr(k.n, "scan inputs have %d and %d steps", steps, t.shape[1])
			}
			steps = t.shape[1]
		}
	}
	if batch < 0 {
		return shapeErr(k.n, "no state variables or scan inputs")
	}
	k.steps = steps
	if cap(k.lens) < batch {
		k.lens = make([]int, batch)
	}
	k.lens = k.lens[:batch]
	for b := range k.lens {
		k.lens[b] = steps
	}
	if sl := optIn(in, 0); sl != nil {
		if len(sl.shape) != 1 || sl.shape[0] != batch {
			return shapeErr(k.n, "sequence_lens has shape %v, want [%d]", sl.shape, batch)
		}
		for b, v := range sl.i64()[:batch] {
			if v < 0 || v > int64(steps) {
				return shapeErr(k.n, "sequence_lens[%d] = %d is outside [0, %d]", b, v, steps)
			}
			k.lens[b] = int(v)
		}
	}
	for i := range k.finals {
		k.finals[i].reset()
	}
	for b := range batch {
		for i := range a.State + a.Inputs {
			t := in[k.first+i]
			it := &k.items[i]
			it.dt = t.dt
			setShape(it, t.shape[1:])
			n := len(t.data) / batch
			it.data = t.data[b*n : (b+1)*n]
		}
		for i := range a.State {
			k.final[i] = &k.items[i]
		}
		if err := k.runItem(in, nil, k.lens[b]); err != nil {
			return err
		}
		for i := range a.State {
			if err := k.finals[i].add(k.n, "a state variable", k.final[i]); err != nil {
				return err
			}
		}
	}
	for i := range a.State {
		f := &k.finals[i]
		e := f.elemShape()
		d := out[i].resize(len(e) + 1)
		d[0] = batch
		copy(d[1:], e)
	}
	for j := range k.scans {
		e := k.scans[j].elemShape()
		d := out[a.State+j].resize(len(e) + 2)
		d[0], d[1] = batch, steps
		copy(d[2:], e)
	}
	return nil
}

// runItem runs steps steps of the body from the state variables in
// k.final, slicing the scan inputs scanIns (nil: k.items' at opset 8)
// along their axes; it leaves the final state variables in k.final and
// appends the scan outputs' elements to k.scans.
func (k *scanKernel) runItem(in, scanIns []*tensor, steps int) error {
	a := k.a
	b := k.body
	for t := range steps {
		if err := b.bindCaptures(in); err != nil {
			return err
		}
		for i := range a.State {
			if err := b.bind(i, k.final[i]); err != nil {
				return err
			}
		}
		for j := range a.Inputs {
			src := &k.items[a.State+j]
			if scanIns != nil {
				src = scanIns[j]
			}
			pos := t
			if a.InputReverse[j] {
				pos = steps - 1 - t
			}
			sl := k.slice(j, src, pos)
			if err := b.bind(a.State+j, sl); err != nil {
				return err
			}
		}
		if err := b.x.run(); err != nil {
			return err
		}
		for i := range a.State {
			holdCopy(&k.next[i], b.x.output(i))
		}
		k.state, k.next = k.next, k.state
		for i := range a.State {
			k.final[i] = &k.state[i]
		}
		for j := range k.scans {
			if err := k.scans[j].add(k.n, "a scan output", b.x.output(a.State+j)); err != nil {
				return err
			}
		}
	}
	return nil
}

// slice returns step pos of scan input j, src: a view when the slice is
// contiguous, else a copy in the kernel's buffer.
func (k *scanKernel) slice(j int, src *tensor, pos int) *tensor {
	ax := k.inputAxis(j, len(src.shape))
	sl := &k.slices[j]
	sl.dt = src.dt
	d := sl.resize(len(src.shape) - 1)
	copy(d, src.shape[:ax])
	copy(d[ax:], src.shape[ax+1:])
	outer, inner := 1, src.dt.Size()
	for _, v := range src.shape[:ax] {
		outer *= v
	}
	for _, v := range src.shape[ax+1:] {
		inner *= v
	}
	steps := src.shape[ax]
	if outer == 1 {
		sl.data = src.data[pos*inner : (pos+1)*inner]
		return sl
	}
	need := outer * inner
	if cap(k.gather[j]) < need {
		k.gather[j] = alignedBytes(need)
	}
	buf := k.gather[j][:need]
	for o := range outer {
		copy(buf[o*inner:(o+1)*inner], src.data[(o*steps+pos)*inner:])
	}
	sl.data = buf
	return sl
}

// run lays out the final state variables and the scan outputs.
func (k *scanKernel) run(in, out []*tensor) error {
	a := k.a
	if a.Batched {
		for i := range a.State {
			copy(out[i].data, k.finals[i].data)
		}
		for j := range k.scans {
			o := out[a.State+j]
			s := &k.scans[j]
			batch := len(k.lens)
			if batch == 0 || k.steps == 0 {
				continue
			}
			elem := len(o.data) / (batch * k.steps)
			src := 0
			for b, n := range k.lens {
				row := o.data[b*k.steps*elem : (b+1)*k.steps*elem]
				src += copy(row[:n*elem], s.data[src:])
				clear(row[n*elem:])
			}
		}
		return nil
	}
	for i := range a.State {
		copy(out[i].data, k.final[i].data)
	}
	for j := range k.scans {
		o := out[a.State+j]
		s := &k.scans[j]
		if k.steps == 0 || len(o.data) == 0 {
			continue
		}
		e := s.elemShape()
		ax := int(a.OutputAxes[j])
		if ax < 0 {
			ax += len(e) + 1
		}
		outer, inner := 1, o.dt.Size()
		for _, v := range e[:ax] {
			outer *= v
		}
		for _, v := range e[ax:] {
			inner *= v
		}
		elem := outer * inner
		for t := range k.steps {
			pos := t
			if a.OutputReverse[j] {
				pos = k.steps - 1 - t
			}
			for q := range outer {
				copy(o.data[(q*k.steps+pos)*inner:(q*k.steps+pos+1)*inner], s.data[t*elem+q*inner:])
			}
		}
	}
	return nil
}
