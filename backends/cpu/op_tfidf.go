package cpu

import (
	"encoding/binary"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// tfidfKernel is TfIdfVectorizer: for each row, how often each of the
// pool's n-grams occurs, its items consecutive or skip items apart (the
// same skip between every two), weighted by the mode. Unigrams are
// counted once, not once per skip, as ONNX Runtime counts them.
type tfidfKernel struct {
	a *model.TfIdfAttrs
	// grams maps an n-gram's key (gramKey) to its output column.
	grams map[string]int
	// colW is each column's weight, that of the n-gram mapped to it (nil
	// without weights).
	colW []float32
	key  []byte
}

// appendItem appends item i of x to an n-gram key: an int64's 8 bytes,
// or a string's length and bytes.
func appendItem(key []byte, x *tensor, i int) []byte {
	switch x.dt {
	case payload.Int32:
		return binary.LittleEndian.AppendUint64(key, uint64(int64(x.i32()[i])))
	case payload.Int64:
		return binary.LittleEndian.AppendUint64(key, uint64(x.i64()[i]))
	}
	s := strAt(x, i)
	return append(binary.AppendUvarint(key, uint64(len(s))), s...)
}

func (k *tfidfKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0].f32()
	for i := range y {
		y[i] = 0
	}
	rows, c := 1, x.numel()
	if len(x.shape) == 2 {
		rows, c = x.shape[0], x.shape[1]
	}
	a := k.a
	for r := range rows {
		row := y[r*a.Size : (r+1)*a.Size]
		base := r * c
		for skip := range a.MaxSkip + 1 {
			for start := range c {
				k.key = k.key[:0]
				for n := 1; n <= a.MaxGram; n++ {
					at := start + (n-1)*(skip+1)
					if at >= c {
						break
					}
					k.key = appendItem(k.key, x, base+at)
					if n < a.MinGram || (n == 1 && skip > 0) {
						continue
					}
					if col, ok := k.grams[string(k.key)]; ok {
						row[col]++
					}
				}
			}
		}
	}
	for i := range y {
		col := i % a.Size
		switch {
		case a.Mode == model.TfIdfIDF && y[i] > 0:
			y[i] = 1
			if k.colW != nil {
				y[i] = k.colW[col]
			}
		case a.Mode == model.TfIdfTFIDF && k.colW != nil:
			y[i] *= k.colW[col]
		}
	}
	return nil
}

func init() {
	register("TfIdfVectorizer", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.TfIdfAttrs)
		dt := c.inType(0)
		switch {
		case dt == payload.String && a.PoolStrings == nil,
			dt != payload.String && a.PoolStrings != nil:
			return nil, c.invalid("input of element type %s with a pool of the other kind", dt)
		case dt != payload.String && dt != payload.Int32 && dt != payload.Int64:
			return nil, c.unsupported("element type %s (want int32, int64 or string)", dt)
		}
		k := &tfidfKernel{a: a, grams: map[string]int{}}
		if a.Weights != nil {
			k.colW = make([]float32, a.Size)
			for j := len(a.NgramIndexes) - 1; j >= 0; j-- {
				k.colW[a.NgramIndexes[j]] = a.Weights[j]
			}
		}
		// Build each n-gram's key the way run does, from a tensor of the
		// pool's items.
		var pool *tensor
		if a.PoolStrings != nil {
			pool = &tensor{dt: payload.String, shape: []int{len(a.PoolStrings)}, data: payload.EncodeStrings(a.PoolStrings)}
		} else {
			pool = &tensor{dt: payload.Int64, shape: []int{len(a.PoolInt64s)}, data: payload.AsBytes(append([]int64(nil), a.PoolInt64s...))}
		}
		g := 0
		for lvl, start := range a.NgramCounts {
			end := int64(len(a.PoolInt64s) + len(a.PoolStrings))
			if lvl+1 < len(a.NgramCounts) {
				end = a.NgramCounts[lvl+1]
			}
			for i := int(start); i < int(end); i += lvl + 1 {
				var key []byte
				for j := range lvl + 1 {
					key = appendItem(key, pool, i+j)
				}
				// A repeated n-gram keeps its first column.
				if _, dup := k.grams[string(key)]; !dup {
					k.grams[string(key)] = int(a.NgramIndexes[g])
				}
				g++
			}
		}
		return k, nil
	})
}
