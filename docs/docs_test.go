package docs

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var marker = regexp.MustCompile(`^<!-- code: ([^ #]+)(?:#(\S+))? -->$`)

// TestSnippetsMatchCode checks every marked snippet of every guide
// against the code it quotes.
func TestSnippetsMatchCode(t *testing.T) {
	guides, err := filepath.Glob("*.md")
	if err != nil || len(guides) == 0 {
		t.Fatalf("no guides: %v", err)
	}
	total := 0
	for _, g := range guides {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatalf("os.ReadFile: %v", err)
		}
		for _, s := range snippets(t, g, b) {
			total++
			want, err := quote(s.path, s.name)
			if err != nil {
				t.Errorf("%s:%d: %v", g, s.line, err)
				continue
			}
			if s.body != want {
				t.Errorf("%s:%d: snippet differs from %s#%s; it should read:\n%s", g, s.line, s.path, s.name, want)
			}
		}
	}
	if total == 0 {
		t.Error("no marked snippets found")
	}
}

// snippet is a marked code block of a guide.
type snippet struct {
	line       int
	path, name string
	body       string
}

// snippets returns the marked code blocks of a guide.
func snippets(t *testing.T, name string, doc []byte) []snippet {
	var out []snippet
	sc := bufio.NewScanner(bytes.NewReader(doc))
	line := 0
	var cur *snippet
	var body strings.Builder
	pending := (*snippet)(nil)
	for sc.Scan() {
		line++
		l := sc.Text()
		switch {
		case cur != nil && l == "```":
			cur.body = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(l + "\n")
		case pending != nil:
			if l != "```go" {
				t.Errorf("%s:%d: a code marker must be followed by a ```go block", name, pending.line)
			}
			cur, pending = pending, nil
			body.Reset()
		default:
			if m := marker.FindStringSubmatch(l); m != nil {
				pending = &snippet{line: line, path: m[1], name: m[2]}
			}
		}
	}
	if cur != nil || pending != nil {
		t.Errorf("%s: unterminated code block", name)
	}
	return out
}

// quote returns the text of the declaration name in the Go file path
// (with its doc comment), or the whole file when name is empty.
func quote(path, name string) (string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if name == "" {
		return string(src), nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		var doc *ast.CommentGroup
		found := false
		switch d := d.(type) {
		case *ast.FuncDecl:
			doc = d.Doc
			n := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				n = recvName(d.Recv.List[0].Type) + "." + n
			}
			found = n == name
		case *ast.GenDecl:
			doc = d.Doc
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					found = found || s.Name.Name == name
				case *ast.ValueSpec:
					for _, id := range s.Names {
						found = found || id.Name == name
					}
				}
			}
		}
		if !found {
			continue
		}
		start := d.Pos()
		if doc != nil {
			start = doc.Pos()
		}
		return string(src[fset.Position(start).Offset:fset.Position(d.End()).Offset]) + "\n", nil
	}
	return "", os.ErrNotExist
}

// recvName returns a method receiver's type name without pointer or
// type parameters.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}
