//go:build ort

package ortcheck

import (
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// lintelModel is a model loaded on lintel's default backend, with the
// output payload it reuses between runs.
type lintelModel struct {
	run   func(in *payload.Multi, out *payload.Multi) error
	batch func(in batch.Batch[payload.Multi], out []payload.Multi) error
	close func() error
	out   payload.Multi
}

// loadLintel decodes, loads and initializes a model on lintel's default
// backend with one thread.
func loadLintel(modelBytes []byte, label string) (*lintelModel, error) {
	art, err := artifacts.FromBytes(modelBytes, label)
	if err != nil {
		return nil, fmt.Errorf("decoding: %w", err)
	}
	be := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1})
	m, err := be.LoadModel(art)
	if err != nil {
		return nil, fmt.Errorf("loading: %w", err)
	}
	if err := m.Init(); err != nil {
		m.Close()
		return nil, fmt.Errorf("init: %w", err)
	}
	return &lintelModel{run: m.InferOne, batch: m.InferBatch, close: m.Close}, nil
}

// infer runs the model once and returns its outputs normalized. The
// output payload is reused from the previous run, as a service would.
func (m *lintelModel) infer(feeds []payload.Dynamic) ([]value, error) {
	in := payload.Multi{Tensors: feeds}
	if err := m.run(&in, &m.out); err != nil {
		return nil, fmt.Errorf("inference: %w", err)
	}
	res := make([]value, len(m.out.Tensors))
	for i, d := range m.out.Tensors {
		v, err := fromDynamic(d)
		if err != nil {
			return nil, err
		}
		res[i] = v
	}
	return res, nil
}

// inferBatch runs every set of feeds as one InferBatch call and returns
// each item's outputs normalized.
func (m *lintelModel) inferBatch(draws [][]payload.Dynamic) ([][]value, error) {
	ins := make([]payload.Multi, len(draws))
	for i, f := range draws {
		ins[i] = payload.Multi{Tensors: f}
	}
	outs := make([]payload.Multi, len(draws))
	if err := m.batch(batch.Of(ins), outs); err != nil {
		return nil, fmt.Errorf("batch inference: %w", err)
	}
	res := make([][]value, len(outs))
	for i, o := range outs {
		for _, d := range o.Tensors {
			v, err := fromDynamic(d)
			if err != nil {
				return nil, err
			}
			res[i] = append(res[i], v)
		}
	}
	return res, nil
}
