package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
)

// writeModel encodes m into a file in a fresh temporary folder and
// returns its path.
func writeModel(t *testing.T, name string, m onnxbuild.Model) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, m.Encode(), 0o644); err != nil {
		t.Fatalf("os.WriteFile: %v", err)
	}
	return path
}

// runCmd runs the command line args and returns its exit status, stdout
// and stderr.
func runCmd(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// npmModel returns the path of a real model installed by `make ort-deps`,
// skipping the test when it is absent.
func npmModel(t *testing.T, rel string) string {
	t.Helper()
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", ".cache", "npm")
	}
	path := filepath.Join(dir, "node_modules", rel)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not installed (make ort-deps): %v", rel, err)
	}
	return path
}

type testFlags struct {
	fs *flag.FlagSet
	a  *int
	b  *string
}

func newTestFlagSet() testFlags {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	return testFlags{fs: fs, a: fs.Int("a", 0, ""), b: fs.String("b", "", "")}
}
