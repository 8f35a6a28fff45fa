package cpu

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// Reference helpers for the matrix, convolution and pooling tests.

func nnRng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

func nnRand(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

func nnProd(s []int) int {
	p := 1
	for _, d := range s {
		p *= d
	}
	return p
}

// nnClose fails t unless got matches want within a mixed tolerance.
func nnClose(t *testing.T, name string, got []float32, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	for i := range got {
		g, w := float64(got[i]), want[i]
		if math.IsNaN(g) != math.IsNaN(w) || math.Abs(g-w) > tol*(1+math.Abs(w)) {
			t.Fatalf("%s: element %d = %v, want %v", name, i, g, w)
		}
	}
}

func nnShape(t *testing.T, name string, got, want []int) {
	t.Helper()
	if !sameShape(got, want) {
		t.Fatalf("%s: shape %v, want %v", name, got, want)
	}
}

// nnWantErr fails t unless err wraps kind.
func nnWantErr(t *testing.T, name string, err, kind error) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("%s: error %v, want %v", name, err, kind)
	}
}

// refWindow computes, the way the ONNX operator docs state it, one spatial
// dim's output size and head/tail pads for a convolution (pool false) or
// a pooling op.
func refWindow(autoPad string, in, k, s, d, padB, padE int, pool, ceil bool) (out, pb, pe int) {
	dk := (k-1)*d + 1
	switch autoPad {
	case "SAME_UPPER", "SAME_LOWER":
		out = int(math.Ceil(float64(in) / float64(s)))
		total := max(0, (out-1)*s+dk-in)
		if autoPad == "SAME_UPPER" {
			pb = total / 2
		} else {
			pb = (total + 1) / 2
		}
		return out, pb, total - pb
	case "VALID":
		padB, padE = 0, 0
	}
	f := float64(in+padB+padE-dk)/float64(s) + 1
	if pool && ceil {
		out = int(math.Ceil(f))
		if (out-1)*s >= in+padB {
			out--
		}
	} else {
		out = int(math.Floor(f))
	}
	return out, padB, padE
}

// lift3 returns v as a 3-vector, unit-padded at the front.
func lift3(v []int, fill int) [3]int {
	r := [3]int{fill, fill, fill}
	copy(r[3-len(v):], v)
	return r
}

// refConv is a direct convolution: x [N,C,spatial…], w [M,C/g,k…].
func refConv(x []float32, xs []int, w []float32, ws []int, b []float32, group int, s, d, pb []int, os []int) []float64 {
	N, C, M := xs[0], xs[1], ws[0]
	cg, mg := C/group, M/group
	I, K, O := lift3(xs[2:], 1), lift3(ws[2:], 1), lift3(os, 1)
	S, D, P := lift3(s, 1), lift3(d, 1), lift3(pb, 0)
	y := make([]float64, N*M*O[0]*O[1]*O[2])
	i := 0
	for n := 0; n < N; n++ {
		for m := 0; m < M; m++ {
			grp := m / mg
			for o0 := 0; o0 < O[0]; o0++ {
				for o1 := 0; o1 < O[1]; o1++ {
					for o2 := 0; o2 < O[2]; o2++ {
						var acc float64
						if b != nil {
							acc = float64(b[m])
						}
						for c := 0; c < cg; c++ {
							ci := grp*cg + c
							for k0 := 0; k0 < K[0]; k0++ {
								for k1 := 0; k1 < K[1]; k1++ {
									for k2 := 0; k2 < K[2]; k2++ {
										p0 := o0*S[0] - P[0] + k0*D[0]
										p1 := o1*S[1] - P[1] + k1*D[1]
										p2 := o2*S[2] - P[2] + k2*D[2]
										if p0 < 0 || p0 >= I[0] || p1 < 0 || p1 >= I[1] || p2 < 0 || p2 >= I[2] {
											continue
										}
										xv := x[(((n*C+ci)*I[0]+p0)*I[1]+p1)*I[2]+p2]
										wv := w[(((m*cg+c)*K[0]+k0)*K[1]+k1)*K[2]+k2]
										acc += float64(xv) * float64(wv)
									}
								}
							}
						}
						y[i] = acc
						i++
					}
				}
			}
		}
	}
	return y
}
