package artifacts

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// maxLinks bounds the symbolic links followed while resolving one
// external data location.
const maxLinks = 40

// openConfined opens name, a cleaned path relative to folder dir of
// fsys, refusing a symbolic link that leads out of dir. File systems that
// cannot report links (no fs.ReadLinkFS) are trusted to stay inside
// themselves; os.DirFS can report them, and follows them anywhere unless
// checked here.
func openConfined(fsys fs.FS, dir, name string) (fs.File, error) {
	p, err := resolveConfined(fsys, dir, name)
	if err != nil {
		return nil, err
	}
	return fsys.Open(p)
}

// resolveConfined returns the path in fsys of name inside dir with every
// symbolic link along it resolved, or an error when one leads out of dir.
func resolveConfined(fsys fs.FS, dir, name string) (string, error) {
	rl, ok := fsys.(fs.ReadLinkFS)
	if !ok {
		return path.Join(dir, name), nil
	}
	parts := strings.Split(name, "/")
	cur, links := dir, 0
	for i := 0; i < len(parts); i++ {
		next := path.Join(cur, parts[i])
		fi, err := rl.Lstat(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			// Open reports a missing file.
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", errors.New("too many symbolic links")
		}
		target, err := rl.ReadLink(next)
		if err != nil {
			return "", err
		}
		rel, ok := inside(dir, path.Join(cur, target))
		if path.IsAbs(target) || !ok {
			return "", errors.New("a symbolic link leads out of the model's folder")
		}
		// Start again from dir with the link replaced by its target.
		rest := parts[i+1:]
		parts = nil
		if rel != "." {
			parts = strings.Split(rel, "/")
		}
		parts = append(parts, rest...)
		cur, i = dir, -1
	}
	return cur, nil
}

// inside returns p relative to dir when the cleaned path p is dir or lies
// below it.
func inside(dir, p string) (string, bool) {
	switch {
	case dir == ".":
		return p, fs.ValidPath(p)
	case p == dir:
		return ".", true
	case strings.HasPrefix(p, dir+"/"):
		return p[len(dir)+1:], true
	}
	return "", false
}
