package memclass

import "testing"

func TestSets(t *testing.T) {
	s := SetOf(Host, Device(2))
	cases := []struct {
		c    Class
		want bool
	}{
		{Host, true}, {Pinned, false}, {Shared, false}, {Device(2), true}, {Device(3), false},
	}
	for _, c := range cases {
		if got := s.Contains(c.c); got != c.want {
			t.Errorf("%v.Contains(%v) = %v, want %v", s, c.c, got, c.want)
		}
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"AnyDevice().Contains(Device(MaxDevices-1))", AnyDevice().Contains(Device(MaxDevices - 1)), true},
		{"AnyDevice().Contains(Host)", AnyDevice().Contains(Host), false},
		{"HostAccessible.Contains(Pinned)", HostAccessible.Contains(Pinned), true},
		{"HostAccessible.Contains(Device(0))", HostAccessible.Contains(Device(0)), false},
		{"s.Intersect(HostOnly).Contains(Host)", s.Intersect(HostOnly).Contains(Host), true},
		{"SetOf().Empty()", SetOf().Empty(), true},
		{"Device(1).String()", Device(1).String(), "device(1)"},
		{"Device(-5)", Device(-5), Device(0)},
		{"Class{}", Class{}, Host},
		{"Device(0).HostVisible()", Device(0).HostVisible(), false},
		{"Pinned.HostVisible()", Pinned.HostVisible(), true},
		{"Device(4).DeviceOrdinal()", Device(4).DeviceOrdinal(), 4},
		{"Host.DeviceOrdinal()", Host.DeviceOrdinal(), -1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
