package cpu

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// mkStr returns a run-time string tensor.
func mkStr(shape []int, ss ...string) *tensor {
	return &tensor{dt: payload.String, shape: append([]int{}, shape...), data: payload.EncodeStrings(ss)}
}

// strs returns t's strings.
func strs(tb testing.TB, t *tensor) []string {
	tb.Helper()
	ss, err := payload.DecodeStrings(t.data, t.numel())
	if err != nil {
		tb.Fatalf("output encoding: %v", err)
	}
	return ss
}

func aStrings(name string, v ...string) model.Attr {
	return model.Attr{Name: name, Type: model.AttrStrings, Strings: v}
}

func TestStringOps(t *testing.T) {
	s := payload.String
	cases := []struct {
		name  string
		c     nodeCase
		ins   []*tensor
		shape []int
		want  []string
	}{
		{"concat", nodeCase{node: node("StringConcat", []string{"a", "b"}), opset: 20, outTypes: []payload.DType{s}},
			[]*tensor{mkStr([]int{3}, "cat", "", "的"), mkStr([]int{1}, "s")}, []int{3}, []string{"cats", "s", "的s"}},
		{"concat scalar", nodeCase{node: node("StringConcat", []string{"a", "b"}), opset: 20, outTypes: []payload.DType{s}},
			[]*tensor{mkStr(nil, "a"), mkStr(nil, "b")}, nil, []string{"ab"}},
		{"normalize lower", nodeCase{node: node("StringNormalizer", []string{"x"}, aString("case_change_action", "LOWER"), aStrings("stopwords", "monday")), opset: 10, outTypes: []payload.DType{s}},
			[]*tensor{mkStr([]int{1, 3}, "MONDAY", "Tuesday", "monday")}, []int{1, 1}, []string{"tuesday"}},
		{"normalize sensitive upper", nodeCase{node: node("StringNormalizer", []string{"x"}, aString("case_change_action", "UPPER"), aInt("is_case_sensitive", 1), aStrings("stopwords", "monday")), opset: 10, outTypes: []payload.DType{s}},
			[]*tensor{mkStr([]int{3}, "MONDAY", "straße", "monday")}, []int{2}, []string{"MONDAY", "STRAßE"}},
		{"normalize all stopped", nodeCase{node: node("StringNormalizer", []string{"x"}, aStrings("stopwords", "a")), opset: 10, outTypes: []payload.DType{s}},
			[]*tensor{mkStr([]int{2}, "a", "A")}, []int{1}, []string{""}},
	}
	for _, c := range cases {
		outs, err := runNode(t, c.c, c.ins...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !cmp.Equal(outs[0].shape, c.shape, cmp.Comparer(func(a, b []int) bool { return len(a) == len(b) && (len(a) == 0 || cmp.Equal(a, b)) })) {
			t.Errorf("%s: got shape %v, want %v", c.name, outs[0].shape, c.shape)
		}
		if got := strs(t, outs[0]); !cmp.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestStringSplit(t *testing.T) {
	cases := []struct {
		name   string
		attrs  []model.Attr
		in     []string
		want   []string
		counts []int64
	}{
		{"delimiter", []model.Attr{aString("delimiter", "-")}, []string{"a--b", ""}, []string{"a", "", "b", "", "", ""}, []int64{3, 1}},
		{"whitespace", nil, []string{"  a b  ", "   "}, []string{"a", "b", "", ""}, []int64{2, 0}},
		{"maxsplit", []model.Attr{aInt("maxsplit", 1)}, []string{" a  b c ", "x"}, []string{"a", "b c ", "x", ""}, []int64{2, 1}},
		{"maxsplit delimiter", []model.Attr{aString("delimiter", ".."), aInt("maxsplit", 1)}, []string{"a..b..c"}, []string{"a", "b..c"}, []int64{2}},
	}
	for _, c := range cases {
		n := node("StringSplit", []string{"x"}, c.attrs...)
		n.Outputs = []string{"y", "z"}
		outs, err := runNode(t, nodeCase{node: n, opset: 20, outTypes: []payload.DType{payload.String, payload.Int64}}, mkStr([]int{len(c.in)}, c.in...))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := strs(t, outs[0]); !cmp.Equal(got, c.want) {
			t.Errorf("%s: got %q (shape %v), want %q", c.name, got, outs[0].shape, c.want)
		}
		if got := outs[1].i64(); !cmp.Equal(got, c.counts) {
			t.Errorf("%s: got counts %v, want %v", c.name, got, c.counts)
		}
	}
}

func TestStringBoolOps(t *testing.T) {
	cases := []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want []bool
	}{
		{"equal broadcast", nodeCase{node: node("Equal", []string{"a", "b"}), opset: 19, outTypes: []payload.DType{payload.Bool}},
			[]*tensor{mkStr([]int{3}, "x", "y", ""), mkStr([]int{1}, "x")}, []bool{true, false, false}},
		{"regex", nodeCase{node: node("RegexFullMatch", []string{"x"}, aString("pattern", `a+b?`)), opset: 20, outTypes: []payload.DType{payload.Bool}},
			[]*tensor{mkStr([]int{4}, "aab", "aabb", "", "a")}, []bool{true, false, false, true}},
	}
	for _, c := range cases {
		outs, err := runNode(t, c.c, c.ins...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := outs[0].bools(); !cmp.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestStringRefusals(t *testing.T) {
	cases := []struct {
		name string
		c    nodeCase
		ins  []*tensor
	}{
		{"locale", nodeCase{node: node("StringNormalizer", []string{"x"}, aString("locale", "tr_TR")), opset: 10, outTypes: []payload.DType{payload.String}}, []*tensor{mkStr([]int{1}, "i")}},
		{"concat of floats", nodeCase{node: node("StringConcat", []string{"a", "b"}), opset: 20, outTypes: []payload.DType{payload.String}}, []*tensor{mk([]int{1}, []float32{1}), mk([]int{1}, []float32{1})}},
	}
	for _, c := range cases {
		if _, err := runNode(t, c.c, c.ins...); err == nil {
			t.Errorf("%s: got no error, want one", c.name)
		}
	}
}

func TestStringKernelAllocs(t *testing.T) {
	x := mkStr([]int{4}, "a b", "c", "dd ee ff", "")
	k := &stringSplitKernel{max: -1}
	outs := []*tensor{{dt: payload.String, shape: []int{4, 0}}, {dt: payload.Int64, shape: []int{4}, data: alignedBytes(32)}}
	run := func() {
		if err := k.shape([]*tensor{x}, outs); err != nil {
			t.Fatal(err)
		}
		if err := k.run([]*tensor{x}, outs); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("StringSplit: got %v allocations per run, want 0", n)
	}
}
