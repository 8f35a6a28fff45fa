// Package memclass names where a payload's bytes live and which placements a
// consumer accepts.
//
// Rules:
//   - A Class is a small comparable value: compare classes with ==.
//   - Host is the zero Class, so a payload that says nothing is on the host.
//   - A Set is a value too; its methods never allocate.
package memclass

import "strconv"

// Kind is the family of a memory class.
type Kind uint8

// The kinds of memory.
const (
	KindHost   Kind = iota // ordinary pageable host memory
	KindPinned             // page-locked host memory a device can reach by DMA
	KindDevice             // memory on an accelerator, see Class.Device
	KindShared             // unified memory shared by host and device
)

// Class is where a buffer lives.
type Class struct {
	kind   Kind
	device uint8
}

// The host classes. Device memory is named with Device(n).
var (
	Host   = Class{kind: KindHost}
	Pinned = Class{kind: KindPinned}
	Shared = Class{kind: KindShared}
)

// MaxDevices is the number of device ordinals a Class can name.
const MaxDevices = 61

// Device returns the class of memory on device n. n outside
// [0, MaxDevices) is clamped into it.
func Device(n int) Class {
	if n < 0 {
		n = 0
	}
	if n >= MaxDevices {
		n = MaxDevices - 1
	}
	return Class{kind: KindDevice, device: uint8(n)}
}

// Kind returns the class's kind.
func (c Class) Kind() Kind { return c.kind }

// DeviceOrdinal returns the device ordinal of a Device class, or -1.
func (c Class) DeviceOrdinal() int {
	if c.kind != KindDevice {
		return -1
	}
	return int(c.device)
}

// HostVisible reports whether the host can read and write the memory
// directly.
func (c Class) HostVisible() bool { return c.kind != KindDevice }

// String returns "host", "pinned", "shared" or "device(n)".
func (c Class) String() string {
	switch c.kind {
	case KindHost:
		return "host"
	case KindPinned:
		return "pinned"
	case KindShared:
		return "shared"
	case KindDevice:
		return "device(" + strconv.Itoa(int(c.device)) + ")"
	}
	return "unknown"
}

func (c Class) bit() uint64 {
	switch c.kind {
	case KindHost:
		return 1
	case KindPinned:
		return 2
	case KindShared:
		return 4
	default:
		return 8 << c.device
	}
}

// Set is a set of classes: the placements a consumer accepts.
type Set struct{ bits uint64 }

// SetOf returns the set holding the given classes.
func SetOf(classes ...Class) Set {
	var s Set
	for _, c := range classes {
		s.bits |= c.bit()
	}
	return s
}

// HostOnly is the set accepting host memory alone.
var HostOnly = SetOf(Host)

// HostAccessible is the set of every class the host can read directly.
var HostAccessible = SetOf(Host, Pinned, Shared)

// AnyDevice returns the set of every device class.
func AnyDevice() Set { return Set{bits: ^uint64(7)} }

// Contains reports whether c is in s.
func (s Set) Contains(c Class) bool { return s.bits&c.bit() != 0 }

// Union returns the classes in s or t.
func (s Set) Union(t Set) Set { return Set{bits: s.bits | t.bits} }

// Intersect returns the classes in both s and t.
func (s Set) Intersect(t Set) Set { return Set{bits: s.bits & t.bits} }

// Empty reports whether s holds no class.
func (s Set) Empty() bool { return s.bits == 0 }

// With returns s with c added.
func (s Set) With(c Class) Set { return Set{bits: s.bits | c.bit()} }
