package artifacts

import "github.com/lintel-ml/lintel/model"

// The default-domain opset versions lintel decodes; files outside this
// range are refused with errs.Unsupported.
const (
	MinOpset = 1
	MaxOpset = 28
)

// defaultDomain reports whether domain names the default ONNX domain.
func defaultDomain(domain string) bool { return domain == "" || domain == "ai.onnx" }

// decodeModel decodes a ModelProto. It reads the opsets first, wherever
// they are in the file, so that subgraphs see them.
func (d *decoder) decodeModel(b []byte) (*model.Graph, error) {
	var (
		graphBytes []byte
		haveGraph  bool
		meta       [][2]string
		info       model.Graph
	)
	d.opsets = map[string]int64{}
	opsetIdx := 0
	for len(b) > 0 {
		num, typ, err := d.tag(&b)
		if err != nil {
			return nil, err
		}
		switch num {
		case 1:
			info.IRVersion, err = d.int64v(&b, typ, "ir_version")
		case 2:
			info.ProducerName, err = d.str(&b, typ, "producer_name")
		case 3:
			info.ProducerVersion, err = d.str(&b, typ, "producer_version")
		case 4:
			info.Domain, err = d.str(&b, typ, "domain")
		case 5:
			info.ModelVersion, err = d.int64v(&b, typ, "model_version")
		case 6:
			info.Doc, err = d.str(&b, typ, "doc_string")
		case 7:
			if haveGraph {
				return nil, d.invalid("field graph given twice")
			}
			haveGraph = true
			graphBytes, err = d.bytes(&b, typ, "graph")
		case 8:
			var p []byte
			if p, err = d.bytes(&b, typ, "opset_import"); err == nil {
				d.push("opset_import", opsetIdx)
				err = d.decodeOpset(p)
				if err == nil {
					d.pop()
				}
			}
			opsetIdx++
		case 14:
			var p []byte
			if p, err = d.bytes(&b, typ, "metadata_props"); err == nil {
				d.push("metadata_props", len(meta))
				var kv [2]string
				kv, err = d.decodeKV(p)
				if err == nil {
					d.pop()
				}
				meta = append(meta, kv)
			}
		default:
			// training_info, functions, configuration and fields from
			// newer versions: nothing lintel runs. Nodes that call a
			// function are refused by the backends as unknown ops.
			err = d.skip(&b, num, typ)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(d.opsets) == 0 {
		return nil, d.invalid("no opset_import")
	}
	// A model that imports only other domains (ai.onnx.ml, say) decodes
	// with opset 0; a default-domain node in it is refused by decodeNode.
	if v, ok := d.opsets[""]; ok {
		if v < MinOpset || v > MaxOpset {
			return nil, d.unsupported("default-domain opset %d: lintel runs opsets %d to %d", v, MinOpset, MaxOpset)
		}
		d.opset = v
	}
	if !haveGraph {
		return nil, d.invalid("model has no graph")
	}
	d.push("graph", -1)
	g, err := d.decodeGraph(graphBytes, true)
	if err != nil {
		return nil, err
	}
	d.pop()
	g.IRVersion = info.IRVersion
	g.ProducerName = info.ProducerName
	g.ProducerVersion = info.ProducerVersion
	g.Domain = info.Domain
	g.ModelVersion = info.ModelVersion
	g.Doc = info.Doc
	for _, kv := range meta {
		g.Metadata[kv[0]] = kv[1]
	}
	return g, nil
}

// decodeOpset decodes an OperatorSetIdProto into d.opsets.
func (d *decoder) decodeOpset(b []byte) error {
	var (
		domain  string
		version int64
		haveVer bool
	)
	for len(b) > 0 {
		num, typ, err := d.tag(&b)
		if err != nil {
			return err
		}
		switch num {
		case 1:
			domain, err = d.str(&b, typ, "domain")
		case 2:
			version, err = d.int64v(&b, typ, "version")
			haveVer = true
		default:
			err = d.skip(&b, num, typ)
		}
		if err != nil {
			return err
		}
	}
	if defaultDomain(domain) {
		domain = ""
	}
	d.setName(domain)
	if !haveVer || version <= 0 {
		return d.invalid("opset version %d", version)
	}
	if _, dup := d.opsets[domain]; dup {
		return d.invalid("domain imported twice")
	}
	d.opsets[domain] = version
	return nil
}

// decodeKV decodes a StringStringEntryProto.
func (d *decoder) decodeKV(b []byte) ([2]string, error) {
	var kv [2]string
	for len(b) > 0 {
		num, typ, err := d.tag(&b)
		if err != nil {
			return kv, err
		}
		switch num {
		case 1:
			kv[0], err = d.str(&b, typ, "key")
		case 2:
			kv[1], err = d.str(&b, typ, "value")
		default:
			err = d.skip(&b, num, typ)
		}
		if err != nil {
			return kv, err
		}
	}
	return kv, nil
}
