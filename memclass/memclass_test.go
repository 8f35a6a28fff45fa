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
			t.Errorf("%v in %v: %v", c.c, s, got)
		}
	}
	if !AnyDevice().Contains(Device(MaxDevices-1)) || AnyDevice().Contains(Host) {
		t.Error("AnyDevice")
	}
	if !HostAccessible.Contains(Pinned) || HostAccessible.Contains(Device(0)) {
		t.Error("HostAccessible")
	}
	if !s.Intersect(HostOnly).Contains(Host) || !SetOf().Empty() {
		t.Error("Intersect/Empty")
	}
	if Device(1).String() != "device(1)" || Device(-5) != Device(0) || (Class{}) != Host {
		t.Error("Class values")
	}
	if Device(0).HostVisible() || !Pinned.HostVisible() || Device(4).DeviceOrdinal() != 4 || Host.DeviceOrdinal() != -1 {
		t.Error("Class queries")
	}
}
