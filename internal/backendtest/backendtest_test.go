package backendtest

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/compute"
)

func TestProbe(t *testing.T) {
	cases := []struct {
		name     string
		file     []byte
		probeErr bool
	}{
		{"the probe model", reluProbe(), false},
		{"a file that does not decode", []byte("not a model"), true},
		{"a truncated probe", reluProbe()[:10], true},
	}
	for _, c := range cases {
		err := probe(c.file)
		if got := errors.Is(err, ErrProbe); got != c.probeErr {
			t.Errorf("%s: probe error %v; matches ErrProbe: got %v, want %v", c.name, err, got, c.probeErr)
		}
		if c.probeErr && !errors.Is(err, compute.ErrInvalidArtifact) {
			t.Errorf("%s: got %v, want the decoder's reason (compute.ErrInvalidArtifact) kept", c.name, err)
		}
		if !c.probeErr && err != nil && !errors.Is(err, compute.ErrResourceUnavailable) {
			t.Errorf("%s: got %v, want nil or compute.ErrResourceUnavailable", c.name, err)
		}
	}
}
