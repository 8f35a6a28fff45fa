package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// oneHotKernel is OneHot: the output, of the values' type, holds the off
// value (values[0]) except where the coordinate on the new axis equals
// the index there (negative indices count from depth), which holds the
// on value (values[1]). Indices outside [-depth, depth) leave their row
// off, as ONNX Runtime does. The descriptor's rule (model.OneHotAttrs)
// sets the output shape, depth included.
type oneHotKernel struct {
	n    *model.Node
	axis int64
	buf  []int64
}

// oneHotIndexTypes are the indices' element types the kernel reads.
var oneHotIndexTypes = ewOrdered

func (k *oneHotKernel) run(in, out []*tensor) error {
	x, v, y := in[0], in[2], out[0]
	if v.numel() != 2 {
		return shapeErr(k.n, "values have %d elements, want 2", v.numel())
	}
	ind := indexValues(x, &k.buf)
	ax, _ := wrapAxis(k.axis, len(y.shape))
	depth := y.shape[ax]
	post := mulDims(y.shape[ax+1:])
	esz := y.dt.Size()
	fillBytes(y.data, esz, scalarBits(v))
	on := v.data[esz : 2*esz]
	d := int64(depth)
	for p, i := range ind {
		if i < -d || i >= d {
			continue
		}
		if i < 0 {
			i += d
		}
		a, b := p/max(post, 1), p%max(post, 1)
		o := ((a*depth+int(i))*post + b) * esz
		copy(y.data[o:o+esz], on)
	}
	return nil
}

// indexValues returns t's numbers as int64, truncating floats (NaN and
// values beyond int64 become math.MinInt64, out of any range): t's own
// data for int64, else a copy into *buf, grown only when too small.
func indexValues(t *tensor, buf *[]int64) []int64 {
	if v, ok := intValues(t, buf); ok {
		return v
	}
	n := t.numel()
	if cap(*buf) < n {
		*buf = make([]int64, n)
	}
	b := (*buf)[:n]
	switch t.dt {
	case payload.Float32:
		floatIndices(b, t.f32()[:n])
	case payload.Float64:
		floatIndices(b, t.f64()[:n])
	case payload.Int8:
		intIndices(b, elems[int8](t)[:n])
	case payload.Uint8:
		intIndices(b, t.u8()[:n])
	case payload.Int16:
		intIndices(b, elems[int16](t)[:n])
	case payload.Uint16:
		intIndices(b, elems[uint16](t)[:n])
	case payload.Uint32:
		intIndices(b, elems[uint32](t)[:n])
	case payload.Uint64:
		for i, x := range elems[uint64](t)[:n] {
			b[i] = int64(min(x, math.MaxInt64))
		}
	}
	return b
}

func floatIndices[T ewFloat](dst []int64, src []T) {
	for i, x := range src {
		f := float64(x)
		if f >= -(1<<63) && f < 1<<63 {
			dst[i] = int64(f)
		} else {
			dst[i] = math.MinInt64
		}
	}
}

func intIndices[T int8 | uint8 | int16 | uint16 | uint32](dst []int64, src []T) {
	for i, x := range src {
		dst[i] = int64(x)
	}
}

func init() {
	register("OneHot", func(c *buildCtx) (kernel, error) {
		if dt := c.inType(0); !hasDType(oneHotIndexTypes, dt) {
			return nil, c.unsupported("indices of type %s", dt)
		}
		switch c.inType(1) {
		case payload.Float32, payload.Float64, payload.Float16, payload.BF16, payload.Int32, payload.Int64:
		default:
			return nil, c.unsupported("depth of type %s", c.inType(1))
		}
		if !movable(c.inType(2)) {
			return nil, c.unsupported("values of type %s", c.inType(2))
		}
		return &oneHotKernel{n: c.n, axis: c.rule.(*model.OneHotAttrs).Axis}, nil
	})
}
