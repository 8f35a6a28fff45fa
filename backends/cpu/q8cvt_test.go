package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestQ8ToF32MatchesGo checks q8ToF32 at each vector width this CPU runs
// (AVX-512, AVX2) against q8ToF32Go on random bytes, both signs, many zero points and
// scales and lengths, with guard cells after the output.
func TestQ8ToF32MatchesGo(t *testing.T) {
	needAsm(t)
	if len(rqLevels()) == 0 {
		t.Skip("no vector code on this CPU: q8ToF32 is q8ToF32Go")
	}
	for _, l := range rqLevels() {
		r := rand.New(rand.NewPCG(41, 1))
		const guard = 7
		for _, signed := range []bool{false, true} {
			for _, z := range []int32{0, 128, -128, 3, 255} {
				for _, s := range []float32{1, 0.0078125, 3.7e-3, -2.5, float32(math.Inf(1))} {
					for _, n := range []int{0, 1, 15, 16, 17, 48, 333} {
						src := make([]byte, n)
						for i := range src {
							src[i] = byte(r.IntN(256))
						}
						got, want := make([]float32, n+guard), make([]float32, n+guard)
						for i := n; i < n+guard; i++ {
							got[i], want[i] = -7, -7
						}
						q8ToF32At(l, got[:n], src, z, s, signed)
						q8ToF32Go(want[:n], src, z, s, signed)
						for i := range got {
							if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
								t.Fatalf("level %d signed=%v z=%d s=%g n=%d: value %d is %g, want %g", l, signed, z, s, n, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestRequantF32MatchesGo checks requantF32Run at each vector width this
// CPU runs (AVX-512, AVX2) against requantF32RunGo and against
// requantRunGo of the same integer sums (below 2²⁴, as QLinearConv's
// float32 twins give them), with guard bytes.
func TestRequantF32MatchesGo(t *testing.T) {
	needAsm(t)
	if len(rqLevels()) == 0 {
		t.Skip("no vector requantization on this CPU: requantF32Run is requantF32RunGo")
	}
	for _, l := range rqLevels() {
		r := rand.New(rand.NewPCG(41, 2))
		const guard = 5
		for _, m := range []float32{0.25, 0.5, 1, 1e-3, 3.7e-5, 123.4, -0.01, 1e30, 0} {
			for _, rg := range [][3]float64{{0, 255, 0}, {0, 255, 128}, {-128, 127, 0}, {-128, 127, -3}} {
				for _, n := range []int{1, 15, 16, 17, 64, 333} {
					acc := make([]int32, n)
					accF := make([]float32, n)
					for i := range acc {
						switch i % 4 {
						case 0:
							acc[i] = int32(r.IntN(1<<25) - 1<<24)
						case 1:
							acc[i] = int32(r.IntN(4000) - 2000)
						case 2:
							acc[i] = int32(2*r.IntN(600) - 600)
						default:
							acc[i] = []int32{1<<24 - 1, -(1<<24 - 1), 0, 1, -1}[r.IntN(5)]
						}
						acc[i] = max(min(acc[i], 1<<24-1), -(1<<24 - 1))
						accF[i] = float32(acc[i])
					}
					got, want, ref := make([]byte, n+guard), make([]byte, n+guard), make([]byte, n+guard)
					for i := n; i < n+guard; i++ {
						got[i], want[i], ref[i] = 0xa5, 0xa5, 0xa5
					}
					requantF32RunAt(l, got[:n], accF, m, rg[2], rg[0], rg[1])
					requantF32RunGo(want[:n], accF, m, rg[2], rg[0], rg[1])
					requantRunGo(ref[:n], acc, m, rg[2], rg[0], rg[1])
					for i := range got {
						if got[i] != want[i] || want[i] != ref[i] {
							t.Fatalf("level %d m=%g range %v n=%d: byte %d (acc %d) is %d, twin %d, int32 path %d", l, m, rg, n, i, acc[min(i, n-1)], got[i], want[i], ref[i])
						}
					}
				}
			}
		}
	}
}

// TestMaxPool2x2BMatchesGo checks maxPool2x2B at each vector width this
// CPU runs (AVX-512, AVX2) against maxPool2x2BGo on random bytes, both
// signs, widths around the 16- and 32-output steps, padded input rows,
// with guard bytes after the output.
func TestMaxPool2x2BMatchesGo(t *testing.T) {
	needAsm(t)
	if len(rqLevels()) == 0 {
		t.Skip("no vector code on this CPU: maxPool2x2B does nothing")
	}
	for _, l := range rqLevels() {
		r := rand.New(rand.NewPCG(41, 3))
		const guard = 9
		for _, signed := range []bool{false, true} {
			for _, ow := range []int{1, 5, 15, 16, 17, 31, 32, 33, 48, 64, 70} {
				for _, extra := range []int{0, 1, 3} {
					for _, rows := range []int{1, 2, 7} {
						iw := 2*ow + extra
						x := make([]byte, 2*rows*iw)
						for i := range x {
							x[i] = byte(r.IntN(256))
						}
						got, want := make([]byte, rows*ow+guard), make([]byte, rows*ow+guard)
						for i := rows * ow; i < len(got); i++ {
							got[i], want[i] = 0x5a, 0x5a
						}
						if !maxPool2x2BAt(l, got[:rows*ow], x, ow, rows, iw, signed) {
							t.Fatalf("ow=%d rows=%d iw=%d: maxPool2x2B reported false", ow, rows, iw)
						}
						maxPool2x2BGo(want, x, ow, rows, iw, signed)
						for i := range got {
							if got[i] != want[i] {
								t.Fatalf("level %d signed=%v ow=%d rows=%d iw=%d: byte %d is %d, want %d", l, signed, ow, rows, iw, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestRequantBiasMatchesGo checks requantBiasRun at each vector width
// this CPU runs against requantBiasRunGo, and against requantRunGo of
// the sums with the bias added, on random and extreme sums and biases,
// with guard bytes.
func TestRequantBiasMatchesGo(t *testing.T) {
	needAsm(t)
	if len(rqLevels()) == 0 {
		t.Skip("no vector requantization on this CPU: requantBiasRun is requantBiasRunGo")
	}
	for _, l := range rqLevels() {
		r := rand.New(rand.NewPCG(41, 4))
		const guard = 5
		for _, m := range []float32{0.5, 1e-3, 3.7e-5, -0.01, 1e30, 0} {
			for _, rg := range [][3]float64{{0, 255, 0}, {0, 255, 128}, {-128, 127, 0}} {
				for _, bias := range []int32{0, 7, -1000, math.MaxInt32, math.MinInt32} {
					for _, n := range []int{1, 16, 17, 64, 333} {
						acc, sum := make([]int32, n), make([]int32, n)
						for i := range acc {
							if i%3 == 0 {
								acc[i] = r.Int32() - r.Int32()
							} else {
								acc[i] = int32(r.IntN(4000) - 2000)
							}
							sum[i] = acc[i] + bias
						}
						got, want, ref := make([]byte, n+guard), make([]byte, n+guard), make([]byte, n+guard)
						requantBiasRunAt(l, got[:n], acc, bias, m, rg[2], rg[0], rg[1])
						requantBiasRunGo(want[:n], acc, bias, m, rg[2], rg[0], rg[1])
						requantRunGo(ref[:n], sum, m, rg[2], rg[0], rg[1])
						for i := range got {
							if got[i] != want[i] || want[i] != ref[i] {
								t.Fatalf("level %d m=%g range %v bias %d n=%d: byte %d is %d, twin %d, summed %d", l, m, rg, bias, n, i, got[i], want[i], ref[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestEvenBytesMatchesGo checks evenBytes against evenBytesGo for many
// lengths, the source cut at its last read byte, with guard bytes.
func TestEvenBytesMatchesGo(t *testing.T) {
	needAsm(t)
	if !hasAVX512BW {
		t.Skip("no AVX-512BW: evenBytes is evenBytesGo")
	}
	r := rand.New(rand.NewPCG(41, 5))
	const guard = 7
	for _, n := range []int{1, 3, 4, 5, 16, 31, 32, 33, 63, 64, 65, 100} {
		src := make([]byte, 2*n-1)
		for i := range src {
			src[i] = byte(r.IntN(256))
		}
		got, want := make([]byte, n+guard), make([]byte, n+guard)
		for i := n; i < n+guard; i++ {
			got[i], want[i] = 0x3c, 0x3c
		}
		evenBytes(got[:n], src)
		evenBytesGo(want[:n], src)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d: byte %d is %d, want %d", n, i, got[i], want[i])
			}
		}
	}
}

// TestRequantColsMatchesGo checks requantCols at each vector width this
// CPU runs against requantColsGo, and against requantRunGo column by
// column, on random sums, biases and multipliers, with guard bytes.
func TestRequantColsMatchesGo(t *testing.T) {
	needAsm(t)
	if len(rqLevels()) == 0 {
		t.Skip("no vector requantization on this CPU: requantCols is requantColsGo")
	}
	for _, l := range rqLevels() {
		r := rand.New(rand.NewPCG(41, 6))
		const guard = 5
		ms := []float32{0.5, 1e-3, 3.7e-5, -0.01, 1e30, 0, 0.25}
		for _, rg := range [][3]float64{{0, 255, 0}, {0, 255, 128}, {-128, 127, 0}} {
			for _, n := range []int{1, 16, 17, 64, 333} {
				acc, bias, mult := make([]int32, n), make([]int32, n), make([]float32, n)
				for j := range acc {
					acc[j] = int32(r.IntN(40000) - 20000)
					if j%7 == 0 {
						acc[j] = r.Int32() - r.Int32()
					}
					bias[j] = int32(r.IntN(2000) - 1000)
					mult[j] = ms[r.IntN(len(ms))]
				}
				got, want := make([]byte, n+guard), make([]byte, n+guard)
				requantColsAt(l, got[:n], acc, bias, mult, rg[2], rg[0], rg[1])
				requantColsGo(want[:n], acc, bias, mult, rg[2], rg[0], rg[1])
				for j := range got {
					ref := byte(0)
					if j < n {
						var one [1]byte
						requantRunGo(one[:], []int32{acc[j] + bias[j]}, mult[j], rg[2], rg[0], rg[1])
						ref = one[0]
					}
					if got[j] != want[j] || want[j] != ref {
						t.Fatalf("level %d range %v n=%d: byte %d is %d, twin %d, per column %d", l, rg, n, j, got[j], want[j], ref)
					}
				}
			}
		}
	}
}
