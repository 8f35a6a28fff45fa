// Command gen rewrites the supported-ops table in each Markdown file named
// by its arguments.
package main

import (
	"fmt"
	"os"

	"github.com/lintel-ml/lintel/internal/opsdoc"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE.md...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		doc, err := os.ReadFile(name)
		if err == nil {
			doc, err = opsdoc.Splice(doc)
		}
		if err == nil {
			err = os.WriteFile(name, doc, 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(1)
		}
	}
}
