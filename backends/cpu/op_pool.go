package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// poolKernel runs MaxPool (with its optional Indices output), AveragePool
// and LpPool over 1 to 3 spatial dims.
type poolKernel struct {
	n          *model.Node
	dt         payload.DType
	kind       int
	win        *model.Window
	kern       []int
	includePad bool
	colMajor   bool
	indices    bool
	p          float64
	g          geom
	planes     int
	// pool splits the planes; par and the call fields hold the current
	// call's split.
	pool      *workerPool
	par       parFor
	cin, cout []*tensor
	sep       poolSep
}

// The pooling kinds (model's).
const (
	poolMax = model.PoolMax
	poolAvg = model.PoolAverage
	poolLp  = model.PoolLp
)

func init() {
	register("MaxPool", viaF32(buildPool))
	register("AveragePool", viaF32(buildPool))
	register("LpPool", viaF32(buildPool))
}

// poolElem is the element types the pooling loops take: MaxPool also
// runs on int8 and uint8.
type poolElem interface {
	float32 | float64 | int8 | uint8
}

func buildPool(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.PoolAttrs)
	switch dt := c.inType(0); dt {
	case payload.Float32, payload.Float64:
	case payload.Int8, payload.Uint8:
		if a.Kind != poolMax {
			return nil, c.unsupported("element type %s", dt)
		}
	default:
		return nil, c.unsupported("element type %s (supported: float32, float64, and int8 and uint8 for MaxPool)", dt)
	}
	k := &poolKernel{n: c.n, dt: c.inType(0), kind: a.Kind, win: &a.Window, kern: intsOf(a.Window.KernelShape),
		includePad: a.CountIncludePad, colMajor: a.ColumnMajor, p: a.P, pool: c.pool()}
	if err := checkWindow(c, k.win); err != nil {
		return nil, err
	}
	if len(c.in) > 0 && c.in[0].RankKnown && len(c.in[0].Shape) != len(k.kern)+2 {
		return nil, c.invalid("input rank %d does not fit kernel_shape %v", len(c.in[0].Shape), a.Window.KernelShape)
	}
	if a.Kind == poolMax && len(c.n.Outputs) > 1 && c.n.Outputs[1] != "" {
		if c.out[1].DType != payload.Int64 {
			return nil, c.invalid("Indices output of type %s, want int64", c.out[1].DType)
		}
		k.indices = true
	}
	return k, nil
}

// shape plans the window geometry; the outputs' shapes are the rule's
// (model.PoolAttrs).
func (k *poolKernel) shape(in, out []*tensor) error {
	x := in[0].shape
	if err := fillWindow(k.n, k.win, &k.g, x[2:], k.kern); err != nil {
		return err
	}
	k.planes = x[0] * x[1]
	k.planSep()
	return nil
}

func (k *poolKernel) run(in, out []*tensor) error {
	g := &k.g
	outSz := size3(g.out)
	if outSz == 0 || k.planes == 0 {
		return nil
	}
	k.cin, k.cout = in, out
	work := outSz * max(1, g.k[0]*g.k[1]*g.k[2]) // each output reads its window's taps
	if k.sep.on {
		work = outSz*(g.k[0]*g.k[1]+g.k[2]) + size3(g.in)
	}
	k.par.run(k.pool, k, k.planes, work)
	k.cin, k.cout = nil, nil
	return nil
}

// runRange pools planes [lo, hi) of the current call.
func (k *poolKernel) runRange(part, lo, hi int) {
	in, out := k.cin, k.cout
	if k.sep.on {
		k.runSep(part, in[0].f32(), out[0].f32(), lo, hi)
		return
	}
	var idx []int64
	if k.indices {
		idx = out[1].i64()
	}
	if k.kind == poolMax && idx == nil && k.g.d == [maxSpatial]int{1, 1, 1} && k.g.k[0]*k.g.k[1] <= maxPoolRows {
		inSz, outSz := size3(k.g.in), size3(k.g.out)
		x0, x1, y0, y1 := lo*inSz, hi*inSz, lo*outSz, hi*outSz
		switch k.dt {
		case payload.Float32:
			maxPoolRun(k, hi-lo, in[0].f32()[x0:x1], out[0].f32()[y0:y1], -math.MaxFloat32)
		case payload.Float64:
			maxPoolRun(k, hi-lo, in[0].f64()[x0:x1], out[0].f64()[y0:y1], -math.MaxFloat64)
		case payload.Int8:
			maxPoolRun(k, hi-lo, elems[int8](in[0])[x0:x1], elems[int8](out[0])[y0:y1], math.MinInt8)
		case payload.Uint8:
			maxPoolRun(k, hi-lo, in[0].u8()[x0:x1], out[0].u8()[y0:y1], 0)
		}
		return
	}
	if k.kind == poolAvg && k.g.d == [maxSpatial]int{1, 1, 1} && k.g.k[0]*k.g.k[1] <= maxPoolRows {
		switch k.dt {
		case payload.Float32:
			avgPoolRun(k, in[0].f32(), out[0].f32(), lo, hi)
			return
		case payload.Float64:
			avgPoolRun(k, in[0].f64(), out[0].f64(), lo, hi)
			return
		}
	}
	switch k.dt {
	case payload.Float32:
		poolRun(k, in[0].f32(), out[0].f32(), idx, -math.MaxFloat32, lo, hi)
	case payload.Float64:
		poolRun(k, in[0].f64(), out[0].f64(), idx, -math.MaxFloat64, lo, hi)
	case payload.Int8:
		poolRun(k, elems[int8](in[0]), elems[int8](out[0]), idx, math.MinInt8, lo, hi)
	case payload.Uint8:
		poolRun(k, in[0].u8(), out[0].u8(), idx, 0, lo, hi)
	}
}

// padCount returns how many of k taps (spacing d) starting at start lie
// below limit.
func padCount(start, k, d, limit int) int {
	if limit <= start {
		return 0
	}
	return min(k, ceilDiv(limit-start, d))
}

// poolRun pools planes [lo, hi); lowest is the element type's most
// negative finite value, MaxPool's start.
func poolRun[E poolElem](k *poolKernel, x, y []E, idx []int64, lowest E, lo, hi int) {
	g := &k.g
	inSz, outSz := size3(g.in), size3(g.out)
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	for p := lo; p < hi; p++ {
		xp := x[p*inSz : (p+1)*inSz]
		yp := y[p*outSz : (p+1)*outSz]
		o := 0
		for od := range OD {
			d0 := od*g.s[0] - g.pb[0]
			for oh := range OH {
				h0 := oh*g.s[1] - g.pb[1]
				for ow := range OW {
					w0 := ow*g.s[2] - g.pb[2]
					best, bi := lowest, -1
					var sum float64
					cnt := 0
					for kd := range g.k[0] {
						id := d0 + kd*g.d[0]
						if id < 0 || id >= ID {
							continue
						}
						for kh := range g.k[1] {
							ih := h0 + kh*g.d[1]
							if ih < 0 || ih >= IH {
								continue
							}
							base := (id*IH + ih) * IW
							for kw := range g.k[2] {
								iw := w0 + kw*g.d[2]
								if iw < 0 || iw >= IW {
									continue
								}
								v := xp[base+iw]
								switch k.kind {
								case poolMax:
									if v > best {
										best, bi = v, base+iw
										if k.colMajor {
											bi = (iw*IH+ih)*ID + id
										}
									}
								case poolAvg:
									sum += float64(v)
									cnt++
								default:
									sum += lpTerm(float64(v), k.p)
								}
							}
						}
					}
					switch k.kind {
					case poolMax:
						yp[o] = best
						if idx != nil {
							if bi >= 0 {
								bi += p * inSz
							}
							idx[p*outSz+o] = int64(bi)
						}
					case poolAvg:
						if k.includePad {
							cnt = padCount(d0, g.k[0], g.d[0], ID+g.pe[0]) *
								padCount(h0, g.k[1], g.d[1], IH+g.pe[1]) *
								padCount(w0, g.k[2], g.d[2], IW+g.pe[2])
						}
						if cnt > 0 {
							yp[o] = E(sum / float64(cnt))
						} else {
							yp[o] = 0
						}
					default:
						yp[o] = E(lpRoot(sum, k.p))
					}
					o++
				}
			}
		}
	}
}

// lpTerm returns |v|^p.
func lpTerm(v, p float64) float64 {
	switch p {
	case 1:
		return math.Abs(v)
	case 2:
		return v * v
	}
	return math.Pow(math.Abs(v), p)
}

// lpRoot returns s^(1/p).
func lpRoot(s, p float64) float64 {
	switch p {
	case 1:
		return s
	case 2:
		return math.Sqrt(s)
	}
	return math.Pow(s, 1/p)
}
