package payload

import (
	"slices"
	"testing"
)

func TestStringsRoundTrip(t *testing.T) {
	for _, ss := range [][]string{nil, {""}, {"a", "", "的的"}} {
		d := StringsDynamic("s", []int{len(ss)}, ss)
		got, err := d.Strings()
		if err != nil {
			t.Errorf("%q: %v", ss, err)
			continue
		}
		if !slices.Equal(got, ss) && len(got)+len(ss) > 0 {
			t.Errorf("got %q, want %q", got, ss)
		}
	}
}

func TestCheckStrings(t *testing.T) {
	good := EncodeStrings([]string{"ab", "c"})
	cases := []struct {
		name string
		data []byte
		n    int
		ok   bool
	}{
		{"good", good, 2, true},
		{"empty", nil, 0, true},
		{"bytes for none", []byte{1}, 0, false},
		{"short header", good[:7], 1, false},
		{"extra bytes", append(append([]byte{}, good...), 'x'), 2, false},
		{"past the end", good[:17], 2, false},
		{"negative count", nil, -1, false},
	}
	for _, c := range cases {
		if err := CheckStrings(c.data, c.n); (err == nil) != c.ok {
			t.Errorf("%s: got error %v, want ok %v", c.name, err, c.ok)
		}
	}
	bad := EncodeStrings([]string{"a", "b", "c"})
	bad[8] = 0 // the second string ends before the first
	if err := CheckStrings(bad, 3); err == nil {
		t.Error("offsets that go back: got no error, want one")
	}
	if _, err := (Dynamic{Name: "f", DType: Float32}).Strings(); err == nil {
		t.Error("Strings of a float32 tensor: got no error, want one")
	}
}
