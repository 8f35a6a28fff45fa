package payload

import (
	"math"
	"testing"

	"github.com/x448/float16"
)

func TestDTypeOf(t *testing.T) {
	cases := []struct {
		got, want DType
		size      int
	}{
		{DTypeOf[float32](), Float32, 4},
		{DTypeOf[float64](), Float64, 8},
		{DTypeOf[float16.Float16](), Float16, 2},
		{DTypeOf[BFloat16](), BF16, 2},
		{DTypeOf[int8](), Int8, 1},
		{DTypeOf[uint8](), Uint8, 1},
		{DTypeOf[int16](), Int16, 2},
		{DTypeOf[uint16](), Uint16, 2},
		{DTypeOf[int32](), Int32, 4},
		{DTypeOf[int64](), Int64, 8},
		{DTypeOf[uint32](), Uint32, 4},
		{DTypeOf[uint64](), Uint64, 8},
		{DTypeOf[bool](), Bool, 1},
	}
	for _, c := range cases {
		if c.got != c.want || c.got.Size() != c.size {
			t.Errorf("%v: want %v size %d, got size %d", c.got, c.want, c.size, c.got.Size())
		}
	}
	if String.Valid() || Undefined.Valid() || DType(99).String() != "dtype(99)" {
		t.Error("invalid types reported valid")
	}
}

func TestNumElems(t *testing.T) {
	cases := []struct {
		shape []int
		want  int
	}{
		{nil, 1}, {[]int{0, 5}, 0}, {[]int{2, 3, 4}, 24}, {[]int{-1, 2}, -1},
		{[]int{1 << 40, 1 << 40}, -1}, {[]int{0, 1 << 62, 1 << 62}, 0},
	}
	for _, c := range cases {
		if got := NumElems(c.shape); got != c.want {
			t.Errorf("NumElems(%v) = %d, want %d", c.shape, got, c.want)
		}
	}
}

func TestBFloat16(t *testing.T) {
	for _, f := range []float32{0, 1, -2.5, 3.140625, 1e30, -1e-30} {
		if got := BFloat16From(f).Float32(); math.Abs(float64(got-f)) > math.Abs(float64(f))/128 {
			t.Errorf("BFloat16From(%v).Float32() = %v, want within %v of it", f, got, math.Abs(float64(f))/128)
		}
	}
	if !math.IsNaN(float64(BFloat16From(float32(math.NaN())).Float32())) {
		t.Errorf("BFloat16From(NaN).Float32() = %v, want NaN", BFloat16From(float32(math.NaN())).Float32())
	}
	if BFloat16From(1.00390625) != BFloat16From(1) { // ties to even
		t.Errorf("BFloat16From(1.00390625) = %#x, want %#x (BFloat16From(1): ties round to even)", BFloat16From(1.00390625), BFloat16From(1))
	}
}

func TestDynamicRoundTrip(t *testing.T) {
	src := Tensor[int64]{Shape: []int{2, 2}, Data: []int64{1, 2, 3, 4}}
	d := DynamicOf("ids", src)
	back, err := Typed[int64](d)
	if err != nil {
		t.Fatalf("Typed: %v", err)
	}
	if &back.Data[0] != &src.Data[0] {
		t.Error("Typed: got a copy of the data, want a view of it")
	}
	if _, err := Typed[float32](d); err == nil {
		t.Error("Typed[float32] of an int64 tensor: got no error, want one")
	}
	d.Shape = []int{3}
	if _, err := Typed[int64](d); err == nil {
		t.Errorf("Typed[int64] with shape %v for 4 elements: got no error, want one", d.Shape)
	}
	m := Multi{Tensors: []Dynamic{d}}
	if m.Get("ids") == nil || m.Get("x") != nil {
		t.Errorf("Get(ids) = %v, Get(x) = %v; want the tensor and nil", m.Get("ids"), m.Get("x"))
	}
}

func TestFromBytesAlignment(t *testing.T) {
	b := AsBytes(make([]uint64, 3))[:17]
	if _, ok := FromBytes[float32](b[1:]); ok {
		t.Error("FromBytes of a misaligned slice: got ok, want !ok")
	}
	if v, ok := FromBytes[float32](b[:16]); !ok || len(v) != 4 {
		t.Errorf("FromBytes of 16 aligned bytes: got %d elements, ok %v; want 4, true", len(v), ok)
	}
}
