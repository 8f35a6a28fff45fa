package gpu

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
)

// item is one forward pass of a call: its inputs, its plan and where it
// sits in the arena.
type item struct {
	shapes [][]int
	data   [][]byte
	// place is where each input's bytes are: host memory, or device memory
	// at devAddr (a Recorder's allocation).
	place   []memclass.Class
	devAddr []uintptr
	p       *plan
	base    int
	// in binds each input: a buffer wrapped around the payload, or the
	// input's staging place in the arena.
	in      []Binding
	wrapped []bool
	// outAddr is, per output, the device address an output payload in
	// device memory receives its bytes at (0: the output is read on the
	// host).
	outAddr []uintptr
}

// recording is a pass a Recorder holds: valid for the items' plans, in
// order, over the arena of generation gen; used orders them by last use.
type recording struct {
	prog  ProgID
	plans []*plan
	gen   int
	used  uint64
}

// exec is a model's run-time state: the arena (one buffer for every
// intermediate value of every item of a call) and per-item scratch. It
// grows on the first call at a larger shape or batch and is reused after.
//
// On a device whose memory the host sees, inputs are written into the
// arena (or wrapped) and outputs read from it in place. On a Recorder,
// stage is pinned host memory laid out as the arena: host inputs are
// copied to their arena offsets in it and moved by the Run call that
// replays the recorded pass, outputs come back to their offsets in it.
type exec struct {
	dev      Device
	rec      Recorder
	nin      int
	nout     int
	arena    BufID
	arenaMem []byte
	arenaLen int
	gen      int
	stage    []byte
	its      []item
	binds    []Binding
	ins      []Transfer
	outs     []Transfer
	recs     [maxRecordings]recording
	clock    uint64
}

func (x *exec) init(dev Device, nin, nout int) {
	x.dev = dev
	x.rec, _ = dev.(Recorder)
	x.nin, x.nout = nin, nout
	x.its = x.its[:0]
	x.items(1)
}

// items makes room for n items.
func (x *exec) items(n int) {
	for len(x.its) < n {
		x.its = append(x.its, item{shapes: make([][]int, x.nin), data: make([][]byte, x.nin),
			place: make([]memclass.Class, x.nin), devAddr: make([]uintptr, x.nin),
			in: make([]Binding, x.nin), wrapped: make([]bool, x.nin), outAddr: make([]uintptr, x.nout)})
	}
}

// growArena makes the arena at least n bytes.
func (x *exec) growArena(n int) error {
	if n <= x.arenaLen {
		return nil
	}
	x.release()
	b, mem, err := x.dev.Alloc(n)
	if err != nil {
		return err
	}
	if x.rec != nil {
		stage, err := x.rec.AllocStage(n)
		if err != nil {
			x.dev.Release(b)
			return err
		}
		// The host reads and writes the arena's image in the stage.
		x.stage, mem = stage, stage
	}
	x.arena, x.arenaMem, x.arenaLen = b, mem, n
	x.gen++
	return nil
}

// layoutItems gives each of n staged items its base in the arena and grows
// the arena to hold them all.
func (x *exec) layoutItems(n int) error {
	total := 0
	for i := range n {
		it := &x.its[i]
		it.base = total
		total += alignUp(it.p.arenaSize, arenaAlign)
		if m := it.p.maxBufs; m > len(x.binds) {
			x.binds = make([]Binding, m)
		}
	}
	return x.growArena(max(total, arenaAlign))
}

// run places n staged items in the arena, moves their inputs, runs every
// step of every item as one submission and waits for it once.
func (x *exec) run(n int) error {
	if err := x.layoutItems(n); err != nil {
		return err
	}
	if x.rec != nil {
		return x.replay(n)
	}
	for i := range n {
		it := &x.its[i]
		for j, data := range it.data {
			if b, ok := x.dev.Wrap(data); ok {
				it.in[j], it.wrapped[j] = Binding{Buf: b}, true
				continue
			}
			off := it.base + it.p.inOff[j]
			copy(x.arenaMem[off:off+len(data)], data)
			it.in[j], it.wrapped[j] = Binding{Buf: x.arena, Off: off}, false
		}
	}
	if err := x.dev.Begin(); err != nil {
		return err
	}
	x.dispatchAll(n)
	if err := x.dev.End(); err != nil {
		return errs.Wrap(errs.ExecutionFailed, err, "submission")
	}
	return nil
}

// dispatchAll issues every step of the first n items.
func (x *exec) dispatchAll(n int) {
	for i := range n {
		it := &x.its[i]
		for s := range it.p.steps {
			st := &it.p.steps[s]
			b := x.binds[:len(st.bufs)]
			for k, l := range st.bufs {
				b[k] = x.resolve(it, l)
			}
			x.dev.Dispatch(st.k, st.args, b, st.groups, st.threads)
		}
	}
}

// replay runs n items on a Recorder: it records the pass unless a
// recording for the items' plans over this arena is kept, stages the
// inputs and replays it in one call.
func (x *exec) replay(n int) error {
	for i := range n {
		it := &x.its[i]
		for j := range it.data {
			it.in[j] = Binding{Buf: x.arena, Off: it.base + it.p.inOff[j]}
		}
	}
	r := x.find(n)
	if r == nil {
		var err error
		if r, err = x.record(n); err != nil {
			return err
		}
	}
	x.clock++
	r.used = x.clock
	x.ins, x.outs = x.ins[:0], x.outs[:0]
	for i := range n {
		it := &x.its[i]
		for j, data := range it.data {
			size := it.p.inSize[j]
			if size == 0 {
				continue
			}
			if it.devAddr[j] != 0 {
				x.ins = append(x.ins, Transfer{At: it.in[j], DevAddr: it.devAddr[j], Size: size})
				continue
			}
			off := it.in[j].Off
			copy(x.stage[off:off+size], data)
			x.ins = append(x.ins, Transfer{At: it.in[j], Host: x.stage[off : off+size], Size: size})
		}
		for k := range it.p.outputs {
			o := &it.p.outputs[k]
			if o.size == 0 || (o.loc.kind == locConst && it.outAddr[k] == 0) {
				// A constant output is read from the plan on the host.
				continue
			}
			b := x.resolve(it, o.loc)
			if a := it.outAddr[k]; a != 0 {
				x.outs = append(x.outs, Transfer{At: b, DevAddr: a, Size: o.size})
				continue
			}
			x.outs = append(x.outs, Transfer{At: b, Host: x.stage[b.Off : b.Off+o.size], Size: o.size})
		}
	}
	if err := x.rec.Run(r.prog, x.ins, x.outs); err != nil {
		return errs.Wrap(errs.ExecutionFailed, err, "replaying the recorded pass")
	}
	return nil
}

// maxRecordings is how many recorded passes a Recorder model keeps: one
// per recent combination of item plans (batch composition).
const maxRecordings = 4

// find returns the recording for the first n items' plans over the
// current arena, or nil.
func (x *exec) find(n int) *recording {
	for k := range x.recs {
		r := &x.recs[k]
		if r.prog == 0 || r.gen != x.gen || len(r.plans) != n {
			continue
		}
		same := true
		for i := range n {
			if r.plans[i] != x.its[i].p {
				same = false
				break
			}
		}
		if same {
			return r
		}
	}
	return nil
}

// record records the first n items' steps as a Recorder program, in a
// free slot or in place of the least recently used recording.
func (x *exec) record(n int) (*recording, error) {
	r := &x.recs[0]
	for k := range x.recs {
		if q := &x.recs[k]; q.prog == 0 || q.used < r.used {
			r = q
			if q.prog == 0 {
				break
			}
		}
	}
	x.drop(r)
	if err := x.rec.BeginRecord(); err != nil {
		return nil, err
	}
	x.dispatchAll(n)
	p, err := x.rec.EndRecord()
	if err != nil {
		return nil, errs.Wrap(errs.ExecutionFailed, err, "recording the pass")
	}
	r.prog, r.gen = p, x.gen
	for i := range n {
		r.plans = append(r.plans, x.its[i].p)
	}
	return r, nil
}

// drop frees one recording's program.
func (x *exec) drop(r *recording) {
	if r.prog != 0 {
		x.rec.Drop(r.prog)
	}
	r.prog, r.used = 0, 0
	clear(r.plans)
	r.plans = r.plans[:0]
}

// forget drops the recordings that run plan p, which the model evicted.
func (x *exec) forget(p *plan) {
	if x.rec == nil {
		return
	}
	for k := range x.recs {
		r := &x.recs[k]
		for _, q := range r.plans {
			if q == p {
				x.drop(r)
				break
			}
		}
	}
}

// dropRecordings frees every recorded program.
func (x *exec) dropRecordings() {
	for k := range x.recs {
		x.drop(&x.recs[k])
	}
}

// resolve returns the buffer and offset of a location for an item.
func (x *exec) resolve(it *item, l loc) Binding {
	switch l.kind {
	case locArena:
		return Binding{Buf: x.arena, Off: it.base + l.off}
	case locConst:
		return Binding{Buf: it.p.constBufs[l.idx], Off: l.off}
	case locInput:
		b := it.in[l.idx]
		b.Off += l.off
		return b
	}
	return Binding{}
}

// output returns output k of item i as host bytes, or nil when the output
// went to a payload in device memory.
func (x *exec) output(i, k int) ([]byte, *outInfo) {
	it := &x.its[i]
	o := &it.p.outputs[k]
	if it.outAddr[k] != 0 {
		return nil, o
	}
	l := o.loc
	switch l.kind {
	case locArena:
		off := it.base + l.off
		return x.arenaMem[off : off+o.size], o
	case locConst:
		return it.p.consts[l.idx].Raw[l.off : l.off+o.size], o
	case locInput:
		if x.rec != nil {
			off := it.in[l.idx].Off + l.off
			return x.stage[off : off+o.size], o
		}
		return it.data[l.idx][l.off : l.off+o.size], o
	}
	return nil, o
}

// unwrap releases the input buffers wrapped for the first n items.
func (x *exec) unwrap(n int) {
	for i := range min(n, len(x.its)) {
		it := &x.its[i]
		for j, w := range it.wrapped {
			if w {
				x.dev.Release(it.in[j].Buf)
				it.wrapped[j] = false
			}
		}
	}
}

// release frees the arena, its stage and the recordings over it.
func (x *exec) release() {
	if x.rec != nil {
		x.dropRecordings()
		if x.stage != nil {
			x.rec.FreeStage(x.stage)
		}
	}
	if x.arena != 0 {
		x.dev.Release(x.arena)
	}
	x.arena, x.arenaMem, x.arenaLen, x.stage = 0, nil, 0, nil
}
