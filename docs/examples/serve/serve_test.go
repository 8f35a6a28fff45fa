package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// reluModel writes a model computing y = Relu(x) for x of shape [N, 4].
func reluModel(t *testing.T) string {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 4)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 4)},
		Nodes:   []onnxbuild.Node{{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
	path := filepath.Join(t.TempDir(), "relu.onnx")
	if err := os.WriteFile(path, m.Encode(), 0o644); err != nil {
		t.Fatalf("os.WriteFile: %v", err)
	}
	return path
}

func TestServer(t *testing.T) {
	s, err := New(reluModel(t), 2, batch.Options{MaxBatch: 8, MaxDelay: time.Millisecond})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	cases := []struct {
		method, body string
		code         int
		want         string
	}{
		{"POST", `{"shape": [1, 4], "data": [-1, 2, -3, 4]}`, 200, `{"shape":[1,4],"data":[0,2,0,4]}`},
		{"POST", `{"shape": [2, 4], "data": [1, 1, 1, 1, -1, -1, -1, -1]}`, 200, `{"shape":[2,4],"data":[1,1,1,1,0,0,0,0]}`},
		{"POST", `{"shape": [1, 3], "data": [1, 2, 3]}`, 400, "shape mismatch"},
		{"POST", `{"shape": [1, 4], "data": [1]}`, 400, "shape mismatch"},
		{"POST", `not json`, 400, "invalid character"},
		{"GET", ``, 405, "POST a tensor"},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, srv.URL, strings.NewReader(c.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", c.method, c.body, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(b), c.want) {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.body, resp.StatusCode, b, c.code, c.want)
		}
	}

	// Many clients at once share the two instances through the batcher.
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Go(func() {
			v := float32(i)
			resp, err := http.Post(srv.URL, "application/json", strings.NewReader(fmt.Sprintf(`{"shape":[1,4],"data":[%g,-1,%g,-1]}`, v, v)))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if want := fmt.Sprintf(`{"shape":[1,4],"data":[%g,0,%g,0]}`, v, v); string(b) != want {
				errs <- fmt.Errorf("got %s, want %s", b, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestNewRefusesBadModel(t *testing.T) {
	_, err := New(filepath.Join(t.TempDir(), "missing.onnx"), 1, batch.Options{})
	if !errors.Is(err, compute.ErrInvalidArtifact) {
		t.Fatalf("New(missing file): error %v, want one matching compute.ErrInvalidArtifact", err)
	}
}

// After Close, requests get 503: the batcher refuses them.
func TestServerClosed(t *testing.T) {
	s, err := New(reluModel(t), 1, batch.Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	s.Close()
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"shape":[1,4],"data":[1,2,3,4]}`))
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got, want := resp.StatusCode, http.StatusServiceUnavailable; got != want || !strings.Contains(string(b), "closed") {
		t.Errorf("after Close: %d %q, want %d and a body naming the closed batcher", got, b, want)
	}
}
