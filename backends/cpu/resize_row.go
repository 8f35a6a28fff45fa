package cpu

// bilinearWin describes the leading groups of eight output columns of a
// two-axis bilinear pass whose taps each fall inside one window of span
// (8 or 16) input columns, so that a vector of taps is a permutation of
// one or two loads: group g's first taps are the row's b1[g] + p1[8g+l],
// its second b2[g] + p2[8g+l], l < 8. Upsampling has every group so in
// windows of 8 but near the row's end, where a window would pass it;
// halving, in windows of 16.
type bilinearWin struct {
	groups, span   int
	b1, b2, p1, p2 []int32
}

// plan sets w from the column taps x1 and x2 of a pass over input rows
// of win columns: windows of 8 where they take at least half the groups,
// else of 16, over the longest run of whole groups from the start that
// qualify.
func (w *bilinearWin) plan(x1, x2 []int32, win int) {
	ng := len(x1) / 8
	w.b1, w.b2 = growI32(&w.b1, ng), growI32(&w.b2, ng)
	w.p1, w.p2 = growI32(&w.p1, 8*ng), growI32(&w.p2, 8*ng)
	if w.span = 8; w.run(x1, x2, win) < ng/2 {
		w.span = 16
		w.run(x1, x2, win)
	}
}

// run fills the groups for w.span and returns their count.
func (w *bilinearWin) run(x1, x2 []int32, win int) int {
	s := int32(w.span)
	w.groups = 0
	for g := range len(x1) / 8 {
		b1, b2 := x1[8*g], x2[8*g]
		if int(b1)+w.span > win || int(b2)+w.span > win || b1 < 0 || b2 < 0 {
			break
		}
		ok := true
		for l := range 8 {
			d1, d2 := x1[8*g+l]-b1, x2[8*g+l]-b2
			if d1 < 0 || d1 >= s || d2 < 0 || d2 >= s {
				ok = false
				break
			}
			w.p1[8*g+l], w.p2[8*g+l] = d1, d2
		}
		if !ok {
			break
		}
		w.b1[g], w.b2[g] = b1, b2
		w.groups = g + 1
	}
	return w.groups
}
