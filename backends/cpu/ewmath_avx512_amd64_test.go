//go:build amd64 && !purego

package cpu

import (
	"fmt"
	"math"
	"testing"
)

// expInputs returns n values for the exp kernels: random over the whole
// range that matters, with NaN, infinities, the clamps' neighbourhoods
// and values whose result is subnormal or overflows, spread so that
// both the fast pairs and the pairs with a lane outside run.
func expInputs(n int, seed uint64) []float32 {
	r := nnRng(seed)
	x := make([]float32, n)
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 86, -86, 86.5, -87.3, 88.7, 89, -103, -150, 1e-30, -1e-30}
	for i := range x {
		x[i] = (r.Float32()*2 - 1) * 20
		if i%97 == 13 {
			x[i] = special[(i/97)%len(special)]
		}
	}
	return x
}

// TestEwExpZ compares the AVX-512 exp with the AVX2 one bit for bit, in
// place and not, with a guard cell past the end.
func TestEwExpZ(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	for _, n := range []int{32, 64, 96, 1024, 4096} {
		x := expInputs(n, uint64(n))
		want := make([]float32, n)
		ewMathAVX(ewmExp, &want[0], &x[0], n)
		got := make([]float32, n+1)
		got[n] = -7
		ewExpZ(&got[0], &x[0], n)
		inPlace := append([]float32(nil), x...)
		ewExpZ(&inPlace[0], &inPlace[0], n)
		for i := range want {
			w := math.Float32bits(want[i])
			if math.Float32bits(got[i]) != w || math.Float32bits(inPlace[i]) != w {
				t.Fatalf("n=%d: exp(%v) = %v (in place %v), want %v", n, x[i], got[i], inPlace[i], want[i])
			}
		}
		if got[n] != -7 {
			t.Fatalf("n=%d: the guard cell was written", n)
		}
	}
}

// TestExpSubZ compares the AVX-512 exp(x - m) with the AVX2 one: the
// values bit for bit, the sums within float32 rounding.
func TestExpSubZ(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	r := nnRng(3)
	for _, n := range []int{16, 32, 48, 160, 1008} {
		x := make([]float32, n)
		m := float32(-1e9)
		for i := range x {
			x[i] = (r.Float32()*2 - 1) * 30
			if i%41 == 7 {
				x[i] = -200 // below the clamp
			}
			m = max(m, x[i])
		}
		want := make([]float32, n)
		ws := expSubAVX(&want[0], &x[0], n, m)
		got := make([]float32, n+1)
		got[n] = -7
		gs := expSubZ(&got[0], &x[0], n, m)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: exp(%v - %v) = %v, want %v", n, x[i], m, got[i], want[i])
			}
		}
		if got[n] != -7 {
			t.Fatalf("n=%d: the guard cell was written", n)
		}
		if math.Abs(float64(gs-ws)) > 1e-6*float64(n)*math.Abs(float64(ws)) {
			t.Fatalf("n=%d: sum %v, want %v", n, gs, ws)
		}
	}
}

// TestSoftmaxRowZ checks the one-call AVX-512 Softmax row against a
// float64 softmax on rows of 16 to 1000 values (whole and masked last
// vectors), in place and not, with guard cells; and that it refuses rows
// with a NaN or an infinite maximum.
func TestSoftmaxRowZ(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	r := nnRng(9)
	for _, n := range []int{16, 17, 31, 32, 33, 64, 100, 197, 1000} {
		for _, inPlace := range []bool{false, true} {
			x := make([]float32, n)
			for i := range x {
				x[i] = (r.Float32()*2 - 1) * 12
			}
			x[n/3] = float32(math.Inf(-1))
			m := math.Inf(-1)
			for _, v := range x {
				m = max(m, float64(v))
			}
			var s float64
			for _, v := range x {
				s += math.Exp(float64(v) - m)
			}
			buf := make([]float32, n+2)
			buf[0], buf[n+1] = -7, -7
			d := buf[1 : n+1]
			src := x
			if inPlace {
				copy(d, x)
				src = d
			}
			if !softmaxRowZ(&d[0], &src[0], n) {
				t.Fatalf("n=%d: refused a finite row", n)
			}
			for i, v := range x {
				want := math.Exp(float64(v)-m) / s
				if math.Abs(float64(d[i])-want) > 1e-6*want+1e-9 {
					t.Fatalf("n=%d in place %t: softmax[%d] = %v, want %v", n, inPlace, i, d[i], want)
				}
			}
			if buf[0] != -7 || buf[n+1] != -7 {
				t.Fatalf("n=%d in place %t: a guard cell was written", n, inPlace)
			}
		}
	}
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1))} {
		for _, n := range []int{16, 21} {
			for _, at := range []int{0, n - 1} {
				x := make([]float32, n)
				x[at] = bad
				d := make([]float32, n)
				if softmaxRowZ(&d[0], &x[0], n) {
					t.Fatalf("n=%d: accepted %v at %d", n, bad, at)
				}
			}
		}
	}
	x := make([]float32, 20)
	for i := range x {
		x[i] = float32(math.Inf(-1))
	}
	if softmaxRowZ(&make([]float32, 20)[0], &x[0], 20) {
		t.Fatal("accepted a row of -Inf")
	}
}

// TestBinConstZ compares the AVX-512 constant operations with the AVX2
// ones bit for bit, on special values too, in place and not, with a
// guard cell past the end.
func TestBinConstZ(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	for code := bcSub; code <= bcMul; code++ {
		for _, c := range []float32{0.37, -3, 0, float32(math.Inf(1))} {
			for _, n := range []int{32, 64, 320} {
				x := expInputs(n, uint64(n+code))
				want := make([]float32, n)
				binConstAVX(code, &want[0], &x[0], n, c)
				got := make([]float32, n+1)
				got[n] = -7
				binConstZ(code, &got[0], &x[0], n, c)
				in := append([]float32(nil), x...)
				binConstZ(code, &in[0], &in[0], n, c)
				for i := range want {
					w := math.Float32bits(want[i])
					if math.Float32bits(got[i]) != w || math.Float32bits(in[i]) != w {
						t.Fatalf("op %d c %v n %d: element %d (x %v) = %v (in place %v), want %v", code, c, n, i, x[i], got[i], in[i], want[i])
					}
				}
				if got[n] != -7 {
					t.Fatalf("op %d n %d: the guard cell was written", code, n)
				}
			}
		}
	}
}

// TestSigmoidZ compares the AVX-512 sigmoid with the AVX2 one bit for
// bit, apart and in place, with a guard cell past the end, on values
// over and past the clamps, NaN and infinities included.
func TestSigmoidZ(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	for _, n := range []int{16, 32, 48, 64, 1024} {
		x := expInputs(n, uint64(n)+7)
		want := append([]float32(nil), x...)
		sigmoidAVX(&want[0], n)
		got := make([]float32, n+1)
		got[n] = -7
		sigmoidZ(&got[0], &x[0], n)
		inPlace := append([]float32(nil), x...)
		sigmoidZ(&inPlace[0], &inPlace[0], n)
		for i := range want {
			w := math.Float32bits(want[i])
			if math.Float32bits(got[i]) != w || math.Float32bits(inPlace[i]) != w {
				t.Fatalf("n=%d: sigmoid(%v) = %v (in place %v), want %v", n, x[i], got[i], inPlace[i], want[i])
			}
		}
		if got[n] != -7 {
			t.Fatalf("n=%d: the guard cell was written", n)
		}
	}
}

// BenchmarkWideSteps times sigmoid, erf and Gelu on a large activation,
// with the kernels this CPU selects and with AVX-512 turned off.
func BenchmarkWideSteps(b *testing.B) {
	n := 64 * 112 * 112
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i%2000)/400 - 2.5
	}
	d := make([]float32, n)
	for _, k := range []struct {
		name string
		f    func()
	}{
		{"sigmoid", func() { sigmoidTo32(d, x) }},
		{"erf", func() { copy(d, x); erf32s(d) }},
		{"gelu", func() { copy(d, x); gelu32s(d) }},
		{"tanh", func() { ewMath32(ewmTanh, d, x) }},
	} {
		for _, wide := range []bool{wide512, false} {
			b.Run(fmt.Sprintf("%s/wide512=%t", k.name, wide), func(b *testing.B) {
				defer func(w bool) { wide512 = w }(wide512)
				wide512 = wide
				b.SetBytes(int64(8 * n))
				for b.Loop() {
					k.f()
				}
			})
		}
	}
}

// TestErfGeluZ compares the AVX-512 erf and Gelu with the AVX2 ones bit
// for bit, with a guard cell past the end, on values over and past the
// clamps, NaN and infinities included.
func TestErfGeluZ(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	for _, k := range []struct {
		name      string
		avx, wide func(d *float32, n int)
	}{{"erf", erfAVX, erfZ}, {"gelu", geluAVX, geluZ}} {
		for _, n := range []int{16, 32, 48, 1024} {
			x := expInputs(n, uint64(n)+11)
			for i := range x {
				x[i] /= 4 // most values inside erf's clamps
			}
			want := append([]float32(nil), x...)
			k.avx(&want[0], n)
			got := append(append([]float32(nil), x...), -7)
			k.wide(&got[0], n)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s n=%d: f(%v) = %v, want %v", k.name, n, x[i], got[i], want[i])
				}
			}
			if got[n] != -7 {
				t.Fatalf("%s n=%d: the guard cell was written", k.name, n)
			}
		}
	}
}

// TestTanhZ compares the AVX-512 tanh with the AVX2 one bit for bit,
// apart and in place, with a guard cell past the end, on values inside
// and past the clamps, NaN and infinities included.
func TestTanhZ(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	for _, n := range []int{16, 32, 48, 1024} {
		x := expInputs(n, uint64(n)+13)
		for i := range x {
			x[i] /= 2
		}
		want := make([]float32, n)
		ewMathAVX(ewmTanh, &want[0], &x[0], n)
		got := make([]float32, n+1)
		got[n] = -7
		tanhZ(&got[0], &x[0], n)
		inPlace := append([]float32(nil), x...)
		tanhZ(&inPlace[0], &inPlace[0], n)
		for i := range want {
			w := math.Float32bits(want[i])
			if math.Float32bits(got[i]) != w || math.Float32bits(inPlace[i]) != w {
				t.Fatalf("n=%d: tanh(%v) = %v (in place %v), want %v", n, x[i], got[i], inPlace[i], want[i])
			}
		}
		if got[n] != -7 {
			t.Fatalf("n=%d: the guard cell was written", n)
		}
	}
}

// TestSoftmaxRowsZ checks that the many-row kernel gives, row by row,
// softmaxRowZ's bits, stops at a row with a NaN or an infinite maximum
// (softmaxRowsWide then takes that row on the float64 path and goes
// on), and writes nothing past its rows.
func TestSoftmaxRowsZ(t *testing.T) {
	if !hasAVX512 {
		t.Skip("the CPU lacks AVX-512")
	}
	r := nnRng(41)
	for _, n := range []int{16, 17, 31, 64, 100} {
		for _, rows := range []int{1, 2, 7} {
			for _, bad := range []int{-1, 0, rows / 2, rows - 1} {
				x := nnRand(r, rows*n)
				for i := range x {
					x[i] *= 8
				}
				if bad >= 0 {
					x[bad*n+n/3] = float32(math.NaN())
				}
				want := make([]float32, rows*n)
				for i := range rows {
					if !softmaxRowZ(&want[i*n], &x[i*n], n) {
						softmaxRow(want[i*n:(i+1)*n], x[i*n:(i+1)*n], false)
					}
				}
				got := make([]float32, rows*n+3)
				got[rows*n], got[rows*n+1], got[rows*n+2] = -7, -7, -7
				done := softmaxRowsZ(&got[0], &x[0], n, rows)
				if wantDone := map[bool]int{true: bad, false: rows}[bad >= 0]; done != wantDone {
					t.Fatalf("n=%d rows=%d bad row %d: finished %d rows, want %d", n, rows, bad, done, wantDone)
				}
				clear(got[:rows*n])
				defer func(w bool) { wide512 = w }(wide512)
				wide512 = true
				if !softmaxRowsWide(got[:rows*n], x, n, rows) {
					t.Fatal("softmaxRowsWide did not run")
				}
				for i, w := range want {
					if math.Float32bits(got[i]) != math.Float32bits(w) && !(w != w && got[i] != got[i]) {
						t.Fatalf("n=%d rows=%d bad row %d: element %d is %v, want %v", n, rows, bad, i, got[i], w)
					}
				}
				if got[rows*n] != -7 || got[rows*n+2] != -7 {
					t.Fatalf("n=%d rows=%d: a guard cell was written", n, rows)
				}
			}
		}
	}
}
