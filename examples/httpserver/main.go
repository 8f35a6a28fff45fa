// Command httpserver serves an ONNX model over HTTP with lintel: many
// concurrent clients share a few model instances through a batch.Batcher,
// and the instances share one copy of the weights.
//
// Build it, then run the binary:
//
//	go build -o httpserver ./examples/httpserver
//	./httpserver -addr 127.0.0.1:8080 &
//	curl -s 127.0.0.1:8080/healthz
//	curl -s -d '{"shape":[1,3,48,192],"data":[...]}' 127.0.0.1:8080/v1/infer
//	kill -TERM %1      # or Ctrl-C when it runs in the foreground
//
// Endpoints:
//
//	POST /v1/infer  {"shape": [...], "data": [...]} -> {"shape": [...], "data": [...]}
//	GET  /healthz   200 and the batcher's counters while serving, 503 while stopping
//
// The model is float32 in, float32 out, with one input and one output; the
// default is the PP-OCR text-direction classifier shipped with lintel
// (input [N, 3, 48, 192], output [N, 2]).
//
// On SIGTERM or SIGINT (Ctrl-C) the server stops accepting connections,
// finishes the requests in flight (for at most -drain-timeout), drains the
// batcher, closes the models and exits with status 0. A second signal
// during the drain ends the process at once. Send the signal to the
// server's own process: "go run ./examples/httpserver" works for trying
// it with Ctrl-C, which reaches every process of the terminal's
// foreground group, but go run does not pass a SIGTERM sent to its own
// process on to the server, which then keeps running.
//
// Rules: request bodies are capped; bad input gets a 400 naming what is
// wrong, a full queue a 503 with Retry-After, never a crash.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

func main() {
	var cfg config
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.StringVar(&cfg.modelPath, "model", "", "ONNX model file (default: the shipped PP-OCR classifier)")
	flag.IntVar(&cfg.instances, "instances", runtime.GOMAXPROCS(0), "model instances (one worker each)")
	flag.IntVar(&cfg.batch.MaxBatch, "max-batch", 32, "largest batch per model call")
	flag.DurationVar(&cfg.batch.MaxDelay, "max-delay", time.Millisecond, "longest a request waits for others to join its batch")
	flag.IntVar(&cfg.batch.QueueSize, "queue", 1024, "requests waiting beyond this get 503")
	flag.DurationVar(&cfg.drainTimeout, "drain-timeout", 30*time.Second, "longest a shutdown waits for requests in flight")
	flag.Parse()

	ctx, stop := signalContext()
	defer stop()
	go func() {
		// After the first signal, restore the default handling, so that a
		// second one ends a drain that takes too long.
		<-ctx.Done()
		stop()
	}()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("httpserver: listening on %s", ln.Addr())
	if err := run(ctx, ln, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "httpserver:", err)
		os.Exit(1)
	}
	log.Print("httpserver: drained and stopped")
}

// signalContext returns a context that ends on SIGTERM or SIGINT.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
}
