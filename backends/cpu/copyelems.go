package cpu

import (
	"math"
	"unsafe"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// word is the set of unsigned types the data-movement loops copy: every
// element type is moved as the unsigned word of its size.
type word interface {
	uint8 | uint16 | uint32 | uint64
}

// wordsOf views b as a slice of W. b's start must be aligned to W's size
// (tensor data is 8-byte aligned).
func wordsOf[W word](b []byte) []W {
	if len(b) == 0 {
		return nil
	}
	var z W
	return unsafe.Slice((*W)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(z)))
}

// movable reports whether the copy loops handle dt: any fixed-size element
// type of 1, 2, 4 or 8 bytes.
func movable(dt payload.DType) bool {
	switch dt.Size() {
	case 1, 2, 4, 8:
		return true
	}
	return false
}

// needMovable refuses the node unless input 0 has a type the copy loops
// handle.
func (c *buildCtx) needMovable() error {
	if !movable(c.inType(0)) {
		return c.unsupported("element type %s", c.inType(0))
	}
	return nil
}

// optIn returns input i, or nil when it is absent.
func optIn(in []*tensor, i int) *tensor {
	if i >= 0 && i < len(in) {
		return in[i]
	}
	return nil
}

// wrapAxis maps a possibly negative axis into [0, rank); ok is false when
// it is out of range.
func wrapAxis(a int64, rank int) (int, bool) {
	if a < -int64(rank) || a >= int64(rank) {
		return 0, false
	}
	if a < 0 {
		a += int64(rank)
	}
	return int(a), true
}

// intValues returns t's values as int64: t itself for int64 tensors, or a
// copy into *buf (grown only when too small) for int32 ones. ok is false
// for other element types.
func intValues(t *tensor, buf *[]int64) ([]int64, bool) {
	switch t.dt {
	case payload.Int64:
		return t.i64()[:t.numel()], true
	case payload.Int32:
		v := t.i32()[:t.numel()]
		if cap(*buf) < len(v) {
			*buf = make([]int64, len(v))
		}
		b := (*buf)[:len(v)]
		for i, x := range v {
			b[i] = int64(x)
		}
		return b, true
	}
	return nil, false
}

// intInputOK reports whether input i is absent or has an int32 or int64
// element type, as index-like inputs must.
func (c *buildCtx) intInputOK(i int, allow32 bool) bool {
	switch c.inType(i) {
	case payload.Undefined, payload.Int64:
		return true
	case payload.Int32:
		return allow32
	}
	return false
}

// rowStrides fills st with the row-major element strides of dims.
func rowStrides(st, dims []int) {
	s := 1
	for k := len(dims) - 1; k >= 0; k-- {
		st[k] = s
		s *= dims[k]
	}
}

// growInts returns a slice of n ints backed by *buf, grown only when too
// small.
func growInts(buf *[]int, n int) []int {
	if cap(*buf) < n {
		*buf = make([]int, n, n+4)
	}
	return (*buf)[:n]
}

// mulDims returns the product of dims, or -1 when a dim is negative or the
// product overflows an int.
func mulDims(dims []int) int { return payload.NumElems(dims) }

// stridedCopy copies a box of elements into a contiguous destination. The
// box has dims; its element at multi-index i is read from src element
// off + Σ i[k]*st[k]. Zero and negative strides are allowed. The plan's
// slices are scratch reused across calls.
type stridedCopy struct {
	dims, st, ctr []int
}

// reset sizes the plan for rank r and returns its dims and stride slices
// for the caller to fill.
func (p *stridedCopy) reset(r int) (dims, st []int) {
	p.dims = growInts(&p.dims, r)
	p.st = growInts(&p.st, r)
	p.ctr = growInts(&p.ctr, r)
	return p.dims, p.st
}

// coalesce drops unit dims and merges adjacent dims whose strides chain, so
// the loops run over as few and as long runs as possible. It returns the
// new rank, or -1 when the box is empty.
func (p *stridedCopy) coalesce() int {
	dims, st := p.dims, p.st
	r := 0
	for k := range dims {
		if dims[k] == 0 {
			return -1
		}
		if dims[k] == 1 {
			continue
		}
		if r > 0 && st[r-1] == st[k]*dims[k] {
			dims[r-1] *= dims[k]
			st[r-1] = st[k]
			continue
		}
		dims[r], st[r] = dims[k], st[k]
		r++
	}
	return r
}

// copy runs the plan: dst receives the box's elements of size esz in
// row-major order.
func (p *stridedCopy) copy(dst, src []byte, esz, off int) {
	r := p.coalesce()
	if r < 0 {
		return
	}
	switch esz {
	case 1:
		stridedWords(p, wordsOf[uint8](dst), wordsOf[uint8](src), r, off)
	case 2:
		stridedWords(p, wordsOf[uint16](dst), wordsOf[uint16](src), r, off)
	case 4:
		stridedWords(p, wordsOf[uint32](dst), wordsOf[uint32](src), r, off)
	case 8:
		stridedWords(p, wordsOf[uint64](dst), wordsOf[uint64](src), r, off)
	}
}

func stridedWords[W word](p *stridedCopy, dst, src []W, r, off int) {
	if r == 0 {
		dst[0] = src[off]
		return
	}
	stridedRows(p, dst, src, p.ctr[:r-1], off, 0, mulDims(p.dims[:r-1]))
}

// mapCopy fills a contiguous destination of shape dims from src through
// one index map per dim: output index o along dim k reads input index
// maps[k][o] (whose element stride is st[k]), or the fill value when any
// map entry is negative. Pad and nearest Resize use it.
type mapCopy struct {
	dims, st, ctr, start []int
	idx                  []int
}

// reset sizes the plan for rank r with output dims and input strides st;
// it returns the flat index-map storage, whose dim k part is
// p.mapOf(k).
func (p *mapCopy) reset(dims, st []int) []int {
	r := len(dims)
	p.dims = growInts(&p.dims, r)
	copy(p.dims, dims)
	p.st = growInts(&p.st, r)
	copy(p.st, st)
	p.ctr = growInts(&p.ctr, r)
	p.start = growInts(&p.start, r+1)
	n := 0
	for k, d := range dims {
		p.start[k] = n
		n += d
	}
	p.start[r] = n
	p.idx = growInts(&p.idx, n)
	return p.idx
}

// mapOf returns dim k's index map.
func (p *mapCopy) mapOf(k int) []int { return p.idx[p.start[k]:p.start[k+1]] }

// copy runs the plan for elements of size esz; fill holds the fill value's
// bits in its low esz bytes.
func (p *mapCopy) copy(dst, src []byte, esz int, fill uint64) {
	for _, d := range p.dims {
		if d == 0 {
			return
		}
	}
	switch esz {
	case 1:
		mapWords(p, wordsOf[uint8](dst), wordsOf[uint8](src), uint8(fill))
	case 2:
		mapWords(p, wordsOf[uint16](dst), wordsOf[uint16](src), uint16(fill))
	case 4:
		mapWords(p, wordsOf[uint32](dst), wordsOf[uint32](src), uint32(fill))
	case 8:
		mapWords(p, wordsOf[uint64](dst), wordsOf[uint64](src), fill)
	}
}

func mapWords[W word](p *mapCopy, dst, src []W, fill W) {
	r := len(p.dims)
	if r == 0 {
		dst[0] = src[0]
		return
	}
	inner := p.mapOf(r - 1)
	ist := p.st[r-1]
	ctr := p.ctr[:r-1]
	for k := range ctr {
		ctr[k] = 0
	}
	o := 0
	n := len(inner)
	for {
		base, ok := 0, true
		for k, c := range ctr {
			m := p.idx[p.start[k]+c]
			if m < 0 {
				ok = false
				break
			}
			base += m * p.st[k]
		}
		d := dst[o : o+n]
		if !ok {
			for i := range d {
				d[i] = fill
			}
		} else {
			for i, m := range inner {
				if m < 0 {
					d[i] = fill
				} else {
					d[i] = src[base+m*ist]
				}
			}
		}
		o += n
		k := r - 2
		for ; k >= 0; k-- {
			ctr[k]++
			if ctr[k] < p.dims[k] {
				break
			}
			ctr[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// fillBytes fills dst with the esz-byte value whose bits are v.
func fillBytes(dst []byte, esz int, v uint64) {
	switch esz {
	case 1:
		fillWords(wordsOf[uint8](dst), uint8(v))
	case 2:
		fillWords(wordsOf[uint16](dst), uint16(v))
	case 4:
		fillWords(wordsOf[uint32](dst), uint32(v))
	case 8:
		fillWords(wordsOf[uint64](dst), v)
	}
}

func fillWords[W word](d []W, v W) {
	for i := range d {
		d[i] = v
	}
}

// scalarBits returns the bits of t's first element (its low Size bytes),
// or 0 when t is nil or empty.
func scalarBits(t *tensor) uint64 {
	if t == nil {
		return 0
	}
	sz := t.dt.Size()
	if len(t.data) < sz {
		return 0
	}
	var v uint64
	for i := sz - 1; i >= 0; i-- {
		v = v<<8 | uint64(t.data[i])
	}
	return v
}

// constBits returns the bits of a constant tensor's first element.
func constBits(t *model.Tensor) uint64 {
	sz := t.DType.Size()
	if sz > 8 || len(t.Raw) < sz {
		return 0
	}
	var v uint64
	for i := sz - 1; i >= 0; i-- {
		v = v<<8 | uint64(t.Raw[i])
	}
	return v
}

// floatBits converts f to element type dt and returns its bits; ok is false
// for types without a numeric conversion.
func floatBits(dt payload.DType, f float64) (uint64, bool) {
	switch dt {
	case payload.Float32:
		return uint64(math.Float32bits(float32(f))), true
	case payload.Float64:
		return math.Float64bits(f), true
	case payload.Float16:
		return uint64(float16.Fromfloat32(float32(f)).Bits()), true
	case payload.BF16:
		return uint64(payload.BFloat16From(float32(f))), true
	case payload.Int8, payload.Int16, payload.Int32, payload.Int64:
		return uint64(int64(f)), true
	case payload.Uint8, payload.Uint16, payload.Uint32, payload.Uint64:
		return uint64(f), true
	case payload.Bool:
		if f != 0 {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}
