//go:build ort

package ortcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
	ort "github.com/yalue/onnxruntime_go"
	"google.golang.org/protobuf/encoding/protowire"
)

// npmDir is the npm prefix that holds the reference runtime and the real
// models: $LINTEL_NPM_DIR, or .cache/npm at the repository root.
func npmDir() string {
	if d := os.Getenv("LINTEL_NPM_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", ".cache", "npm")
}

// npmFile returns the path of a file inside an installed npm package.
func npmFile(pkg, file string) string {
	return filepath.Join(npmDir(), "node_modules", pkg, file)
}

// libPath finds ONNX Runtime's shared library.
func libPath() (string, error) {
	if p := os.Getenv("ONNXRUNTIME_LIB"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("ONNXRUNTIME_LIB: %w", err)
		}
		return p, nil
	}
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	p := npmFile("onnxruntime-node", filepath.Join("bin", "napi-v6", runtime.GOOS, arch, "libonnxruntime.so.1"))
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("ONNX Runtime library not found at %s (run `make ort-deps` or set ONNXRUNTIME_LIB): %w", p, err)
	}
	return p, nil
}

func TestMain(m *testing.M) {
	p, err := libPath()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ortcheck:", err)
		os.Exit(1)
	}
	ort.SetSharedLibraryPath(p)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		fmt.Fprintln(os.Stderr, "ortcheck: initializing ONNX Runtime:", err)
		os.Exit(1)
	}
	code := m.Run()
	if s := failureSummary(); s != "" {
		fmt.Print(s)
	}
	_ = ort.DestroyEnvironment()
	os.Exit(code)
}

// Suffixes of the outputs the reference run adds to a model.
const (
	flatSuffix  = "__ortcheck_flat"
	shapeSuffix = "__ortcheck_shape"
)

// refIO lists a model's inputs and outputs as ONNX Runtime sees them.
type refIO struct {
	in, out []ort.InputOutputInfo
}

func ortInfo(modelBytes []byte) (refIO, error) {
	in, out, err := ort.GetInputOutputInfoWithONNXData(modelBytes)
	return refIO{in, out}, err
}

// instrument returns the model with, for every graph output y, two more
// outputs: y flattened to 1-D (cast to float32 when y holds float16 or
// bfloat16) and y's shape. The bindings' automatic output allocation
// mishandles scalars and 2-byte custom types; these 1-D float32/int64/...
// outputs carry the same information without either problem. The extra
// graph is appended as a second ModelProto.graph field, which protobuf
// parsers merge into the first.
func instrument(modelBytes []byte, outs []ort.InputOutputInfo) ([]byte, []string, error) {
	var g onnxbuild.Graph
	minus1 := onnxbuild.TensorOf("", []int64{1}, []int64{-1})
	g.Nodes = append(g.Nodes, onnxbuild.Node{
		Op: "Constant", Outputs: []string{"__ortcheck_m1"},
		Attrs: []onnxbuild.Attr{onnxbuild.ATensor("value", minus1)},
	})
	var names []string
	for _, o := range outs {
		dt := payload.DType(o.DataType)
		src := o.Name
		if dt == payload.Float16 || dt == payload.BF16 {
			src = o.Name + "__ortcheck_f32"
			g.Nodes = append(g.Nodes, onnxbuild.Node{
				Op: "Cast", Inputs: []string{o.Name}, Outputs: []string{src},
				Attrs: []onnxbuild.Attr{onnxbuild.AInt("to", int64(payload.Float32))},
			})
			dt = payload.Float32
		}
		flat, shape := o.Name+flatSuffix, o.Name+shapeSuffix
		g.Nodes = append(g.Nodes,
			onnxbuild.Node{Op: "Reshape", Inputs: []string{src, "__ortcheck_m1"}, Outputs: []string{flat}},
			onnxbuild.Node{Op: "Shape", Inputs: []string{o.Name}, Outputs: []string{shape}},
		)
		g.Outputs = append(g.Outputs,
			onnxbuild.Value{Name: flat, DType: dt, NoShape: true},
			onnxbuild.Value{Name: shape, DType: payload.Int64, NoShape: true},
		)
		names = append(names, flat, shape)
	}
	wrapper := onnxbuild.Model{Graph: g}
	b := wrapper.Encode()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, nil, protowire.ParseError(n)
		}
		b = b[n:]
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return nil, nil, protowire.ParseError(m)
		}
		if num == 7 {
			graph, _ := protowire.ConsumeBytes(b)
			out := append([]byte(nil), modelBytes...)
			out = protowire.AppendTag(out, 7, protowire.BytesType)
			out = protowire.AppendBytes(out, graph)
			return out, names, nil
		}
		b = b[m:]
	}
	return nil, nil, fmt.Errorf("encoded wrapper has no graph")
}

// ortRun runs the model on ONNX Runtime's CPU provider with one thread and
// graph optimizations off, and returns its outputs in model order.
func ortRun(modelBytes []byte, feeds []payload.Dynamic) ([]value, error) {
	return ortRunAt(modelBytes, feeds, ort.GraphOptimizationLevelDisableAll)
}

// ortRunAt is ortRun with graph optimizations at level.
func ortRunAt(modelBytes []byte, feeds []payload.Dynamic, level ort.GraphOptimizationLevel) ([]value, error) {
	io, err := ortInfo(modelBytes)
	if err != nil {
		return nil, fmt.Errorf("reading the model's inputs and outputs: %w", err)
	}
	inst, outNames, err := instrument(modelBytes, io.out)
	if err != nil {
		return nil, err
	}
	inNames := make([]string, len(io.in))
	inputs := make([]ort.Value, len(io.in))
	defer func() {
		for _, v := range inputs {
			if v != nil {
				v.Destroy()
			}
		}
	}()
	for i, info := range io.in {
		inNames[i] = info.Name
		var feed *payload.Dynamic
		for j := range feeds {
			if feeds[j].Name == info.Name {
				feed = &feeds[j]
			}
		}
		if feed == nil {
			return nil, fmt.Errorf("no feed for input %q", info.Name)
		}
		if inputs[i], err = ortValue(*feed); err != nil {
			return nil, fmt.Errorf("input %q: %w", info.Name, err)
		}
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(1); err != nil {
		return nil, err
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, err
	}
	if err := opts.SetGraphOptimizationLevel(level); err != nil {
		return nil, err
	}
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(inst, inNames, outNames, opts)
	if err != nil {
		return nil, err
	}
	defer s.Destroy()
	outputs := make([]ort.Value, len(outNames))
	defer func() {
		for _, v := range outputs {
			if v != nil {
				v.Destroy()
			}
		}
	}()
	if err := s.Run(inputs, outputs); err != nil {
		return nil, err
	}
	res := make([]value, len(io.out))
	for i, info := range io.out {
		shp, ok := outputs[2*i+1].(*ort.Tensor[int64])
		if !ok {
			return nil, fmt.Errorf("output %q: shape came back as %T", info.Name, outputs[2*i+1])
		}
		shape := make([]int, len(shp.GetData()))
		for k, d := range shp.GetData() {
			shape[k] = int(d)
		}
		v, err := fromORT(info.Name, payload.DType(info.DataType), shape, outputs[2*i])
		if err != nil {
			return nil, err
		}
		res[i] = v
	}
	return res, nil
}

// ortValue wraps a feed as an ONNX Runtime value; the value aliases the
// feed's bytes.
func ortValue(d payload.Dynamic) (ort.Value, error) {
	switch d.DType {
	case payload.Float32:
		return ortTyped[float32](d)
	case payload.Float64:
		return ortTyped[float64](d)
	case payload.Int8:
		return ortTyped[int8](d)
	case payload.Uint8:
		return ortTyped[uint8](d)
	case payload.Int16:
		return ortTyped[int16](d)
	case payload.Uint16:
		return ortTyped[uint16](d)
	case payload.Int32:
		return ortTyped[int32](d)
	case payload.Uint32:
		return ortTyped[uint32](d)
	case payload.Int64:
		return ortTyped[int64](d)
	case payload.Uint64:
		return ortTyped[uint64](d)
	case payload.Bool:
		return ortTyped[bool](d)
	case payload.Float16, payload.BF16:
		if len(d.Shape) == 0 || len(d.Data) == 0 {
			return nil, fmt.Errorf("scalar or empty %s feeds are not supported by the bindings", d.DType)
		}
		return ort.NewCustomDataTensor(shape64(d.Shape), d.Data, ort.TensorElementDataType(d.DType))
	}
	return nil, fmt.Errorf("element type %s has no reference feed", d.DType)
}

type ortElem interface {
	ort.TensorData
	payload.Elem
}

func ortTyped[T ortElem](d payload.Dynamic) (ort.Value, error) {
	t, err := payload.Typed[T](d)
	if err != nil {
		return nil, err
	}
	if len(d.Shape) == 0 {
		return ort.NewScalar(t.Data[0])
	}
	return ort.NewTensor(shape64(d.Shape), t.Data)
}

func shape64(s []int) ort.Shape {
	out := make(ort.Shape, len(s))
	for i, d := range s {
		out[i] = int64(d)
	}
	return out
}

// fromORT converts a flattened reference output to a value.
func fromORT(name string, dt payload.DType, shape []int, v ort.Value) (value, error) {
	out := value{name: name, dtype: dt, shape: shape}
	switch t := v.(type) {
	case *ort.Tensor[float32]:
		out.f = widenF(t.GetData())
	case *ort.Tensor[float64]:
		out.f = widenF(t.GetData())
	case *ort.Tensor[int8]:
		out.i = widenI(t.GetData())
	case *ort.Tensor[uint8]:
		out.i = widenI(t.GetData())
	case *ort.Tensor[int16]:
		out.i = widenI(t.GetData())
	case *ort.Tensor[uint16]:
		out.i = widenI(t.GetData())
	case *ort.Tensor[int32]:
		out.i = widenI(t.GetData())
	case *ort.Tensor[uint32]:
		out.i = widenI(t.GetData())
	case *ort.Tensor[int64]:
		out.i = widenI(t.GetData())
	case *ort.Tensor[uint64]:
		out.i = widenI(t.GetData())
	case *ort.Tensor[bool]:
		for _, b := range t.GetData() {
			if b {
				out.i = append(out.i, 1)
			} else {
				out.i = append(out.i, 0)
			}
		}
	default:
		return value{}, fmt.Errorf("output %q: reference returned %T", name, v)
	}
	return out, nil
}
