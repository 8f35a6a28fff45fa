package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// nmsKernel is NonMaxSuppression on float32 boxes and scores, as ONNX
// Runtime selects: per batch and class, the boxes scoring above
// score_threshold are taken best score first (the lower index first among
// equal scores), each kept unless its intersection over union with a box
// already kept for the class exceeds iou_threshold, until
// max_output_boxes_per_class are kept. shape selects, run copies.
type nmsKernel struct {
	n      *model.Node
	center bool
	sel    []int64 // (batch, class, box) triples
	heap   []int32 // candidate box indices, a max-heap by score
	kept   []int32 // boxes kept for the current class
}

func (k *nmsKernel) shape(in, out []*tensor) error {
	boxes, scores := in[0], in[1]
	B, N, C := boxes.shape[0], boxes.shape[1], scores.shape[1]
	maxOut := int64(0)
	if t := optIn(in, 2); t != nil && t.numel() > 0 {
		if t.numel() != 1 {
			return shapeErr(k.n, "max_output_boxes_per_class has %d values, want 1", t.numel())
		}
		maxOut = max(t.i64()[0], 0)
	}
	iou := float32(0)
	if t := optIn(in, 3); t != nil && t.numel() > 0 {
		if t.numel() != 1 {
			return shapeErr(k.n, "iou_threshold has %d values, want 1", t.numel())
		}
		iou = t.f32()[0]
	}
	// ONNX Runtime refuses a threshold outside [0, 1].
	if !(iou >= 0 && iou <= 1) {
		return shapeErr(k.n, "iou_threshold %v is not in [0, 1]", iou)
	}
	hasScore, minScore := false, float32(0)
	if t := optIn(in, 4); t != nil && t.numel() > 0 {
		if t.numel() != 1 {
			return shapeErr(k.n, "score_threshold has %d values, want 1", t.numel())
		}
		hasScore, minScore = true, t.f32()[0]
	}
	k.sel = k.sel[:0]
	bv, sv := boxes.f32(), scores.f32()
	for b := 0; b < B && maxOut > 0; b++ {
		bb := bv[b*N*4 : (b+1)*N*4]
		for c := 0; c < C; c++ {
			sc := sv[(b*C+c)*N : (b*C+c+1)*N]
			k.heap = k.heap[:0]
			for i, s := range sc {
				if !hasScore || s > minScore {
					k.heap = append(k.heap, int32(i))
				}
			}
			h := nmsHeap{idx: k.heap, score: sc}
			h.init()
			k.kept = k.kept[:0]
			for len(h.idx) > 0 && int64(len(k.kept)) < maxOut {
				i := h.pop()
				keep := true
				for _, j := range k.kept {
					if nmsSuppress(bb, int(j), int(i), k.center, iou) {
						keep = false
						break
					}
				}
				if keep {
					k.kept = append(k.kept, i)
					k.sel = append(k.sel, int64(b), int64(c), int64(i))
				}
			}
		}
	}
	out[0].shape[0] = len(k.sel) / 3
	return nil
}

func (k *nmsKernel) run(in, out []*tensor) error {
	copy(out[0].i64(), k.sel)
	return nil
}

// nmsHeap is a max-heap of box indices by score, the lower index first
// among equal scores.
type nmsHeap struct {
	idx   []int32
	score []float32
}

// above reports whether index a pops before index b.
func (h *nmsHeap) above(a, b int32) bool {
	sa, sb := h.score[a], h.score[b]
	return sa > sb || (sa == sb && a < b)
}

func (h *nmsHeap) init() {
	for i := len(h.idx)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *nmsHeap) down(i int) {
	n := len(h.idx)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.above(h.idx[r], h.idx[l]) {
			m = r
		}
		if !h.above(h.idx[m], h.idx[i]) {
			return
		}
		h.idx[i], h.idx[m] = h.idx[m], h.idx[i]
		i = m
	}
}

func (h *nmsHeap) pop() int32 {
	top := h.idx[0]
	last := len(h.idx) - 1
	h.idx[0] = h.idx[last]
	h.idx = h.idx[:last]
	h.down(0)
	return top
}

// nmsSuppress reports whether box j suppresses box i: their intersection
// over union exceeds thr. It is ONNX Runtime's SuppressByIOU, step for
// step in float32.
func nmsSuppress(boxes []float32, i, j int, center bool, thr float32) bool {
	b1, b2 := boxes[4*i:4*i+4], boxes[4*j:4*j+4]
	var x1lo, x1hi, y1lo, y1hi, x2lo, x2hi, y2lo, y2hi float32
	if center {
		w1, h1, w2, h2 := b1[2]/2, b1[3]/2, b2[2]/2, b2[3]/2
		x1lo, x1hi, y1lo, y1hi = b1[0]-w1, b1[0]+w1, b1[1]-h1, b1[1]+h1
		x2lo, x2hi, y2lo, y2hi = b2[0]-w2, b2[0]+w2, b2[1]-h2, b2[1]+h2
	} else {
		x1lo, x1hi = min(b1[1], b1[3]), max(b1[1], b1[3])
		y1lo, y1hi = min(b1[0], b1[2]), max(b1[0], b1[2])
		x2lo, x2hi = min(b2[1], b2[3]), max(b2[1], b2[3])
		y2lo, y2hi = min(b2[0], b2[2]), max(b2[0], b2[2])
	}
	ixlo, ixhi := max(x1lo, x2lo), min(x1hi, x2hi)
	if ixhi <= ixlo {
		return false
	}
	iylo, iyhi := max(y1lo, y2lo), min(y1hi, y2hi)
	if iyhi <= iylo {
		return false
	}
	inter := (ixhi - ixlo) * (iyhi - iylo)
	if inter <= 0 {
		return false
	}
	a1 := (x1hi - x1lo) * (y1hi - y1lo)
	a2 := (x2hi - x2lo) * (y2hi - y2lo)
	union := a1 + a2 - inter
	if a1 <= 0 || a2 <= 0 || union <= 0 {
		return false
	}
	return inter/union > thr
}

func init() {
	register("NonMaxSuppression", func(c *buildCtx) (kernel, error) {
		for i, want := range []payload.DType{payload.Float32, payload.Float32, payload.Int64, payload.Float32, payload.Float32} {
			if t := c.inType(i); t != want && (i < 2 || t != payload.Undefined) {
				return nil, c.unsupported("input %d of type %s (supported: %s)", i, t, want)
			}
		}
		return &nmsKernel{n: c.n, center: c.rule.(*model.NonMaxSuppressionAttrs).CenterPointBox}, nil
	})
}
