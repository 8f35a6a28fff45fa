//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// SIGTERM ends the context main serves under.
func TestSIGTERM(t *testing.T) {
	ctx, stop := signalContext()
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Skip("cannot signal this process:", err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not end the context within 5s")
	}
}

// buildServer builds this command, with the build tags of the test
// binary, into a temporary folder and returns the binary's path.
func buildServer(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build the server with: %v", err)
	}
	args := []string{"build", "-o", filepath.Join(t.TempDir(), "httpserver")}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-tags" && s.Value != "" {
				args = append(args, "-tags", s.Value)
			}
		}
	}
	args = append(args, ".")
	cmd := exec.Command(goBin, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return args[2]
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

var listening = regexp.MustCompile(`listening on (127\.0\.0\.1:\d+)`)

// The built server, started as its package doc says and sent SIGTERM or
// SIGINT once it serves, drains and exits with status 0 within a few
// seconds.
func TestBinaryStopsOnSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary; skipped in short mode")
	}
	bin := buildServer(t)
	cases := []struct {
		name string
		sig  syscall.Signal
	}{
		{"SIGTERM", syscall.SIGTERM},
		{"SIGINT", syscall.SIGINT},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Port 0: the kernel picks a free loopback port, which the
			// server logs.
			cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-instances", "1")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatalf("stderr pipe: %v", err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatalf("starting %s: %v", bin, err)
			}
			exited := make(chan error, 1)
			var log lockedBuffer
			addr := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					fmt.Fprintln(&log, sc.Text())
					if m := listening.FindStringSubmatch(sc.Text()); m != nil {
						addr <- m[1]
					}
				}
				io.Copy(io.Discard, stderr)
				exited <- cmd.Wait()
			}()
			waited := false
			defer func() {
				if !waited {
					cmd.Process.Kill()
					<-exited
				}
			}()

			var url string
			select {
			case a := <-addr:
				url = "http://" + a
			case err := <-exited:
				waited = true
				t.Fatalf("the server exited before listening: %v\n%s", err, log.String())
			case <-time.After(30 * time.Second):
				t.Fatalf("the server did not log its address within 30s:\n%s", log.String())
			}
			waitHealthy(t, url, &log)

			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatalf("sending %s: %v", c.name, err)
			}
			select {
			case err := <-exited:
				waited = true
				if code := cmd.ProcessState.ExitCode(); err != nil || code != 0 {
					t.Errorf("after %s: exit status %d (%v), want 0; stderr:\n%s", c.name, code, err, log.String())
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("the server still ran 5s after %s; stderr:\n%s", c.name, log.String())
			}
			if got, want := log.String(), "drained and stopped"; !strings.Contains(got, want) {
				t.Errorf("stderr after %s lacks %q:\n%s", c.name, want, got)
			}
			if _, err := http.Get(url + "/healthz"); err == nil {
				t.Errorf("after %s the server still answers at %s", c.name, url)
			}
		})
	}
}

// waitHealthy polls /healthz until it answers 200: the server listens
// before its models have loaded.
func waitHealthy(t *testing.T, url string, log *lockedBuffer) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		resp, err := http.Get(url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
			err = errors.New(resp.Status)
		}
		last = err
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("GET %s/healthz did not answer 200 within 30s: last %v; stderr:\n%s", url, last, log.String())
}
