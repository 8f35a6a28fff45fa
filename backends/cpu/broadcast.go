package cpu

// Multidirectional (numpy) broadcasting.
//
// The op rules in package model compute output shapes; broadcastInto
// broadcasts one shape into another in place. bcastIter walks the
// operands of a broadcast one contiguous output row at a time:
//
//	var it bcastIter
//	it.init(out.shape, a.shape, b.shape) // up to three operand shapes
//	n := it.inner
//	for r := 0; r < it.rows; r++ {
//		row := d[r*n : (r+1)*n]          // the output is always contiguous
//		// operand o's row starts at it.off[o]; its elements are
//		// it.istr[o] apart (1, or 0 when broadcast along the row)
//		it.next()
//	}
//
// Dimensions of size 1 are dropped and adjacent dimensions that every
// operand either has or broadcasts are merged, so a same-shape operation is
// one row of numel elements and [2,3,4]+[4] is six rows of four with the
// second operand at offset 0 each time. The iterator's slices grow only
// when a larger rank is seen, so a kernel that keeps one in its struct
// walks without allocating.

// bcastMaxOps is the most operands a bcastIter walks (Where has three).
const bcastMaxOps = 3

// bcastIter walks up to three operands broadcast onto a contiguous output,
// row by row; see the comment at the top of broadcast.go.
type bcastIter struct {
	nop int
	// inner is the length of one output row; rows is the number of rows.
	inner, rows int
	// istr is each operand's stride inside a row: 1, or 0 when broadcast.
	istr [bcastMaxOps]int
	// off is each operand's element offset of the current row's start.
	off [bcastMaxOps]int

	dims []int   // outer (coalesced) dims, outermost first
	str  []int   // operand o's stride along dims[j] is str[o*len(dims)+j]
	cnt  []int   // odometer over dims
	mask []uint8 // scratch: which operands have each dim
}

// init prepares the iterator for an output of shape out (the broadcast of
// the operand shapes ops, which the caller has checked) and rewinds it.
func (it *bcastIter) init(out []int, ops ...[]int) {
	it.nop = len(ops)
	it.off = [bcastMaxOps]int{}
	it.istr = [bcastMaxOps]int{}
	r := len(out)
	if cap(it.dims) < r+1 {
		it.dims = make([]int, 0, r+1)
		it.mask = make([]uint8, 0, r+1)
		it.cnt = make([]int, r+1)
		it.str = make([]int, bcastMaxOps*(r+1))
	}
	dims, mask := it.dims[:0], it.mask[:0]
	for i, d := range out {
		if d == 0 {
			it.inner, it.rows = 0, 0
			it.dims = dims[:0]
			return
		}
		if d == 1 {
			continue
		}
		var m uint8
		for o, s := range ops {
			if j := i - (r - len(s)); j >= 0 && s[j] == d {
				m |= 1 << o
			}
		}
		if k := len(dims); k > 0 && mask[k-1] == m {
			dims[k-1] *= d
			continue
		}
		dims = append(dims, d)
		mask = append(mask, m)
	}
	k := len(dims)
	if k == 0 {
		it.inner, it.rows = 1, 1
		for o := range ops {
			it.istr[o] = 1
		}
		it.dims = dims
		return
	}
	it.inner = dims[k-1]
	outer := k - 1
	it.rows = 1
	for j := 0; j < outer; j++ {
		it.rows *= dims[j]
	}
	for o := range ops {
		bit := uint8(1) << o
		s := 1
		if mask[k-1]&bit != 0 {
			it.istr[o] = 1
			s = it.inner
		}
		str := it.str[o*outer : (o+1)*outer]
		for j := outer - 1; j >= 0; j-- {
			if mask[j]&bit != 0 {
				str[j] = s
				s *= dims[j]
			} else {
				str[j] = 0
			}
		}
	}
	it.dims = dims[:outer]
	it.mask = mask
	clear(it.cnt[:outer])
}

// next advances to the next row.
func (it *bcastIter) next() {
	k := len(it.dims)
	for j := k - 1; j >= 0; j-- {
		it.cnt[j]++
		for o := 0; o < it.nop; o++ {
			it.off[o] += it.str[o*k+j]
		}
		if it.cnt[j] < it.dims[j] {
			return
		}
		for o := 0; o < it.nop; o++ {
			it.off[o] -= it.str[o*k+j] * it.dims[j]
		}
		it.cnt[j] = 0
	}
}

// rewind restarts the walk at the first row, for a second pass.
func (it *bcastIter) rewind() {
	it.off = [bcastMaxOps]int{}
	clear(it.cnt[:len(it.dims)])
}
