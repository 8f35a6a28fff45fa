// Package bench holds lintel's benchmarks: `go test -bench . ./bench`
// measures whole models on the backend the build tags choose, with
// allocations per call (-benchmem). Side-by-side comparisons with peers
// and their results live in RESULTS.md.
package bench
