// Package docs holds lintel's guides, as Markdown files next to this one.
// It has no code of its own: its test keeps every Go snippet of a guide
// identical to the compiled, tested code it quotes.
//
// Rules:
//   - A Go snippet in a guide is preceded by a marker naming its source,
//     <!-- code: PATH --> for a whole file or <!-- code: PATH#NAME --> for
//     one declaration (a type, function or Type.Method), PATH relative to
//     this folder; the test fails when the snippet differs.
//   - Code a guide shows lives in a package under examples/ with a test,
//     or is quoted from the library itself.
package docs
