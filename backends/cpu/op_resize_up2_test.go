package cpu

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/resize"
	"github.com/lintel-ml/lintel/payload"
)

// TestResizeUp2 checks the nearest ×2 path against y[…, i, j] =
// x[…, i/2, j/2] for every element size, odd and unit dims, ranks 2 to
// 5, on one and two threads, with a guard past the output; and that
// maps which are not exactly that (×3, one axis only) keep the general
// path and stay right.
func TestResizeUp2(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	cases := []struct {
		in, out []int
		up2     bool
	}{
		{[]int{1, 3, 5, 7}, []int{1, 3, 10, 14}, true},
		{[]int{2, 4, 1, 1}, []int{2, 4, 2, 2}, true},
		{[]int{6, 8}, []int{12, 16}, true},
		{[]int{2, 1, 2, 3, 9}, []int{2, 1, 2, 6, 18}, true},
		{[]int{1, 2, 4, 4}, []int{1, 2, 12, 12}, false},
		{[]int{1, 2, 4, 4}, []int{1, 2, 4, 8}, false},
		{[]int{1, 2, 4, 4}, []int{1, 4, 8, 8}, false},
	}
	for _, dt := range []payload.DType{payload.Float32, payload.Uint8, payload.Float16, payload.Int64} {
		for _, c := range cases {
			for _, p := range []*workerPool{nil, pool} {
				name := fmt.Sprintf("%s %v→%v pool=%t", dt, c.in, c.out, p != nil)
				esz := dt.Size()
				x := &tensor{dt: dt, shape: c.in, data: make([]byte, esz*payload.NumElems(c.in))}
				for i := range x.data {
					x.data[i] = byte(i*7 + i/esz)
				}
				y := &tensor{dt: dt, shape: c.out}
				n := payload.NumElems(c.out)
				buf := make([]byte, esz*n+1)
				buf[esz*n] = 0xa5
				y.data = buf[:esz*n]
				sizes := make([]int64, len(c.out))
				for i, d := range c.out {
					sizes[i] = int64(d)
				}
				k := &resizeKernel{mode: rsNearest, coord: resize.Asymmetric, nearest: resize.Floor, sizesIdx: 3, roiIdx: -1, scalesIdx: -1, pool: p}
				if err := k.run([]*tensor{x, nil, nil, i64s(sizes...)}, []*tensor{y}); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got := k.up2Fits(x, y); got != c.up2 {
					t.Fatalf("%s: nearest ×2 path taken: %t, want %t", name, got, c.up2)
				}
				r := len(c.in)
				for o := range n {
					// o's index along each dim, mapped back.
					src, rem, stride := 0, o, 1
					for d := r - 1; d >= 0; d-- {
						i := rem % c.out[d]
						rem /= c.out[d]
						src += i * c.in[d] / c.out[d] * stride
						stride *= c.in[d]
					}
					got, want := y.data[o*esz:(o+1)*esz], x.data[src*esz:(src+1)*esz]
					if string(got) != string(want) {
						t.Fatalf("%s: element %d = %v, want %v (input element %d)", name, o, got, want, src)
					}
				}
				if buf[esz*n] != 0xa5 {
					t.Fatalf("%s: the guard byte was written", name)
				}
			}
		}
	}
}
