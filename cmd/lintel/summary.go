package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// tensorSummary is what run prints for a tensor.
type tensorSummary struct {
	Name   string  `json:"name"`
	DType  string  `json:"dtype"`
	Shape  []int   `json:"shape"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	ArgMax int     `json:"argmax"` // flat index of the first maximum, -1 when empty or all NaN
	NaNs   int     `json:"nans"`
}

// summarize computes a tensor's range, mean and argmax, ignoring NaNs.
func summarize(d payload.Dynamic) tensorSummary {
	s := tensorSummary{Name: d.Name, DType: d.DType.String(), Shape: d.Shape, ArgMax: -1}
	vals := asFloat64s(d)
	s.Min, s.Max = math.Inf(1), math.Inf(-1)
	var sum float64
	n := 0
	for i, v := range vals {
		if math.IsNaN(v) {
			s.NaNs++
			continue
		}
		n++
		sum += v
		if v < s.Min {
			s.Min = v
		}
		if v > s.Max || s.ArgMax < 0 {
			s.Max, s.ArgMax = v, i
		}
	}
	if n == 0 {
		s.Min, s.Max, s.Mean = math.NaN(), math.NaN(), math.NaN()
		return s
	}
	s.Mean = sum / float64(n)
	return s
}

// asFloat64s converts a tensor's elements to float64.
func asFloat64s(d payload.Dynamic) []float64 {
	switch d.DType {
	case payload.Float32:
		return conv[float32](d.Data, func(v float32) float64 { return float64(v) })
	case payload.Float64:
		return conv[float64](d.Data, func(v float64) float64 { return v })
	case payload.Float16:
		return conv[float16.Float16](d.Data, func(v float16.Float16) float64 { return float64(v.Float32()) })
	case payload.BF16:
		return conv[payload.BFloat16](d.Data, func(v payload.BFloat16) float64 { return float64(v.Float32()) })
	case payload.Int8:
		return conv[int8](d.Data, func(v int8) float64 { return float64(v) })
	case payload.Uint8:
		return conv[uint8](d.Data, func(v uint8) float64 { return float64(v) })
	case payload.Int16:
		return conv[int16](d.Data, func(v int16) float64 { return float64(v) })
	case payload.Uint16:
		return conv[uint16](d.Data, func(v uint16) float64 { return float64(v) })
	case payload.Int32:
		return conv[int32](d.Data, func(v int32) float64 { return float64(v) })
	case payload.Uint32:
		return conv[uint32](d.Data, func(v uint32) float64 { return float64(v) })
	case payload.Int64:
		return conv[int64](d.Data, func(v int64) float64 { return float64(v) })
	case payload.Uint64:
		return conv[uint64](d.Data, func(v uint64) float64 { return float64(v) })
	case payload.Bool:
		return conv[bool](d.Data, func(v bool) float64 {
			if v {
				return 1
			}
			return 0
		})
	}
	return nil
}

// conv converts the elements held in b; misaligned bytes are copied
// first.
func conv[E payload.Elem](b []byte, f func(E) float64) []float64 {
	s, ok := payload.FromBytes[E](b)
	if !ok {
		var e E
		z := make([]E, len(b)/len(payload.AsBytes([]E{e})))
		copy(payload.AsBytes(z), b)
		s = z
	}
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// unflatten turns a flat row-major index into one index per dimension.
func unflatten(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] > 0 {
			idx[k] = i % shape[k]
			i /= shape[k]
		}
	}
	return idx
}

// String writes the summary on one line.
func (s tensorSummary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %v", s.Name, s.DType, s.Shape)
	if s.ArgMax < 0 {
		if s.NaNs > 0 {
			fmt.Fprintf(&b, "  all %d values NaN", s.NaNs)
		} else {
			b.WriteString("  empty")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "  min %.6g  max %.6g  mean %.6g  argmax %d %v", s.Min, s.Max, s.Mean, s.ArgMax, unflatten(s.ArgMax, s.Shape))
	if s.NaNs > 0 {
		fmt.Fprintf(&b, "  NaNs %d", s.NaNs)
	}
	return b.String()
}
