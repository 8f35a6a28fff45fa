//go:build unix

package main

import (
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
		t.Fatal("SIGTERM did not end the context")
	}
}
