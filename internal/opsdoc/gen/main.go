// Command gen rewrites the supported-ops table in the Markdown file named
// by its argument.
package main

import (
	"fmt"
	"os"

	"github.com/lintel-ml/lintel/internal/opsdoc"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen README.md")
		os.Exit(2)
	}
	doc, err := os.ReadFile(os.Args[1])
	if err == nil {
		doc, err = opsdoc.Splice(doc)
	}
	if err == nil {
		err = os.WriteFile(os.Args[1], doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
