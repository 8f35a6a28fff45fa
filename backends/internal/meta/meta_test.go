package meta

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestTensors(t *testing.T) {
	cases := []struct {
		name  string
		vs    []model.ValueInfo
		known map[string]*model.ValueInfo
		total int64
	}{
		{"fixed", []model.ValueInfo{{Name: "x", DType: payload.Float32, Shape: []int{2, 3}, RankKnown: true}}, nil, 24},
		{"free dim", []model.ValueInfo{{Name: "x", DType: payload.Float32, Shape: []int{-1, 3}, RankKnown: true}}, nil, -1},
		{"unknown rank", []model.ValueInfo{{Name: "x", DType: payload.Int64}}, nil, -1},
		{"refined by inference", []model.ValueInfo{{Name: "y", DType: payload.Float32}},
			map[string]*model.ValueInfo{"y": {Name: "y", DType: payload.Int64, Shape: []int{4}, RankKnown: true}}, 32},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			infos, total := Tensors(c.vs, c.known)
			if total != c.total || len(infos) != len(c.vs) || infos[0].Name != c.vs[0].Name {
				t.Fatalf("got %+v, %d; want total %d", infos, total, c.total)
			}
		})
	}
}
