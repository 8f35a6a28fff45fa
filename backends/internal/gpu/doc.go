// Package gpu is the portable layer of lintel's GPU backends (Metal and
// CUDA): it plans a model.Graph per set of input shapes into kernel
// launches over one arena, packs the kernels' argument structs, binds
// payloads and runs the launches on a Device.
//
// Rules:
//   - Planning, packing and binding are plain Go, built and tested on every
//     OS; a backend brings only its Device (the driver) and its kernel
//     source, whose argument structs must match this package's Go mirrors
//     (CheckArgStructs).
//   - Everything a model cannot run is refused at load with
//     errs.Unsupported, naming the node. Values computed only from shapes
//     and constants are folded on the host, with the CPU backend's kernels,
//     once the input shapes are known.
//   - A device whose memory the host can see is written and read in place;
//     one whose memory it cannot see is a Recorder: each pass is recorded
//     once and replayed in one call, inputs and outputs staged through
//     pinned host memory or moved device to device.
//   - A call at a known shape allocates nothing on the Go heap.
package gpu
