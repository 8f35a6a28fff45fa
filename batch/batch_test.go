package batch

import "testing"

func TestBatchView(t *testing.T) {
	items := []int{1, 2, 3}
	b := Of(items)
	if b.Len() != 3 || *b.At(2) != 3 {
		t.Fatalf("Of([1 2 3]): Len %d, At(2) %d; want 3, 3", b.Len(), *b.At(2))
	}
	*b.At(0) = 9
	if items[0] != 9 {
		t.Fatalf("after *At(0) = 9, items[0] = %d, want 9: At must alias the items", items[0])
	}
	if got := testing.AllocsPerRun(10, func() { _ = Of(items).Len() }); got != 0 {
		t.Fatalf("Of allocates %v times per call, want 0", got)
	}
}
