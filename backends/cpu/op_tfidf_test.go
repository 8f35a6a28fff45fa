package cpu

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func aFloats(name string, v ...float32) model.Attr {
	return model.Attr{Name: name, Type: model.AttrFloats, Floats: v}
}

func TestTfIdf(t *testing.T) {
	// Unigrams 2 3 5 4 (columns 0-3), bigrams 5-6 7-8 6-7 (columns 4-6).
	base := []model.Attr{aInts("ngram_counts", 0, 4), aInts("ngram_indexes", 0, 1, 2, 3, 4, 5, 6), aInts("pool_int64s", 2, 3, 5, 4, 5, 6, 7, 8, 6, 7)}
	x := []int32{1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8}
	cases := []struct {
		name  string
		attrs []model.Attr
		in    *tensor
		shape []int
		want  []float32
	}{
		{"TF uni and bigrams skip 5", []model.Attr{aInt("min_gram_length", 1), aInt("max_gram_length", 2), aInt("max_skip_count", 5), aString("mode", "TF")},
			mk([]int{12}, x), []int{7}, []float32{0, 3, 1, 0, 1, 3, 1}},
		{"TF bigrams skip 0 batch", []model.Attr{aInt("min_gram_length", 2), aInt("max_gram_length", 2), aInt("max_skip_count", 0), aString("mode", "TF")},
			mk([]int{2, 6}, x), []int{2, 7}, []float32{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}},
		{"IDF weighted int64", []model.Attr{aInt("min_gram_length", 1), aInt("max_gram_length", 1), aInt("max_skip_count", 0), aString("mode", "IDF"), aFloats("weights", 1, 2, 3, 4, 5, 6, 7)},
			mk([]int{4}, []int64{3, 3, 4, 9}), []int{7}, []float32{0, 2, 0, 4, 0, 0, 0}},
		{"TFIDF weighted", []model.Attr{aInt("min_gram_length", 1), aInt("max_gram_length", 1), aInt("max_skip_count", 0), aString("mode", "TFIDF"), aFloats("weights", 1, 2, 3, 4, 5, 6, 7)},
			mk([]int{4}, []int64{3, 3, 4, 9}), []int{7}, []float32{0, 4, 0, 4, 0, 0, 0}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("TfIdfVectorizer", []string{"x"}, append(c.attrs, base...)...), opset: 9}, c.in)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !cmp.Equal(outs[0].shape, c.shape) || !cmp.Equal(outs[0].f32(), c.want) {
			t.Errorf("%s: got %v %v, want %v %v", c.name, outs[0].shape, outs[0].f32(), c.shape, c.want)
		}
	}
}

func TestTfIdfStrings(t *testing.T) {
	n := node("TfIdfVectorizer", []string{"x"}, aInt("min_gram_length", 1), aInt("max_gram_length", 2), aInt("max_skip_count", 1), aString("mode", "TF"),
		aInts("ngram_counts", 0, 2), aInts("ngram_indexes", 1, 0, 2), model.Attr{Name: "pool_strings", Type: model.AttrStrings, Strings: []string{"a", "b", "a", "c"}})
	outs, err := runNode(t, nodeCase{node: n, opset: 9}, mkStr([]int{4}, "a", "b", "c", "a"))
	if err != nil {
		t.Fatal(err)
	}
	// a twice, b once, a-c with one skip (a b c) once.
	if want := []float32{1, 2, 1}; !cmp.Equal(outs[0].f32(), want) {
		t.Errorf("got %v, want %v", outs[0].f32(), want)
	}
}

func TestTfIdfBadAttrs(t *testing.T) {
	common := []model.Attr{aInt("min_gram_length", 1), aInt("max_gram_length", 1), aInt("max_skip_count", 0), aString("mode", "TF")}
	cases := []struct {
		name  string
		attrs []model.Attr
	}{
		{"indexes count", []model.Attr{aInts("ngram_counts", 0), aInts("ngram_indexes", 0), aInts("pool_int64s", 1, 2)}},
		{"no pool", []model.Attr{aInts("ngram_counts", 0), aInts("ngram_indexes")}},
		{"bigrams odd", []model.Attr{aInts("ngram_counts", 0, 0), aInts("ngram_indexes", 0), aInts("pool_int64s", 1, 2, 3)}},
		{"weights", []model.Attr{aInts("ngram_counts", 0), aInts("ngram_indexes", 0), aInts("pool_int64s", 1), aFloats("weights", 1, 2)}},
	}
	for _, c := range cases {
		if _, err := runNode(t, nodeCase{node: node("TfIdfVectorizer", []string{"x"}, append(c.attrs, common...)...), opset: 9}, mk([]int{2}, []int64{1, 2})); err == nil {
			t.Errorf("%s: got no error, want one", c.name)
		}
	}
}

func TestTfIdfAllocs(t *testing.T) {
	n := node("TfIdfVectorizer", []string{"x"}, aInt("min_gram_length", 1), aInt("max_gram_length", 2), aInt("max_skip_count", 2), aString("mode", "TF"),
		aInts("ngram_counts", 0, 1), aInts("ngram_indexes", 0, 1), aInts("pool_int64s", 1, 1, 2))
	x := mk([]int{4}, []int64{1, 2, 1, 2})
	outs, err := runNode(t, nodeCase{node: n, opset: 9}, x)
	if err != nil {
		t.Fatal(err)
	}
	g := model.NewGraph()
	bc := &buildCtx{g: g, n: n, opset: 9, in: []model.ValueInfo{{DType: payload.Int64}}}
	k, err := buildKernel(bc)
	if err != nil {
		t.Fatal(err)
	}
	ins := []*tensor{x}
	if a := testing.AllocsPerRun(20, func() { _ = k.run(ins, outs) }); a != 0 {
		t.Errorf("got %v allocations per run, want 0", a)
	}
}
