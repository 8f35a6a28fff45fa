package main

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/npy"
	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// inputSpec is what the command line says about one model input.
type inputSpec struct {
	// path is a .npy file, or "" for random data.
	path string
	// shape is the shape of random data; nil means the model's shape
	// with a free leading dimension set to 1.
	shape []int
}

// parseInputSpecs matches the -i and -shape flags to the model's inputs.
// An -i value is NAME=FILE.npy or NAME=random; a model with one input
// also takes a bare FILE.npy or "random". A -shape value is NAME=DIMS.
// Inputs without an -i get random data when random is true.
func parseInputSpecs(inputs []compute.TensorInfo, ivals, svals []string, random bool) (map[string]*inputSpec, error) {
	specs := map[string]*inputSpec{}
	for _, v := range ivals {
		name, val, err := splitNamed(inputs, v, "-i")
		if err != nil {
			return nil, err
		}
		if specs[name] != nil {
			return nil, fmt.Errorf("-i %s: input %q given twice", v, name)
		}
		s := &inputSpec{}
		if val != "random" {
			s.path = val
		}
		specs[name] = s
	}
	for _, v := range svals {
		name, val, err := splitNamed(inputs, v, "-shape")
		if err != nil {
			return nil, err
		}
		shape, err := parseShape(val)
		if err != nil {
			return nil, fmt.Errorf("-shape %s: %w", v, err)
		}
		s := specs[name]
		if s == nil {
			s = &inputSpec{}
			specs[name] = s
		}
		if s.path != "" {
			return nil, fmt.Errorf("-shape %s: input %q is read from %s, which sets its shape", v, name, s.path)
		}
		s.shape = shape
	}
	var missing []string
	for _, in := range inputs {
		if specs[in.Name] == nil {
			if !random {
				missing = append(missing, fmt.Sprintf("%s (%s %s)", in.Name, in.DType, shapeString(in.Shape, nil)))
				continue
			}
			specs[in.Name] = &inputSpec{}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no -i for input %s; give NAME=FILE.npy or NAME=random, or -random for all", strings.Join(missing, ", "))
	}
	return specs, nil
}

// splitNamed splits "NAME=VALUE" where NAME is one of the model's inputs
// (names may hold '='; the longest that matches wins). A model with one
// input also takes a bare VALUE.
func splitNamed(inputs []compute.TensorInfo, v, flagName string) (name, val string, err error) {
	best := -1
	for i, in := range inputs {
		if strings.HasPrefix(v, in.Name+"=") && (best < 0 || len(in.Name) > len(inputs[best].Name)) {
			best = i
		}
	}
	if best >= 0 {
		return inputs[best].Name, v[len(inputs[best].Name)+1:], nil
	}
	if len(inputs) == 1 && !strings.Contains(v, "=") {
		return inputs[0].Name, v, nil
	}
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = in.Name
	}
	return "", "", fmt.Errorf("%s %s: want NAME=VALUE with NAME one of the model's inputs %q", flagName, v, names)
}

// loadInputs reads or generates every input, in the model's order.
func loadInputs(inputs []compute.TensorInfo, specs map[string]*inputSpec, rng *rand.Rand) ([]payload.Dynamic, error) {
	out := make([]payload.Dynamic, len(inputs))
	for i, in := range inputs {
		s := specs[in.Name]
		if s.path != "" {
			d, err := npy.ReadFile(s.path, 0)
			if err != nil {
				return nil, err
			}
			if in.DType == payload.BF16 && d.DType == payload.Uint16 {
				// NumPy has no bfloat16; ONNX's numpy_helper and others
				// keep its raw bits in uint16 arrays.
				d.DType = payload.BF16
			}
			if d.DType != in.DType {
				return nil, errs.New(errs.ShapeMismatch, "input %q is %s; %s holds %s", in.Name, in.DType, s.path, d.DType)
			}
			d.Name = in.Name
			out[i] = d
			continue
		}
		shape := s.shape
		if shape == nil {
			var err error
			if shape, err = defaultShape(in); err != nil {
				return nil, err
			}
		}
		d, err := randomTensor(in.Name, in.DType, shape, rng)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

// defaultShape is the shape of random data for in: its shape with a free
// leading dimension set to 1. Other free dimensions need -shape.
func defaultShape(in compute.TensorInfo) ([]int, error) {
	if in.Shape == nil {
		return nil, fmt.Errorf("input %q has unknown rank: give -shape %s=DIMS", in.Name, in.Name)
	}
	shape := append([]int{}, in.Shape...)
	for i, d := range shape {
		if d >= 0 {
			continue
		}
		if i > 0 {
			return nil, fmt.Errorf("input %q has shape %s: give -shape %s=DIMS for random data", in.Name, shapeString(in.Shape, nil), in.Name)
		}
		shape[i] = 1
	}
	return shape, nil
}

// randomTensor returns a tensor of random values: uniform in [-1, 1) for
// floats, in [0, 10) for integers, and coin flips for bools.
func randomTensor(name string, dt payload.DType, shape []int, rng *rand.Rand) (payload.Dynamic, error) {
	n := payload.NumElems(shape)
	if n < 0 || !dt.Valid() || int64(n)*int64(dt.Size()) > compute.DefaultMaxTensorBytes {
		return payload.Dynamic{}, errs.New(errs.ShapeMismatch, "input %q: cannot make random %s of shape %v", name, dt, shape)
	}
	d := payload.Dynamic{Name: name, DType: dt, Shape: shape}
	switch dt {
	case payload.Float32:
		d.Data = fill(n, func() float32 { return rng.Float32()*2 - 1 })
	case payload.Float64:
		d.Data = fill(n, func() float64 { return rng.Float64()*2 - 1 })
	case payload.Float16:
		d.Data = fill(n, func() float16.Float16 { return float16.Fromfloat32(rng.Float32()*2 - 1) })
	case payload.BF16:
		d.Data = fill(n, func() payload.BFloat16 { return payload.BFloat16From(rng.Float32()*2 - 1) })
	case payload.Int8:
		d.Data = fill(n, func() int8 { return int8(rng.IntN(10)) })
	case payload.Uint8:
		d.Data = fill(n, func() uint8 { return uint8(rng.IntN(10)) })
	case payload.Int16:
		d.Data = fill(n, func() int16 { return int16(rng.IntN(10)) })
	case payload.Uint16:
		d.Data = fill(n, func() uint16 { return uint16(rng.IntN(10)) })
	case payload.Int32:
		d.Data = fill(n, func() int32 { return int32(rng.IntN(10)) })
	case payload.Uint32:
		d.Data = fill(n, func() uint32 { return uint32(rng.IntN(10)) })
	case payload.Int64:
		d.Data = fill(n, func() int64 { return int64(rng.IntN(10)) })
	case payload.Uint64:
		d.Data = fill(n, func() uint64 { return uint64(rng.IntN(10)) })
	case payload.Bool:
		d.Data = fill(n, func() bool { return rng.IntN(2) == 1 })
	default:
		return payload.Dynamic{}, errs.New(errs.Unsupported, "input %q: cannot make random %s", name, dt)
	}
	return d, nil
}

func fill[E payload.Elem](n int, f func() E) []byte {
	s := make([]E, n)
	for i := range s {
		s[i] = f()
	}
	return payload.AsBytes(s)
}

// shapeString writes a shape as [batch, 3, 48, ?]: dimension names where
// the model gives them, "?" for other free dimensions. A nil shape has
// unknown rank.
func shapeString(shape []int, names []string) string {
	if shape == nil {
		return "[unknown rank]"
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		switch {
		case d >= 0:
			parts[i] = fmt.Sprint(d)
		case i < len(names) && names[i] != "":
			parts[i] = names[i]
		default:
			parts[i] = "?"
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
