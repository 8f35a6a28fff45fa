// Command vad prints the speech segments of a WAV file, found by the
// Silero voice activity detector (v5) running on lintel's CPU backend.
//
//	go run ./examples/vad -model silero_vad_v5.onnx speech.wav
//
// The file must hold 16-bit PCM, mono, at 16 kHz; other rates are
// refused (resample first, for example with sox in.wav -r 16000 out.wav).
// The model is Silero VAD v5 (MIT, github.com/snakers4/silero-vad), as
// npm @ricky0123/vad-web ships it in dist/silero_vad_v5.onnx; without
// -model it is looked up there under $LINTEL_NPM_DIR, where
// `make ort-deps` installs it.
//
// The detector runs 512-sample chunks (32 ms), carrying the model's
// state from chunk to chunk without copying or allocating
// (docs/streaming.md), and turns the probabilities into segments with
// silero-vad's hysteresis: speech starts at probability 0.5, ends after
// 100 ms below 0.35, and segments under 250 ms are dropped.
//
// Output: one line per segment, start and end in seconds.
//
//	0.962	2.432
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	model := flag.String("model", defaultModel(), "Silero VAD v5 ONNX file")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: vad [-model silero_vad_v5.onnx] file.wav\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	segs, err := detectFile(*model, flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "vad:", err)
		os.Exit(1)
	}
	printSegments(os.Stdout, segs)
}

// defaultModel is Silero VAD v5 in the npm prefix of $LINTEL_NPM_DIR, or
// "" when that is unset.
func defaultModel() string {
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "node_modules", "@ricky0123", "vad-web", "dist", "silero_vad_v5.onnx")
}

// detectFile runs the detector over a 16 kHz WAV file and returns its
// speech segments.
func detectFile(modelPath, wavPath string) ([]segment, error) {
	if modelPath == "" {
		return nil, errors.New("no model: pass -model or set LINTEL_NPM_DIR")
	}
	f, err := os.Open(wavPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := readWAV(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", wavPath, err)
	}
	if a.rate != rate {
		return nil, fmt.Errorf("%s: sample rate %d Hz; only %d Hz is supported (resample first, e.g. sox in.wav -r 16000 out.wav)", wavPath, a.rate, rate)
	}
	d, err := newDetector(modelPath)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	probs := make([]float32, 0, len(a.samples)/chunkLen+1)
	var last [chunkLen]float32
	for i := 0; i < len(a.samples); i += chunkLen {
		chunk := a.samples[i:min(i+chunkLen, len(a.samples))]
		if len(chunk) < chunkLen { // zero-pad the tail
			n := copy(last[:], chunk)
			clear(last[n:])
			chunk = last[:]
		}
		p, err := d.prob(chunk)
		if err != nil {
			return nil, err
		}
		probs = append(probs, p)
	}
	return defaultHysteresis.segments(probs, float64(chunkLen)/rate), nil
}

// printSegments writes one line per segment: start and end in seconds.
func printSegments(w io.Writer, segs []segment) {
	for _, s := range segs {
		fmt.Fprintf(w, "%.3f\t%.3f\n", s.start, s.end)
	}
}
