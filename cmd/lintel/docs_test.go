package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every "lintel COMMAND ..." line in the guides and README names a real
// command, and every flag it uses is one that command defines.
func TestDocumentedCommandLines(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	files = append(files, filepath.Join("..", "..", "README.md"))
	flagRE := regexp.MustCompile(`^--?([a-z][a-z0-9]*)`)
	spanRE := regexp.MustCompile("`(lintel [^`]+)`")
	seen := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("os.ReadFile: %v", err)
		}
		// Command lines are lines of code blocks and inline code spans
		// that start with "lintel ".
		var lines []string
		inBlock := false
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "```") {
				inBlock = !inBlock
				continue
			}
			if inBlock {
				lines = append(lines, line)
			}
		}
		for _, m := range spanRE.FindAllStringSubmatch(string(b), -1) {
			lines = append(lines, m[1])
		}
		for _, line := range lines {
			fields := strings.Fields(line)
			if len(fields) < 2 || fields[0] != "lintel" || strings.HasPrefix(fields[1], "<") {
				continue
			}
			seen++
			code, _, help := runCmd(fields[1], "-h")
			if code != 0 {
				t.Errorf("%s: %q: no command %q", f, line, fields[1])
				continue
			}
			for _, a := range fields[2:] {
				if m := flagRE.FindStringSubmatch(a); m != nil && !strings.Contains(help, "  -"+m[1]) {
					t.Errorf("%s: %q: %s has no flag -%s", f, line, fields[1], m[1])
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no documented command lines found")
	}
}
