package artifacts

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// extResolver reads the files that hold external tensor data, each once.
type extResolver struct {
	// open opens a cleaned, slash-separated path relative to the model's
	// folder. When nil, external data is refused with refuse as the reason.
	open   func(name string) (fs.File, error)
	refuse string
	limit  int64
	files  map[string][]byte
	// maps, when set, maps the files instead of reading them (Open).
	maps *fileMaps
}

// read returns the bytes of the external data file at location loc.
func (r *extResolver) read(loc string) ([]byte, error) {
	name, err := cleanLocation(loc)
	if err != nil {
		return nil, err
	}
	if r.open == nil {
		return nil, errors.New(r.refuse)
	}
	if b, ok := r.files[name]; ok {
		return b, nil
	}
	f, err := r.open(name)
	if err != nil {
		return nil, err
	}
	b, err := r.maps.read(f, r.limit)
	if err != nil {
		return nil, err
	}
	if r.files == nil {
		r.files = map[string][]byte{}
	}
	r.files[name] = b
	return b, nil
}

// cleanLocation checks an external data location: a relative,
// slash-separated path that stays inside the model's folder. It returns
// the path cleaned.
func cleanLocation(loc string) (string, error) {
	if loc == "" {
		return "", errors.New("empty location")
	}
	if path.IsAbs(loc) || filepath.IsAbs(loc) || filepath.VolumeName(loc) != "" ||
		strings.ContainsAny(loc, "\\\x00") {
		return "", errors.New("location must be a relative, slash-separated path")
	}
	c := path.Clean(loc)
	if c == "." || !fs.ValidPath(c) {
		return "", errors.New("location leaves the model's folder")
	}
	return c, nil
}

// readLimited reads the whole of regular file f, refusing one larger than
// limit bytes before reading it, and closes f. The result is 8-byte
// aligned.
func readLimited(f fs.File, limit int64) ([]byte, error) {
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", st.Name())
	}
	size := st.Size()
	if size > limit {
		return nil, fmt.Errorf("%d bytes exceeds Limits.MaxFileBytes (%d)", size, limit)
	}
	if size < 0 || size > maxInt-7 {
		return nil, fmt.Errorf("size %d", size)
	}
	buf := payload.AsBytes(make([]uint64, (size+7)/8))[:size]
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, err
	}
	var one [1]byte
	if n, _ := f.Read(one[:]); n > 0 {
		return nil, errors.New("file grew while being read")
	}
	return buf, nil
}

// externalData reads the nbytes bytes of a tensor stored outside the model
// file, as its external_data entries describe.
func (d *decoder) externalData(kvs [][2]string, nbytes int64, dt payload.DType) ([]byte, error) {
	var (
		loc       string
		haveLoc   bool
		off, size int64
		haveSize  bool
	)
	for _, kv := range kvs {
		switch kv[0] {
		case "location":
			loc, haveLoc = kv[1], true
		case "offset", "length":
			v, err := strconv.ParseInt(kv[1], 10, 64)
			if err != nil || v < 0 {
				return nil, d.invalid("external_data %s %q", kv[0], kv[1])
			}
			if kv[0] == "offset" {
				off = v
			} else {
				size, haveSize = v, true
			}
		}
		// "checksum" and other keys are not checked.
	}
	if !haveLoc {
		return nil, d.invalid("external data without a location")
	}
	if haveSize && size != nbytes {
		return nil, d.invalid("external data %q: length %d, tensor needs %d bytes", loc, size, nbytes)
	}
	data, err := d.ext.read(loc)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidArtifact, err, "%s: %s: external data %q", d.label, d.where(), loc)
	}
	if off > int64(len(data)) || nbytes > int64(len(data))-off {
		return nil, d.invalid("external data %q: offset %d and %d bytes run past its %d bytes", loc, off, nbytes, len(data))
	}
	return alignedView(data[off:off+nbytes], dt.Size()), nil
}
