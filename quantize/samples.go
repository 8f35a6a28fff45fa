package quantize

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/npy"
)

// maxSampleBytes bounds one calibration file.
const maxSampleBytes = 1 << 30

// FileName returns the file name, less ".npy", that holds input name in
// a calibration folder: the name with every character other than a
// letter, a digit, '.', '-' and '_' replaced by '_' (as lintel run names
// its files).
func FileName(input string) string {
	s := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, input)
	s = strings.TrimLeft(s, ".")
	if s == "" {
		s = "tensor"
	}
	return s
}

// ReadSamples reads calibration samples for a model with the given inputs
// from dir. Either dir holds one .npy file per input, FileName(input) +
// ".npy", which is one sample; or it holds subfolders, each such a set of
// files, one sample each, read in the order of their names. Files other
// than those are ignored.
func ReadSamples(dir string, inputs []string) ([]Sample, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, errs.Wrap(errs.ResourceUnavailable, err, "quantize: calibration folder")
	}
	flat := slices.ContainsFunc(ents, func(d os.DirEntry) bool {
		return !d.IsDir() && strings.HasSuffix(d.Name(), ".npy")
	})
	if flat {
		s, err := readSample(dir, inputs)
		if err != nil {
			return nil, err
		}
		return []Sample{s}, nil
	}
	var out []Sample
	for _, d := range ents { // os.ReadDir sorts by name
		if !d.IsDir() {
			continue
		}
		s, err := readSample(filepath.Join(dir, d.Name()), inputs)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, errs.New(errs.ResourceUnavailable, "quantize: %s holds no .npy files and no sample folders", dir)
	}
	return out, nil
}

func readSample(dir string, inputs []string) (Sample, error) {
	s := make(Sample, 0, len(inputs))
	for _, in := range inputs {
		p := filepath.Join(dir, FileName(in)+".npy")
		d, err := npy.ReadFile(p, maxSampleBytes)
		if err != nil {
			return nil, errs.Wrap(errs.ResourceUnavailable, err, "quantize: calibration input %q", in)
		}
		d.Name = in
		s = append(s, d)
	}
	return s, nil
}
