package batch

import "testing"

func TestBatchView(t *testing.T) {
	items := []int{1, 2, 3}
	b := Of(items)
	if b.Len() != 3 || *b.At(2) != 3 {
		t.Fatal("view")
	}
	*b.At(0) = 9
	if items[0] != 9 {
		t.Fatal("At does not alias the items")
	}
	if got := testing.AllocsPerRun(10, func() { _ = Of(items).Len() }); got != 0 {
		t.Fatalf("Of allocates %v", got)
	}
}
