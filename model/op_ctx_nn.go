package model

import (
	"fmt"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Helpers shared by the rules of the matrix, normalization and reduction
// ops.

// dimsConflict reports whether two sizes of one dim are both known and
// differ.
func dimsConflict(a, b int) bool { return a >= 0 && b >= 0 && a != b }

// bcastDim returns the multidirectional broadcast of two sizes of one
// dim, -1 where unknown; ok is false when they cannot broadcast.
func bcastDim(a, b int) (d int, ok bool) {
	switch {
	case a == 1:
		return b, true
	case b == 1:
		return a, true
	case a < 0:
		return b, true
	case b < 0 || a == b:
		return a, true
	}
	return 0, false
}

// flagAttr reads the int attribute name of n as a flag, def when absent.
func flagAttr(n *Node, name string, def bool) (bool, error) {
	d := int64(0)
	if def {
		d = 1
	}
	v, err := n.Int(name, d)
	return v != 0, err
}

// nodeOpset returns the default-domain opset a graph's nodes run at: its
// Opset, or the newest lintel reads when the graph does not say.
func nodeOpset(g *Graph) int64 {
	if g.Opset <= 0 {
		return 21
	}
	return g.Opset
}

// attrErr refuses a node whose attribute has a value the op does not
// define.
func attrErr(n *Node, format string, args ...any) error {
	return errs.New(errs.InvalidArtifact, "node %q (%s): %s", n.Label(), n.OpType, fmt.Sprintf(format, args...))
}
