package model

import (
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
)

// attrInvalid refuses a node whose attributes are malformed.
func attrInvalid(n *Node, format string, args ...any) error {
	return errs.New(errs.InvalidArtifact, "node %q (%s): "+format, append([]any{n.Label(), n.OpType}, args...)...)
}

// sliceCount returns how many elements Slice takes from a dim of size d
// with start, end and a non-zero step: negatives count from the end,
// then both are clamped to [0, d] for a positive step and to [0, d-1]
// and [-1, d-1] for a negative one.
func sliceCount(d, start, end, step int64) int64 {
	if d == 0 {
		return 0
	}
	if start < 0 {
		start += d
	}
	if end < 0 {
		end += d
	}
	if step > 0 {
		start = min(max(start, 0), d)
		end = min(max(end, 0), d)
		if end <= start {
			return 0
		}
		return (end-start-1)/step + 1
	}
	start = min(max(start, 0), d-1)
	end = min(max(end, -1), d-1)
	if start <= end {
		return 0
	}
	if step == math.MinInt64 {
		return 1
	}
	return (start-end-1)/(-step) + 1
}
