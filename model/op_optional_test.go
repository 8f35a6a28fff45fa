package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestOptionalRules(t *testing.T) {
	b := payload.Bool
	runRules(t, []ruleCase{
		{name: "has element: tensor", node: nd("OptionalHasElement", nil, nil), in: []ruleIn{in(f32, 2, 3)}, want: []sh{{b, d()}}},
		{name: "has element: no input", node: nd("OptionalHasElement", nil, nil), in: []ruleIn{absent}, want: []sh{{b, d()}}},
		{name: "has element: input required at 15", opset: 15, node: nd("OptionalHasElement", nil, nil), in: []ruleIn{absent}, err: invalid},
		{name: "get element: tensor", node: nd("OptionalGetElement", nil, nil), in: []ruleIn{in(f32, 2, -1)}, want: []sh{{f32, d(2, -1)}}},
		{name: "get element: unranked", node: nd("OptionalGetElement", nil, nil), in: []ruleIn{unr(i64)}, want: []sh{{i64, nil}}},
		{name: "get element: no input", node: nd("OptionalGetElement", nil, nil), in: []ruleIn{absent}, err: invalid},
		{name: "optional of a tensor", node: nd("Optional", nil, nil), in: []ruleIn{in(f32, 4)}, want: []sh{{f32, d(4)}}},
		{name: "empty optional with no type", node: nd("Optional", nil, nil), in: []ruleIn{absent}, err: invalid},
	})
}
