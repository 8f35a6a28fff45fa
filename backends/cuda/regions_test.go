package cuda

import (
	"testing"

	"github.com/lintel-ml/lintel/memclass"
)

func TestRegionSet(t *testing.T) {
	var s regionSet
	s.add(region{addr: 0x3000, size: 0x100, class: memclass.Device(0)})
	s.add(region{addr: 0x1000, size: 0x800, class: memclass.Pinned})
	s.add(region{addr: 0x2000, size: 0x10, class: memclass.Device(0)})
	cases := []struct {
		addr, n uintptr
		ok      bool
		class   memclass.Class
	}{
		{0x1000, 0x800, true, memclass.Pinned},
		{0x1400, 0x400, true, memclass.Pinned},
		{0x1400, 0x401, false, memclass.Host},
		{0x0fff, 1, false, memclass.Host},
		{0x2000, 0x10, true, memclass.Device(0)},
		{0x2010, 1, false, memclass.Host},
		{0x30ff, 1, true, memclass.Device(0)},
		{0x3100, 1, false, memclass.Host},
		{0x9000, 1, false, memclass.Host},
		{^uintptr(0), 2, false, memclass.Host},
	}
	for _, c := range cases {
		r, ok := s.find(c.addr, c.n)
		if ok != c.ok || (ok && r.class != c.class) {
			t.Errorf("find(%#x, %#x) = %v, %v; want %v", c.addr, c.n, r, ok, c.ok)
		}
	}
	if _, ok := s.remove(0x1400); ok {
		t.Error("removed a region by an inner address")
	}
	if r, ok := s.remove(0x2000); !ok || r.size != 0x10 {
		t.Errorf("remove: %v, %v", r, ok)
	}
	if _, ok := s.find(0x2000, 1); ok {
		t.Error("found a removed region")
	}
	if _, ok := s.remove(0x2000); ok {
		t.Error("removed a region twice")
	}
	if n := testing.AllocsPerRun(100, func() { s.find(0x3010, 4) }); n != 0 {
		t.Errorf("find allocates %v", n)
	}
}
