// Command genptx compiles backends/cuda/kernels.cu to kernels.ptx with
// clang, and copies the sources into internal/hostsim for its cgo build. go generate
// runs it in backends/cuda (see gen.go); $LINTEL_CLANG picks the clang.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lintel-ml/lintel/backends/cuda/internal/ptxgen"
)

func main() {
	if err := run("."); err != nil {
		fmt.Fprintln(os.Stderr, "genptx:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	ptx, err := ptxgen.Generate(ptxgen.Clang(), dir)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "kernels.ptx"), ptx, 0o644); err != nil {
		return err
	}
	copies, err := ptxgen.HostsimCopies(dir)
	if err != nil {
		return err
	}
	for name, b := range copies {
		if err := os.WriteFile(filepath.Join(dir, "internal", "hostsim", name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
