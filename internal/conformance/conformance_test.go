package conformance

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

var update = flag.Bool("update", false, "rewrite "+ExpectationsFile+" from this run's passes and refusals")

// testTimeout is how long one test may run before it counts as a hang.
const testTimeout = 30 * time.Second

// randomOps draw their outputs from a random generator: the tests that use
// them hold NumPy's draws, which no other generator reproduces, so they are
// refused whatever the backend does.
var randomOps = map[string]bool{
	"Bernoulli":         true,
	"Multinomial":       true,
	"RandomNormal":      true,
	"RandomNormalLike":  true,
	"RandomUniform":     true,
	"RandomUniformLike": true,
}

// refusedData are tests whose model loads but whose input lintel refuses
// at run time, with ErrUnsupported, because what it is is only known from
// the input's contents: images in formats whose decoders lintel does not
// reproduce bit for bit. The runner still runs them and fails on any
// other outcome than that refusal (or a pass).
var refusedData = map[string]string{
	"test_image_decoder_decode_jpeg_rgb":       jpegDiffers,
	"test_image_decoder_decode_jpeg_bgr":       jpegDiffers,
	"test_image_decoder_decode_jpeg_grayscale": jpegDiffers,
	"test_image_decoder_decode_webp_rgb":       "ImageDecoder: WebP images fail the call with ErrUnsupported: Go's decoder upsamples chroma unlike libwebp, whose pixels the reference holds",
	"test_image_decoder_decode_jpeg2k_rgb":     "ImageDecoder: JPEG 2000 images are not decoded (Go has no decoder); the call fails with ErrUnsupported",
}

const jpegDiffers = "ImageDecoder: JPEG images fail the call with ErrUnsupported: Go's decoder upsamples chroma and rounds its IDCT unlike libjpeg, whose pixels the reference holds"

// outcome is what one run of a test gave.
type outcome struct {
	res Result
	// fail says what went wrong when the test neither passed nor was
	// refused cleanly: a wrong answer, an error, a panic or a hang.
	fail string
}

func TestONNXNodeSuite(t *testing.T) {
	tests, err := readArchive(archiveFile)
	if err != nil {
		t.Fatal(err)
	}
	want, err := readExpectations()
	if err != nil {
		t.Fatal(err)
	}
	inArchive := map[string]bool{}
	for _, nt := range tests {
		inArchive[nt.name] = true
	}
	for name := range want {
		if !inArchive[name] {
			t.Errorf("%s: in %s but not in the archive", name, ExpectationsFile)
		}
	}

	var (
		mu  sync.Mutex
		got = map[string]outcome{}
	)
	t.Cleanup(func() { finish(t, want, got) })
	for _, nt := range tests {
		t.Run(nt.name, func(t *testing.T) {
			t.Parallel()
			o := runGuarded(nt, testTimeout)
			mu.Lock()
			got[nt.name] = o
			mu.Unlock()
			if o.fail != "" {
				t.Error(o.fail)
				return
			}
			w, ok := want[nt.name]
			switch {
			case *update:
			case !ok:
				t.Errorf("%s, but it is not in %s: run with -update", o.res, ExpectationsFile)
			case w.Pass && !o.res.Pass:
				t.Errorf("refused (%s), but %s says it passes", o.res.Reason, ExpectationsFile)
			case !w.Pass && o.res.Pass:
				t.Errorf("passes, but %s says it is refused (%s): run with -update to record the pass", ExpectationsFile, w.Reason)
			}
		})
	}
}

// finish runs once every test has: it reports how the run went and, with
// -update, rewrites the expectations file.
func finish(t *testing.T, want map[string]Result, got map[string]outcome) {
	var pass, refused, failed, reasons int
	for name, o := range got {
		switch {
		case o.fail != "":
			failed++
		case o.res.Pass:
			pass++
		default:
			refused++
			if w, ok := want[name]; ok && !w.Pass && w.Reason != o.res.Reason {
				reasons++
			}
		}
	}
	t.Logf("%d tests: %d pass, %d refused, %d failed", len(got), pass, refused, failed)
	if reasons > 0 && !*update {
		t.Logf("%d tests are refused for another reason than %s gives: run with -update to refresh it", reasons, ExpectationsFile)
	}
	if !*update {
		return
	}
	// Tests that failed keep their line: a wrong answer is never recorded.
	res := map[string]Result{}
	for name, r := range want {
		res[name] = r
	}
	for name, o := range got {
		if o.fail != "" {
			continue
		}
		if w, ok := want[name]; ok && w.Pass && !o.res.Pass {
			t.Logf("%s: was passing, now refused (%s)", name, o.res.Reason)
		}
		res[name] = o.res
	}
	if err := os.WriteFile(ExpectationsFile, FormatExpectations(res), 0o644); err != nil {
		t.Error(err)
	}
}

// readExpectations reads the expectations file; a missing file is empty.
func readExpectations() (map[string]Result, error) {
	f, err := os.Open(ExpectationsFile)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Result{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseExpectations(f)
}

// runGuarded runs nt, turning a panic into a failure and a run longer than
// timeout into a hang. A hung run's goroutine is left behind.
func runGuarded(nt *nodeTest, timeout time.Duration) outcome {
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{fail: fmt.Sprintf("panic: %v\n%s", r, debug.Stack())}
			}
		}()
		done <- runTest(nt)
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case o := <-done:
		return o
	case <-timer.C:
		return outcome{fail: fmt.Sprintf("hang: no result after %v", timeout)}
	}
}

// runTest decodes, loads and runs one test on the CPU backend with one
// thread and compares every output.
func runTest(nt *nodeTest) outcome {
	art, err := artifacts.FromBytes(nt.model, nt.name)
	if err != nil {
		return atLoad(nt.name, "decoding the model", err)
	}
	if op := randomOp(art.Graph()); op != "" {
		return outcome{res: Result{Reason: "random op " + op + ": the reference holds NumPy's draws"}}
	}
	m, err := cpu.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		return atLoad(nt.name, "loading the model", err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		return outcome{fail: fmt.Sprintf("Init: %v", err)}
	}
	meta := m.Metadata()
	kinds := map[string]model.ValueKind{}
	for _, v := range append(append([]model.ValueInfo{}, art.Graph().Inputs...), art.Graph().Outputs...) {
		kinds[v.Name] = v.Kind
	}
	inKinds := make([]model.ValueKind, len(meta.Inputs))
	for k, in := range meta.Inputs {
		inKinds[k] = kinds[in.Name]
	}
	outKinds := make([]model.ValueKind, len(meta.Outputs))
	for k, o := range meta.Outputs {
		outKinds[k] = kinds[o.Name]
	}
	for si, set := range nt.sets {
		ins, err := decodeAll(set.inputs, inKinds, "input", si)
		if err != nil {
			return outcome{fail: err.Error()}
		}
		wants, err := decodeAll(set.outputs, outKinds, "output", si)
		if err != nil {
			return outcome{fail: err.Error()}
		}
		if len(ins) != len(meta.Inputs) {
			return outcome{fail: fmt.Sprintf("data set %d has %d inputs, the loaded model takes %d", si, len(ins), len(meta.Inputs))}
		}
		if len(wants) != len(meta.Outputs) {
			return outcome{fail: fmt.Sprintf("data set %d has %d outputs, the loaded model gives %d", si, len(wants), len(meta.Outputs))}
		}
		// ONNX's runner feeds inputs by position.
		feeds := make([]payload.Dynamic, len(ins))
		for k, in := range ins {
			feeds[k] = in.dynamic()
			feeds[k].Name = meta.Inputs[k].Name
		}
		var out payload.Multi
		if err := m.InferOne(&payload.Multi{Tensors: feeds}, &out); err != nil {
			if why, ok := refusedData[nt.name]; ok && errors.Is(err, compute.ErrUnsupported) {
				return outcome{res: Result{Reason: why}}
			}
			return outcome{fail: fmt.Sprintf("data set %d: InferOne: %v", si, err)}
		}
		if msg := compareAll(out, wants, absTolOf(nt.name)); msg != "" {
			return outcome{fail: fmt.Sprintf("data set %d: InferOne: wrong answer: %s", si, msg)}
		}
		if !batchable(ins, wants) {
			continue
		}
		items := []payload.Multi{{Tensors: feeds}, {Tensors: feeds}}
		outs := make([]payload.Multi, len(items))
		if err := m.InferBatch(batch.Of(items), outs); err != nil {
			return outcome{fail: fmt.Sprintf("data set %d: InferBatch: %v", si, err)}
		}
		for i, o := range outs {
			if msg := compareAll(o, wants, absTolOf(nt.name)); msg != "" {
				return outcome{fail: fmt.Sprintf("data set %d: InferBatch item %d: wrong answer: %s", si, i, msg)}
			}
		}
	}
	return outcome{res: Result{Pass: true}}
}

// atLoad classifies an error from decoding or loading a model: a clean
// refusal (compute.ErrUnsupported) or a failure.
func atLoad(label, what string, err error) outcome {
	if errors.Is(err, compute.ErrUnsupported) {
		return outcome{res: Result{Reason: reason(label, err)}}
	}
	return outcome{fail: fmt.Sprintf("%s: %v", what, err)}
}

// reason shortens a refusal for the expectations file: one line, without
// the "lintel: unsupported: " prefix and the model's label.
func reason(label string, err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "lintel: "+compute.ErrUnsupported.Error()+": ")
	s = strings.TrimPrefix(s, label+": ")
	s = strings.Join(strings.Fields(s), " ")
	return s
}

// value is one decoded input or output: a tensor, a sequence's
// elements (seq), or an optional with no element (none).
type value struct {
	t     *model.Tensor
	items []*model.Tensor
	seq   bool
	none  bool
}

// dynamic returns v as a payload carries it (see payload.Dynamic).
func (v value) dynamic() payload.Dynamic {
	switch {
	case v.none:
		return payload.Dynamic{}
	case v.seq:
		items := make([]payload.Dynamic, len(v.items))
		for i, t := range v.items {
			items[i] = payload.Dynamic{DType: t.DType, Shape: t.Shape, Data: t.Raw}
		}
		return payload.Dynamic{Items: items}
	}
	return payload.Dynamic{DType: v.t.DType, Shape: v.t.Shape, Data: v.t.Raw}
}

// decodeAll decodes the serialized values of one data set; kinds are the
// model's kinds of value for them, which say how each file is encoded
// (TensorProto, SequenceProto or OptionalProto).
func decodeAll(files [][]byte, kinds []model.ValueKind, kind string, set int) ([]value, error) {
	vs := make([]value, len(files))
	for k, b := range files {
		label := fmt.Sprintf("test_data_set_%d/%s_%d.pb", set, kind, k)
		vk := model.KindTensor
		if k < len(kinds) {
			vk = kinds[k]
		}
		var err error
		switch vk {
		case model.KindSequence:
			vs[k].seq = true
			vs[k].items, err = artifacts.DecodeSequence(b, label)
		case model.KindOptional, model.KindOptionalSequence:
			vs[k].t, vs[k].items, err = artifacts.DecodeOptional(b, label)
			vs[k].seq = vs[k].items != nil
			vs[k].none = vs[k].t == nil && vs[k].items == nil
		default:
			vs[k].t, err = artifacts.DecodeTensor(b, label)
		}
		if err != nil {
			return nil, err
		}
	}
	return vs, nil
}

// compareAll compares a run's outputs with the expected ones, in order.
func compareAll(out payload.Multi, wants []value, abs float64) string {
	if len(out.Tensors) != len(wants) {
		return fmt.Sprintf("%d outputs, want %d", len(out.Tensors), len(wants))
	}
	for i, w := range wants {
		if msg := compareValue(out.Tensors[i], w, abs); msg != "" {
			return fmt.Sprintf("output %d (%s): %s", i, out.Tensors[i].Name, msg)
		}
	}
	return ""
}

// compareValue compares one output with its expected value.
func compareValue(got payload.Dynamic, want value, abs float64) string {
	switch {
	case want.none:
		if got.DType != payload.Undefined || got.Items != nil {
			return "an element, want an optional with none"
		}
		return ""
	case want.seq:
		if got.Items == nil {
			return "not a sequence, want one"
		}
		if len(got.Items) != len(want.items) {
			return fmt.Sprintf("a sequence of %d tensors, want %d", len(got.Items), len(want.items))
		}
		for j, w := range want.items {
			if msg := compare(got.Items[j], w, abs); msg != "" {
				return fmt.Sprintf("element %d: %s", j, msg)
			}
		}
		return ""
	}
	if got.Items != nil {
		return "a sequence, want a tensor"
	}
	return compare(got, want.t, abs)
}

// batchable reports whether a data set can also run through InferBatch
// as items that stack along the first axis: every input and output is a
// tensor of rank 1 or more and all share their first dimension.
func batchable(ins, outs []value) bool {
	first := -1
	for _, v := range append(append([]value{}, ins...), outs...) {
		if v.t == nil || v.seq {
			return false
		}
		t := v.t
		if len(t.Shape) == 0 || (first >= 0 && t.Shape[0] != first) {
			return false
		}
		first = t.Shape[0]
	}
	return first > 0
}

// randomOp returns the first random op in g or its subgraphs, or "".
func randomOp(g *model.Graph) string {
	for _, n := range g.Nodes {
		if randomOps[n.OpType] {
			return n.OpType
		}
		for _, a := range n.Attrs {
			for _, sg := range append([]*model.Graph{a.G}, a.Graphs...) {
				if sg == nil {
					continue
				}
				if op := randomOp(sg); op != "" {
					return op
				}
			}
		}
	}
	return ""
}
