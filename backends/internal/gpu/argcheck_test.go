package gpu_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/backends/internal/gpu"
)

// cSource writes every arguments struct as a CUDA-style C definition, with
// fixed-width types, comments and MAX_RANK array lengths.
func cSource() string {
	var names []string
	for n := range gpu.ArgStructs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		rt := reflect.TypeOf(gpu.ArgStructs[n])
		fmt.Fprintf(&b, "struct %s {\n", n)
		for i := range rt.NumField() {
			f := rt.Field(i)
			t, dim := f.Type, ""
			if t.Kind() == reflect.Array {
				dim = fmt.Sprintf("[%d]", t.Len())
				if t.Len() == gpu.MaxRank {
					dim = "[MAX_RANK]"
				}
				t = t.Elem()
			}
			ct := map[reflect.Kind]string{reflect.Uint32: "uint32_t", reflect.Int32: "int32_t", reflect.Float32: "float"}[t.Kind()]
			fmt.Fprintf(&b, "    %s %s%s; // field %d\n", ct, strings.ToLower(f.Name), dim, i)
		}
		b.WriteString("};\n\n")
	}
	return b.String()
}

// CheckArgStructs accepts a C source whose structs mirror the Go ones and
// reports each struct that differs.
func TestCheckArgStructs(t *testing.T) {
	src := cSource()
	if errs := gpu.CheckArgStructs(src); len(errs) != 0 {
		t.Fatalf("matching source: %v", errs)
	}
	cases := []struct {
		name, from, to, want string
	}{
		{"type", "struct UnaryArgs {\n    uint32_t n;", "struct UnaryArgs {\n    int32_t n;", "UnaryArgs.n"},
		{"name", "uint32_t hasc;", "uint32_t hasbias;", "GemmArgs field"},
		{"length", "int32_t bshape[4]", "int32_t bshape[3]", "GemmArgs.bshape"},
		{"missing", "struct PadArgs {", "struct PaddingArgs {", "no struct PadArgs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(src, tc.from, tc.to, 1)
			if bad == src {
				t.Fatalf("%q not in the source", tc.from)
			}
			errs := gpu.CheckArgStructs(bad)
			if len(errs) == 0 || !strings.Contains(fmt.Sprint(errs), tc.want) {
				t.Fatalf("errors %v, want one naming %s", errs, tc.want)
			}
		})
	}
}
