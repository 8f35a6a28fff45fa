package metal

import "github.com/lintel-ml/lintel/internal/errs"

// item is one forward pass of a call: its inputs, its plan and where it
// sits in the arena.
type item struct {
	shapes [][]int
	data   [][]byte
	p      *plan
	base   int
	// in binds each input: a buffer wrapped around the payload, or the
	// input's staging place in the arena.
	in      []binding
	wrapped []bool
}

// exec is a model's run-time state: the arena (one shared-storage buffer
// for every intermediate value of every item of a call) and per-item
// scratch. It grows on the first call at a larger shape or batch and is
// reused after.
type exec struct {
	nin      int
	arena    bufID
	arenaMem []byte
	its      []item
	binds    []binding
}

func (x *exec) init(nin int) {
	x.nin = nin
	x.its = x.its[:0]
	x.items(1)
}

// items makes room for n items.
func (x *exec) items(n int) {
	for len(x.its) < n {
		x.its = append(x.its, item{shapes: make([][]int, x.nin), data: make([][]byte, x.nin),
			in: make([]binding, x.nin), wrapped: make([]bool, x.nin)})
	}
}

// growArena makes the arena at least n bytes.
func (x *exec) growArena(dev device, n int) error {
	if n <= len(x.arenaMem) {
		return nil
	}
	if x.arena != 0 {
		dev.release(x.arena)
		x.arena, x.arenaMem = 0, nil
	}
	b, mem, err := dev.alloc(n)
	if err != nil {
		return err
	}
	x.arena, x.arenaMem = b, mem
	return nil
}

// run places n staged items in the arena, copies or wraps their inputs,
// encodes every step of every item into one command buffer and waits for
// it once.
func (x *exec) run(dev device, n int) error {
	total := 0
	for i := range n {
		it := &x.its[i]
		it.base = total
		total += alignUp(it.p.arenaSize, arenaAlign)
		if m := it.p.maxBufs; m > len(x.binds) {
			x.binds = make([]binding, m)
		}
	}
	if err := x.growArena(dev, max(total, arenaAlign)); err != nil {
		return err
	}
	for i := range n {
		it := &x.its[i]
		for j, data := range it.data {
			if b, ok := dev.wrap(data); ok {
				it.in[j], it.wrapped[j] = binding{buf: b}, true
				continue
			}
			off := it.base + it.p.inOff[j]
			copy(x.arenaMem[off:off+len(data)], data)
			it.in[j], it.wrapped[j] = binding{buf: x.arena, off: off}, false
		}
	}
	if err := dev.begin(); err != nil {
		return err
	}
	for i := range n {
		it := &x.its[i]
		for s := range it.p.steps {
			st := &it.p.steps[s]
			b := x.binds[:len(st.bufs)]
			for k, l := range st.bufs {
				b[k] = x.resolve(it, l)
			}
			dev.dispatch(st.k, st.args, b, st.groups, st.threads)
		}
	}
	if err := dev.end(); err != nil {
		return errs.Wrap(errs.ExecutionFailed, err, "command buffer")
	}
	return nil
}

// resolve returns the buffer and offset of a location for an item.
func (x *exec) resolve(it *item, l loc) binding {
	switch l.kind {
	case locArena:
		return binding{buf: x.arena, off: it.base + l.off}
	case locConst:
		return binding{buf: it.p.constBufs[l.idx], off: l.off}
	case locInput:
		b := it.in[l.idx]
		b.off += l.off
		return b
	}
	return binding{}
}

// output returns output k of item i as host bytes.
func (x *exec) output(i, k int) ([]byte, *outInfo) {
	it := &x.its[i]
	o := &it.p.outputs[k]
	l := o.loc
	switch l.kind {
	case locArena:
		off := it.base + l.off
		return x.arenaMem[off : off+o.size], o
	case locConst:
		return it.p.consts[l.idx].Raw[l.off : l.off+o.size], o
	case locInput:
		return it.data[l.idx][l.off : l.off+o.size], o
	}
	return nil, o
}

// unwrap releases the input buffers wrapped for the first n items.
func (x *exec) unwrap(dev device, n int) {
	for i := range min(n, len(x.its)) {
		it := &x.its[i]
		for j, w := range it.wrapped {
			if w {
				dev.release(it.in[j].buf)
				it.wrapped[j] = false
			}
		}
	}
}

// release frees the arena.
func (x *exec) release(dev device) {
	if x.arena != 0 {
		dev.release(x.arena)
	}
	x.arena, x.arenaMem = 0, nil
}
