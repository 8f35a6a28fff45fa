package cpu

import "sort"

// msDomain is ONNX Runtime's contrib-op domain. The CPU backend runs the
// transformer ops of it that docs/transformers.md lists; every other op
// of the domain is refused at load, named.
const msDomain = "com.microsoft"

// msRegistry holds the builders of msDomain's ops, by op type.
var msRegistry = map[string]builder{}

// registerMS adds the builder of one of msDomain's ops; each kernel file
// calls it from init.
func registerMS(op string, b builder) {
	if _, dup := msRegistry[op]; dup {
		panic("cpu: op registered twice: " + msDomain + "." + op)
	}
	msRegistry[op] = b
}

// SupportedDomainOps returns the op types of domain (other than ONNX's
// default one, which SupportedOps lists) that the CPU backend runs,
// sorted; nil for a domain it runs none of. Custom ops are not listed.
func SupportedDomainOps(domain string) []string {
	if domain != msDomain {
		return nil
	}
	ops := make([]string, 0, len(msRegistry))
	for op := range msRegistry {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}
