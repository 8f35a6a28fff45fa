package conformance

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// archiveFile holds ONNX's node tests (testdata/README.md).
const archiveFile = "testdata/onnx-node-tests-6be0677.tar.gz"

// archiveRoot is the folder of the node tests inside the archive.
const archiveRoot = "onnx/backend/test/data/node/"

// nodeTest is one test of the suite: a model and its data sets.
type nodeTest struct {
	name  string
	model []byte
	sets  []dataSet
}

// dataSet is one test_data_set_N folder: the serialized inputs and
// expected outputs, in order.
type dataSet struct {
	inputs, outputs [][]byte
}

// readArchive reads every test of the archive at path, sorted by name.
func readArchive(path string) ([]*nodeTest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	type files struct {
		model []byte
		// sets[n][0] holds input_K.pb at K, sets[n][1] output_K.pb.
		sets map[int][2]map[int][]byte
	}
	byName := map[string]*files{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		rel, ok := strings.CutPrefix(h.Name, archiveRoot)
		if !ok {
			return nil, fmt.Errorf("%s: %s is outside %s", path, h.Name, archiveRoot)
		}
		parts := strings.Split(rel, "/")
		fs := byName[parts[0]]
		if fs == nil {
			fs = &files{sets: map[int][2]map[int][]byte{}}
			byName[parts[0]] = fs
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, h.Name, err)
		}
		switch {
		case len(parts) == 2 && parts[1] == "model.onnx":
			fs.model = data
		case len(parts) == 3 && strings.HasPrefix(parts[1], "test_data_set_"):
			set, err1 := strconv.Atoi(strings.TrimPrefix(parts[1], "test_data_set_"))
			kind, k, err2 := dataFile(parts[2])
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("%s: unexpected file %s", path, h.Name)
			}
			s, ok := fs.sets[set]
			if !ok {
				s = [2]map[int][]byte{{}, {}}
				fs.sets[set] = s
			}
			s[kind][k] = data
		default:
			return nil, fmt.Errorf("%s: unexpected file %s", path, h.Name)
		}
	}
	var tests []*nodeTest
	for name, fs := range byName {
		if fs.model == nil {
			return nil, fmt.Errorf("%s: %s has no model.onnx", path, name)
		}
		t := &nodeTest{name: name, model: fs.model}
		for n := 0; n < len(fs.sets); n++ {
			s, ok := fs.sets[n]
			if !ok {
				return nil, fmt.Errorf("%s: %s has no test_data_set_%d", path, name, n)
			}
			var ds dataSet
			for kind, dst := range []*[][]byte{&ds.inputs, &ds.outputs} {
				for k := 0; k < len(s[kind]); k++ {
					b, ok := s[kind][k]
					if !ok {
						return nil, fmt.Errorf("%s: %s/test_data_set_%d lacks file %d of %d", path, name, n, k, len(s[kind]))
					}
					*dst = append(*dst, b)
				}
			}
			t.sets = append(t.sets, ds)
		}
		tests = append(tests, t)
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].name < tests[j].name })
	return tests, nil
}

// dataFile parses input_K.pb (kind 0) or output_K.pb (kind 1).
func dataFile(name string) (kind, k int, err error) {
	base, ok := strings.CutSuffix(name, ".pb")
	if !ok {
		return 0, 0, fmt.Errorf("%s is not a .pb file", name)
	}
	if s, ok := strings.CutPrefix(base, "input_"); ok {
		k, err = strconv.Atoi(s)
		return 0, k, err
	}
	if s, ok := strings.CutPrefix(base, "output_"); ok {
		k, err = strconv.Atoi(s)
		return 1, k, err
	}
	return 0, 0, fmt.Errorf("%s is neither input_K.pb nor output_K.pb", name)
}
