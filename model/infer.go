package model

// InferTypes fills g.Values with the element type and best-known shape of
// every value (graph inputs, initializers, every node output), merging with
// what the file declared (file dims refine unknowns; a conflict between a
// declared and an inferred known dim is an errs.InvalidArtifact error
// naming the node and value). Shapes use -1 for unknown dims; RankKnown
// false when the rank is unknown. Unknown op types (or other domains) get
// DType Undefined and unknown shape unless the file declared them — not an
// error here (backends refuse unsupported ops).
func InferTypes(g *Graph) error { return nil }
