// Package meta builds the parts of compute.ModelMetadata that every backend
// derives the same way from a model's value types.
package meta

import (
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Tensors describes vs as compute.TensorInfo values, taking a value's
// type from known when it holds one (inferred types refine declared ones),
// and returns their total size in bytes, or -1 when a free or unknown dim
// leaves it unbounded.
func Tensors(vs []model.ValueInfo, known map[string]*model.ValueInfo) ([]compute.TensorInfo, int64) {
	out := make([]compute.TensorInfo, len(vs))
	var total int64
	for i, v := range vs {
		if k := known[v.Name]; k != nil {
			v = *k
		}
		ti := compute.TensorInfo{Name: v.Name, DType: v.DType}
		if v.RankKnown {
			ti.Shape = append([]int{}, v.Shape...)
		}
		out[i] = ti
		n := int64(1)
		if !v.RankKnown {
			n = -1
		}
		for _, d := range ti.Shape {
			if d < 0 {
				n = -1
				break
			}
			n *= int64(d)
		}
		if n < 0 || total < 0 || v.DType == payload.String {
			total = -1
			continue
		}
		total += n * int64(v.DType.Size())
	}
	return out, total
}
