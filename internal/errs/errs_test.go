package errs

import (
	"errors"
	"fmt"
	"testing"
)

func TestBrief(t *testing.T) {
	short := &Error{Kind: Unsupported, Msg: "m.onnx: graph.node[3] \"n\".attribute \"a\": no", Brief: "node \"n\".attribute \"a\": no"}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"brief set", short, `node "n".attribute "a": no`},
		{"no brief", New(InvalidArtifact, "m.onnx: bad"), "lintel: invalid artifact: m.onnx: bad"},
		{"wrapped by fmt", fmt.Errorf("loading: %w", short), `node "n".attribute "a": no`},
		{"cause of an Error", Wrap(Unsupported, short, "outer"), `node "n".attribute "a": no`},
		{"joined", errors.Join(errors.New("first"), short), `node "n".attribute "a": no`},
		{"plain", errors.New("plain"), "plain"},
	}
	for _, c := range cases {
		if got := Brief(c.err); got != c.want {
			t.Errorf("%s: Brief = %q, want %q", c.name, got, c.want)
		}
	}
}
