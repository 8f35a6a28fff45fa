package model

func init() {
	// ONNX Runtime defines SimplifiedLayerNormalization in the default
	// domain (from opset 1), not in com.microsoft, and its exporters put
	// it there; so does lintel.
	{
		RegisterOp(&Op{
			Type:       "SimplifiedLayerNormalization",
			Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 2, MaxOut: 2}},
			InputNames: []string{"X", "scale"},
			Bind: func(n *Node, _ int64) (Rule, error) {
				a := &LayerNormAttrs{}
				var err error
				if a.Axis, a.Epsilon, a.StashType, err = normAttrs(n); err != nil {
					return nil, err
				}
				return a, nil
			},
		})
	}
}
