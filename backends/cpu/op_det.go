package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// detKernel runs Det (model.DetAttrs): each M×M matrix's determinant by
// LU decomposition with partial pivoting, in float64.
type detKernel struct {
	dt payload.DType
	lu []float64
}

func (k *detKernel) run(in, out []*tensor) error {
	s := in[0].shape
	m := s[len(s)-1]
	batch := mulDims(s[:len(s)-2])
	k.lu = growFloats(k.lu, m*m)
	for b := range batch {
		lu := k.lu[:m*m]
		switch k.dt {
		case payload.Float32:
			for i, v := range in[0].f32()[b*m*m : (b+1)*m*m] {
				lu[i] = float64(v)
			}
		case payload.Float64:
			copy(lu, in[0].f64()[b*m*m:(b+1)*m*m])
		}
		d := luDet(lu, m)
		switch k.dt {
		case payload.Float32:
			out[0].f32()[b] = float32(d)
		case payload.Float64:
			out[0].f64()[b] = d
		}
	}
	return nil
}

// luDet returns the determinant of the m×m row-major matrix a, which it
// overwrites with its LU factors.
func luDet(a []float64, m int) float64 {
	det := 1.0
	for c := range m {
		p, best := c, math.Abs(a[c*m+c])
		for r := c + 1; r < m; r++ {
			if v := math.Abs(a[r*m+c]); v > best {
				p, best = r, v
			}
		}
		if best == 0 {
			return 0
		}
		if p != c {
			for j := range m {
				a[c*m+j], a[p*m+j] = a[p*m+j], a[c*m+j]
			}
			det = -det
		}
		piv := a[c*m+c]
		det *= piv
		for r := c + 1; r < m; r++ {
			f := a[r*m+c] / piv
			if f == 0 {
				continue
			}
			for j := c + 1; j < m; j++ {
				a[r*m+j] -= f * a[c*m+j]
			}
		}
	}
	return det
}

func init() {
	register("Det", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		_ = c.rule.(*model.DetAttrs)
		return &detKernel{dt: c.inType(0)}, nil
	})
}
