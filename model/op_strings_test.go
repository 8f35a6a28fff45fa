package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

const (
	str = payload.String
	u8  = payload.Uint8
	bl  = payload.Bool
)

func aSs(name string, v ...string) Attr { return Attr{Name: name, Type: AttrStrings, Strings: v} }

func TestStringRules(t *testing.T) {
	split := func(attrs ...Attr) *Node { return nd("StringSplit", nil, []string{"y", "z"}, attrs...) }
	runRules(t, []ruleCase{
		{name: "concat broadcast", opset: 20, node: nd("StringConcat", nil, nil), in: []ruleIn{in(str, 3), in(str, 1)}, want: []sh{{str, d(3)}}},
		{name: "concat partial", opset: 20, node: nd("StringConcat", nil, nil), in: []ruleIn{in(str, -1, 2), in(str, 2)}, want: []sh{{str, d(-1, 2)}}},
		{name: "concat of floats", opset: 20, node: nd("StringConcat", nil, nil), in: []ruleIn{in(f32, 3), in(str, 3)}, err: invalid},
		{name: "concat bad shapes", opset: 20, node: nd("StringConcat", nil, nil), in: []ruleIn{in(str, 3), in(str, 2)}, err: invalid},
		{name: "concat before 20", opset: 19, node: nd("StringConcat", nil, nil), in: []ruleIn{in(str, 3), in(str, 3)}, err: unsupp},
		{name: "split", opset: 20, node: split(), in: []ruleIn{in(str, 2, 2)}, want: []sh{{str, d(2, 2, -1)}, {i64, d(2, 2)}}},
		{name: "split unranked", opset: 20, node: split(aS("delimiter", ",")), in: []ruleIn{unr(str)}, want: []sh{{str, nil}, {i64, nil}}},
		{name: "regex", opset: 20, node: nd("RegexFullMatch", nil, nil, aS("pattern", "a+")), in: []ruleIn{in(str, 2, -1)}, want: []sh{{bl, d(2, -1)}}},
		{name: "regex bad pattern", opset: 20, node: nd("RegexFullMatch", nil, nil, aS("pattern", "a(")), in: []ruleIn{in(str, 2)}, err: invalid},
		{name: "regex no pattern", opset: 20, node: nd("RegexFullMatch", nil, nil), in: []ruleIn{in(str, 2)}, err: invalid},
		{name: "normalizer stopwords", opset: 10, node: nd("StringNormalizer", nil, nil, aSs("stopwords", "a")), in: []ruleIn{in(str, 1, 4)}, want: []sh{{str, d(1, -1)}}},
		{name: "normalizer none", opset: 10, node: nd("StringNormalizer", nil, nil, aS("case_change_action", "UPPER")), in: []ruleIn{in(str, 4)}, want: []sh{{str, d(4)}}},
		{name: "normalizer 2 rows", opset: 10, node: nd("StringNormalizer", nil, nil), in: []ruleIn{in(str, 2, 4)}, err: invalid},
		{name: "normalizer bad action", opset: 10, node: nd("StringNormalizer", nil, nil, aS("case_change_action", "TITLE")), in: []ruleIn{in(str, 4)}, err: invalid},
		{name: "image rgb", opset: 20, node: nd("ImageDecoder", nil, nil), in: []ruleIn{in(u8, 100)}, want: []sh{{u8, d(-1, -1, 3)}}},
		{name: "image gray", opset: 20, node: nd("ImageDecoder", nil, nil, aS("pixel_format", "Grayscale")), in: []ruleIn{in(u8, -1)}, want: []sh{{u8, d(-1, -1, 1)}}},
		{name: "image bad format", opset: 20, node: nd("ImageDecoder", nil, nil, aS("pixel_format", "CMYK")), in: []ruleIn{in(u8, 10)}, err: invalid},
		{name: "image rank 2", opset: 20, node: nd("ImageDecoder", nil, nil), in: []ruleIn{in(u8, 2, 5)}, err: invalid},
	})
}

func TestTfIdfRule(t *testing.T) {
	tf := func(attrs ...Attr) *Node {
		base := []Attr{aI("min_gram_length", 1), aI("max_gram_length", 2), aI("max_skip_count", 0), aS("mode", "TF"),
			aIs("ngram_counts", 0, 2), aIs("ngram_indexes", 0, 1, 4), aIs("pool_int64s", 1, 2, 1, 2)}
		return nd("TfIdfVectorizer", nil, nil, append(attrs, base...)...)
	}
	runRules(t, []ruleCase{
		{name: "1-D", opset: 9, node: tf(), in: []ruleIn{in(i32, 7)}, want: []sh{{f32, d(5)}}},
		{name: "2-D", opset: 9, node: tf(), in: []ruleIn{in(i64, -1, 7)}, want: []sh{{f32, d(-1, 5)}}},
		{name: "rank 3", opset: 9, node: tf(), in: []ruleIn{in(i64, 1, 2, 7)}, err: invalid},
		{name: "floats", opset: 9, node: tf(), in: []ruleIn{in(f32, 7)}, err: invalid},
		{name: "bad mode", opset: 9, node: tf(aS("mode", "BM25")), in: []ruleIn{in(i64, 7)}, err: invalid},
		{name: "before 9", opset: 8, node: tf(), in: []ruleIn{in(i64, 7)}, err: unsupp},
	})
}
