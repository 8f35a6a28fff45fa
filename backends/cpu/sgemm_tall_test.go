package cpu

import (
	"fmt"
	"math"
	"testing"
)

// TestTallKernelsMatchGo checks every set's tall kernels against its
// one-row kernel, row by row and bit for bit (the Go set's are their
// pure-Go twins), storing and adding, with guard cells
// around C.
func TestTallKernelsMatchGo(t *testing.T) {
	r := nnRng(31)
	for setName, ks := range kernelSets() {
		tk := ks[gemmMR-1].tall
		if tk.rows == 0 {
			continue
		}
		for _, q := range []int{tk.q, 1} {
			fn := tk.wide
			if q == 1 {
				fn = tk.one
			}
			for _, kc := range []int{0, 1, 7, 64, 255, 256} {
				for _, add := range []int{0, 1} {
					name := fmt.Sprintf("%s r%d q%d kc%d add%d", setName, tk.rows, q, kc, add)
					lda := kc + 3
					a := nnRand(r, (tk.rows-1)*lda+kc+1)
					ps := kc*gemmNR + 5 // panels not adjacent
					b := nnRand(r, q*ps+1)
					ldc := q*gemmNR + 3
					const g = 8
					n := (tk.rows-1)*ldc + q*gemmNR
					all1, c1 := guarded(n, g)
					all2, c2 := guarded(n, g)
					c0 := nnRand(r, n)
					copy(c1, c0)
					copy(c2, c0)
					fn(kc, &a[0], &b[0], ps, &c1[0], ldc, add, lda)
					// Row i of A in place is a packed one-row micro-panel.
					for i := range tk.rows {
						for j := range q {
							ks[0].one(kc, &a[i*lda], &b[j*ps], ps, &c2[i*ldc+j*gemmNR], ldc, add)
						}
					}
					for i := range all1 {
						if math.Float32bits(all1[i]) != math.Float32bits(all2[i]) {
							t.Fatalf("%s: cell %d is %v, %v by the one-row kernel", name, i-g, all1[i], all2[i])
						}
					}
				}
			}
		}
	}
}

// TestTallProductSameBits checks that products computed with the tall
// kernels give the bits of the same set without them, on random ragged
// sizes, one to three threads, storing and adding, with guard cells.
func TestTallProductSameBits(t *testing.T) {
	r := nnRng(32)
	pools := map[int]*workerPool{1: nil, 2: newWorkerPool(2), 3: newWorkerPool(3)}
	defer func() {
		for _, p := range pools {
			p.close()
		}
	}()
	ms := []int{1, 5, 7, 8, 9, 15, 16, 17, 23, 40, 64, 97, 200}
	ns := []int{1, 10, 16, 17, 32, 48, 100, 512}
	kk := []int{1, 16, 255, 256, 257, 600}
	for setName, set := range kernelSets() {
		if set[gemmMR-1].tall.rows == 0 {
			continue
		}
		plain := set
		plain[gemmMR-1].tall = tallKernels[float32]{}
		for i := range 60 {
			c := newGemmCase(r, ms[r.IntN(len(ms))], ns[r.IntN(len(ns))], kk[r.IntN(len(kk))], i)
			c.transA, c.preA, c.alpha = false, false, 1 // A read in place
			c.lda = c.k + i%3
			c.a = nnRand(r, (c.m-1)*c.lda+c.k)
			var want, got []float32
			withKernels(t, plain, func() { want = c.run(t, newGemmCtx(pools[c.threads])) })
			withKernels(t, set, func() { got = c.run(t, newGemmCtx(pools[c.threads])) })
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
					t.Fatalf("%s %s: element %d is %v, %v without tall kernels", setName, c.name, j, got[j], want[j])
				}
			}
		}
	}
}
