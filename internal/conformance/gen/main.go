// Command gen rewrites the conformance pass count in each Markdown file
// named by its arguments, from the package's testdata/expectations.txt
// (run it in the package's folder, as go generate does).
package main

import (
	"fmt"
	"os"

	"github.com/lintel-ml/lintel/internal/conformance"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE.md...")
		os.Exit(2)
	}
	f, err := os.Open(conformance.ExpectationsFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	results, err := conformance.ParseExpectations(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, name := range os.Args[1:] {
		doc, err := os.ReadFile(name)
		if err == nil {
			doc, err = conformance.Splice(doc, results)
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
