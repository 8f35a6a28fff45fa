// Package gputest holds the fake GPU device both GPU backends test their
// plans on: a Go twin of every kernel, run on the CPU with the kernels'
// formulas and index arithmetic, in two modes. New gives a device whose
// memory the host sees, as Metal's shared storage; NewRecorder gives one
// that behaves as CUDA: Alloc returns no host bytes, Wrap always fails,
// and passes are recorded once and replayed by Run, with device-to-device
// transfers for payloads in its memory.
//
// Rules: the package is test support, imported by tests only; its kernel
// twins panic on a malformed launch, which a correct plan never makes.
package gputest

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/payload"
)

// Page is the fake device's page size: byte slices whose start and length
// are multiples of it are wrapped without a copy (host-visible mode).
const Page = 4096

// Device runs plans on the CPU: each kernel has a Go twin that computes
// what the device kernel computes, thread for thread where it matters.
// Launches are queued between Begin and End and executed at End, as a
// command buffer runs only once committed.
type Device struct {
	mem [][]byte
	// hidden is set for a Recorder: the host gets no bytes of its
	// buffers; own marks the buffers it allocated (not wrapped).
	hidden bool
	own    []bool
	// Live counts the buffers allocated or wrapped and not released,
	// Wraps the buffers ever wrapped, Submits the submissions (End or
	// Run calls).
	Live, Wraps, Submits int
	open                 bool
	recording            bool
	pending              []launch
	compiled             bool
	args                 map[*byte]any
}

type launch struct {
	k       gpu.KernelID
	args    []byte
	bufs    [8]gpu.Binding
	nbufs   int
	groups  [3]uint32
	threads [3]uint32
}

// New returns a fake device whose memory the host sees.
func New() *Device {
	return &Device{mem: [][]byte{nil}, own: []bool{false}, args: map[*byte]any{}}
}

// Name implements gpu.Device.
func (d *Device) Name() string { return "fake" }

// Compile implements gpu.Device: every kernel must have a twin.
func (d *Device) Compile(ks []gpu.KernelID) error {
	for _, k := range ks {
		if k >= gpu.NumKernels || gpu.KernelNames[k] == "" {
			return fmt.Errorf("fake: no kernel %d", k)
		}
	}
	d.compiled = true
	return nil
}

// Alloc implements gpu.Device; a Recorder returns no host bytes.
func (d *Device) Alloc(n int) (gpu.BufID, []byte, error) {
	b := make([]byte, n)
	d.mem = append(d.mem, b)
	d.own = append(d.own, true)
	d.Live++
	if d.hidden {
		return gpu.BufID(len(d.mem) - 1), nil, nil
	}
	return gpu.BufID(len(d.mem) - 1), b, nil
}

// Wrap implements gpu.Device: page-aligned bytes are used in place, never
// on a Recorder.
func (d *Device) Wrap(b []byte) (gpu.BufID, bool) {
	if d.hidden || len(b) == 0 || len(b)%Page != 0 || uintptr(unsafe.Pointer(&b[0]))%Page != 0 {
		return 0, false
	}
	d.mem = append(d.mem, b)
	d.own = append(d.own, false)
	d.Live++
	d.Wraps++
	return gpu.BufID(len(d.mem) - 1), true
}

// Release implements gpu.Device.
func (d *Device) Release(b gpu.BufID) {
	if b == 0 || int(b) >= len(d.mem) || d.mem[b] == nil {
		panic(fmt.Sprintf("fake: release of unknown buffer %d", b))
	}
	d.mem[b] = nil
	d.Live--
}

// Upload implements gpu.Device.
func (d *Device) Upload(dst gpu.Binding, src []byte) error {
	if dst.Buf == 0 || int(dst.Buf) >= len(d.mem) || d.mem[dst.Buf] == nil {
		return fmt.Errorf("fake: upload to unknown buffer %d", dst.Buf)
	}
	if dst.Off < 0 || dst.Off+len(src) > len(d.mem[dst.Buf]) {
		return fmt.Errorf("fake: upload of %d bytes at %d overflows buffer %d", len(src), dst.Off, dst.Buf)
	}
	copy(d.mem[dst.Buf][dst.Off:], src)
	return nil
}

// Begin implements gpu.Device.
func (d *Device) Begin() error {
	if d.open || d.recording {
		return fmt.Errorf("fake: begin inside a command buffer")
	}
	d.open = true
	d.pending = d.pending[:0]
	return nil
}

// Dispatch implements gpu.Device: the launch is queued, or recorded.
func (d *Device) Dispatch(k gpu.KernelID, args []byte, bufs []gpu.Binding, groups, threads [3]uint32) {
	if !(d.open || d.recording) || !d.compiled {
		panic("fake: dispatch outside a command buffer or before compile")
	}
	l := launch{k: k, args: args, nbufs: len(bufs), groups: groups, threads: threads}
	copy(l.bufs[:], bufs)
	d.pending = append(d.pending, l)
}

// End implements gpu.Device: it runs the queued launches.
func (d *Device) End() error {
	if !d.open {
		return fmt.Errorf("fake: end without begin")
	}
	d.open = false
	d.Submits++
	return d.runAll(d.pending)
}

func (d *Device) runAll(ls []launch) error {
	for i := range ls {
		if err := d.exec(&ls[i]); err != nil {
			return err
		}
	}
	return nil
}

// Close implements gpu.Device.
func (d *Device) Close() {}

// Recorder is the fake device in CUDA's mode: its memory is not the
// host's, and it records passes and replays them.
type Recorder struct {
	*Device
	progs [][]launch
	// Records counts the passes recorded, Runs the replays, Stages the
	// stage buffers live.
	Records, Runs, Stages int
}

// NewRecorder returns a fake device whose memory the host does not see.
func NewRecorder() *Recorder {
	d := New()
	d.hidden = true
	return &Recorder{Device: d, progs: [][]launch{nil}}
}

// BeginRecord implements gpu.Recorder.
func (r *Recorder) BeginRecord() error {
	if r.open || r.recording {
		return fmt.Errorf("fake: recording inside a submission")
	}
	r.recording = true
	r.pending = nil
	return nil
}

// EndRecord implements gpu.Recorder.
func (r *Recorder) EndRecord() (gpu.ProgID, error) {
	if !r.recording {
		return 0, fmt.Errorf("fake: end of a recording never begun")
	}
	r.recording = false
	r.progs = append(r.progs, r.pending)
	r.pending = nil
	r.Records++
	return gpu.ProgID(len(r.progs) - 1), nil
}

// Drop implements gpu.Recorder.
func (r *Recorder) Drop(p gpu.ProgID) {
	if p == 0 || int(p) >= len(r.progs) {
		panic(fmt.Sprintf("fake: drop of unknown program %d", p))
	}
	r.progs[p] = nil
}

// Run implements gpu.Recorder: it copies ins, runs the program's
// launches, copies outs back.
func (r *Recorder) Run(p gpu.ProgID, ins, outs []gpu.Transfer) error {
	if p == 0 || int(p) >= len(r.progs) {
		return fmt.Errorf("fake: run of unknown program %d", p)
	}
	for i := range ins {
		t := &ins[i]
		dst, err := r.bound(t.At, size(t))
		if err != nil {
			return err
		}
		src := t.Host
		if t.DevAddr != 0 {
			if src = r.at(t.DevAddr, size(t)); src == nil {
				return fmt.Errorf("fake: transfer from unknown device address %#x", t.DevAddr)
			}
		}
		copy(dst, src[:size(t)])
	}
	r.Submits++
	r.Runs++
	if err := r.runAll(r.progs[p]); err != nil {
		return err
	}
	for i := range outs {
		t := &outs[i]
		src, err := r.bound(t.At, size(t))
		if err != nil {
			return err
		}
		dst := t.Host
		if t.DevAddr != 0 {
			if dst = r.at(t.DevAddr, size(t)); dst == nil {
				return fmt.Errorf("fake: transfer to unknown device address %#x", t.DevAddr)
			}
		}
		copy(dst[:size(t)], src)
	}
	return nil
}

func size(t *gpu.Transfer) int {
	if t.Size > 0 {
		return t.Size
	}
	return len(t.Host)
}

// bound returns n bytes of a binding.
func (r *Recorder) bound(b gpu.Binding, n int) ([]byte, error) {
	if b.Buf == 0 || int(b.Buf) >= len(r.mem) || r.mem[b.Buf] == nil || b.Off < 0 || b.Off+n > len(r.mem[b.Buf]) {
		return nil, fmt.Errorf("fake: transfer of %d bytes at buffer %d offset %d is out of bounds", n, b.Buf, b.Off)
	}
	return r.mem[b.Buf][b.Off : b.Off+n], nil
}

// at returns the n bytes at device address a, or nil when they are not
// within one allocation.
func (r *Recorder) at(a uintptr, n int) []byte {
	for i, m := range r.mem {
		if m == nil || !r.own[i] || len(m) == 0 {
			continue
		}
		base := uintptr(unsafe.Pointer(&m[0]))
		if a >= base && a+uintptr(n) <= base+uintptr(len(m)) {
			off := int(a - base)
			return m[off : off+n]
		}
	}
	return nil
}

// DeviceAddr implements gpu.Recorder: b must lie within one of the
// device's allocations.
func (r *Recorder) DeviceAddr(b []byte) (uintptr, bool) {
	if len(b) == 0 {
		return 0, false
	}
	a := uintptr(unsafe.Pointer(&b[0]))
	if r.at(a, len(b)) == nil {
		return 0, false
	}
	return a, true
}

// DeviceBytes allocates n bytes of the fake's device memory and returns
// them, as a device tensor's storage: tests fill and read them directly,
// which a real device's memory would not allow.
func (r *Recorder) DeviceBytes(n int) []byte {
	b, _, _ := r.Alloc(n)
	return r.mem[b]
}

// AllocStage implements gpu.Recorder.
func (r *Recorder) AllocStage(n int) ([]byte, error) {
	r.Stages++
	return make([]byte, n), nil
}

// FreeStage implements gpu.Recorder.
func (r *Recorder) FreeStage([]byte) { r.Stages-- }

// view returns binding i of a launch as bytes from its offset.
func (d *Device) view(l *launch, i int) []byte {
	b := l.bufs[i]
	return d.mem[b.Buf][b.Off:]
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
func decode[A any](d *Device, args []byte) *A {
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

func unaryTwin(a *gpu.UnaryArgs, v float32) float32 {
	switch a.Op {
	case gpu.URelu:
		return max(v, 0)
	case gpu.USigmoid:
		return 1 / (1 + exp32(-v))
	case gpu.UTanh:
		return tanh32(v)
	case gpu.UExp:
		return exp32(v)
	case gpu.ULog:
		return float32(math.Log(float64(v)))
	case gpu.USqrt:
		return float32(math.Sqrt(float64(v)))
	case gpu.UNeg:
		return -v
	case gpu.UAbs:
		return float32(math.Abs(float64(v)))
	case gpu.UErf:
		return erfApprox(v)
	case gpu.UGelu:
		return 0.5 * v * (1 + erfApprox(v*0.70710678))
	case gpu.UGeluTanh:
		return 0.5 * v * (1 + tanh32(0.7978845608*(v+0.044715*v*v*v)))
	case gpu.ULeaky:
		if v >= 0 {
			return v
		}
		return a.Alpha * v
	case gpu.UClip:
		return min(max(v, a.Alpha), a.Beta)
	case gpu.UHardSigmoid:
		return max(0, min(1, a.Alpha*v+a.Beta))
	case gpu.UHardSwish:
		return v * max(0, min(1, v/6+0.5))
	case gpu.UReciprocal:
		return 1 / v
	}
	return v
}

func binaryTwin(op uint32, u, v float32) float32 {
	switch op {
	case gpu.BAdd:
		return u + v
	case gpu.BSub:
		return u - v
	case gpu.BMul:
		return u * v
	case gpu.BDiv:
		return u / v
	case gpu.BPow:
		return float32(math.Pow(float64(u), float64(v)))
	case gpu.BMin:
		return min(u, v)
	case gpu.BMax:
		return max(u, v)
	}
	return 0
}

func compareTwin(op uint32, u, v float32) bool {
	switch op {
	case gpu.BEqual:
		return u == v
	case gpu.BLess:
		return u < v
	case gpu.BGreater:
		return u > v
	case gpu.BLessEq:
		return u <= v
	case gpu.BGreaterEq:
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
	case gpu.TI32:
		return float32(i32s(p)[i])
	case gpu.TI64:
		return float32(i64s(p)[i])
	case gpu.TBool:
		if p[i] != 0 {
			return 1
		}
		return 0
	case gpu.TF16:
		return float16.Frombits(binary.LittleEndian.Uint16(p[2*i:])).Float32()
	case gpu.TBF16:
		return math.Float32frombits(uint32(binary.LittleEndian.Uint16(p[2*i:])) << 16)
	}
	return f32s(p)[i]
}

// narrowTwin mirrors lt_f2h and lt_f2bf of kernels.cu: v rounded to
// nearest even into float16 or bfloat16 bits; NaN becomes the canonical
// quiet NaN 0x7fff (cvt.rn.f16.f32 and cvt.rn.bf16.f32 on the GPU).
func narrowTwin(t uint32, v float32) uint16 {
	if v != v {
		return 0x7fff
	}
	if t == gpu.TF16 {
		return float16.Fromfloat32(v).Bits()
	}
	return uint16(payload.BFloat16From(v))
}

func padCountTwin(start, k, d, limit int) int {
	if limit <= start {
		return 0
	}
	return min(k, (limit-start+d-1)/d)
}

// exec runs one launch on its twin.
func (d *Device) exec(l *launch) error {
	threads := int(l.groups[0]) * int(l.threads[0])
	switch l.k {
	case gpu.KUnary:
		a := decode[gpu.UnaryArgs](d, l.args)
		x, y := f32s(d.view(l, 0)), f32s(d.view(l, 1))
		for i := range min(threads, int(a.N)) {
			y[i] = unaryTwin(a, x[i])
		}
	case gpu.KNot:
		a := decode[gpu.UnaryArgs](d, l.args)
		x, y := d.view(l, 0), d.view(l, 1)
		for i := range min(threads, int(a.N)) {
			y[i] = b2u(x[i] == 0)
		}
	case gpu.KBinary, gpu.KCompare:
		a := decode[gpu.BinaryArgs](d, l.args)
		x, z := f32s(d.view(l, 0)), f32s(d.view(l, 1))
		for i := range min(threads, int(a.N)) {
			oa, ob := offsets2(uint32(i), a.Rank, a.Shape[:], a.SA[:], a.SB[:])
			if l.k == gpu.KBinary {
				f32s(d.view(l, 2))[i] = binaryTwin(a.Op, x[oa], z[ob])
			} else {
				d.view(l, 2)[i] = b2u(compareTwin(a.Op, x[oa], z[ob]))
			}
		}
	case gpu.KWhere:
		a := decode[gpu.WhereArgs](d, l.args)
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
	case gpu.KCopy32, gpu.KCopy64, gpu.KCopy8:
		a := decode[gpu.CopyArgs](d, l.args)
		size := 4
		switch l.k {
		case gpu.KCopy64:
			size = 8
		case gpu.KCopy8:
			size = 1
		}
		x, y := d.view(l, 0), d.view(l, 1)
		for i := range min(threads, int(a.N)) {
			oi, oo := offsets2(uint32(i), a.Rank, a.Shape[:], a.SIn[:], a.SOut[:])
			oi += int(a.InOff)
			oo += int(a.OutOff)
			copy(y[oo*size:(oo+1)*size], x[oi*size:(oi+1)*size])
		}
	case gpu.KCast:
		a := decode[gpu.CastArgs](d, l.args)
		x, y := d.view(l, 0), d.view(l, 1)
		for i := range min(threads, int(a.N)) {
			v := loadAny(x, a.From, i)
			switch a.To {
			case gpu.TI32:
				i32s(y)[i] = int32(v)
			case gpu.TI64:
				i64s(y)[i] = int64(v)
			case gpu.TBool:
				y[i] = b2u(v != 0)
			case gpu.TF16, gpu.TBF16:
				binary.LittleEndian.PutUint16(y[2*i:], narrowTwin(a.To, v))
			default:
				f32s(y)[i] = v
			}
		}
	case gpu.KGemm:
		d.gemm(l)
	case gpu.KSoftmax:
		a := decode[gpu.SoftmaxArgs](d, l.args)
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
	case gpu.KLayerNorm:
		a := decode[gpu.LayerNormArgs](d, l.args)
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
	case gpu.KReduce:
		a := decode[gpu.ReduceArgs](d, l.args)
		x, y := f32s(d.view(l, 0)), f32s(d.view(l, 1))
		for g := range min(threads, int(a.N)) {
			base, _ := offsets2(uint32(g), a.Rank, a.OShape[:], a.OStride[:], a.OStride[:])
			var acc float32
			switch a.Op {
			case gpu.RMax:
				acc = float32(math.Inf(-1))
			case gpu.RMin:
				acc = float32(math.Inf(1))
			}
			for r := range int(a.NRed) {
				off, _ := offsets2(uint32(r), a.Rank, a.RShape[:], a.RStride[:], a.RStride[:])
				v := x[base+off]
				switch a.Op {
				case gpu.RMax:
					acc = max(acc, v)
				case gpu.RMin:
					acc = min(acc, v)
				default:
					acc += v
				}
			}
			if a.Op == gpu.RMean {
				acc /= float32(a.NRed)
			}
			y[g] = acc
		}
	case gpu.KArgMax:
		a := decode[gpu.ArgMaxArgs](d, l.args)
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
	case gpu.KGather:
		a := decode[gpu.GatherArgs](d, l.args)
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
	case gpu.KConv2D:
		d.conv(l)
	case gpu.KPool2D:
		d.pool(l)
	case gpu.KBatchNorm:
		a := decode[gpu.BatchNormArgs](d, l.args)
		x, s, b, mean, vr, y := f32s(d.view(l, 0)), f32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3)), f32s(d.view(l, 4)), f32s(d.view(l, 5))
		for g := range min(threads, int(a.N)) {
			c := (g / int(a.Inner)) % int(a.C)
			y[g] = (x[g]-mean[c])/float32(math.Sqrt(float64(vr[c]+a.Eps)))*s[c] + b[c]
		}
	case gpu.KIm2Col:
		d.im2col(l)
	case gpu.KResize:
		d.resize(l)
	case gpu.KPad:
		d.pad(l)
	case gpu.KConvTranspose:
		d.convTranspose(l)
	default:
		return fmt.Errorf("fake: kernel %d has no twin", l.k)
	}
	return nil
}

func (d *Device) gemm(l *launch) {
	a := decode[gpu.GemmArgs](d, l.args)
	if a.ABType != gpu.TF32 {
		d.gemmHalf(l, a)
		return
	}
	x, w, c, y := f32s(d.view(l, 0)), f32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3))
	rows := int(l.groups[1]) * gpu.GemmTile
	cols := int(l.groups[0]) * gpu.GemmTile
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

// gemmHalf is the twin of a GEMM over 16-bit A and B (cuBLAS GemmEx with
// float32 compute, or CUDA's gemm_f32 reading ab_type): each operand is
// widened to float32, exactly, and the sums are float32 as in gemm.
func (d *Device) gemmHalf(l *launch, a *gpu.GemmArgs) {
	x, w, c, y := d.view(l, 0), d.view(l, 1), f32s(d.view(l, 2)), f32s(d.view(l, 3))
	rows := int(l.groups[1]) * gpu.GemmTile
	cols := int(l.groups[0]) * gpu.GemmTile
	for b := range int(l.groups[2]) {
		oa, ob := offsets2(uint32(b), a.BRank, a.BShape[:], a.BSA[:], a.BSB[:])
		for row := range min(rows, int(a.M)) {
			for col := range min(cols, int(a.N)) {
				var acc float32
				for k := range int(a.K) {
					u := loadAny(x, a.ABType, oa+row*int(a.SAM)+k*int(a.SAK))
					v := loadAny(w, a.ABType, ob+k*int(a.SBK)+col*int(a.SBN))
					acc = float32(math.FMA(float64(u), float64(v), float64(acc)))
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

func (d *Device) conv(l *launch) {
	a := decode[gpu.ConvArgs](d, l.args)
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

func (d *Device) pool(l *launch) {
	a := decode[gpu.PoolArgs](d, l.args)
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

func (d *Device) im2col(l *launch) {
	a := decode[gpu.ConvArgs](d, l.args)
	x, col := f32s(d.view(l, 0)), f32s(d.view(l, 1))
	threads := int(l.groups[0]) * int(l.threads[0])
	P := int(a.OH * a.OW)
	cg := int(a.C / a.Group)
	kk := cg * int(a.KH*a.KW)
	for g := range min(threads, int(a.N)) {
		p, t := g%P, g/P
		k := t % kk
		t /= kk
		grp, b := t%int(a.Group), t/int(a.Group)
		kx, ky := k%int(a.KW), (k/int(a.KW))%int(a.KH)
		c := grp*cg + k/int(a.KW*a.KH)
		iy := (p/int(a.OW))*int(a.SH) - int(a.PH) + ky*int(a.DH)
		ix := (p%int(a.OW))*int(a.SW) - int(a.PW) + kx*int(a.DW)
		var v float32
		if iy >= 0 && iy < int(a.H) && ix >= 0 && ix < int(a.W) {
			v = x[((b*int(a.C)+c)*int(a.H)+iy)*int(a.W)+ix]
		}
		col[g] = v
	}
}

func (d *Device) resize(l *launch) {
	a := decode[gpu.ResizeArgs](d, l.args)
	x, idx, w, y := f32s(d.view(l, 0)), i32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3))
	threads := int(l.groups[0]) * int(l.threads[0])
	K := int(a.K)
	for g := range min(threads, int(a.N)) {
		ii, t := g%int(a.Inner), g/int(a.Inner)
		j, o := t%int(a.NOut), t/int(a.NOut)
		ti, tw := idx[j*K:j*K+K], w[j*K:j*K+K]
		if ti[0] < 0 {
			y[g] = a.Extrap
			continue
		}
		s := x[o*int(a.NIn)*int(a.Inner)+ii:]
		sum := tw[0] * s[int(ti[0])*int(a.Inner)]
		for q := 1; q < K; q++ {
			if tw[q] != 0 {
				sum += tw[q] * s[int(ti[q])*int(a.Inner)]
			}
		}
		y[g] = sum
	}
}

func (d *Device) pad(l *launch) {
	a := decode[gpu.PadArgs](d, l.args)
	x, y := f32s(d.view(l, 0)), f32s(d.view(l, 1))
	threads := int(l.groups[0]) * int(l.threads[0])
outer:
	for g := range min(threads, int(a.N)) {
		i := g
		off, stride := 0, 1
		for dd := int(a.Rank) - 1; dd >= 0; dd-- {
			c := i % int(a.OShape[dd])
			i /= int(a.OShape[dd])
			n := int(a.IShape[dd])
			s := c - int(a.Before[dd])
			if s < 0 || s >= n {
				switch {
				case a.Mode == gpu.PConstant:
					y[g] = a.Value
					continue outer
				case a.Mode == gpu.PWrap:
					s = ((s % n) + n) % n
				case a.Mode == gpu.PEdge || n == 1:
					s = max(0, min(s, n-1))
				default:
					for s < 0 || s >= n {
						if s < 0 {
							s = -s
						} else {
							s = 2*(n-1) - s
						}
					}
				}
			}
			off += s * stride
			stride *= n
		}
		y[g] = x[off]
	}
}

func (d *Device) convTranspose(l *launch) {
	a := decode[gpu.ConvArgs](d, l.args)
	x, w, bias, y := f32s(d.view(l, 0)), f32s(d.view(l, 1)), f32s(d.view(l, 2)), f32s(d.view(l, 3))
	threads := int(l.groups[0]) * int(l.threads[0])
	H, W, SH, SW := int(a.H), int(a.W), int(a.SH), int(a.SW)
	for g := range min(threads, int(a.N)) {
		ox := g % int(a.OW)
		t := g / int(a.OW)
		oy := t % int(a.OH)
		t /= int(a.OH)
		m, b := t%int(a.M), t/int(a.M)
		cg, mg := int(a.C/a.Group), int(a.M/a.Group)
		grp, mi := m/mg, m%mg
		var acc float32
		if a.HasBias != 0 {
			acc = bias[m]
		}
		for ci := range cg {
			c := grp*cg + ci
			xp := x[(b*int(a.C)+c)*H*W:]
			wp := w[((c*mg+mi)*int(a.KH))*int(a.KW):]
			for ky := range int(a.KH) {
				ty := oy + int(a.PH) - ky*int(a.DH)
				if ty < 0 || ty%SH != 0 || ty/SH >= H {
					continue
				}
				for kx := range int(a.KW) {
					tx := ox + int(a.PW) - kx*int(a.DW)
					if tx < 0 || tx%SW != 0 || tx/SW >= W {
						continue
					}
					acc = float32(math.FMA(float64(xp[(ty/SH)*W+tx/SW]), float64(wp[ky*int(a.KW)+kx]), float64(acc)))
				}
			}
		}
		y[g] = acc
	}
}
