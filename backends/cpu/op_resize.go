package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/internal/resize"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Resize interpolation modes.
const (
	rsNearest = iota
	rsLinear
	rsCubic
)

// Resize coordinate transformation and nearest rounding modes
// (internal/resize, shared with the GPU backends).
const (
	ctAsymmetric      = resize.Asymmetric
	ctTFCropAndResize = resize.TFCropAndResize
	nmSimple          = resize.Simple
)

// resizeKernel is Resize (opsets 10 to 21) and Upsample (7 to 9). Nearest
// works on every element type through index maps; linear and cubic run on
// float32 as separable one-axis passes.
type resizeKernel struct {
	n       *model.Node
	mode    int
	coord   resize.Coord
	nearest resize.Nearest
	policy  int
	cubicA  float32
	exclOut bool
	// antialias widens the linear and cubic filters when downsampling.
	antialias bool
	extrap    float64
	// upsample is set for Upsample, whose scales must be at least 1.
	upsample bool
	// attrScales holds Upsample-7's scales attribute.
	attrScales []float32
	axes       []int64
	// input positions; -1 when the op has none.
	roiIdx, scalesIdx, sizesIdx int

	scale []float32 // per dim, as the coordinate transform sees it
	// fromScales: the op was given scales, not sizes (resize.OrigFromScales).
	fromScales bool
	roi        []float32 // 2*rank: starts then ends
	axisOf     []int
	sizesBuf   []int64
	cur        []int
	order      []int
	idx        []int
	w          []float32
	bufA       []float32
	bufB       []float32
	ist        []int
	p          mapCopy
	// pool splits the output rows, through pm for nearest mode.
	pool *workerPool
	pm   parMap
	par  parFor
	pass resampleCall
	// idxH and wH hold the row taps of the two-axis bilinear pass, x1,
	// x2, wx2 and wx1 its column taps and weights, one each per output
	// column.
	idxH     []int
	wH       []float32
	x1, x2   []int32
	wx2, wx1 []float32
	win      bilinearWin
	// up2 is the call of the nearest ×2 path (op_resize_up2.go).
	up2 up2Call
}

// plan computes each dim's scale and roi for the output shape dims, which
// the descriptor's rule (model.ResizeAttrs) has computed and checked from
// the same scales or sizes.
func (k *resizeKernel) plan(in []*tensor, dims []int) error {
	x := in[0]
	r := len(x.shape)
	k.scale = growF32(&k.scale, r)
	k.roi = growF32(&k.roi, 2*r)
	ax := growInts(&k.axisOf, r)
	for i := 0; i < r; i++ {
		k.scale[i] = 1
		k.roi[i], k.roi[r+i] = 0, 1
		ax[i] = -1
	}
	m := r
	if k.axes != nil {
		m = len(k.axes)
		for j, a := range k.axes {
			d, ok := wrapAxis(a, r)
			if !ok {
				return shapeErr(k.n, "axis %d out of range for rank %d", a, r)
			}
			ax[d] = j
		}
	} else {
		for i := range ax {
			ax[i] = i
		}
	}
	// roi
	if k.coord == ctTFCropAndResize {
		t := optIn(in, k.roiIdx)
		if t == nil || t.dt != payload.Float32 || t.numel() != 2*m {
			return shapeErr(k.n, "roi must be %d float32 values", 2*m)
		}
		v := t.f32()
		for d := 0; d < r; d++ {
			if j := ax[d]; j >= 0 {
				k.roi[d], k.roi[r+d] = v[j], v[m+j]
			}
		}
	}
	scales := k.attrScales
	if t := optIn(in, k.scalesIdx); t != nil && t.numel() > 0 {
		if t.dt != payload.Float32 {
			return shapeErr(k.n, "scales must be float32")
		}
		scales = t.f32()[:t.numel()]
	}
	k.fromScales = scales != nil
	if scales != nil {
		for d := 0; d < r; d++ {
			if j := ax[d]; j >= 0 {
				k.scale[d] = scales[j]
			}
		}
		return nil
	}
	t := optIn(in, k.sizesIdx)
	if t == nil || t.dt != payload.Int64 {
		return shapeErr(k.n, "sizes must be int64")
	}
	sizes, ok := intValues(t, &k.sizesBuf)
	if !ok {
		return shapeErr(k.n, "sizes must be int64")
	}
	pol := float32(0)
	for d := 0; d < r; d++ {
		j := ax[d]
		if j < 0 || x.shape[d] == 0 {
			continue
		}
		s := float32(sizes[j]) / float32(x.shape[d])
		switch {
		case k.policy == model.AspectStretch:
			k.scale[d] = s
		case pol == 0:
			pol = s
		case k.policy == model.AspectNotLarger:
			pol = min(pol, s)
		default:
			pol = max(pol, s)
		}
	}
	for d := 0; d < r; d++ {
		if ax[d] < 0 || x.shape[d] == 0 {
			continue
		}
		if k.policy != model.AspectStretch {
			k.scale[d] = pol
		}
		if dims[d] > 0 && !(k.scale[d] > 0) {
			return shapeErr(k.n, "size %d for dim %d", dims[d], d)
		}
	}
	return nil
}

func growF32(buf *[]float32, n int) []float32 {
	if cap(*buf) < n {
		*buf = make([]float32, n, n+4)
	}
	return (*buf)[:n]
}

func (k *resizeKernel) shape(in, out []*tensor) error {
	return k.plan(in, out[0].shape)
}

// orig maps output coordinate x along dim d to the input coordinate, in
// float32 as ONNX Runtime computes it, except for align_corners given
// scales, which follows ONNX's reference (resize.OrigFromScales).
func (k *resizeKernel) orig(d int, x float32, outLen, inLen int) float32 {
	var rs, re float32
	if k.coord == resize.TFCropAndResize {
		r := len(k.roi) / 2
		rs, re = k.roi[d], k.roi[r+d]
	}
	if k.fromScales {
		return resize.OrigFromScales(k.coord, k.scale[d], x, outLen, inLen, rs, re)
	}
	return resize.Orig(k.coord, k.scale[d], x, outLen, inLen, rs, re)
}

// nearestIdx rounds an input coordinate per the nearest mode.
func (k *resizeKernel) nearestIdx(x, scale float32) int {
	return resize.NearestIndex(k.nearest, x, scale, maxDim)
}

// outside reports whether an input coordinate falls outside [0, n-1] where
// tf_crop_and_resize extrapolates.
func (k *resizeKernel) outside(x float32, n int) bool {
	return k.coord == ctTFCropAndResize && (x < 0 || x > float32(n-1))
}

func (k *resizeKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	r := len(x.shape)
	if err := k.plan(in, y.shape); err != nil {
		return err
	}
	if y.numel() == 0 {
		return nil
	}
	for d := 0; d < r; d++ {
		if x.shape[d] == 0 {
			return shapeErr(k.n, "cannot resize an empty dim %d to %d", d, y.shape[d])
		}
	}
	if k.mode == rsNearest {
		return k.runNearest(x, y)
	}
	return k.runInterp(x, y)
}

func (k *resizeKernel) runNearest(x, y *tensor) error {
	r := len(x.shape)
	k.ist = growInts(&k.ist, r)
	rowStrides(k.ist, x.shape)
	k.p.reset(y.shape, k.ist)
	for d := 0; d < r; d++ {
		n := x.shape[d]
		m := k.p.mapOf(d)
		for o := range m {
			c := k.orig(d, float32(o), y.shape[d], n)
			if k.outside(c, n) {
				m[o] = -1
				continue
			}
			m[o] = max(0, min(k.nearestIdx(c, k.scale[d]), n-1))
		}
	}
	if k.up2Fits(x, y) {
		k.runUp2(x, y)
		return nil
	}
	fill, _ := floatBits(x.dt, k.extrap)
	k.pm.copy(k.pool, &k.p, y.data, x.data, x.dt.Size(), fill)
	return nil
}

// taps fills k.idx and k.w with the K taps of each output index along dim
// d (idx -1 on the first tap: extrapolate) and reports whether the pass is
// the identity.
func (k *resizeKernel) taps(d, nin, nout int) (int, bool) {
	if k.antialias && k.scale[d] < 1 {
		return k.antialiasTaps(d, nin, nout), false
	}
	K := 2
	if k.mode == rsCubic {
		K = 4
	}
	k.idx = growInts(&k.idx, nout*K)
	k.w = growF32(&k.w, nout*K)
	ident := nin == nout
	for o := 0; o < nout; o++ {
		t, w := k.idx[o*K:o*K+K], k.w[o*K:o*K+K]
		var c float32
		if k.mode == rsCubic && k.scale[d] == 1 && k.coord != ctTFCropAndResize {
			c = float32(o)
		} else {
			c = k.orig(d, float32(o), nout, nin)
		}
		if k.outside(c, nin) {
			t[0] = -1
			ident = false
			continue
		}
		if k.mode == rsLinear {
			c = max(0, min(c, float32(nin-1)))
			x1 := min(int(c), nin-1)
			x2 := min(x1+1, nin-1)
			dx1 := float32(math.Abs(float64(c - float32(x1))))
			dx2 := float32(math.Abs(float64(c - float32(x2))))
			if x1 == x2 {
				dx1, dx2 = 0.5, 0.5
			}
			t[0], w[0], t[1], w[1] = x1, dx2, x2, dx1
			if !(x1 == o && (dx2 == 1 || x2 == o)) {
				ident = false
			}
			continue
		}
		fl := float32(math.Floor(float64(c)))
		xi := int(fl)
		cubicCoeffs(w, c-fl, k.cubicA)
		sum := float32(0)
		for q := 0; q < 4; q++ {
			i := xi + q - 1
			if k.exclOut && (i < 0 || i >= nin) {
				w[q] = 0
			}
			sum += w[q]
			t[q] = max(0, min(i, nin-1))
		}
		if k.exclOut && sum != 0 {
			for q := range w {
				w[q] /= sum
			}
		}
		if !(c == float32(o) && w[1] == 1 && w[0] == 0 && w[2] == 0 && w[3] == 0) {
			ident = false
		}
	}
	return K, ident
}

// cubicCoeffs sets w to the four cubic convolution weights at fraction s.
func cubicCoeffs(w []float32, s, a float32) {
	w[0] = ((a*(s+1)-5*a)*(s+1)+8*a)*(s+1) - 4*a
	w[1] = ((a+2)*s-(a+3))*s*s + 1
	w[2] = ((a+2)*(1-s)-(a+3))*(1-s)*(1-s) + 1
	w[3] = ((a*(2-s)-5*a)*(2-s)+8*a)*(2-s) - 4*a
}

func (k *resizeKernel) runInterp(x, y *tensor) error {
	r := len(x.shape)
	cur := growInts(&k.cur, r)
	copy(cur, x.shape)
	src := x.f32()[:x.numel()]
	dst := y.f32()
	// The dims that need a pass, in order: those that shrink the most
	// first, so that later passes work on less, and among equals the
	// innermost first (its pass gathers element by element; the others
	// run whole rows).
	order := k.order[:0]
	for d := r - 1; d >= 0; d-- {
		if _, ident := k.taps(d, x.shape[d], y.shape[d]); !ident {
			order = append(order, d)
		}
	}
	k.order = order
	if len(order) == 0 {
		copy(dst, src)
		return nil
	}
	if k.bilinear(x, y, order[len(order)-1]) {
		return nil
	}
	for i := 1; i < len(order); i++ { // a stable insertion sort of a few dims
		for j := i; j > 0 && resizeRatio(x.shape, y.shape, order[j]) < resizeRatio(x.shape, y.shape, order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	last := order[len(order)-1]
	useA := true
	for _, d := range order {
		K, _ := k.taps(d, cur[d], y.shape[d])
		outer := mulDims(cur[:d])
		inner := mulDims(cur[d+1:])
		nin, nout := cur[d], y.shape[d]
		cur[d] = nout
		var o []float32
		if d == last {
			o = dst
		} else {
			n := outer * nout * inner
			if useA {
				k.bufA = growF32(&k.bufA, n)
				o = k.bufA
			} else {
				k.bufB = growF32(&k.bufB, n)
				o = k.bufB
			}
			useA = !useA
		}
		k.pass = resampleCall{dst: o, src: src, nin: nin, nout: nout, inner: inner, K: K, ext: float32(k.extrap)}
		k.par.run(k.pool, k, outer*nout, K*inner)
		k.pass = resampleCall{}
		src = o
	}
	return nil
}

// resizeRatio is dim d's output length over its input length.
func resizeRatio(in, out []int, d int) float64 { return float64(out[d]) / float64(in[d]) }

// bilinear runs a linear Resize that changes only the last two dims
// (the first to change is last) as one two-axis pass, in ONNX Runtime's
// order: each output is dx2·dy2·x11 + dx1·dy2·x21 + dx2·dy1·x12 +
// dx1·dy1·x22, weights multiplied first, summed left to right. Two
// one-axis passes give the same value rounded otherwise, one float32 unit
// apart on about a fifth of the outputs of a 2× upsampling, and a model
// that quantizes the result (DynamicQuantizeLinear) can turn that unit
// into a quantization step. It reports false, having done nothing, for
// any other resize.
func (k *resizeKernel) bilinear(x, y *tensor, last int) bool {
	r := len(x.shape)
	if k.mode != rsLinear || r < 2 || last != r-2 {
		return false
	}
	hin, win := x.shape[r-2], x.shape[r-1]
	hout, wout := y.shape[r-2], y.shape[r-1]
	K, ident := k.taps(r-2, hin, hout)
	if K != 2 || ident {
		return false
	}
	k.idxH = growInts(&k.idxH, len(k.idx))
	k.wH = growF32(&k.wH, len(k.w))
	copy(k.idxH, k.idx)
	copy(k.wH, k.w)
	K, ident = k.taps(r-1, win, wout)
	if K != 2 || ident {
		return false
	}
	for o := 0; o < hout; o++ {
		if k.idxH[2*o] < 0 {
			return false
		}
	}
	for o := 0; o < wout; o++ {
		if k.idx[2*o] < 0 {
			return false
		}
	}
	k.x1, k.x2 = growI32(&k.x1, wout), growI32(&k.x2, wout)
	k.wx2, k.wx1 = growF32(&k.wx2, wout), growF32(&k.wx1, wout)
	for o := range wout {
		k.x1[o], k.x2[o] = int32(k.idx[2*o]), int32(k.idx[2*o+1])
		k.wx2[o], k.wx1[o] = k.w[2*o], k.w[2*o+1]
	}
	k.win.plan(k.x1, k.x2, win)
	outer := mulDims(x.shape[:r-2])
	k.pass = resampleCall{dst: y.f32(), src: x.f32()[:x.numel()], nin: hin, nout: hout, inner: win, K: 2, wout: wout, twoAxis: true}
	k.par.run(k.pool, k, outer*hout, 4*wout)
	k.pass = resampleCall{}
	return true
}

// resampleCall is one pass of runInterp (one axis, or two for bilinear).
type resampleCall struct {
	dst, src         []float32
	nin, nout, inner int
	K                int
	ext              float32
	// twoAxis marks the two-axis bilinear pass: nin and nout count rows,
	// inner and wout the input's and output's columns.
	twoAxis bool
	wout    int
}

// runRange computes output rows [lo, hi) of the current pass.
func (k *resizeKernel) runRange(_, lo, hi int) {
	c := &k.pass
	if c.twoAxis {
		bilinearPass(c.dst, c.src, c.nin, c.nout, c.inner, c.wout, k.idxH, k.wH, k, lo, hi)
		return
	}
	resamplePass(c.dst, c.src, c.nin, c.nout, c.inner, c.K, k.idx, k.w, c.ext, lo, hi)
}

// bilinearPass interpolates src [outer, hin, win] into dst [outer, hout,
// wout] for the output rows [lo, hi), numbered outer major, from two taps
// per output row (idxH, wH) and column (k's x1, x2, wx2, wx1), in ONNX
// Runtime's order (bilinearRowGo).
func bilinearPass(dst, src []float32, hin, hout, win, wout int, idxH []int, wH []float32, k *resizeKernel, lo, hi int) {
	x1, x2, wx2, wx1 := k.x1[:wout], k.x2[:wout], k.wx2[:wout], k.wx1[:wout]
	for u := lo; u < hi; u++ {
		b, j := u/hout, u%hout
		s := src[b*hin*win : (b+1)*hin*win]
		r1 := s[idxH[2*j]*win : (idxH[2*j]+1)*win]
		r2 := s[idxH[2*j+1]*win : (idxH[2*j+1]+1)*win]
		bilinearRow32(dst[u*wout:(u+1)*wout], r1, r2, x1, x2, wx2, wx1, wH[2*j], wH[2*j+1], &k.win)
	}
}

// bilinearRowGo sets row[i] from the input rows r1 and r2 (weights dy2
// and dy1) and the columns x1[i] and x2[i] (weights wx2[i] and wx1[i])
// as ONNX Runtime's bilinear kernel sums them: the four products of the
// combined weights, each rounded on its own (the conversions keep the
// compiler from fusing them), added left to right.
func bilinearRowGo(row, r1, r2 []float32, x1, x2 []int32, wx2, wx1 []float32, dy2, dy1 float32) {
	x1, x2, wx2, wx1 = x1[:len(row)], x2[:len(row)], wx2[:len(row)], wx1[:len(row)]
	for i := range row {
		a, c := x1[i], x2[i]
		dx2, dx1 := wx2[i], wx1[i]
		row[i] = float32(float32(dx2*dy2)*r1[a]) + float32(float32(dx1*dy2)*r1[c]) +
			float32(float32(dx2*dy1)*r2[a]) + float32(float32(dx1*dy1)*r2[c])
	}
}

// resamplePass interpolates src [outer, nin, inner] along its middle dim
// into dst [outer, nout, inner] with K taps per output index, for the
// output rows [lo, hi) of inner values, numbered outer major. Two taps
// on rows run lerp32 (AVX); the innermost dim (inner 1) walks its output
// index without a division per element.
func resamplePass(dst, src []float32, nin, nout, inner, K int, idx []int, w []float32, ext float32, lo, hi int) {
	if inner == 1 {
		resampleInner(dst, src, nin, nout, K, idx, w, ext, lo, hi)
		return
	}
	b, j := lo/nout, lo%nout
	for u := lo; u < hi; u++ {
		s := src[b*nin*inner : (b+1)*nin*inner]
		row := dst[u*inner : (u+1)*inner]
		t, ww := idx[j*K:j*K+K], w[j*K:j*K+K]
		if j++; j == nout {
			b, j = b+1, 0
		}
		if t[0] < 0 {
			for i := range row {
				row[i] = ext
			}
			continue
		}
		r0 := s[t[0]*inner : (t[0]+1)*inner]
		w0 := ww[0]
		q := 1
		if K >= 2 && ww[1] != 0 {
			lerp32(row, r0, s[t[1]*inner:(t[1]+1)*inner], w0, ww[1])
			q = 2
		} else {
			for i := range row {
				row[i] = w0 * r0[i]
			}
		}
		for ; q < K; q++ {
			rq := s[t[q]*inner : (t[q]+1)*inner]
			wq := ww[q]
			if wq == 0 {
				continue
			}
			for i := range row {
				row[i] += wq * rq[i]
			}
		}
	}
}

// resampleInner is resamplePass along the innermost dim: output elements
// [lo, hi), each the K-tap sum of its input row.
func resampleInner(dst, src []float32, nin, nout, K int, idx []int, w []float32, ext float32, lo, hi int) {
	b, j := lo/nout, lo%nout
	for u := lo; u < hi; {
		s := src[b*nin : (b+1)*nin]
		end := min(hi, u+nout-j)
		row := dst[u:end]
		if K == 2 {
			for i := range row {
				jj := (j + i) * 2
				t0, t1 := idx[jj], idx[jj+1]
				if t0 < 0 {
					row[i] = ext
					continue
				}
				row[i] = float32(w[jj]*s[t0]) + float32(w[jj+1]*s[t1])
			}
		} else {
			for i := range row {
				t, ww := idx[(j+i)*K:(j+i)*K+K], w[(j+i)*K:(j+i)*K+K]
				if t[0] < 0 {
					row[i] = ext
					continue
				}
				sum := float32(0)
				for q, ti := range t {
					sum += ww[q] * s[ti]
				}
				row[i] = sum
			}
		}
		u, b, j = end, b+1, 0
	}
}

func init() {
	// Nearest mode only moves elements, of any type; the interpolating
	// modes compute half types in float32 (roi and scales may be float32).
	b := func(c *buildCtx) (kernel, error) {
		if a := c.rule.(*model.ResizeAttrs); a.Mode == "linear" || a.Mode == "bilinear" || a.Mode == "cubic" {
			return viaF32(buildResize, 1, 2)(c)
		}
		return buildResize(c)
	}
	register("Resize", b)
	register("Upsample", b)
}

func buildResize(c *buildCtx) (kernel, error) {
	if err := c.needMovable(); err != nil {
		return nil, err
	}
	a := c.rule.(*model.ResizeAttrs)
	k := &resizeKernel{n: c.n, roiIdx: a.ROI, scalesIdx: a.ScalesIn, sizesIdx: a.SizesIn, cubicA: a.CubicCoeffA,
		coord: a.Coord, nearest: a.Nearest, policy: a.KeepAspectRatio, exclOut: a.ExcludeOutside,
		extrap: float64(a.ExtrapolationValue), upsample: a.Upsample, attrScales: a.Scales, axes: a.Axes, pool: c.pool()}
	switch a.Mode {
	case "linear", "bilinear":
		k.mode = rsLinear
	case "cubic":
		k.mode = rsCubic
	}
	if k.mode != rsNearest && c.inType(0) != payload.Float32 {
		return nil, c.unsupported("%s mode on element type %s", a.Mode, c.inType(0))
	}
	if a.Antialias && k.mode != rsNearest {
		if k.coord == ctTFCropAndResize {
			return nil, c.unsupported("antialias with tf_crop_and_resize")
		}
		k.antialias = true
	}
	if a.ScalesIn >= 0 {
		if t := c.inType(a.ScalesIn); t != payload.Float32 && (t != payload.Undefined || a.SizesIn < 0) {
			return nil, c.unsupported("scales of type %s", t)
		}
	}
	if a.SizesIn >= 0 {
		if t := c.inType(a.SizesIn); t != payload.Undefined && t != payload.Int64 {
			return nil, c.unsupported("sizes of type %s", t)
		}
	}
	if k.coord == ctTFCropAndResize {
		if t := c.inType(a.ROI); t != payload.Float32 {
			return nil, c.unsupported("roi of type %s", t)
		}
	}
	return k, nil
}
