package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// wavBytes encodes a RIFF WAVE file; extra chunks go before "data".
func wavBytes(format, channels uint16, sampleRate int, bits uint16, samples []int16, extra ...string) []byte {
	var body bytes.Buffer
	body.WriteString("WAVE")
	fmtChunk := make([]byte, 16)
	binary.LittleEndian.PutUint16(fmtChunk[0:], format)
	binary.LittleEndian.PutUint16(fmtChunk[2:], channels)
	binary.LittleEndian.PutUint32(fmtChunk[4:], uint32(sampleRate))
	binary.LittleEndian.PutUint32(fmtChunk[8:], uint32(sampleRate*int(channels)*int(bits)/8))
	binary.LittleEndian.PutUint16(fmtChunk[12:], channels*bits/8)
	binary.LittleEndian.PutUint16(fmtChunk[14:], bits)
	chunk := func(id string, b []byte) {
		body.WriteString(id)
		binary.Write(&body, binary.LittleEndian, uint32(len(b)))
		body.Write(b)
		if len(b)%2 == 1 {
			body.WriteByte(0)
		}
	}
	chunk("fmt ", fmtChunk)
	for _, e := range extra {
		chunk("LIST", []byte(e))
	}
	data := make([]byte, 2*len(samples))
	for i, s := range samples {
		binary.LittleEndian.PutUint16(data[2*i:], uint16(s))
	}
	chunk("data", data)
	var out bytes.Buffer
	out.WriteString("RIFF")
	binary.Write(&out, binary.LittleEndian, uint32(body.Len()))
	out.Write(body.Bytes())
	return out.Bytes()
}

func TestReadWAV(t *testing.T) {
	samples := []int16{0, 16384, -32768, 32767}
	want := []float32{0, 0.5, -1, 32767.0 / 32768}
	cases := []struct {
		name    string
		file    []byte
		rate    int
		wantErr string
	}{
		{"mono16k", wavBytes(1, 1, 16000, 16, samples), 16000, ""},
		{"mono22k", wavBytes(1, 1, 22050, 16, samples), 22050, ""},
		{"odd LIST chunk skipped", wavBytes(1, 1, 16000, 16, samples, "abc"), 16000, ""},
		{"stereo", wavBytes(1, 2, 16000, 16, samples), 0, "2 channels"},
		{"8-bit", wavBytes(1, 1, 16000, 8, samples), 0, "8 bits"},
		{"float", wavBytes(3, 1, 16000, 32, samples), 0, "format 3"},
		{"not RIFF", []byte("RIFX\x00\x00\x00\x00WAVEfmt "), 0, "not a RIFF WAVE"},
		{"short", []byte("RIFF"), 0, "reading the header"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := readWAV(bytes.NewReader(c.file))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("readWAV: got error %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("readWAV: %v", err)
			}
			if a.rate != c.rate {
				t.Errorf("rate: got %d, want %d", a.rate, c.rate)
			}
			if len(a.samples) != len(want) {
				t.Fatalf("got %d samples, want %d", len(a.samples), len(want))
			}
			for i := range want {
				if a.samples[i] != want[i] {
					t.Errorf("sample %d: got %v, want %v", i, a.samples[i], want[i])
				}
			}
		})
	}
}

func TestHysteresis(t *testing.T) {
	// Chunks of 0.1 s make the times easy to read.
	const sec = 0.1
	cases := []struct {
		name  string
		probs []float32
		want  []segment
	}{
		{"silence", []float32{0.1, 0.2, 0.1}, nil},
		{"one segment", []float32{0.1, 0.9, 0.9, 0.8, 0.1, 0.1}, []segment{{0.1, 0.4}}},
		{"too short", []float32{0.1, 0.9, 0.9, 0.1, 0.1}, nil},
		{"dip above neg threshold keeps speaking", []float32{0.9, 0.9, 0.4, 0.4, 0.9, 0.1, 0.1}, []segment{{0, 0.5}}},
		{"short silence bridged", []float32{0.9, 0.9, 0.9, 0.2, 0.9, 0.9, 0.2, 0.2}, []segment{{0, 0.6}}},
		{"two segments", []float32{0.9, 0.9, 0.9, 0.2, 0.2, 0.9, 0.9, 0.9, 0.2, 0.2}, []segment{{0, 0.3}, {0.5, 0.8}}},
		{"open at the end", []float32{0.1, 0.9, 0.9, 0.9}, []segment{{0.1, 0.4}}},
	}
	h := defaultHysteresis
	h.minSilence = 0.15 // two chunks of 0.1 s
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := h.segments(c.probs, sec)
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if math.Abs(got[i].start-c.want[i].start) > 1e-9 || math.Abs(got[i].end-c.want[i].end) > 1e-9 {
					t.Errorf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

// testModel returns Silero VAD v5's path, or skips the test when npm has
// not installed it.
func testModel(t *testing.T) string {
	t.Helper()
	p := defaultModel()
	if p == "" {
		p = filepath.Join("..", "..", ".cache", "npm", "node_modules", "@ricky0123", "vad-web", "dist", "silero_vad_v5.onnx")
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("Silero VAD v5 not installed (run `make ort-deps` or set LINTEL_NPM_DIR): %v", err)
	}
	return p
}

// resample converts samples at rate from to rate to by linear
// interpolation.
func resample(x []float32, from, to int) []float32 {
	n := int(int64(len(x)) * int64(to) / int64(from))
	out := make([]float32, n)
	for i := range out {
		pos := float64(i) * float64(from) / float64(to)
		j := int(pos)
		f := float32(pos - float64(j))
		a := x[j]
		b := a
		if j+1 < len(x) {
			b = x[j+1]
		}
		out[i] = a + f*(b-a)
	}
	return out
}

// TestDetectSpeech synthesizes a sentence with espeak-ng, pads it with a
// second of silence on each side, and checks that the segments found
// cover the speech and stay out of the padding.
func TestDetectSpeech(t *testing.T) {
	model := testModel(t)
	espeak, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Skip("espeak-ng not installed (Debian: apt-get install espeak-ng)")
	}
	dir := t.TempDir()
	spoken := filepath.Join(dir, "spoken.wav")
	cmd := exec.Command(espeak, "-w", spoken, "-s", "150", "The quick brown fox jumps over the lazy dog near the river bank.")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("espeak-ng: %v\n%s", err, out)
	}
	b, err := os.ReadFile(spoken)
	if err != nil {
		t.Fatal(err)
	}
	a, err := readWAV(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("readWAV(espeak-ng's output): %v", err)
	}
	speech := resample(a.samples, a.rate, rate)
	// Where the voice is: the first and last samples above -40 dBFS.
	first, last := -1, -1
	for i, v := range speech {
		if math.Abs(float64(v)) > 0.01 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		t.Fatal("espeak-ng wrote silence")
	}
	pcm := make([]int16, rate+len(speech)+rate)
	for i, v := range speech {
		pcm[rate+i] = int16(max(-32768, min(32767, math.Round(float64(v)*32768))))
	}
	padded := filepath.Join(dir, "padded.wav")
	if err := os.WriteFile(padded, wavBytes(1, 1, rate, 16, pcm), 0o644); err != nil {
		t.Fatal(err)
	}
	voiceStart := float64(rate+first) / rate
	voiceEnd := float64(rate+last) / rate
	total := float64(len(pcm)) / rate

	segs, err := detectFile(model, padded)
	if err != nil {
		t.Fatalf("detectFile: %v", err)
	}
	t.Logf("voice %.3f-%.3f s of %.3f s; segments %v", voiceStart, voiceEnd, total, segs)
	if len(segs) == 0 {
		t.Fatal("no speech found")
	}
	// The segments start no earlier than a chunk before the voice and
	// end no later than the hysteresis's silence after it.
	const chunkSec = float64(chunkLen) / rate
	if got := segs[0].start; got < voiceStart-chunkSec || got > voiceStart+0.2 {
		t.Errorf("first segment starts at %.3f s, want within [%.3f, %.3f]", got, voiceStart-chunkSec, voiceStart+0.2)
	}
	if got := segs[len(segs)-1].end; got < voiceEnd-0.2 || got > voiceEnd+defaultHysteresis.minSilence+2*chunkSec {
		t.Errorf("last segment ends at %.3f s, want within [%.3f, %.3f]", got, voiceEnd-0.2, voiceEnd+defaultHysteresis.minSilence+2*chunkSec)
	}
	var covered float64
	for _, s := range segs {
		covered += min(s.end, voiceEnd) - max(s.start, voiceStart)
	}
	if frac := covered / (voiceEnd - voiceStart); frac < 0.8 {
		t.Errorf("segments cover %.0f%% of the voice, want at least 80%%", 100*frac)
	}
}

// TestDetectorAllocs checks that a chunk allocates nothing once the
// detector's two output payloads have grown.
func TestDetectorAllocs(t *testing.T) {
	d, err := newDetector(testModel(t))
	if err != nil {
		t.Fatalf("newDetector: %v", err)
	}
	defer d.Close()
	chunk := make([]float32, chunkLen)
	for i := range chunk {
		chunk[i] = float32(0.3 * math.Sin(float64(i)*2*math.Pi*200/rate))
	}
	step := func() {
		if _, err := d.prob(chunk); err != nil {
			t.Fatalf("prob: %v", err)
		}
	}
	step()
	step()
	if got := testing.AllocsPerRun(50, step); got != 0 {
		t.Errorf("got %v allocations per chunk, want 0", got)
	}
}

func TestRefusesOtherRates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.wav")
	if err := os.WriteFile(path, wavBytes(1, 1, 22050, 16, make([]int16, 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := detectFile("model.onnx", path)
	if err == nil || !strings.Contains(err.Error(), "sample rate 22050 Hz; only 16000 Hz") {
		t.Errorf("detectFile on a 22050 Hz file: got error %v, want one naming the rate", err)
	}
}
