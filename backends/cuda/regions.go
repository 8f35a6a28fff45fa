package cuda

import (
	"sort"
	"sync"

	"github.com/lintel-ml/lintel/memclass"
)

// region is one allocation NewTensor made: size bytes at addr, a device
// address for memclass.Device, a pinned host address for memclass.Pinned.
type region struct {
	addr, size uintptr
	class      memclass.Class
}

// regionSet records the allocations NewTensor made, so that a model binds
// a device or pinned payload only when its bytes lie inside one of them,
// and Free releases only what NewTensor allocated. Lookups take a read
// lock and allocate nothing.
type regionSet struct {
	mu sync.RWMutex
	rs []region // sorted by addr, disjoint
}

// add records r.
func (s *regionSet) add(r region) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.rs), func(i int) bool { return s.rs[i].addr >= r.addr })
	s.rs = append(s.rs, region{})
	copy(s.rs[i+1:], s.rs[i:])
	s.rs[i] = r
}

// remove forgets the allocation that starts at addr and returns it.
func (s *regionSet) remove(addr uintptr) (region, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.rs), func(i int) bool { return s.rs[i].addr >= addr })
	if i == len(s.rs) || s.rs[i].addr != addr {
		return region{}, false
	}
	r := s.rs[i]
	s.rs = append(s.rs[:i], s.rs[i+1:]...)
	return r, true
}

// find returns the allocation holding the n bytes at addr (n > 0).
func (s *regionSet) find(addr, n uintptr) (region, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	// The last region starting at or before addr.
	lo, hi := 0, len(s.rs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.rs[mid].addr <= addr {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return region{}, false
	}
	r := s.rs[lo-1]
	if addr-r.addr > r.size || n > r.size-(addr-r.addr) {
		return region{}, false
	}
	return r, true
}
