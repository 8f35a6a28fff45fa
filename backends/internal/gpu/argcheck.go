package gpu

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// argStructRE matches a C-like struct definition: struct Name { ... };
var argStructRE = regexp.MustCompile(`(?s)struct (\w+Args) \{(.*?)\};`)

// CheckArgStructs checks the arguments structs of a kernel source (MSL,
// CUDA C++ or any C-like language) against their Go mirrors: every struct
// of ArgStructs must be defined in src as `struct XArgs { ... };` with the
// same fields in the same order, each `uint`, `int` or `float` (or
// uint32_t, int32_t), arrays sized MAX_RANK, MAX_BATCH_RANK or a number
// equal to the Go array's length, so that Pack's bytes are the struct's
// layout. It returns one error per mismatch, nil when all match.
func CheckArgStructs(src string) []error {
	var errsOut []error
	bad := func(format string, args ...any) { errsOut = append(errsOut, fmt.Errorf(format, args...)) }
	defs := map[string][]string{}
	for _, m := range argStructRE.FindAllStringSubmatch(src, -1) {
		var fields []string
		for _, line := range strings.Split(stripComments(m[2]), ";") {
			if f := strings.TrimSpace(line); f != "" {
				fields = append(fields, f)
			}
		}
		defs[m[1]] = fields
	}
	kinds := map[string]reflect.Kind{"uint": reflect.Uint32, "uint32_t": reflect.Uint32, "unsigned": reflect.Uint32,
		"int": reflect.Int32, "int32_t": reflect.Int32, "float": reflect.Float32}
	for name, v := range ArgStructs {
		fields, ok := defs[name]
		if !ok {
			bad("no struct %s in the source", name)
			continue
		}
		rt := reflect.TypeOf(v)
		if rt.NumField() != len(fields) {
			bad("%s: Go has %d fields, the source %d", name, rt.NumField(), len(fields))
			continue
		}
		size := 0
		for i, f := range fields {
			parts := strings.Fields(f)
			if len(parts) != 2 {
				bad("%s field %d: cannot parse %q", name, i, f)
				continue
			}
			typ, fname := parts[0], parts[1]
			n := 1
			if k := strings.Index(fname, "["); k >= 0 && strings.HasSuffix(fname, "]") {
				switch dim := fname[k+1 : len(fname)-1]; dim {
				case "MAX_RANK":
					n = MaxRank
				case "MAX_BATCH_RANK":
					n = MaxBatchRank
				default:
					var err error
					if n, err = strconv.Atoi(dim); err != nil {
						bad("%s.%s: array length %s", name, fname, dim)
					}
				}
				fname = fname[:k]
			}
			gf := rt.Field(i)
			if normName(gf.Name) != normName(fname) {
				bad("%s field %d: Go %s, the source %s", name, i, gf.Name, fname)
			}
			gt := gf.Type
			gn := 1
			if gt.Kind() == reflect.Array {
				gn, gt = gt.Len(), gt.Elem()
			}
			if want, ok := kinds[typ]; !ok || gt.Kind() != want || gn != n {
				bad("%s.%s: Go %v x%d, the source %s x%d", name, fname, gt, gn, typ, n)
			}
			size += 4 * n
		}
		if got := binary.Size(v); got != size {
			bad("%s packs to %d bytes, the source's layout is %d", name, got, size)
		}
	}
	return errsOut
}

// stripComments removes // comments.
func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if k := strings.Index(line, "//"); k >= 0 {
			line = line[:k]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func normName(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
