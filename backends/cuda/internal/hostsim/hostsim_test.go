//go:build cuda && cgo

package hostsim

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

// TestLaunchErrors checks that bad launches are refused with errors that
// name the problem and match the sentinels, without running anything.
func TestLaunchErrors(t *testing.T) {
	x, y := newBuf("x", 16), newBuf("y", 16)
	good := packParams(unaryArgs{N: 4}, x, y)
	one, block := [3]uint32{1, 1, 1}, [3]uint32{4, 1, 1}
	cases := []struct {
		name        string
		kernel      string
		grid, block [3]uint32
		shmem       int
		params      []byte
		kind        error
		msg         string
	}{
		{"unknown kernel", "nope_f32", one, block, 0, good, errs.Unsupported, `no kernel "nope_f32"`},
		{"short params", "unary_f32", one, block, 0, good[:20], errs.InvalidArtifact, "takes 32 bytes of parameters, got 20"},
		{"long params", "unary_f32", one, block, 0, append(good[:32:32], 0), errs.InvalidArtifact, "got 33"},
		{"empty params", "unary_f32", one, block, 0, nil, errs.InvalidArtifact, "empty parameter buffer"},
		{"zero grid", "unary_f32", [3]uint32{0, 1, 1}, block, 0, good, errs.ShapeMismatch, "bad launch geometry"},
		{"zero block", "unary_f32", one, [3]uint32{4, 0, 1}, 0, good, errs.ShapeMismatch, "bad launch geometry"},
		{"block too large", "unary_f32", one, [3]uint32{64, 32, 1}, 0, good, errs.ShapeMismatch, "at most 1024 threads"},
		{"dynamic shared memory", "unary_f32", one, block, 1024, good, errs.Unsupported, "dynamic shared memory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Launch(c.kernel, c.grid, c.block, c.shmem, c.params)
			if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("Launch: %v; want %v naming %q", err, c.kind, c.msg)
			}
		})
	}
}

// TestKernels checks the simulation's kernel table.
func TestKernels(t *testing.T) {
	names := Kernels()
	if len(names) != 22 {
		t.Fatalf("%d kernels: %v", len(names), names)
	}
	for _, n := range names {
		if ParamSize(n) <= 0 {
			t.Errorf("kernel %s: parameter size %d", n, ParamSize(n))
		}
	}
	if ParamSize("nope") != -1 {
		t.Errorf("ParamSize of an unknown kernel = %d, want -1", ParamSize("nope"))
	}
}

// TestMathAccuracy sweeps the transcendental ops of unary_f32, and pow,
// over many inputs and reports the worst error in float32 ulps against
// float64 math; every result must be within one ulp.
func TestMathAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("sweep skipped in short mode")
	}
	const n = 1 << 13
	for _, c := range unaryCases {
		if c.ulps == 0 {
			continue
		}
		r := newRand(uint64(2000 + c.op))
		x := make([]float32, n)
		for i := range x {
			switch {
			case c.logScale:
				x[i] = float32(math.Exp(c.lo + (c.hi-c.lo)*r.Float64()))
				if c.op != uLog && r.IntN(2) == 0 {
					x[i] = -x[i]
				}
			default:
				x[i] = float32(c.lo + (c.hi-c.lo)*r.Float64())
			}
		}
		xb, yb := f32Buf("x", x), newBuf("y", 4*n)
		launch1D(t, "unary_f32", n, unaryArgs{N: n, Op: c.op, Alpha: c.alpha, Beta: c.beta}, xb, yb)
		worst := 0.0
		for i, got := range yb.f32() {
			want := c.ref(x[i], c.alpha, c.beta)
			if math.Abs(float64(got)-want) <= c.abs {
				continue
			}
			d := ulpDiff(got, want)
			if d > c.ulps {
				t.Errorf("%s(%g) = %g, want %g (%.2f ulps)", c.name, x[i], got, want, d)
			}
			worst = max(worst, d)
		}
		t.Logf("%-12s worst %.3f ulps over %d inputs in [%g, %g]%s", c.name, worst, n, c.lo, c.hi, map[bool]string{true: " (log scale)"}[c.logScale])
	}
	r := newRand(2100)
	x, z := randF32(r, n, 0, 10), randF32(r, n, -12, 12)
	xb, zb, yb := f32Buf("x", x), f32Buf("z", z), newBuf("y", 4*n)
	c := bcastCase{out: []int{n}, a: []int{n}, b: []int{n}}
	launch1D(t, "binary_f32", n, bcastArgs(c, bPow), xb, zb, yb)
	worst := 0.0
	for i, got := range yb.f32() {
		want := math.Pow(float64(x[i]), float64(z[i]))
		d := ulpDiff(got, want)
		if d > 1 {
			t.Errorf("pow(%g, %g) = %g, want %g (%.2f ulps)", x[i], z[i], got, want, d)
		}
		worst = max(worst, d)
	}
	t.Logf("%-12s worst %.3f ulps over %d inputs, base in [0, 10], exponent in [-12, 12]", "pow", worst, n)
}
