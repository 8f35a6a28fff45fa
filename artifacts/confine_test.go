package artifacts

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestResolveConfined(t *testing.T) {
	link := func(target string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
	}
	fsys := fstest.MapFS{
		"m/w.bin":        {Data: wBytes},
		"m/sub/v.bin":    {Data: wBytes},
		"m/alias.bin":    link("w.bin"),
		"m/subalias":     link("sub"),
		"m/chain.bin":    link("alias.bin"),
		"m/sub/up.bin":   link("../w.bin"),
		"m/out.bin":      link("../x.bin"),
		"m/abs.bin":      link("/etc/passwd"),
		"m/outdir":       link(".."),
		"m/loop":         link("loop"),
		"m/sub/deep.bin": link("../../m/w.bin"),
		"x.bin":          {Data: wBytes},
	}
	cases := []struct {
		dir, name, want string // want "": refused
	}{
		{"m", "w.bin", "m/w.bin"},
		{"m", "alias.bin", "m/w.bin"},
		{"m", "chain.bin", "m/w.bin"},
		{"m", "subalias/v.bin", "m/sub/v.bin"},
		{"m", "sub/up.bin", "m/w.bin"},
		{"m", "missing.bin", "m/missing.bin"},
		{"m", "out.bin", ""},
		{"m", "abs.bin", ""},
		{"m", "outdir/x.bin", ""},
		{"m", "loop", ""},
		{"m", "sub/deep.bin", "m/w.bin"}, // leaves and comes back: the target is inside
		{".", "m/out.bin", "x.bin"},
		{".", "m/outdir/x.bin", "x.bin"},
		{".", "m/sub/deep.bin", "m/w.bin"},
	}
	for _, c := range cases {
		got, err := resolveConfined(fsys, c.dir, c.name)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s in %s: resolved to %q, want refused", c.name, c.dir, got)
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("%s in %s: %q, %v, want %q", c.name, c.dir, got, err, c.want)
		}
	}
}
