package testmodels

import (
	"bytes"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/payload"
)

// Every model decodes, and comes out the same on every call.
func TestModels(t *testing.T) {
	cases := []struct {
		name  string
		build func() []byte
	}{
		{"mlp", MLP}, {"gemm", Gemm}, {"encoder", Encoder}, {"cnn", CNN}, {"mobile_cnn", MobileCNN},
		{"qdq_cnn", func() []byte { return QDQCNN(payload.Uint8, false) }},
		{"qdq_cnn_s8_taps", func() []byte { return QDQCNN(payload.Int8, true) }},
		{"qdq_mlp", func() []byte { return QDQMLP(payload.Uint8, false, false) }},
		{"qdq_mlp_s8_per_channel", func() []byte { return QDQMLP(payload.Int8, true, true) }},
	}
	for _, f := range Forms {
		cases = append(cases, struct {
			name  string
			build func() []byte
		}{"bert_" + f.String(), func() []byte { return BERTEncoder.Encoder(f) }},
			struct {
				name  string
				build func() []byte
			}{"llama_" + f.String(), func() []byte { return LlamaDecoder.Decoder(f) }})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.build()
			if _, err := artifacts.FromBytes(b, c.name); err != nil {
				t.Fatalf("artifacts.FromBytes: %v", err)
			}
			if !bytes.Equal(b, c.build()) {
				t.Fatal("two builds differ")
			}
		})
	}
}
