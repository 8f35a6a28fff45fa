package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// qlinParams are the parameters of one QLinearAdd or QLinearMul kernel
// case: ratios (Add) or ratio (Mul), zero points and the fixed part.
type qlinParams struct {
	name       string
	ra, rb, f  float32
	za, zb, zc int32
}

// qlinCases returns parameter sets from ordinary to saturating ones,
// with an infinite ratio (a zero C_scale) among them.
func qlinCases(signed bool) []qlinParams {
	lo, hi := int32(0), int32(255)
	if signed {
		lo, hi = -128, 127
	}
	r := rand.New(rand.NewPCG(7, 11))
	cs := []qlinParams{
		{name: "ordinary", ra: 0.6, rb: 0.4, f: 12.5, za: lo + 100, zb: lo + 90, zc: lo + 128},
		{name: "saturating", ra: 37.3, rb: -21.1, f: -3, za: lo, zb: hi, zc: hi},
		{name: "halves", ra: 0.5, rb: 0.5, f: 0.5, za: lo + 1, zb: lo, zc: lo},
		{name: "infinite", ra: float32(math.Inf(1)), rb: 0.25, f: 3, za: lo, zb: lo + 3, zc: lo + 7},
		{name: "huge", ra: 3e9, rb: -3e9, f: 0, za: 0, zb: 0, zc: 0},
	}
	for i := range 8 {
		cs = append(cs, qlinParams{
			name: "random", ra: float32(r.ExpFloat64()), rb: float32(r.ExpFloat64()) * float32(i%3-1),
			f:  float32(r.NormFloat64() * 100),
			za: lo + r.Int32N(256), zb: lo + r.Int32N(256), zc: lo + r.Int32N(256),
		})
	}
	return cs
}

// TestQLinBinRowsMatchScalar compares the QLinearAdd and QLinearMul row
// kernels with the scalar functions byte for byte, on random bytes with
// the extremes, for lengths around the kernels' step of 32, checking the
// bytes just past the output stay untouched.
func TestQLinBinRowsMatchScalar(t *testing.T) {
	if !hasQLinBin {
		t.Skip("no QLinearAdd/QLinearMul kernels in this build (the scalar functions are the only path)")
	}
	const guard = 16
	r := rand.New(rand.NewPCG(1, 2))
	for _, signed := range []bool{false, true} {
		q := qRounder{lo: 0, hi: math.MaxUint8}
		at := func(b byte) int32 { return int32(b) }
		if signed {
			q = qRounder{lo: math.MinInt8, hi: math.MaxInt8}
			at = func(b byte) int32 { return int32(int8(b)) }
		}
		for _, p := range qlinCases(signed) {
			for _, n := range []int{32, 33, 64, 95, 96, 200, 1000} {
				xa, xb := make([]byte, n), make([]byte, n)
				for i := range xa {
					xa[i], xb[i] = byte(r.Uint32()), byte(r.Uint32())
				}
				xa[0], xb[0], xa[1], xb[1], xa[2], xb[2] = 0, 255, 255, 0, 127, 128
				c := at(xb[5]) - p.zb
				kernels := []struct {
					name string
					run  func(y []byte) int
					want func(i int) byte
				}{
					{"add2", func(y []byte) int { return qAdd2Rows(y, xa, xb, p.ra, p.rb, p.f, signed) },
						func(i int) byte {
							return qaddBoth(float64(at(xa[i]))*float64(p.ra), float64(at(xb[i]))*float64(p.rb), float64(p.f), q)
						}},
					{"add1", func(y []byte) int { return qAdd1Rows(y, xa, p.ra, p.f, signed) },
						func(i int) byte { return q.round(float32(float64(at(xa[i]))*float64(p.ra) + float64(p.f))) }},
					{"mul2", func(y []byte) int { return qMul2Rows(y, xa, xb, p.za, p.zb, p.ra, float32(p.zc), signed) },
						func(i int) byte {
							return qmulOne(float64((at(xa[i])-p.za)*(at(xb[i])-p.zb)), p.ra, float32(p.zc), q)
						}},
					{"mul1", func(y []byte) int { return qMul1Rows(y, xa, p.za, c, p.ra, float32(p.zc), signed) },
						func(i int) byte { return qmulOne(float64((at(xa[i])-p.za)*c), p.ra, float32(p.zc), q) }},
				}
				for _, k := range kernels {
					buf := make([]byte, n+guard)
					for i := range buf {
						buf[i] = 0xa5
					}
					done := k.run(buf[:n])
					if want := n &^ 31; done != want {
						t.Fatalf("%s %s signed=%v n=%d: did %d, want %d", k.name, p.name, signed, n, done, want)
					}
					for i := range done {
						if got, want := buf[i], k.want(i); got != want {
							t.Fatalf("%s %s signed=%v n=%d: y[%d] = %d for %d, %d, want %d",
								k.name, p.name, signed, n, i, at(got), at(xa[i]), at(xb[i]), at(want))
						}
					}
					for i := done; i < len(buf); i++ {
						if buf[i] != 0xa5 {
							t.Fatalf("%s %s signed=%v n=%d: byte %d past the kernel's part changed to %#x", k.name, p.name, signed, n, i, buf[i])
						}
					}
				}
			}
		}
	}
}

// TestAddRound32 checks addRound32 against the exact sum rounded once
// (math/big) on products of a byte and a float32 ratio with float32
// addends, among them addends over 2²¹ times the product and sums on
// float32 ties, where rounding the float64 sum again goes wrong.
func TestAddRound32(t *testing.T) {
	r := nnRng(12)
	check := func(p, c float64) {
		t.Helper()
		exact := new(big.Float).SetPrec(200).SetFloat64(p)
		exact.Add(exact, new(big.Float).SetPrec(200).SetFloat64(c))
		want, _ := exact.Float32()
		if got := addRound32(p, c); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("addRound32(%v, %v) = %v, want %v", p, c, got, want)
		}
	}
	// Exact sums just past a float32 tie whose float64 sum is the tie:
	// rounding that again goes to even, the wrong way.
	check(0x1p-24+0x1p-60, 1)
	check(-(0x1p-24 + 0x1p-60), -1)
	check(0x1p-24-0x1p-60, 1)
	check(0x1p-25+0x1p-61, 1+0x1p-23)
	for range 200000 {
		p := float64(r.IntN(256)) * float64(float32(r.Float64()*math.Ldexp(1, r.IntN(40)-20)))
		c := float64(float32((r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(40)-10)))
		if r.IntN(2) == 0 {
			// Half a float32 ulp of c, give or take a sliver.
			m := float32(c)
			u := float64(math.Nextafter32(m, float32(math.Inf(1))) - m)
			p = u/2 + u*math.Ldexp(r.Float64()-0.5, -(28+r.IntN(12)))
		}
		check(p, c)
		check(-p, c)
	}
}
