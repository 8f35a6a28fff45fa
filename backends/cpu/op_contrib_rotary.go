package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// msRotaryKernel runs RotaryEmbedding (com.microsoft;
// model.MSRotaryAttrs) in float32 on the rotation loop of ONNX's
// RotaryEmbedding (rotaryRun); float16 runs through viaF32. A
// one-element position_ids is expanded into pos, each batch item's
// positions counting up from it.
type msRotaryKernel struct {
	n   *model.Node
	a   *model.MSRotaryAttrs
	pos []int64
}

func (k *msRotaryKernel) geometry(x []int, half int) rotaryGeom {
	h, d, pairs, _ := k.a.Geometry(x, half)
	g := rotaryGeom{b: x[0], h: h, d: d, half: pairs}
	if len(x) == 4 {
		g.s = x[2]
		g.bs, g.hs, g.ss = h*g.s*d, g.s*d, d
	} else {
		g.s = x[1]
		g.bs, g.hs, g.ss = g.s*x[2], d, x[2]
	}
	return g
}

func (k *msRotaryKernel) run(in, out []*tensor) error {
	cs := in[2]
	g := k.geometry(in[0].shape, cs.shape[1])
	rows := int64(cs.shape[0])
	p := in[1].i64()
	pos := p
	if len(p) == 1 && g.b*g.s != 1 {
		pos = growInt64(&k.pos, g.b*g.s)
		for i := range pos {
			pos[i] = p[0] + int64(i%g.s)
		}
	}
	for _, v := range pos {
		if v < 0 || v >= rows {
			return shapeErr(k.n, "position %d out of range for caches of %d positions", v, rows)
		}
	}
	rotaryRun(k.a.Interleaved, g, out[0].f32(), in[0].f32(), cs.f32(), in[3].f32(), pos)
	return nil
}

// growInt64 returns (*b)[:n], growing *b when too small.
func growInt64(b *[]int64, n int) []int64 {
	if cap(*b) < n {
		*b = make([]int64, n)
	}
	return (*b)[:n]
}

func init() {
	registerMS("RotaryEmbedding", viaF32(func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32); err != nil {
			return nil, err
		}
		for i := 2; i <= 3; i++ {
			if c.inType(i) != payload.Float32 {
				return nil, c.invalid("input %d is %s, input 0 is %s", i, c.inType(i), c.inType(0))
			}
		}
		if c.inType(1) != payload.Int64 {
			return nil, c.invalid("position_ids is %s, want int64", c.inType(1))
		}
		a := c.rule.(*model.MSRotaryAttrs)
		if a.PackedBatching {
			return nil, c.unsupported("is_packed_batching")
		}
		return &msRotaryKernel{n: c.n, a: a}, nil
	}))
}
