package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "TfIdfVectorizer",
		Versions:   []Version{{Since: 9, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"X"},
		Bind:       bindTfIdf,
	})
}

// The modes of TfIdfVectorizer.
const (
	TfIdfTF = iota
	TfIdfIDF
	TfIdfTFIDF
)

// TfIdfAttrs are a TfIdfVectorizer node's attributes. The input is [C]
// or [N, C] of int32, int64 or string; the output is float32 [Size] or
// [N, Size], Size being the largest of NgramIndexes plus one: for each
// row, the counts of the pool's n-grams, weighted by Mode.
type TfIdfAttrs struct {
	// MinGram and MaxGram bound the n-gram lengths counted.
	MinGram, MaxGram int
	// MaxSkip is the most items skipped between an n-gram's items.
	MaxSkip int
	// Mode is TfIdfTF, TfIdfIDF or TfIdfTFIDF.
	Mode int
	// NgramCounts[k] is where the (k+1)-grams start in the pool.
	NgramCounts []int64
	// NgramIndexes maps the pool's n-grams, in order, to output columns.
	NgramIndexes []int64
	// PoolInt64s and PoolStrings are the pool: one of them is set.
	PoolInt64s  []int64
	PoolStrings []string
	// Weights are the columns' IDF weights, nil for all 1.
	Weights []float32
	// Size is the number of output columns.
	Size int
}

func bindTfIdf(n *Node, opset int64) (Rule, error) {
	a := &TfIdfAttrs{}
	for _, f := range []struct {
		name string
		dst  *int
		min  int64
	}{{"min_gram_length", &a.MinGram, 1}, {"max_gram_length", &a.MaxGram, 1}, {"max_skip_count", &a.MaxSkip, 0}} {
		v, err := n.Int(f.name, -1)
		if err != nil {
			return nil, err
		}
		if !n.Has(f.name) {
			return nil, invalidAttr(n, "the %s attribute is required", f.name)
		}
		if v < f.min || v > 1<<20 {
			return nil, invalidAttr(n, "%s %d out of range", f.name, v)
		}
		*f.dst = int(v)
	}
	if a.MaxGram < a.MinGram {
		return nil, invalidAttr(n, "max_gram_length %d is below min_gram_length %d", a.MaxGram, a.MinGram)
	}
	mode, err := n.String("mode", "")
	if err != nil {
		return nil, err
	}
	switch mode {
	case "TF":
		a.Mode = TfIdfTF
	case "IDF":
		a.Mode = TfIdfIDF
	case "TFIDF":
		a.Mode = TfIdfTFIDF
	default:
		return nil, invalidAttr(n, "mode must be TF, IDF or TFIDF, got %q", mode)
	}
	if a.NgramCounts, err = n.Ints("ngram_counts", nil); err != nil {
		return nil, err
	}
	if a.NgramIndexes, err = n.Ints("ngram_indexes", nil); err != nil {
		return nil, err
	}
	if a.PoolInt64s, err = n.Ints("pool_int64s", nil); err != nil {
		return nil, err
	}
	ps, err := n.attrOf("pool_strings", AttrStrings)
	if err != nil {
		return nil, err
	}
	if ps != nil {
		a.PoolStrings = ps.Strings
	}
	if a.Weights, err = n.Floats("weights", nil); err != nil {
		return nil, err
	}
	if (ps != nil) == n.Has("pool_int64s") {
		return nil, invalidAttr(n, "exactly one of pool_strings and pool_int64s must be set")
	}
	pool := len(a.PoolInt64s) + len(a.PoolStrings)
	grams := 0
	for k, start := range a.NgramCounts {
		end := int64(pool)
		if k+1 < len(a.NgramCounts) {
			end = a.NgramCounts[k+1]
		}
		if start < 0 || start > end || end > int64(pool) {
			return nil, invalidAttr(n, "ngram_counts %v do not split a pool of %d", a.NgramCounts, pool)
		}
		if (end-start)%int64(k+1) != 0 {
			return nil, invalidAttr(n, "the pool's %d-grams take %d items, not a multiple of %d", k+1, end-start, k+1)
		}
		grams += int(end-start) / (k + 1)
	}
	if len(a.NgramCounts) == 0 && pool > 0 || len(a.NgramCounts) > 0 && a.NgramCounts[0] != 0 {
		return nil, invalidAttr(n, "ngram_counts %v must start at 0", a.NgramCounts)
	}
	if grams != len(a.NgramIndexes) {
		return nil, invalidAttr(n, "the pool holds %d n-grams, ngram_indexes has %d", grams, len(a.NgramIndexes))
	}
	for _, i := range a.NgramIndexes {
		if i < 0 || i >= 1<<24 {
			return nil, invalidAttr(n, "ngram_indexes holds %d", i)
		}
		a.Size = max(a.Size, int(i)+1)
	}
	if a.Weights != nil && len(a.Weights) != len(a.NgramIndexes) {
		return nil, invalidAttr(n, "%d weights for %d n-grams", len(a.Weights), len(a.NgramIndexes))
	}
	return a, nil
}

// Infer implements Rule.
func (a *TfIdfAttrs) Infer(c *InferCtx) error {
	switch dt := c.DType(0); dt {
	case payload.Int32, payload.Int64, payload.String, payload.Undefined:
	default:
		return c.Errorf("input has element type %s, want int32, int64 or string", dt)
	}
	if a.PoolStrings != nil && c.DType(0) != payload.String && c.DType(0) != payload.Undefined {
		return c.Errorf("pool_strings given for an input of element type %s", c.DType(0))
	}
	c.SetType(0, payload.Float32)
	d, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	switch len(d) {
	case 1:
		c.OutDims(0, 1)[0] = a.Size
	case 2:
		out := c.OutDims(0, 2)
		out[0], out[1] = d[0], a.Size
	default:
		return c.Errorf("input shape %v: want [C] or [N, C]", d)
	}
	return nil
}
