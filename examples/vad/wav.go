package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// wavAudio is the content of a WAV file: mono samples scaled to [-1, 1)
// and their rate.
type wavAudio struct {
	rate    int
	samples []float32
}

// readWAV reads a RIFF WAVE file of 16-bit PCM samples, mono. It refuses
// other formats with an error that names what it found.
func readWAV(r io.Reader) (wavAudio, error) {
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return wavAudio{}, fmt.Errorf("wav: reading the header: %w", err)
	}
	if string(hdr[0:4]) != "RIFF" || string(hdr[8:12]) != "WAVE" {
		return wavAudio{}, errors.New("wav: not a RIFF WAVE file")
	}
	var a wavAudio
	haveFmt := false
	for {
		var ch [8]byte
		if _, err := io.ReadFull(r, ch[:]); err != nil {
			return wavAudio{}, fmt.Errorf("wav: no data chunk: %w", err)
		}
		id, size := string(ch[0:4]), binary.LittleEndian.Uint32(ch[4:8])
		switch id {
		case "fmt ":
			if size < 16 {
				return wavAudio{}, fmt.Errorf("wav: fmt chunk of %d bytes, want at least 16", size)
			}
			b := make([]byte, size+size%2)
			if _, err := io.ReadFull(r, b); err != nil {
				return wavAudio{}, fmt.Errorf("wav: reading the fmt chunk: %w", err)
			}
			format := binary.LittleEndian.Uint16(b[0:2])
			channels := binary.LittleEndian.Uint16(b[2:4])
			a.rate = int(binary.LittleEndian.Uint32(b[4:8]))
			bits := binary.LittleEndian.Uint16(b[14:16])
			if format == 0xfffe && size >= 26 { // WAVE_FORMAT_EXTENSIBLE: the subformat's first two bytes
				format = binary.LittleEndian.Uint16(b[24:26])
			}
			if format != 1 || bits != 16 {
				return wavAudio{}, fmt.Errorf("wav: format %d with %d bits per sample; only 16-bit PCM (format 1) is supported", format, bits)
			}
			if channels != 1 {
				return wavAudio{}, fmt.Errorf("wav: %d channels; only mono is supported", channels)
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return wavAudio{}, errors.New("wav: data chunk before the fmt chunk")
			}
			// Writers that stream to a pipe leave the size at its
			// maximum: read what there is.
			b, err := io.ReadAll(io.LimitReader(r, int64(size)))
			if err != nil {
				return wavAudio{}, fmt.Errorf("wav: reading the samples: %w", err)
			}
			a.samples = make([]float32, len(b)/2)
			for i := range a.samples {
				a.samples[i] = float32(int16(binary.LittleEndian.Uint16(b[2*i:]))) / 32768
			}
			return a, nil
		default:
			if _, err := io.CopyN(io.Discard, r, int64(size)+int64(size%2)); err != nil {
				return wavAudio{}, fmt.Errorf("wav: skipping a %q chunk: %w", id, err)
			}
		}
	}
}
