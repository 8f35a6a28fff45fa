//go:build cuda && cgo

package cuda

import (
	"bytes"
	"testing"
)

type testArgs struct {
	n     uint32
	scale float32
	off   int64
}

func TestPackParams(t *testing.T) {
	args := testArgs{n: 5, scale: 1, off: -2}
	tests := []struct {
		name string
		bufs []devptr
		args *testArgs
		want []byte
	}{
		{"none", nil, nil, []byte{}},
		{"buffers", []devptr{0x0102030405060708, 0x10}, nil, []byte{
			8, 7, 6, 5, 4, 3, 2, 1,
			0x10, 0, 0, 0, 0, 0, 0, 0,
		}},
		{"args", nil, &args, []byte{
			5, 0, 0, 0, 0, 0, 0x80, 0x3f,
			0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		}},
		{"both", []devptr{0xff}, &args, []byte{
			0xff, 0, 0, 0, 0, 0, 0, 0,
			5, 0, 0, 0, 0, 0, 0x80, 0x3f,
			0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := packParams(nil, tt.bufs, tt.args)
			if !bytes.Equal(got, tt.want) {
				t.Errorf("packParams = % x, want % x", got, tt.want)
			}
			again := packParams(make([]byte, 3, 64), tt.bufs, tt.args)
			if !bytes.Equal(again, tt.want) {
				t.Errorf("packParams into a reused buffer = % x, want % x", again, tt.want)
			}
		})
	}
}

func TestPackParamsAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	bufs := []devptr{1, 2, 3}
	args := &testArgs{n: 1}
	allocs := testing.AllocsPerRun(100, func() {
		buf = packParams(buf, bufs, args)
	})
	if allocs != 0 {
		t.Errorf("packParams allocates %v times per call with a large enough buffer", allocs)
	}
}
