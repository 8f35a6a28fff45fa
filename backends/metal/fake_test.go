package metal

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unsafe"
)

// fakePage is the fake device's page size: byte slices whose start and
// length are multiples of it are wrapped without a copy.
const fakePage = 4096

// fakeDevice runs plans on the CPU: each kernel has a Go twin that
// computes what the MSL kernel computes, thread for thread where it
// matters (the same formulas, the same index arithmetic). Launches are
// recorded between begin and end and executed at end, as a command buffer
// runs only once committed.
type fakeDevice struct {
	mem      [][]byte
	live     int
	wraps    int
	submits  int
	open     bool
	pending  []fakeLaunch
	compiled bool
	args     map[*byte]any
}

type fakeLaunch struct {
	k       kernelID
	args    []byte
	bufs    [8]binding
	nbufs   int
	groups  [3]uint32
	threads [3]uint32
}

func newFake() *fakeDevice { return &fakeDevice{mem: [][]byte{nil}, args: map[*byte]any{}} }

func (d *fakeDevice) name() string { return "fake" }

func (d *fakeDevice) compile(ks []kernelID) error {
	var missing []string
	for _, k := range ks {
		if !strings.Contains(mslSource, "kernel void "+kernelNames[k]+"(") {
			missing = append(missing, kernelNames[k])
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no kernels %v in the source", missing)
	}
	d.compiled = true
	return nil
}

func (d *fakeDevice) alloc(n int) (bufID, []byte, error) {
	b := make([]byte, n)
	d.mem = append(d.mem, b)
	d.live++
	return bufID(len(d.mem) - 1), b, nil
}

func (d *fakeDevice) wrap(b []byte) (bufID, bool) {
	if len(b) == 0 || len(b)%fakePage != 0 || uintptr(unsafe.Pointer(&b[0]))%fakePage != 0 {
		return 0, false
	}
	d.mem = append(d.mem, b)
	d.live++
	d.wraps++
	return bufID(len(d.mem) - 1), true
}

func (d *fakeDevice) release(b bufID) {
	if b == 0 || int(b) >= len(d.mem) || d.mem[b] == nil {
		panic(fmt.Sprintf("fake: release of unknown buffer %d", b))
	}
	d.mem[b] = nil
	d.live--
}

func (d *fakeDevice) begin() error {
	if d.open {
		return fmt.Errorf("fake: begin inside a command buffer")
	}
	d.open = true
	d.pending = d.pending[:0]
	return nil
}

func (d *fakeDevice) dispatch(k kernelID, args []byte, bufs []binding, groups, threads [3]uint32) {
	if !d.open || !d.compiled {
		panic("fake: dispatch outside a command buffer or before compile")
	}
	l := fakeLaunch{k: k, args: args, nbufs: len(bufs), groups: groups, threads: threads}
	copy(l.bufs[:], bufs)
	d.pending = append(d.pending, l)
}

func (d *fakeDevice) end() error {
	if !d.open {
		return fmt.Errorf("fake: end without begin")
	}
	d.open = false
	d.submits++
	for i := range d.pending {
		if err := d.exec(&d.pending[i]); err != nil {
			return err
		}
	}
	return nil
}

func (d *fakeDevice) close() {}

// view returns binding i of a launch as bytes from its offset.
func (d *fakeDevice) view(l *fakeLaunch, i int) []byte {
	b := l.bufs[i]
	return d.mem[b.buf][b.off:]
}

func f32s(b []byte) []float32 {
	if len(b) < 4 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func i32s(b []byte) []int32 {
	if len(b) < 4 {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func i64s(b []byte) []int64 {
	if len(b) < 8 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// decode returns a launch's arguments struct, decoded once per packed
// argument block (the plan keeps them), so steady-state runs allocate
// nothing.
func decode[A any](d *fakeDevice, args []byte) *A {
	if v, ok := d.args[&args[0]]; ok {
		return v.(*A)
	}
	a := new(A)
	if _, err := binary.Decode(args, binary.LittleEndian, a); err != nil {
		panic(err)
	}
	d.args[&args[0]] = a
	return a
}

// offsets2 mirrors offsets() in kernels.metal.
func offsets2(i uint32, rank uint32, shape, sa, sb []int32) (int, int) {
	oa, ob := 0, 0
	for dd := int(rank) - 1; dd >= 0; dd-- {
		c := int(i % uint32(shape[dd]))
		i /= uint32(shape[dd])
		oa += c * int(sa[dd])
		ob += c * int(sb[dd])
	}
	return oa, ob
}

func erfApprox(x float32) float32 {
	s := float32(1)
	if x < 0 {
		s = -1
	}
	a := float32(math.Abs(float64(x)))
	t := 1 / (1 + 0.3275911*a)
	y := 1 - (((((1.061405429*t-1.453152027)*t)+1.421413741)*t-0.284496736)*t+0.254829592)*t*exp32(-a*a)
	return s * y
}

func exp32(v float32) float32  { return float32(math.Exp(float64(v))) }
func tanh32(v float32) float32 { return float32(math.Tanh(float64(v))) }

func unaryTwin(a *unaryArgs, v float32) float32 {
	switch a.Op {
	case uRelu:
		return max(v, 0)
	case uSigmoid:
		return 1 / (1 + exp32(-v))
	case uTanh:
		return tanh32(v)
	case uExp:
		return exp32(v)
	case uLog:
		return float32(math.Log(float64(v)))
	case uSqrt:
		return float32(math.Sqrt(float64(v)))
	case uNeg:
		return -v
	case uAbs:
		return float32(math.Abs(float64(v)))
	case uErf:
		return erfApprox(v)
	case uGelu:
		return 0.5 * v * (1 + erfApprox(v*0.70710678))
	case uGeluTanh:
		return 0.5 * v * (1 + tanh32(0.7978845608*(v+0.044715*v*v*v)))
	case uLeaky:
		if v >= 0 {
			return v
		}
		return a.Alpha * v
	case uClip:
		return min(max(v, a.Alpha), a.Beta)
	case uHardSigmoid:
		return max(0, min(1, a.Alpha*v+a.Beta))
	case uHardSwish:
		return v * max(0, min(1, v/6+0.5))
	case uReciprocal:
		return 1 / v
	}
	return v
}

func binaryTwin(op uint32, u, v float32) float32 {
	switch op {
	case bAdd:
		return u + v
	case bSub:
		return u - v
	case bMul:
		return u * v
	case bDiv:
		return u / v
	case bPow:
		return float32(math.Pow(float64(u), float64(v)))
	case bMin:
		return min(u, v)
	case bMax:
		return max(u, v)
	}
	return 0
}

func compareTwin(op uint32, u, v float32) bool {
	switch op {
	case bEqual:
		return u == v
	case bLess:
		return u < v
	case bGreater:
		return u > v
	case bLessEq:
		return u <= v
	case bGreaterEq:
		return u >= v
	}
	return false
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func loadAny(p []byte, t uint32, i int) float32 {
	switch t {
	case tI32:
		return float32(i32s(p)[i])
	case tI64:
		return float32(i64s(p)[i])
	case tBool:
		if p[i] != 0 {
			return 1
		}
		return 0
	}
	return f32s(p)[i]
}

func padCountTwin(start, k, d, limit int) int {
	if limit <= start {
		return 0
	}
	return min(k, (limit-start+d-1)/d)
}

// exec runs one launch.
func (d *fakeDevice) exec(l *fakeLaunch) error {
	threads := int(l.groups[0]) * int(l.threads[0])
	switch l.k {
	case kUnary:
		a := decode[unaryArgs](d, l.args)
		x, y := f32s(d.view(l, 0)), f32s(d.view(l, 1))
		for i := range min(threads, int(a.N)) {
			y[i] = unaryTwin(a, x[i])
		}
	case kNot:
		a := decode[unaryArgs](d, l.args)
		x, y := d.view(l, 0), d.view(l, 1)
		for i := range min(threads, int(a.N)) {
			y[i] = b2u(x[i] == 0)
		}
	case kBinary, kCompare:
		a := decode[binaryArgs](d, l.args)
		x, z := f32s(d.view(l, 0)), f32s(d.view(l, 1))
		for i := range min(threads, int(a.N)) {
			oa, ob := offsets2(uint32(i), a.Rank, a.Shape[:], a.SA[:], a.SB[:])
			if l.k == kBinary {
				f32s(d.view(l, 2))[i] = binaryTwin(a.Op, x[oa], z[ob])
			} else {
				d.view(l, 2)[i] = b2u(compareTwin(a.Op, x[oa], z[ob]))
			}
		}
	case kWhere:
		a := decode[whereArgs](d, l.args)
		c, x, z, y := d.view(l, 0), f32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3))
		for i := range min(threads, int(a.N)) {
			j := uint32(i)
			oc, ox, oz := 0, 0, 0
			for dd := int(a.Rank) - 1; dd >= 0; dd-- {
				k := int(j % uint32(a.Shape[dd]))
				j /= uint32(a.Shape[dd])
				oc += k * int(a.SC[dd])
				ox += k * int(a.SA[dd])
				oz += k * int(a.SB[dd])
			}
			if c[oc] != 0 {
				y[i] = x[ox]
			} else {
				y[i] = z[oz]
			}
		}
	case kCopy32, kCopy64, kCopy8:
		a := decode[copyArgs](d, l.args)
		size := 4
		switch l.k {
		case kCopy64:
			size = 8
		case kCopy8:
			size = 1
		}
		x, y := d.view(l, 0), d.view(l, 1)
		for i := range min(threads, int(a.N)) {
			oi, oo := offsets2(uint32(i), a.Rank, a.Shape[:], a.SIn[:], a.SOut[:])
			oi += int(a.InOff)
			oo += int(a.OutOff)
			copy(y[oo*size:(oo+1)*size], x[oi*size:(oi+1)*size])
		}
	case kCast:
		a := decode[castArgs](d, l.args)
		x, y := d.view(l, 0), d.view(l, 1)
		for i := range min(threads, int(a.N)) {
			v := loadAny(x, a.From, i)
			switch a.To {
			case tI32:
				i32s(y)[i] = int32(v)
			case tI64:
				i64s(y)[i] = int64(v)
			case tBool:
				y[i] = b2u(v != 0)
			default:
				f32s(y)[i] = v
			}
		}
	case kGemm:
		d.gemm(l)
	case kSoftmax:
		a := decode[softmaxArgs](d, l.args)
		x, y := f32s(d.view(l, 0)), f32s(d.view(l, 1))
		for g := range min(threads, int(a.Outer*a.Inner)) {
			o, in := g/int(a.Inner), g%int(a.Inner)
			base := o*int(a.Axis)*int(a.Inner) + in
			mx := float32(math.Inf(-1))
			for j := range int(a.Axis) {
				mx = max(mx, x[base+j*int(a.Inner)])
			}
			var sum float32
			for j := range int(a.Axis) {
				sum += exp32(x[base+j*int(a.Inner)] - mx)
			}
			for j := range int(a.Axis) {
				v := x[base+j*int(a.Inner)]
				if a.UseLog != 0 {
					y[base+j*int(a.Inner)] = v - mx - float32(math.Log(float64(sum)))
				} else {
					y[base+j*int(a.Inner)] = exp32(v-mx) / sum
				}
			}
		}
	case kLayerNorm:
		a := decode[layerNormArgs](d, l.args)
		x, s, b, y := f32s(d.view(l, 0)), f32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3))
		cols := int(a.Cols)
		for r := range min(threads, int(a.Rows)) {
			row := x[r*cols : (r+1)*cols]
			var mean, vr float32
			for _, v := range row {
				mean += v
			}
			mean /= float32(cols)
			for _, v := range row {
				vr += (v - mean) * (v - mean)
			}
			vr /= float32(cols)
			inv := 1 / float32(math.Sqrt(float64(vr+a.Eps)))
			for j, v := range row {
				o := (v - mean) * inv * s[j]
				if a.HasBias != 0 {
					o += b[j]
				}
				y[r*cols+j] = o
			}
		}
	case kReduce:
		a := decode[reduceArgs](d, l.args)
		x, y := f32s(d.view(l, 0)), f32s(d.view(l, 1))
		for g := range min(threads, int(a.N)) {
			base, _ := offsets2(uint32(g), a.Rank, a.OShape[:], a.OStride[:], a.OStride[:])
			var acc float32
			switch a.Op {
			case rMax:
				acc = float32(math.Inf(-1))
			case rMin:
				acc = float32(math.Inf(1))
			}
			for r := range int(a.NRed) {
				off, _ := offsets2(uint32(r), a.Rank, a.RShape[:], a.RStride[:], a.RStride[:])
				v := x[base+off]
				switch a.Op {
				case rMax:
					acc = max(acc, v)
				case rMin:
					acc = min(acc, v)
				default:
					acc += v
				}
			}
			if a.Op == rMean {
				acc /= float32(a.NRed)
			}
			y[g] = acc
		}
	case kArgMax:
		a := decode[argMaxArgs](d, l.args)
		x, y := f32s(d.view(l, 0)), i64s(d.view(l, 1))
		for g := range min(threads, int(a.Outer*a.Inner)) {
			o, in := g/int(a.Inner), g%int(a.Inner)
			base := o*int(a.Axis)*int(a.Inner) + in
			best, bi := x[base], 0
			for j := 1; j < int(a.Axis); j++ {
				v := x[base+j*int(a.Inner)]
				if v > best || (a.SelectLast != 0 && v == best) {
					best, bi = v, j
				}
			}
			y[g] = int64(bi)
		}
	case kGather:
		a := decode[gatherArgs](d, l.args)
		x, y := f32s(d.view(l, 0)), f32s(d.view(l, 2))
		idx := d.view(l, 1)
		for g := range min(threads, int(a.N)) {
			in := g % int(a.Inner)
			t := g / int(a.Inner)
			j, o := t%int(a.NIdx), t/int(a.NIdx)
			var k int64
			if a.Idx64 != 0 {
				k = i64s(idx)[j]
			} else {
				k = int64(i32s(idx)[j])
			}
			if k < 0 {
				k += int64(a.AxisLen)
			}
			if k < 0 || k >= int64(a.AxisLen) {
				y[g] = 0
				continue
			}
			y[g] = x[(o*int(a.AxisLen)+int(k))*int(a.Inner)+in]
		}
	case kConv2D:
		d.conv(l)
	case kPool2D:
		d.pool(l)
	case kBatchNorm:
		a := decode[batchNormArgs](d, l.args)
		x, s, b, mean, vr, y := f32s(d.view(l, 0)), f32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3)), f32s(d.view(l, 4)), f32s(d.view(l, 5))
		for g := range min(threads, int(a.N)) {
			c := (g / int(a.Inner)) % int(a.C)
			y[g] = (x[g]-mean[c])/float32(math.Sqrt(float64(vr[c]+a.Eps)))*s[c] + b[c]
		}
	default:
		return fmt.Errorf("fake: kernel %d has no twin", l.k)
	}
	return nil
}

func (d *fakeDevice) gemm(l *fakeLaunch) {
	a := decode[gemmArgs](d, l.args)
	x, w, c, y := f32s(d.view(l, 0)), f32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3))
	rows := int(l.groups[1]) * gemmTile
	cols := int(l.groups[0]) * gemmTile
	for b := range int(l.groups[2]) {
		oa, ob := offsets2(uint32(b), a.BRank, a.BShape[:], a.BSA[:], a.BSB[:])
		for row := range min(rows, int(a.M)) {
			for col := range min(cols, int(a.N)) {
				var acc float32
				for k := range int(a.K) {
					acc = float32(math.FMA(float64(x[oa+row*int(a.SAM)+k*int(a.SAK)]), float64(w[ob+k*int(a.SBK)+col*int(a.SBN)]), float64(acc)))
				}
				r := a.Alpha * acc
				if a.HasC != 0 {
					r += a.Beta * c[row*int(a.SCM)+col*int(a.SCN)]
				}
				y[(b*int(a.M)+row)*int(a.N)+col] = r
			}
		}
	}
}

func (d *fakeDevice) conv(l *fakeLaunch) {
	a := decode[convArgs](d, l.args)
	x, w, bias, y := f32s(d.view(l, 0)), f32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3))
	threads := int(l.groups[0]) * int(l.threads[0])
	for g := range min(threads, int(a.N)) {
		ox := g % int(a.OW)
		t := g / int(a.OW)
		oy := t % int(a.OH)
		t /= int(a.OH)
		m, b := t%int(a.M), t/int(a.M)
		cg, mg := int(a.C/a.Group), int(a.M/a.Group)
		c0 := (m / mg) * cg
		var acc float32
		if a.HasBias != 0 {
			acc = bias[m]
		}
		y0 := oy*int(a.SH) - int(a.PH)
		x0 := ox*int(a.SW) - int(a.PW)
		for ci := range cg {
			xp := x[((b*int(a.C)+c0+ci)*int(a.H))*int(a.W):]
			wp := w[((m*cg+ci)*int(a.KH))*int(a.KW):]
			for ky := range int(a.KH) {
				iy := y0 + ky*int(a.DH)
				if iy < 0 || iy >= int(a.H) {
					continue
				}
				for kx := range int(a.KW) {
					ix := x0 + kx*int(a.DW)
					if ix < 0 || ix >= int(a.W) {
						continue
					}
					acc = float32(math.FMA(float64(xp[iy*int(a.W)+ix]), float64(wp[ky*int(a.KW)+kx]), float64(acc)))
				}
			}
		}
		y[g] = acc
	}
}

func (d *fakeDevice) pool(l *fakeLaunch) {
	a := decode[poolArgs](d, l.args)
	x, y := f32s(d.view(l, 0)), f32s(d.view(l, 1))
	threads := int(l.groups[0]) * int(l.threads[0])
	for g := range min(threads, int(a.N)) {
		ox := g % int(a.OW)
		t := g / int(a.OW)
		oy, p := t%int(a.OH), t/int(a.OH)
		xp := x[p*int(a.H)*int(a.W):]
		y0 := oy*int(a.SH) - int(a.PH)
		x0 := ox*int(a.SW) - int(a.PW)
		best := float32(-math.MaxFloat32)
		var sum float32
		cnt := 0
		for ky := range int(a.KH) {
			iy := y0 + ky*int(a.DH)
			if iy < 0 || iy >= int(a.H) {
				continue
			}
			for kx := range int(a.KW) {
				ix := x0 + kx*int(a.DW)
				if ix < 0 || ix >= int(a.W) {
					continue
				}
				v := xp[iy*int(a.W)+ix]
				best = max(best, v)
				sum += v
				cnt++
			}
		}
		if a.IsMax != 0 {
			y[g] = best
			continue
		}
		if a.IncludePad != 0 {
			cnt = padCountTwin(y0, int(a.KH), int(a.DH), int(a.H)+int(a.PEH)) * padCountTwin(x0, int(a.KW), int(a.DW), int(a.W)+int(a.PEW))
		}
		if cnt > 0 {
			y[g] = sum / float32(cnt)
		} else {
			y[g] = 0
		}
	}
}
