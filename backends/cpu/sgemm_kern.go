package cpu

import "unsafe"

// Packed SGEMM geometry. A micro-kernel computes gemmMR rows by gemmNR
// columns of C (or fewer rows with more panels, see microKernels) from a
// packed A micro-panel and packed B panels of gemmKC steps of k at most.
const (
	gemmMR = 6
	gemmNR = 16
	gemmKC = 256
	gemmMC = 16 * gemmMR
)

// panelElem is the element type of packed B panels: float32, or uint16
// holding float16 or bfloat16 bits that the kernels widen to float32 as
// they read them (see halfKind).
type panelElem interface{ float32 | uint16 }

// microKernelOf computes an r-row by 16·q-column tile of C. a holds kc
// steps of r floats (row i of step p at a[p*r+i]); b holds q panels,
// pstride elements apart, of kc steps of 16 elements of E. With add == 0
// the tile is stored, otherwise added to C (ldc floats between rows):
//
//	acc = 0; for p := 0..kc-1 { acc = acc + a[p,i]*b[p,j] }; C[i,j] = acc or C[i,j] + acc
//
// Every kernel sums each element in increasing p the same way, so which
// kernel computes a row never changes its value. A kernel for 16-bit
// panels computes the bits its float32 twin computes on the widened
// panels.
type microKernelOf[E panelElem] func(kc int, a *float32, b *E, pstride int, c *float32, ldc int, add int)

// kernelRow is the pair of micro-kernels for r rows: wide handles q full
// panels at once, one a single panel.
type kernelRow = kernelRowOf[float32]

// kernelRowOf is kernelRow for B panels of E.
type kernelRowOf[E panelElem] struct {
	q         int
	wide, one microKernelOf[E]
	// direct, when set (six rows only), is one reading its rows of A in
	// place, lda floats apart, step p of row i at a[i*lda+p]: the same
	// FMAs in the same order, so the same bits, without packing A.
	direct directKernelOf[E]
	// tall, when its rows are set (six rows only), serves the tiles of
	// rows read in place instead of direct: taller tiles, the same sums.
	tall tallKernels[E]
}

// directKernelOf computes a tile as microKernelOf does, reading its rows
// of A in place, lda floats apart: step p of row i at a[i*lda+p].
type directKernelOf[E panelElem] func(kc int, a *float32, b *E, pstride int, c *float32, ldc int, add int, lda int)

// microKernels[r-1] serves tiles of r rows. It is set once at init, to
// the assembly kernels where the CPU has them and to goKernels otherwise.
var microKernels [gemmMR]kernelRow

// kernelName names the micro-kernels in use, for benchmarks and tests.
var kernelName string

// kernelPanels is how many panels the wide kernel for r rows covers.
var kernelPanels = [gemmMR]int{6, 3, 2, 1, 1, 1}

// goKernels returns the pure-Go micro-kernels.
func goKernels() [gemmMR]kernelRow {
	var ks [gemmMR]kernelRow
	for i := range ks {
		r, q := i+1, kernelPanels[i]
		ks[i] = kernelRow{
			q: q,
			wide: func(kc int, a, b *float32, ps int, c *float32, ldc, add int) {
				goKernel(r, q, kc, a, b, ps, c, ldc, add)
			},
			one: func(kc int, a, b *float32, ps int, c *float32, ldc, add int) {
				goKernel(r, 1, kc, a, b, ps, c, ldc, add)
			},
		}
	}
	return ks
}

// goKernel is the pure-Go micro-kernel for r rows and q panels, on A
// packed for the kernel (step p of row i at a[p*r+i]).
func goKernel(r, q, kc int, a, b *float32, pstride int, c *float32, ldc, add int) {
	goTile(r, q, kc, unsafe.Slice(a, kc*r), 1, r, b, pstride, c, ldc, add)
}

// goTile is the pure-Go product of r rows of A by q panels of packed B,
// element (i, p) of A at as[i*ri+p*rp]. Products are rounded before the
// add (float32(x*y)) so the compiler never fuses them, whatever the
// target.
func goTile(r, q, kc int, as []float32, ri, rp int, b *float32, pstride int, c *float32, ldc, add int) {
	for j := range q {
		bs := unsafe.Slice((*float32)(unsafe.Add(unsafe.Pointer(b), 4*j*pstride)), kc*gemmNR)
		for i := range r {
			var acc [gemmNR]float32
			for p := range kc {
				av := as[i*ri+p*rp]
				bp := (*[gemmNR]float32)(bs[p*gemmNR:])
				for t := range acc {
					acc[t] += float32(av * bp[t])
				}
			}
			storeTile(c, ldc, i, j, &acc, add)
		}
	}
}

// storeTile writes (add 0) or adds acc to row i of panel j of the C tile
// at c.
func storeTile(c *float32, ldc, i, j int, acc *[gemmNR]float32, add int) {
	cs := (*[gemmNR]float32)(unsafe.Slice((*float32)(unsafe.Add(unsafe.Pointer(c), 4*(i*ldc+gemmNR*j))), gemmNR))
	if add != 0 {
		for t := range cs {
			cs[t] += acc[t]
		}
	} else {
		*cs = *acc
	}
}
