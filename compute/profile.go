package compute

import "time"

// Profile is what a model run with Options.Profile recorded: each node's
// time over every call since Init (or the last ResetProfile), and a
// timeline of the first calls' nodes.
type Profile struct {
	// Calls counts the runs of the whole graph: one per InferOne, one per
	// stacked InferBatch, one per item of an InferBatch that runs item by
	// item.
	Calls int64
	// Nodes has one entry per node, in the order they run.
	Nodes []NodeProfile
	// Events is the timeline, as long as its buffer allows; Dropped
	// counts the node runs that did not fit.
	Events  []TraceEvent
	Dropped int64
}

// NodeProfile is one node's share of a profiled model's time.
type NodeProfile struct {
	// Node is the node's label (its name, or op type and first output)
	// and Op its op type; fused activations show in Op ("Conv+Relu").
	Node, Op string
	Calls    int64
	Total    time.Duration
	// FLOPs counts the floating-point operations of every call, for the
	// ops whose count is known from shapes (MatMul, Gemm, Conv,
	// ConvTranspose: two per multiply-add); 0 for the others.
	FLOPs int64
}

// TraceEvent is one run of one node: Node indexes Profile.Nodes, Call
// counts the graph's runs from 0, and Start is the time since the first
// profiled call began.
type TraceEvent struct {
	Node  int
	Call  int64
	Start time.Duration
	Dur   time.Duration
}

// Profiler is implemented by models that can record a Profile (the CPU
// backend's, built with Options.Profile).
type Profiler interface {
	// Profile returns a copy of what has been recorded so far; it is
	// empty when the model was not built with Options.Profile.
	Profile() Profile
	// ResetProfile drops what has been recorded.
	ResetProfile()
}
