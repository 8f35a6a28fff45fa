//go:build cuda && cgo

package hostsim

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"
)

// guardLen bytes of a known pattern surround every device buffer of a
// test, and are checked after each launch: a kernel writing out of bounds
// changes them.
const guardLen = 64

const guardByte = 0xA5

// dbuf is a simulated device buffer: len(b)-2*guardLen bytes between two
// guards.
type dbuf struct {
	name string
	b    []byte
}

func newBuf(name string, n int) *dbuf {
	b := make([]byte, n+2*guardLen)
	for i := range b {
		b[i] = guardByte
	}
	return &dbuf{name: name, b: b}
}

func (d *dbuf) data() []byte { return d.b[guardLen : len(d.b)-guardLen] }

func (d *dbuf) ptr() uintptr { return uintptr(unsafe.Pointer(&d.b[guardLen])) }

func (d *dbuf) checkGuards(t *testing.T) {
	t.Helper()
	n := len(d.b)
	for i := range guardLen {
		if d.b[i] != guardByte || d.b[n-1-i] != guardByte {
			t.Fatalf("buffer %s: a kernel wrote outside it", d.name)
		}
	}
}

func f32Buf(name string, v []float32) *dbuf {
	d := newBuf(name, 4*len(v))
	copy(d.f32(), v)
	return d
}

func i32Buf(name string, v []int32) *dbuf {
	d := newBuf(name, 4*len(v))
	copy(d.i32(), v)
	return d
}

func i64Buf(name string, v []int64) *dbuf {
	d := newBuf(name, 8*len(v))
	copy(d.i64(), v)
	return d
}

func u8Buf(name string, v []byte) *dbuf {
	d := newBuf(name, len(v))
	copy(d.data(), v)
	return d
}

func (d *dbuf) f32() []float32 {
	b := d.data()
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func (d *dbuf) i32() []int32 {
	b := d.data()
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func (d *dbuf) i64() []int64 {
	b := d.data()
	return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// packParams returns the driver's packed parameter buffer: each buffer's
// address, then the arguments struct.
func packParams(args any, bufs ...*dbuf) []byte {
	var p []byte
	for _, b := range bufs {
		p = binary.LittleEndian.AppendUint64(p, uint64(b.ptr()))
	}
	p, err := binary.Append(p, binary.LittleEndian, args)
	if err != nil {
		panic(err)
	}
	return p
}

// launch runs a kernel over bufs, pinned for the launch, and checks every
// buffer's guards afterwards.
func launch(t *testing.T, name string, grid, block [3]uint32, args any, bufs ...*dbuf) {
	t.Helper()
	var pin runtime.Pinner
	for _, b := range bufs {
		pin.Pin(&b.b[0])
	}
	err := Launch(name, grid, block, 0, packParams(args, bufs...))
	pin.Unpin()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, b := range bufs {
		b.checkGuards(t)
	}
}

// launch1D runs a one-dimensional kernel over n threads in blocks of
// groupSize, as the planner does.
func launch1D(t *testing.T, name string, n int, args any, bufs ...*dbuf) {
	t.Helper()
	g := uint32((n + groupSize - 1) / groupSize)
	launch(t, name, [3]uint32{max(g, 1), 1, 1}, [3]uint32{groupSize, 1, 1}, args, bufs...)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6c696e74656c)) }

// randF32 returns n uniform values in [lo, hi).
func randF32(r *rand.Rand, n int, lo, hi float64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(lo + (hi-lo)*r.Float64())
	}
	return v
}

// ulpDiff is how many float32 ulps got is from want (a float64), at
// want's magnitude; NaN matches NaN, infinities match exactly.
func ulpDiff(got float32, want float64) float64 {
	g := float64(got)
	if math.IsNaN(want) || math.IsNaN(g) {
		if math.IsNaN(want) && math.IsNaN(g) {
			return 0
		}
		return math.Inf(1)
	}
	if math.IsInf(want, 0) || math.IsInf(g, 0) {
		if g == want || float64(float32(want)) == g {
			return 0
		}
		return math.Inf(1)
	}
	w := math.Abs(want)
	var ulp float64
	if w >= math.SmallestNonzeroFloat32*(1<<23) {
		_, e := math.Frexp(w)
		ulp = math.Ldexp(1, e-24)
	} else {
		ulp = math.Ldexp(1, -149)
	}
	return math.Abs(g-want) / ulp
}

// closeTo reports whether got is within rel relative and abs absolute
// error of want.
func closeTo(got float32, want float64, rel, abs float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(float64(got))
	}
	if math.IsInf(want, 0) {
		return float64(got) == want
	}
	return math.Abs(float64(got)-want) <= abs+rel*math.Abs(want)
}
