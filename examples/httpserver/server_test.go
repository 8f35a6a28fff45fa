package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

const inDim, outDim = 16, 4

// testArtifact is a small classifier: Softmax(Relu(x·W1)·W2), x [N, 16].
func testArtifact(t *testing.T) *artifacts.Artifact {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 3))
	rnd := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32() - 0.5
		}
		return v
	}
	g := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, inDim)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, outDim)},
		Initializers: []onnxbuild.Tensor{
			onnxbuild.TensorOf("w1", []int64{inDim, 32}, rnd(inDim*32)),
			onnxbuild.TensorOf("w2", []int64{32, outDim}, rnd(32*outDim)),
		},
		Nodes: []onnxbuild.Node{
			{Op: "MatMul", Inputs: []string{"x", "w1"}, Outputs: []string{"h"}},
			{Op: "Relu", Inputs: []string{"h"}, Outputs: []string{"r"}},
			{Op: "MatMul", Inputs: []string{"r", "w2"}, Outputs: []string{"z"}},
			{Op: "Softmax", Inputs: []string{"z"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", -1)}},
		},
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	art, err := artifacts.FromBytes(m.Encode(), "test.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	return art
}

var testConfig = config{instances: 2, batch: batch.Options{MaxBatch: 16, MaxDelay: 200 * time.Microsecond}, maxBody: 1 << 20}

func newTestServer(t *testing.T) (*server, *artifacts.Artifact) {
	t.Helper()
	art := testArtifact(t)
	s, err := newServerFor(art, testConfig)
	if err != nil {
		t.Fatalf("newServerFor: %v", err)
	}
	return s, art
}

// reference computes the expected answer with InferOne.
type reference struct {
	mu sync.Mutex
	m  *backends.Model[tensor, tensor]
}

func newReference(t *testing.T, art *artifacts.Artifact) *reference {
	t.Helper()
	m, err := backends.New[tensor, tensor](compute.Options{}).LoadModel(art)
	if err == nil {
		err = m.Init()
	}
	if err != nil {
		t.Fatalf("loading the reference model: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return &reference{m: m}
}

func (r *reference) answer(in message) (message, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out tensor
	err := r.m.InferOne(&tensor{Shape: in.Shape, Data: in.Data}, &out)
	return message{Shape: out.Shape, Data: out.Data}, err
}

func inputFor(c, i int) message {
	r := rand.New(rand.NewPCG(uint64(c), uint64(i)))
	m := message{Shape: []int{1, inDim}, Data: make([]float32, inDim)}
	for j := range m.Data {
		m.Data[j] = r.Float32()*2 - 1
	}
	return m
}

func post(client *http.Client, url string, body []byte) (int, []byte, error) {
	resp, err := client.Post(url+"/v1/infer", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.Bytes(), err
}

func same(a, b message) bool {
	return slices.Equal(a.Shape, b.Shape) && slices.Equal(a.Data, b.Data)
}

// Many concurrent clients over a loopback server: every answer is the
// model's answer for that client's input.
func TestConcurrentClients(t *testing.T) {
	s, art := newTestServer(t)
	ref := newReference(t, art)
	ts := httptest.NewServer(s.handler())
	defer func() {
		ts.Close()
		s.b.Close()
		s.closeModels()
	}()
	const clients, each = 64, 20
	var bad atomic.Int64
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := range each {
				in := inputFor(c, i)
				body, _ := json.Marshal(in)
				code, got, err := post(ts.Client(), ts.URL, body)
				var out message
				if err == nil && code == http.StatusOK {
					err = json.Unmarshal(got, &out)
				}
				want, werr := ref.answer(in)
				if err != nil || werr != nil || code != http.StatusOK || !same(out, want) {
					bad.Add(1)
					t.Logf("client %d request %d: %d %s %v", c, i, code, got, err)
				}
			}
		})
	}
	wg.Wait()
	if n := bad.Load(); n != 0 {
		t.Fatalf("%d of %d requests failed or got a wrong answer", n, clients*each)
	}
	st := s.b.Stats()
	if st.Requests != clients*each {
		t.Errorf("the batcher saw %d requests, want %d", st.Requests, clients*each)
	}
	t.Logf("%d requests in %d batches (mean %.1f)", st.Requests, st.Batches, st.MeanBatch())
}

func TestBadRequests(t *testing.T) {
	s, _ := newTestServer(t)
	ts := httptest.NewServer(s.handler())
	defer func() {
		ts.Close()
		s.b.Close()
		s.closeModels()
	}()
	big := `{"shape":[1,16],"data":[` + strings.Repeat("0,", 1<<20) + `0]}`
	tests := []struct {
		name, method, path, body string
		want                     int
	}{
		{"not JSON", "POST", "/v1/infer", "{", http.StatusBadRequest},
		{"unknown field", "POST", "/v1/infer", `{"shape":[1,16],"data":[],"x":1}`, http.StatusBadRequest},
		{"wrong shape", "POST", "/v1/infer", `{"shape":[1,3],"data":[1,2,3]}`, http.StatusBadRequest},
		{"data does not fit shape", "POST", "/v1/infer", `{"shape":[1,16],"data":[1]}`, http.StatusBadRequest},
		{"negative dim", "POST", "/v1/infer", `{"shape":[-1,16],"data":[]}`, http.StatusBadRequest},
		{"too large", "POST", "/v1/infer", big, http.StatusRequestEntityTooLarge},
		{"GET infer", "GET", "/v1/infer", "", http.StatusMethodNotAllowed},
		{"unknown path", "GET", "/v2", "", http.StatusNotFound},
		{"health", "GET", "/healthz", "", http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, ts.URL+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatalf("http.NewRequest: %v", err)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatalf("Do: %v", err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.want {
				var buf bytes.Buffer
				buf.ReadFrom(resp.Body)
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.want, buf.String())
			}
		})
	}
}

// On shutdown, requests in flight finish with right answers, the batcher
// is drained and closed, and serve returns.
func TestGracefulShutdown(t *testing.T) {
	s, art := newTestServer(t)
	ref := newReference(t, art)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("net.Listen: %v", err)
	}
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.serve(ctx, ln, 10*time.Second) }()

	var ok, refused, bad atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := range 32 {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{}}
			defer client.CloseIdleConnections()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				in := inputFor(c, i)
				body, _ := json.Marshal(in)
				code, got, err := post(client, url, body)
				if err != nil {
					// The server has closed the connection or stopped
					// listening: expected once the shutdown begins.
					refused.Add(1)
					time.Sleep(time.Millisecond)
					continue
				}
				var out message
				want, _ := ref.answer(in)
				if code != http.StatusOK || json.Unmarshal(got, &out) != nil || !same(out, want) {
					bad.Add(1)
					t.Logf("status %d: %s", code, got)
					continue
				}
				ok.Add(1)
			}
		})
	}
	for s.b.Stats().Requests < 200 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not return after the shutdown")
	}
	close(stop)
	wg.Wait()
	t.Logf("%d answered, %d refused after the shutdown began", ok.Load(), refused.Load())
	if bad.Load() != 0 {
		t.Fatalf("%d requests got an error status or a wrong answer", bad.Load())
	}
	if st := s.b.Stats(); st.Requests != uint64(ok.Load()) {
		t.Errorf("the batcher accepted %d requests, clients got %d answers", st.Requests, ok.Load())
	}
	in, out := tensor{Shape: []int{1, inDim}, Data: make([]float32, inDim)}, tensor{}
	if err := s.b.Infer(context.Background(), &in, &out); !errors.Is(err, batch.ErrClosed) {
		t.Errorf("Infer after shutdown: %v", err)
	}
}

// The default model is the shipped classifier.
func TestDefaultModel(t *testing.T) {
	s, err := newServer(config{instances: 1})
	if err != nil {
		t.Fatalf("newServer: %v", err)
	}
	defer func() {
		s.b.Close()
		s.closeModels()
	}()
	md := s.models[0].Metadata()
	if got := fmt.Sprint(md.Inputs[0].Shape, md.Outputs[0].Shape); got != "[-1 3 -1 -1] [-1 2]" {
		t.Errorf("input and output shapes: got %s, want [-1 3 -1 -1] [-1 2]", got)
	}
}
