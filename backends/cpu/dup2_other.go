//go:build !amd64 || purego

package cpu

// dup2 is dup2Go: this build has no assembly.
func dup2[W word](d, s []W) { dup2Go(d, s) }
