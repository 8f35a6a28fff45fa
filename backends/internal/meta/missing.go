package meta

import (
	"fmt"
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// MissingInput returns the error for model input name, which payload p
// lacks: it names the payload's tensors that are not inputs of the model
// (a misspelt name shows there) and lists the model's inputs. It runs on
// the failure path only.
func MissingInput(label, name string, p *payload.Multi, inputs []string) error {
	known := map[string]bool{}
	for _, in := range inputs {
		known[in] = true
	}
	var unknown []string
	for _, t := range p.Tensors {
		if !known[t.Name] {
			unknown = append(unknown, fmt.Sprintf("%q", t.Name))
		}
	}
	quoted := make([]string, len(inputs))
	for i, in := range inputs {
		quoted[i] = fmt.Sprintf("%q", in)
	}
	msg := fmt.Sprintf("%s: input %q is missing from the payload", label, name)
	if len(unknown) > 0 {
		msg += fmt.Sprintf(", which has %s, not an input of the model", strings.Join(unknown, ", "))
	}
	msg += fmt.Sprintf(" (the model's inputs: %s)", strings.Join(quoted, ", "))
	return errs.New(errs.ShapeMismatch, "%s", msg)
}
