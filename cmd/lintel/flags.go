package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/lintel-ml/lintel/payload"
)

// parseInterleaved parses args with fs, letting flags come before and
// after positional arguments ("lintel run model.onnx -i x=a.npy"), which
// the flag package alone stops at. "--" ends the flags. It returns the
// positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// listFlag is a flag that may be given several times; each value is kept.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, " ") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// intList is a comma-separated list of positive integers, such as
// "1,8,64".
type intList []int

func (l *intList) String() string {
	parts := make([]string, len(*l))
	for i, v := range *l {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}

func (l *intList) Set(s string) error {
	var out intList
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, v)
	}
	*l = out
	return nil
}

// parseShape reads a shape written as "1x3x48x192" or "1,3,48,192"; ""
// and "scalar" are the empty shape.
func parseShape(s string) ([]int, error) {
	if s == "" || s == "scalar" {
		return []int{}, nil
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == 'x' || r == ',' })
	if len(fields) == 0 {
		return nil, errors.New("empty shape")
	}
	shape := make([]int, len(fields))
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("shape %q: %q is not a non-negative integer", s, f)
		}
		shape[i] = v
	}
	return shape, nil
}

// weightsFlag is the -weights flag: the element type the backend stores
// constant weight matrices in (compute.Options.WeightType), f32, f16 or
// bf16.
type weightsFlag payload.DType

// weightsNames maps the flag's values to element types.
var weightsNames = map[string]payload.DType{
	"f32": payload.Float32, "float32": payload.Float32,
	"f16": payload.Float16, "float16": payload.Float16,
	"bf16": payload.BF16, "bfloat16": payload.BF16,
}

func (w *weightsFlag) String() string {
	switch payload.DType(*w) {
	case payload.Float16:
		return "f16"
	case payload.BF16:
		return "bf16"
	}
	return "f32"
}

func (w *weightsFlag) Set(s string) error {
	dt, ok := weightsNames[s]
	if !ok {
		return fmt.Errorf("%q is not f32, f16 or bf16", s)
	}
	*w = weightsFlag(dt)
	return nil
}

// weightsUsage is the -weights flag's help line.
const weightsUsage = "store weight matrices as `f32`, f16 or bf16 (half the bytes; outputs move by about 1e-3)"
