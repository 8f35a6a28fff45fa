package compute_test

import (
	"errors"
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
)

// Every lintel error matches one sentinel with errors.Is, and its message
// says what went wrong and where.
func Example_errors() {
	_, err := artifacts.FromBytes([]byte("not a model"), "bad.onnx")
	fmt.Println(errors.Is(err, compute.ErrInvalidArtifact))
	// Output: true
}
