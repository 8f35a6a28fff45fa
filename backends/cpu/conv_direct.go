package cpu

import (
	"fmt"
	"unsafe"
)

// Direct convolution: float32 Conv of one or two spatial dims (the
// windows directTakes accepts), computed without unrolling the windows. The input planes are copied once per image and
// group into a zero-padded buffer, split by column phase when the column
// stride is above one, so that every tap of a run of outputs of one row
// reads consecutive floats; a kernel (convDirR1…6) then sums, for a block
// of up to six output channels and 16 outputs of one row, every input
// channel and tap in registers, from filters packed once at load, and
// applies the bias and a Relu before its single store.
//
// Every output is summed from zero in increasing steps of (input channel,
// tap), blocks of gemmKC steps added in turn, then the bias added and
// the activation applied: the order and roundings of the im2col path on
// the packed SGEMM, so both paths give the same bits.

// Direct convolution limits: the widest column stride and the longest
// window (input channels times taps) it runs, and the longest it runs
// on rows that fill less than three quarters of their last tile (see
// directTakes).
const (
	directMaxStride = 4
	directMaxK      = 4608
	directShortK    = 1024
	// directMaxR is the most output channels any kernel computes in
	// one call (the AVX-512 ones; directMR is this machine's).
	directMaxR = 12
	// directNR is how many outputs of a row one kernel call computes.
	directNR = 16
)

// Flags of a direct kernel call.
const (
	directAdd  = 1 // add the tile to C
	directBias = 2 // add bias[i] to channel i
	directRelu = 4 // then max(v, 0)
)

// directBlocks returns the sizes of the channel blocks that m output
// channels are computed in: as few blocks of at most directMR as
// possible, of sizes that differ by one at most (16 → 6, 5, 5), so that
// no block is left with one or two channels whose kernel waits on its
// FMAs' latency.
func directBlock(m, b int) (i0, r int) {
	nb := (m + directMR - 1) / directMR
	base, extra := m/nb, m%nb
	i0 = b*base + min(b, extra)
	r = base
	if b < extra {
		r++
	}
	return i0, r
}

// directMR is the most output channels one kernel call computes here:
// 12 for the AVX-512 kernels, whose 32 registers hold twice the sums,
// so that each block of input read from cache serves twice the
// channels; 6 for the others. Decided once, as the kernels are: filters
// are packed in its blocks at load.
var directMR = directBlockMax()

// directBlockCount is how many channel blocks m output channels take.
func directBlockCount(m int) int { return (m + directMR - 1) / directMR }

// packDirectW packs the filters w (m rows of k floats) for the direct
// kernels: block of steps [p0, p0+kcb) at p0*m, within it channel block
// (i0, r) at i0*kcb, step p's r values at (p-p0)*r.
func packDirectW(w []float32, m, k int) []float32 {
	dst := make([]float32, m*k)
	for p0 := 0; p0 < k; p0 += gemmKC {
		kcb := min(gemmKC, k-p0)
		for b := range directBlockCount(m) {
			i0, r := directBlock(m, b)
			d := dst[p0*m+i0*kcb : p0*m+(i0+r)*kcb]
			for i := range r {
				for p := range kcb {
					d[p*r+i] = w[(i0+i)*k+p0+p]
				}
			}
		}
	}
	return dst
}

// directFits reports whether the direct kernels run geometry g with
// windows of kdim steps: at most two spatial dims, a column stride of at
// most directMaxStride, outputs rows of at least directNR/2 (or, with a
// unit row stride, run flat over a padded width at most twice theirs),
// a short window, and a padded plane near the input's size (the plan
// copies it into a buffer), so that hostile pads cannot size its
// buffers.
func directFits(g *geom, kdim int) bool {
	if g.k[0] != 1 || g.in[0] != 1 || g.out[0] != 1 || g.s[2] > directMaxStride || kdim > directMaxK || kdim <= 0 {
		return false
	}
	ph, pw := g.in[1]+g.pb[1]+g.pe[1], g.in[2]+g.pb[2]+g.pe[2]
	// Narrower rows only where they run flat (unit row stride) with at
	// least half the padded width kept.
	if g.out[2] < directNR/2 && (g.s[1] != 1 || 2*g.out[2] < ceilDiv(pw, g.s[2])) {
		return false
	}
	return ph <= (4*g.in[1]*g.in[2]+4096)/max(pw, 1)
}

// directTakes reports whether the direct kernels run geometry g with
// windows of kdim steps rather than im2col and the packed SGEMM: when
// directFits, for windows of up to directShortK steps (where unrolling
// costs the most), and for longer ones when the last tile of each
// output row is at least three quarters full (the im2col path's panels
// run across rows and waste nothing, which wins on long windows over
// rows of 8 outputs).
func directTakes(g *geom, kdim int) bool {
	if !directFits(g, kdim) {
		return false
	}
	r := g.out[2] % directNR
	return kdim <= directShortK || r == 0 || r >= 3*directNR/4
}

// directWeights reports whether Conv weights of shape ws (kdim steps per
// output channel) may run on the direct kernels for some input: one or
// two spatial dims, not a single tap, a window of at most directMaxK.
func directWeights(ws []int, kdim int) bool {
	if len(ws) < 3 || len(ws) > 4 || kdim > directMaxK {
		return false
	}
	return windowTaps(ws[2:]) > 1
}

// windowTaps is the product of a window's dims.
func windowTaps(k []int) int {
	n := 1
	for _, d := range k {
		n *= d
	}
	return n
}

// directKey is the layout a directPlan's buffers were built for.
type directKey struct {
	g  geom
	cg int
}

// directPlan runs the direct convolutions of one Conv node: the padded
// copy of a group's input channels, each tap's offset in it, and the
// current call, which the worker pool splits by output rows.
type directPlan struct {
	// pad is the padded input, the plan's own or the model's shared one
	// (directPad), padLen long; borders is set when fill must write its
	// padding too.
	pad     []float32
	padLen  int
	borders bool
	offs    []int
	key     directKey
	// ph and pws are the padded rows and the width of a column phase;
	// rowStep is the distance in pad between two output rows' inputs.
	ph, pws, rowStep int
	// tmp holds a part's tile when it runs past the end of a row.
	tmp  [][directMaxR * directNR]float32
	call directCall
	// flat: output rows that end inside a tile are computed over the
	// padded width, the part's rows as one run of tiles (flatRun), into
	// the part's flatOut, whose rows are then copied out.
	flat    bool
	flatOut [][]float32
	// blocks lists the channel blocks (first channel, count) of blocksM
	// output channels.
	blocks  [][2]int
	blocksM int
	// fillX and fillCG are the input and its channels while the parts
	// fill pad (directFill).
	fillX  []float32
	fillCG int
}

// directCall is one image and group, read by every part.
type directCall struct {
	w, bias, y []float32
	ep         *gemmEpilogue
	g          *geom
	m, kdim    int
	parts      int
}

// directPad is the padded input that the direct convolutions of column
// stride 1 of one model share: nodes run one at a time, so one buffer,
// grown to the largest, serves them all, and a model holds one padded
// copy of an input rather than one per node. owner and key are the plan
// and layout whose padding it holds; another plan, or another layout,
// writes its padding anew (fillBorders).
type directPad struct {
	buf   []float32
	owner *directPlan
	key   directKey
}

// prepare sizes pad and offs for geometry g over cg input channels. A
// plan of column stride 1 with sp set takes sp's buffer, whose padding
// fill then writes where another plan or layout used it last; any
// other keeps a buffer of its own, its padding cleared when it is
// built.
func (p *directPlan) prepare(g *geom, cg int, sp *directPad) {
	key := directKey{g: *g, cg: cg}
	if sp != nil && g.s[2] == 1 {
		if p.key != key || p.offs == nil {
			p.layout(g, cg)
			p.key = key
		}
		n := p.padLen
		if cap(sp.buf) < n {
			sp.buf, sp.owner = make([]float32, n), nil
		}
		p.pad = sp.buf[:n]
		p.borders = sp.owner != p || sp.key != key
		sp.owner, sp.key = p, key
		return
	}
	p.borders = false
	if p.pad != nil && p.key == key {
		return
	}
	p.layout(g, cg)
	if cap(p.pad) < p.padLen {
		p.pad = make([]float32, p.padLen)
	}
	p.pad = p.pad[:p.padLen]
	clear(p.pad)
	p.key = key
}

// layout sets the padded layout of geometry g over cg input channels:
// its sizes, padLen, each tap's offset and whether short rows run flat.
func (p *directPlan) layout(g *geom, cg int) {
	s := g.s[2]
	pw := g.in[2] + g.pb[2] + g.pe[2]
	p.ph = g.in[1] + g.pb[1] + g.pe[1]
	p.pws = ceilDiv(pw, s)
	p.rowStep = g.s[1] * p.pws
	// Slack: a tile past a row's end reads directNR floats on, and a
	// flat run up to a padded row more.
	n := cg*s*p.ph*p.pws + directNR + p.pws
	p.padLen = n
	kdim := cg * g.k[1] * g.k[2]
	p.offs = grow(p.offs, kdim)
	t := 0
	for c := range cg {
		for kh := range g.k[1] {
			for kw := range g.k[2] {
				col := kw * g.d[2]
				p.offs[t] = ((c*s+col%s)*p.ph+kh*g.d[1])*p.pws + col/s
				t++
			}
		}
	}
	// Rows of a partial last tile whose input rows are one padded row
	// apart run flat: their outputs are consecutive in the padded width.
	p.flat = g.out[2]%directNR != 0 && g.s[1] == 1
	// The last tile's reads end within the slack.
	for t, o := range p.offs {
		if o < 0 || (g.out[1]-1)*p.rowStep+o+roundUp(g.out[2], directNR) > n || (p.flat && o+g.out[1]*p.pws+directNR > n) {
			panic(fmt.Sprintf("direct conv: tap %d reads outside the padded input", t))
		}
	}
}

// fillBorders zeroes everything of pad that fill does not write, for
// column stride 1: the padding rows and columns of each plane and the
// slack after the last.
func (p *directPlan) fillBorders(g *geom, cg int) {
	IH, IW := g.in[1], g.in[2]
	top, left := g.pb[1], g.pb[2]
	plane := p.ph * p.pws
	for c := range cg {
		pl := p.pad[c*plane : (c+1)*plane]
		if IH == 0 {
			clear(pl)
			continue
		}
		// The rows above and the first row's left padding; then each gap
		// from one row's right padding to the next row's left, one
		// masked store a row where it fits; then the last row's right
		// padding and the rows below.
		clear(pl[:top*p.pws+left])
		zeroGaps(pl[top*p.pws+left+IW:], p.pws, p.pws-IW, IH-1)
		clear(pl[(top+IH-1)*p.pws+left+IW:])
	}
	clear(p.pad[cg*plane:])
}

// fillBordersOnce writes the padding when the buffer is shared and held
// another layout.
func (p *directPlan) fillBordersOnce(g *geom, cg int) {
	if p.borders {
		p.fillBorders(g, cg)
		p.borders = false
	}
}

// fillRows copies input rows [ih0, ih1) of the cg planes of x into pad's
// interior.
func (p *directPlan) fillRows(g *geom, x []float32, cg, ih0, ih1 int) {
	s := g.s[2]
	IH, IW := g.in[1], g.in[2]
	n := ih1 - ih0
	if n <= 0 || IW <= 0 {
		return
	}
	for c := range cg {
		xc := x[(c*IH+ih0)*IW : (c*IH+ih1)*IW]
		if s == 1 {
			o := (c*p.ph+g.pb[1]+ih0)*p.pws + g.pb[2]
			copyRows(p.pad[o:o+(n-1)*p.pws+IW], p.pws, xc, IW, n)
			continue
		}
		if s == 2 {
			// Even input columns go to phase pb mod 2, odd ones to the
			// other, from padded column pb on, all rows in one call.
			pb := g.pb[2]
			ev := p.pad[((c*2+pb%2)*p.ph+g.pb[1]+ih0)*p.pws+pb/2:]
			od := p.pad[((c*2+(pb+1)%2)*p.ph+g.pb[1]+ih0)*p.pws+(pb+1)/2:]
			deinterleaveRows(ev, od, p.pws, xc, IW, IW, n)
			continue
		}
		for ih := ih0; ih < ih1; ih++ {
			row := x[(c*IH+ih)*IW : (c*IH+ih+1)*IW]
			ph := ih + g.pb[1]
			// Phase r holds the padded columns col ≡ r (mod s), which
			// are the input columns iw = col - pb from the first such.
			for r := range s {
				iw := ((r-g.pb[2])%s + s) % s
				col := iw + g.pb[2]
				d := p.pad[((c*s+r)*p.ph+ph)*p.pws+col/s:]
				for j := 0; iw < IW; iw, j = iw+s, j+1 {
					d[j] = row[iw]
				}
			}
		}
	}
}

// fillStart returns the first input row that part of parts fills when
// the parts fill the padded input together (see directPlan.conv): the
// first row its output rows read, so that the rows a part reads are
// mostly the ones it wrote, in its own core's cache.
func fillStart(g *geom, part, parts int) int {
	if part == 0 {
		return 0
	}
	if part == parts {
		return g.in[1]
	}
	oh0 := part * g.out[1] / parts
	return min(max(oh0*g.s[1]-g.pb[1], 0), g.in[1])
}

// copyRowsGo copies rows rows of n floats, from src (rows n apart) to
// dst (rows dstride apart).
func copyRowsGo(dst []float32, dstride int, src []float32, n, rows int) {
	for i := range rows {
		copy(dst[i*dstride:i*dstride+n], src[i*n:(i+1)*n])
	}
}

// deinterleave2Go sets even[j] = src[2j] and odd[j] = src[2j+1].
func deinterleave2Go(even, odd, src []float32) {
	for j := range even {
		even[j] = src[2*j]
	}
	for j := range odd {
		odd[j] = src[2*j+1]
	}
}

// conv convolves the cg planes of x with the m filters packed in w (see
// packDirect) into the m planes of y, then adds bias (nil: none) and
// applies ep (nil: none), splitting the output rows across pool's
// threads.
func (p *directPlan) conv(pool *workerPool, sp *directPad, g *geom, x []float32, cg int, w, bias, y []float32, m int, ep *gemmEpilogue) {
	p.prepare(g, cg, sp)
	p.fillBordersOnce(g, cg)
	kdim := cg * g.k[1] * g.k[2]
	OH, OW := g.out[1], g.out[2]
	if len(w) < m*kdim || len(y) < m*OH*OW || (bias != nil && len(bias) < m) {
		panic(fmt.Sprintf("direct conv: %d weights, %d outputs, %d biases for %d channels", len(w), len(y), len(bias), m))
	}
	parts := 1
	if pool != nil {
		parts = min(pool.size(), OH, max(1, m*OH*OW*kdim/(1<<16)))
	}
	if len(p.tmp) < parts {
		p.tmp = make([][directMaxR * directNR]float32, parts)
	}
	if p.flat {
		for len(p.flatOut) < parts {
			p.flatOut = append(p.flatOut, nil)
		}
		// A part's rows, with one more for the rounding of the parts.
		need := m * roundUp((OH/parts+1)*p.pws, directNR)
		for i := range parts {
			if len(p.flatOut[i]) < need {
				p.flatOut[i] = make([]float32, need)
			}
		}
	}
	if p.blocksM != m || p.blocks == nil {
		p.blocks = p.blocks[:0]
		for b := range directBlockCount(m) {
			i0, r := directBlock(m, b)
			p.blocks = append(p.blocks, [2]int{i0, r})
		}
		p.blocksM = m
	}
	p.call = directCall{w: w, bias: bias, y: y, ep: ep, g: g, m: m, kdim: kdim, parts: parts}
	if parts == 1 {
		p.fillRows(g, x, cg, 0, g.in[1])
		p.runPart(0)
	} else {
		// The parts copy the input rows their outputs start at, then,
		// once every row is in, compute: each core reads mostly rows it
		// wrote, and the rows the previous node's part on that core
		// wrote.
		p.fillX, p.fillCG = x, cg
		pool.run(directFill{p}, parts)
		p.fillX = nil
		pool.run(p, parts)
	}
	p.call = directCall{}
}

// directFill is the task of the parts that fill a directPlan's padded
// input together.
type directFill struct{ p *directPlan }

func (f directFill) runPart(part int) {
	p := f.p
	g := p.call.g
	p.fillRows(g, p.fillX, p.fillCG, fillStart(g, part, p.call.parts), fillStart(g, part+1, p.call.parts))
}

// directBandBytes bounds the padded input one band of output rows reads
// (see band): about half of a core's L2 cache on the x86 and arm64
// cores lintel targets.
const directBandBytes = 256 << 10

// band returns how many output rows of geometry g, over cg input
// channels, the kernels compute at a time: all of them when their input
// fits in directBandBytes, else as many as fit (at least one), so that
// each channel block finds the band's input in cache rather than
// streaming the whole padded image again from memory.
func (p *directPlan) band(g *geom, cg int) int {
	OH := g.out[1]
	perRow := 4 * cg * g.s[2] * p.pws // one padded row of every channel and phase
	span := (g.k[1]-1)*g.d[1] + 1     // input rows of one output row
	if perRow <= 0 || (OH-1)*g.s[1]+span <= directBandBytes/perRow {
		return max(OH, 1)
	}
	rows := (directBandBytes/perRow - span) / g.s[1]
	return max(rows+1, 1)
}

// runPart computes output rows [part*OH/parts, (part+1)*OH/parts) of
// the current call, band by band (see band), for each channel block and
// block of gemmKC steps (flatRun or rowsRun), then the activation the
// kernels do not apply.
func (p *directPlan) runPart(part int) {
	cl := &p.call
	g := cl.g
	OH, OW := g.out[1], g.out[2]
	outSz := OH * OW
	oh0, oh1 := part*OH/cl.parts, (part+1)*OH/cl.parts
	m := cl.m
	var last int
	if cl.bias != nil {
		last |= directBias
	}
	act := cl.ep != nil && cl.ep.act.act != actNone
	relu := act && cl.ep.act.act == actRelu
	if relu {
		last |= directRelu
	}
	// Bands of output rows whose input stays in cache while every
	// channel block reads it.
	band := p.band(g, cl.kdim/(g.k[1]*g.k[2]))
	for b0 := oh0; b0 < oh1; b0 += band {
		b1 := min(b0+band, oh1)
		if p.flat {
			p.flatRun(part, b0, b1, last)
		} else {
			p.rowsRun(part, b0, b1, last)
		}
	}
	if act && !relu {
		for o := range m {
			cl.ep.act.apply(cl.y[o*outSz+oh0*OW : o*outSz+oh1*OW])
		}
	}
}

// flatRun computes output rows [oh0, oh1) over the padded width: output
// (oh, ow) is flat position (oh-oh0)*pws + ow, which reads the same
// taps at pad[oh0*rowStep + position + offs[t]], so the rows are one run
// of whole tiles for each channel block; columns [OW, pws) of each row
// are computed and dropped.
func (p *directPlan) flatRun(part, oh0, oh1, last int) {
	cl := &p.call
	g := cl.g
	OH, OW := g.out[1], g.out[2]
	outSz := OH * OW
	m, kdim := cl.m, cl.kdim
	rows := oh1 - oh0
	if rows == 0 {
		return
	}
	n := roundUp(rows*p.pws, directNR)
	out := p.flatOut[part][:m*n]
	for _, blk := range p.blocks {
		i0, r := blk[0], blk[1]
		var bp *float32
		if cl.bias != nil {
			bp = &cl.bias[i0]
		}
		for p0 := 0; p0 < kdim; p0 += gemmKC {
			kcb := min(gemmKC, kdim-p0)
			directKernel(r, kcb, &cl.w[p0*m+i0*kcb], &p.pad[oh0*p.rowStep], &p.offs[p0], &out[i0*n], n,
				directFlags(p0, kcb, kdim, last), bp, 1, n/directNR, 0, 0)
		}
	}
	for o := range m {
		copyStrided(cl.y[o*outSz+oh0*OW:], OW, out[o*n:], p.pws, OW, rows)
	}
}

// rowsRun computes output rows [oh0, oh1) row by row: each row's whole
// tiles in one kernel call for all rows, then each row's last tile when
// the row ends inside it (in the same call where the kernels store part
// of a tile: directKernelRows).
func (p *directPlan) rowsRun(part, oh0, oh1, last int) {
	cl := &p.call
	g := cl.g
	OH, OW := g.out[1], g.out[2]
	outSz := OH * OW
	m, kdim := cl.m, cl.kdim
	tmp := &p.tmp[part]
	full := OW / directNR
	tail := full * directNR
	if tail == OW {
		// Blocks of steps outermost: each block's slice of the band's
		// input stays in cache while every channel block reads it. Each
		// output still sums the blocks of steps in order: the same bits.
		for p0 := 0; p0 < kdim; p0 += gemmKC {
			kcb := min(gemmKC, kdim-p0)
			for _, blk := range p.blocks {
				i0, r := blk[0], blk[1]
				var bp *float32
				if cl.bias != nil {
					bp = &cl.bias[i0]
				}
				directKernel(r, kcb, &cl.w[p0*m+i0*kcb], &p.pad[oh0*p.rowStep], &p.offs[p0], &cl.y[i0*outSz+oh0*OW], outSz,
					directFlags(p0, kcb, kdim, last), bp, oh1-oh0, full, p.rowStep, OW)
			}
		}
		return
	}
	for _, blk := range p.blocks {
		i0, r := blk[0], blk[1]
		var bp *float32
		if cl.bias != nil {
			bp = &cl.bias[i0]
		}
		if tail != OW {
			// Kernels that store part of a tile take each row whole.
			done := true
			for p0 := 0; p0 < kdim && done; p0 += gemmKC {
				kcb := min(gemmKC, kdim-p0)
				done = directKernelRows(r, kcb, &cl.w[p0*m+i0*kcb], &p.pad[oh0*p.rowStep], &p.offs[p0], &cl.y[i0*outSz+oh0*OW], outSz,
					directFlags(p0, kcb, kdim, last), bp, oh1-oh0, full+1, p.rowStep, OW, OW-tail)
			}
			if done {
				continue
			}
		}
		for p0 := 0; p0 < kdim; p0 += gemmKC {
			kcb := min(gemmKC, kdim-p0)
			if full > 0 {
				directKernel(r, kcb, &cl.w[p0*m+i0*kcb], &p.pad[oh0*p.rowStep], &p.offs[p0], &cl.y[i0*outSz+oh0*OW], outSz,
					directFlags(p0, kcb, kdim, last), bp, oh1-oh0, full, p.rowStep, OW)
			}
		}
		if tail == OW {
			continue
		}
		for oh := oh0; oh < oh1; oh++ {
			for p0 := 0; p0 < kdim; p0 += gemmKC {
				kcb := min(gemmKC, kdim-p0)
				directKernel(r, kcb, &cl.w[p0*m+i0*kcb], &p.pad[oh*p.rowStep+tail], &p.offs[p0], &tmp[0], directNR,
					directFlags(p0, kcb, kdim, last), bp, 1, 1, 0, 0)
			}
			for i := range r {
				o := (i0+i)*outSz + oh*OW
				copy(cl.y[o+tail:o+OW], tmp[i*directNR:])
			}
		}
	}
}

// directFlags returns the flags of the kernel call for steps [p0,
// p0+kcb) of kdim: add to the previous blocks' sums after the first,
// last's epilogue on the last.
func directFlags(p0, kcb, kdim, last int) int {
	f := 0
	if p0 > 0 {
		f = directAdd
	}
	if p0+kcb == kdim {
		f |= last
	}
	return f
}

// directGo is the pure-Go direct kernel for r channels: see
// conv_direct_gen.go. Products are rounded before the add (float32(x*y)),
// so the compiler never fuses them, as in goKernel.
func directGo(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow int) {
	for row := range rows {
		for t := range tiles {
			xt := (*float32)(unsafe.Add(unsafe.Pointer(x), 4*(row*xrow+t*directNR)))
			ct := (*float32)(unsafe.Add(unsafe.Pointer(c), 4*(row*crow+t*directNR)))
			directTileGo(r, kc, a, xt, offs, ct, ldc, flags, bias)
		}
	}
}

// directTileGo is directGo for one tile.
func directTileGo(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32) {
	as := unsafe.Slice(a, kc*r)
	os := unsafe.Slice(offs, kc)
	for i := range r {
		var acc [directNR]float32
		for p, o := range os {
			av := as[p*r+i]
			xs := (*[directNR]float32)(unsafe.Slice((*float32)(unsafe.Add(unsafe.Pointer(x), 4*o)), directNR))
			for t := range acc {
				acc[t] += float32(av * xs[t])
			}
		}
		cs := (*[directNR]float32)(unsafe.Slice((*float32)(unsafe.Add(unsafe.Pointer(c), 4*i*ldc)), directNR))
		if flags&directAdd != 0 {
			for t := range acc {
				acc[t] += cs[t]
			}
		}
		if flags&directBias != 0 {
			b := *(*float32)(unsafe.Add(unsafe.Pointer(bias), 4*i))
			for t := range acc {
				acc[t] += b
			}
		}
		if flags&directRelu != 0 {
			actReluGo(acc[:])
		}
		*cs = acc
	}
}
