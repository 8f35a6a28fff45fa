package cpu

import (
	"sort"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// uniqueKernel is Unique: the distinct elements (slices along the axis),
// sorted or in order of first occurrence, with the index of each one's
// first occurrence, each element's index into them and their counts. The
// descriptor's rule (model.UniqueAttrs) leaves the count of distinct
// elements at -1; shape finds them, keeps the grouping, and sets it. NaN
// ranks above every number and equals NaN.
type uniqueKernel struct {
	a model.UniqueAttrs
	// present marks the outputs the node uses.
	present [4]bool
	s       uniqueSorter
	// perm is the slice indices sorted; group maps a slice to its group,
	// first a group to its first slice, count a group to its size, and
	// rank a group to its output position, whose group order holds.
	perm, group, first, count, rank, order []int
	// pre, n and post view the input as [pre, n, post]; u is the
	// number of groups.
	pre, n, post, u int
}

// uniqueSorter sorts slice indices by their slices' contents.
type uniqueSorter interface {
	sort.Interface
	// load points the sorter at x, viewed as [pre, n, post], and the
	// permutation to sort.
	load(x *tensor, pre, n, post int, perm []int)
	// cmp compares slices a and b.
	cmp(a, b int) int
}

type uniqueSort[T ewNum] struct {
	x            []T
	pre, n, post int
	perm         []int
}

func (s *uniqueSort[T]) load(x *tensor, pre, n, post int, perm []int) {
	s.x, s.pre, s.n, s.post, s.perm = elems[T](x), pre, n, post, perm
}

func (s *uniqueSort[T]) cmp(a, b int) int {
	for o := range s.pre {
		ra := s.x[(o*s.n+a)*s.post : (o*s.n+a+1)*s.post]
		rb := s.x[(o*s.n+b)*s.post : (o*s.n+b+1)*s.post]
		for e, va := range ra {
			if c := cmpNum(va, rb[e]); c != 0 {
				return c
			}
		}
	}
	return 0
}

// cmpNum orders numbers with NaN above all others and equal to NaN.
func cmpNum[T ewNum](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	}
	return -1
}

func (s *uniqueSort[T]) Len() int      { return len(s.perm) }
func (s *uniqueSort[T]) Swap(i, j int) { s.perm[i], s.perm[j] = s.perm[j], s.perm[i] }
func (s *uniqueSort[T]) Less(i, j int) bool {
	a, b := s.perm[i], s.perm[j]
	c := s.cmp(a, b)
	return c < 0 || c == 0 && a < b
}

func (k *uniqueKernel) shape(in, out []*tensor) error {
	x := in[0]
	ax := 0
	if k.a.HasAxis {
		ax, _ = wrapAxis(k.a.Axis, len(x.shape))
		k.pre, k.n, k.post = mulDims(x.shape[:ax]), x.shape[ax], mulDims(x.shape[ax+1:])
	} else {
		k.pre, k.n, k.post = 1, x.numel(), 1
	}
	n := k.n
	k.perm = growInts(&k.perm, n)
	k.group = growInts(&k.group, n)
	k.first = growInts(&k.first, n)
	k.count = growInts(&k.count, n)
	k.rank = growInts(&k.rank, n)
	k.order = growInts(&k.order, n)
	for i := range k.perm {
		k.perm[i] = i
	}
	k.s.load(x, k.pre, n, k.post, k.perm)
	sort.Sort(k.s)
	u := 0
	for i, p := range k.perm {
		if i == 0 || k.s.cmp(k.perm[i-1], p) != 0 {
			k.first[u], k.count[u] = p, 0
			u++
		}
		k.group[p] = u - 1
		k.count[u-1]++
	}
	if k.a.Sorted {
		for g := range u {
			k.rank[g], k.order[g] = g, g
		}
	} else {
		r := 0
		for i := range n {
			if g := k.group[i]; k.first[g] == i {
				k.rank[g], k.order[r] = r, g
				r++
			}
		}
	}
	k.u = u
	out[0].shape[ax] = u
	for j := 1; j < len(out); j++ {
		if j != 2 {
			out[j].shape[0] = u
		}
	}
	return nil
}

func (k *uniqueKernel) run(in, out []*tensor) error {
	x := in[0]
	u := k.u
	row := k.post * x.dt.Size()
	y := out[0].data
	for o := range k.pre {
		for p, g := range k.order[:u] {
			d := (o*u + p) * row
			s := (o*k.n + k.first[g]) * row
			copy(y[d:d+row], x.data[s:s+row])
		}
	}
	if k.present[1] {
		idx := out[1].i64()
		for p, g := range k.order[:u] {
			idx[p] = int64(k.first[g])
		}
	}
	if k.present[2] {
		inv := out[2].i64()
		for i, g := range k.group[:k.n] {
			inv[i] = int64(k.rank[g])
		}
	}
	if k.present[3] {
		cnt := out[3].i64()
		for p, g := range k.order[:u] {
			cnt[p] = int64(k.count[g])
		}
	}
	return nil
}

func init() {
	register("Unique", func(c *buildCtx) (kernel, error) {
		k := &uniqueKernel{a: *c.rule.(*model.UniqueAttrs)}
		switch c.inType(0) {
		case payload.Float32:
			k.s = &uniqueSort[float32]{}
		case payload.Float64:
			k.s = &uniqueSort[float64]{}
		case payload.Int32:
			k.s = &uniqueSort[int32]{}
		case payload.Int64:
			k.s = &uniqueSort[int64]{}
		case payload.Int8:
			k.s = &uniqueSort[int8]{}
		case payload.Uint8:
			k.s = &uniqueSort[uint8]{}
		case payload.Int16:
			k.s = &uniqueSort[int16]{}
		case payload.Uint16:
			k.s = &uniqueSort[uint16]{}
		case payload.Uint32:
			k.s = &uniqueSort[uint32]{}
		case payload.Uint64:
			k.s = &uniqueSort[uint64]{}
		default:
			return nil, c.unsupported("element type %s (supported: %v)", c.inType(0), ewOrdered)
		}
		for j := range min(len(c.out), 4) {
			k.present[j] = c.out[j].Name != ""
			if j > 0 && k.present[j] && c.out[j].DType != payload.Int64 {
				return nil, c.invalid("output %d is %s, want int64", j, c.out[j].DType)
			}
		}
		return k, nil
	})
}
