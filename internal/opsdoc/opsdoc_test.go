package opsdoc

import (
	"os"
	"testing"
)

func TestReadmeTableIsCurrent(t *testing.T) {
	doc, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Splice(doc)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(doc) {
		t.Fatal("README.md's supported-ops table is stale: run go generate ./internal/opsdoc")
	}
}
