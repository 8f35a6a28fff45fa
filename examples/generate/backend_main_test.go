package main

import (
	"os"
	"testing"

	"github.com/lintel-ml/lintel/internal/backendtest"
)

// TestMain skips every test where the backend the build tags chose cannot
// run, such as a -tags cuda build on a machine without a GPU.
func TestMain(m *testing.M) { os.Exit(backendtest.Main(m)) }
