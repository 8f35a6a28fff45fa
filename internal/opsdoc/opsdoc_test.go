package opsdoc

import (
	"os"
	"testing"
)

// Files lists the documents that carry the table, relative to this
// package.
var files = []string{"../../README.md", "../../docs/supported-ops.md"}

func TestTablesAreCurrent(t *testing.T) {
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("os.ReadFile: %v", err)
		}
		want, err := Splice(doc)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if string(want) != string(doc) {
			t.Errorf("%s: the supported-ops table is stale: run go generate ./internal/opsdoc", f)
		}
	}
}
