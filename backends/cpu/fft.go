package cpu

import (
	"math"
	"math/bits"
)

// fftPlan computes discrete Fourier transforms of one length n in
// float64, in place: a radix-2 FFT when n is a power of two, a direct
// O(n²) sum over an exact twiddle table for other lengths up to
// fftDirectMax, and Bluestein's algorithm (a chirp convolution done by
// power-of-two FFTs of at least 2n−1 points) beyond. Its tables are
// computed once by newFFTPlan; transforms allocate nothing.
type fftPlan struct {
	n int
	// tw holds exp(−2πi·k/n): n/2 entries for radix 2, n for the
	// direct sum.
	tw []complex128
	// rev is the radix-2 bit-reversal permutation.
	rev []int32
	// tmp is the direct sum's output.
	tmp []complex128
	// Bluestein: chirp[k] = exp(−πi·k²/n), kern the FFT of the
	// conjugate chirp laid out for a circular convolution of sub.n
	// points, work that convolution's buffer.
	chirp, kern, work []complex128
	sub               *fftPlan
}

// fftDirectMax is the longest length that isn't a power of two the
// direct sum transforms; Bluestein's algorithm takes longer ones.
const fftDirectMax = 64

// newFFTPlan returns the plan for length n ≥ 1.
func newFFTPlan(n int) *fftPlan {
	p := &fftPlan{n: n}
	switch {
	case n&(n-1) == 0:
		p.tw = make([]complex128, n/2)
		for k := range p.tw {
			p.tw[k] = twiddle(k, n)
		}
		p.rev = make([]int32, n)
		if n > 1 {
			shift := 64 - bits.TrailingZeros(uint(n))
			for i := range p.rev {
				p.rev[i] = int32(bits.Reverse64(uint64(i)) >> shift)
			}
		}
	case n <= fftDirectMax:
		p.tw = make([]complex128, n)
		for k := range p.tw {
			p.tw[k] = twiddle(k, n)
		}
		p.tmp = make([]complex128, n)
	default:
		m := 1 << bits.Len(uint(2*n-2))
		p.sub = newFFTPlan(m)
		p.chirp = make([]complex128, n)
		for k := range p.chirp {
			// k² mod 2n keeps the angle small, so it stays exact.
			q := (uint64(k) * uint64(k)) % uint64(2*n)
			s, c := math.Sincos(-math.Pi * float64(q) / float64(n))
			p.chirp[k] = complex(c, s)
		}
		p.kern = make([]complex128, m)
		p.kern[0] = conj(p.chirp[0])
		for k := 1; k < n; k++ {
			p.kern[k] = conj(p.chirp[k])
			p.kern[m-k] = conj(p.chirp[k])
		}
		p.sub.forward(p.kern)
		p.work = make([]complex128, m)
	}
	return p
}

// twiddle returns exp(−2πi·k/n), folding k into the first eighth of the
// circle so that every entry is as accurate as sin and cos make it.
func twiddle(k, n int) complex128 {
	// Work in eighths: angle = 2π·k/n = (π/4)·(8k/n).
	k8 := 8 * uint64(k)
	oct := k8 / uint64(n)
	rem := float64(k8%uint64(n)) / float64(n) // in [0, 1)
	var s, c float64
	switch oct {
	case 0, 2, 4, 6:
		s, c = math.Sincos(math.Pi / 4 * rem)
	default:
		s, c = math.Sincos(math.Pi / 4 * (1 - rem))
		s, c = c, s
	}
	// (c, s) is the cosine and sine of the angle reduced to the first
	// octant; rotate it back by oct quarter and eighth turns.
	var cr, sr float64
	switch oct {
	case 0, 1:
		cr, sr = c, s
	case 2, 3:
		cr, sr = -s, c
	case 4, 5:
		cr, sr = -c, -s
	default:
		cr, sr = s, -c
	}
	return complex(cr, -sr)
}

func conj(z complex128) complex128 { return complex(real(z), -imag(z)) }

// forward replaces x (n values) with its transform Σ_j x[j]·exp(−2πi·jk/n).
func (p *fftPlan) forward(x []complex128) {
	x = x[:p.n]
	switch {
	case p.rev != nil:
		p.radix2(x)
	case p.sub == nil:
		p.direct(x)
	default:
		p.bluestein(x)
	}
}

// inverse replaces x with Σ_j x[j]·exp(+2πi·jk/n), unscaled: the
// conjugate of the forward transform of the conjugate.
func (p *fftPlan) inverse(x []complex128) {
	x = x[:p.n]
	for i, v := range x {
		x[i] = conj(v)
	}
	p.forward(x)
	for i, v := range x {
		x[i] = conj(v)
	}
}

func (p *fftPlan) radix2(x []complex128) {
	n := p.n
	for i, j := range p.rev {
		if int(j) > i {
			x[i], x[j] = x[j], x[i]
		}
	}
	for size := 2; size <= n; size <<= 1 {
		half, step := size>>1, n/size
		for start := 0; start < n; start += size {
			for k := range half {
				w := p.tw[k*step]
				a, b := x[start+k], x[start+k+half]*w
				x[start+k], x[start+k+half] = a+b, a-b
			}
		}
	}
}

func (p *fftPlan) direct(x []complex128) {
	n := p.n
	for k := range n {
		var s complex128
		q := 0 // j·k mod n
		for j := range n {
			s += x[j] * p.tw[q]
			if q += k; q >= n {
				q -= n
			}
		}
		p.tmp[k] = s
	}
	copy(x, p.tmp)
}

// bluestein computes the transform as the identity jk = (j² + k² −
// (k−j)²)/2 rewrites it, X[k] = c[k]·Σ_j (x[j]·c[j])·conj(c[k−j]) with c
// the chirp: a circular convolution of x·c with the conjugate chirp,
// done by the sub plan's FFTs.
func (p *fftPlan) bluestein(x []complex128) {
	n, w := p.n, p.work
	for j := range n {
		w[j] = x[j] * p.chirp[j]
	}
	clear(w[n:])
	p.sub.forward(w)
	for i, v := range p.kern {
		w[i] *= v
	}
	p.sub.inverse(w)
	scale := 1 / float64(len(w))
	for k := range n {
		x[k] = w[k] * p.chirp[k] * complex(scale, 0)
	}
}
