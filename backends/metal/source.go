package metal

import _ "embed" // the Metal kernels' source

// mslSource is the Metal Shading Language source of every kernel, compiled
// once per device when the first model loads.
//
//go:embed kernels.metal
var mslSource string
