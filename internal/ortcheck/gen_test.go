//go:build ort

package ortcheck

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

var (
	seedOnce sync.Once
	seedVal  uint64
)

// runSeed is the run's seed: $LINTEL_SEED, or the clock. It is logged once
// so a failing run can be replayed.
func runSeed(t *testing.T) uint64 {
	seedOnce.Do(func() {
		if s := os.Getenv("LINTEL_SEED"); s != "" {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatalf("LINTEL_SEED=%q: %v", s, err)
			}
			seedVal = v
			return
		}
		seedVal = uint64(time.Now().UnixNano())
	})
	return seedVal
}

// caseRand returns the random source for one case: the run's seed mixed
// with the case's name, so a case replays alone with -run and LINTEL_SEED.
func caseRand(t *testing.T, name string) *rand.Rand {
	seed := runSeed(t)
	t.Logf("seed %d (replay with LINTEL_SEED=%d)", seed, seed)
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// fill returns n random elements of dt as bytes. Floats are uniform in
// [lo, hi], or in ±[lo, hi] when signed is set; integers are uniform in
// [lo, hi]; bools are fair coin flips.
func fill(r *rand.Rand, dt payload.DType, n int, lo, hi float64, signed bool) []byte {
	f := func() float64 {
		v := lo + (hi-lo)*r.Float64()
		if signed && r.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	k := func() int64 {
		a, b := int64(math.Ceil(lo)), int64(math.Floor(hi))
		if b < a {
			return a
		}
		return a + r.Int64N(b-a+1)
	}
	switch dt {
	case payload.Float32:
		return gen(n, func() float32 { return float32(f()) })
	case payload.Float64:
		return gen(n, f)
	case payload.Float16:
		return gen(n, func() float16.Float16 { return float16.Fromfloat32(float32(f())) })
	case payload.BF16:
		return gen(n, func() payload.BFloat16 { return payload.BFloat16From(float32(f())) })
	case payload.Int8:
		return gen(n, func() int8 { return int8(k()) })
	case payload.Uint8:
		return gen(n, func() uint8 { return uint8(k()) })
	case payload.Int16:
		return gen(n, func() int16 { return int16(k()) })
	case payload.Uint16:
		return gen(n, func() uint16 { return uint16(k()) })
	case payload.Int32:
		return gen(n, func() int32 { return int32(k()) })
	case payload.Uint32:
		return gen(n, func() uint32 { return uint32(k()) })
	case payload.Int64:
		return gen(n, k)
	case payload.Uint64:
		return gen(n, func() uint64 { return uint64(k()) })
	case payload.Bool:
		return gen(n, func() bool { return r.IntN(2) == 1 })
	}
	return nil
}

func gen[E payload.Elem](n int, f func() E) []byte {
	s := make([]E, n)
	for i := range s {
		s[i] = f()
	}
	return payload.AsBytes(s)
}

// bytesOf returns a typed slice's bytes in a fresh, aligned buffer.
func bytesOf[E payload.Elem](s []E) []byte {
	c := make([]E, len(s))
	copy(c, s)
	return payload.AsBytes(c)
}
