package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestAttentionRule(t *testing.T) {
	at := func(ins, outs []string, attrs ...Attr) *Node { return nd("Attention", ins, outs, attrs...) }
	qkv := []string{"q", "k", "v"}
	past := []string{"q", "k", "v", "m", "pk", "pv"}
	all := []string{"y", "pk2", "pv2", "qk"}
	heads := []Attr{aI("q_num_heads", 6), aI("kv_num_heads", 2)}
	absent := nnIn{absent: true}
	f16 := payload.Float16
	runNNCases(t, []nnCase{
		{name: "4-D", opset: 23, node: at(qkv, []string{"y"}), in: []nnIn{kin(f32, 2, 3, 4, 8), kin(f32, 2, 3, 6, 8), kin(f32, 2, 3, 6, 10)},
			want: []nnOut{ko(f32, 2, 3, 4, 10)}},
		{name: "4-D grouped with past", opset: 23, node: at(past, all),
			in:   []nnIn{kin(f16, 2, 6, 4, 8), kin(f16, 2, 2, 5, 8), kin(f16, 2, 2, 5, 10), kin(payload.Bool, 4, 9), kin(f16, 2, 2, 4, 8), kin(f16, 2, 2, 4, 10)},
			want: []nnOut{ko(f16, 2, 6, 4, 10), ko(f16, 2, 2, 9, 8), ko(f16, 2, 2, 9, 10), ko(f16, 2, 6, 4, 9)}},
		{name: "3-D", opset: 23, node: at(qkv, all, heads...), in: []nnIn{kin(f32, 2, 4, 48), kin(f32, 2, 5, 16), kin(f32, 2, 5, 20)},
			want: []nnOut{ko(f32, 2, 4, 60), ko(f32, 2, 2, 5, 8), ko(f32, 2, 2, 5, 10), ko(f32, 2, 6, 4, 5)}},
		{name: "3-D skipped outputs", opset: 23, node: at(qkv, []string{"y", "", "", "qk"}, heads...), in: []nnIn{kin(f32, 1, 4, 48), kin(f32, 1, 5, 16), kin(f32, 1, 5, 16)},
			want: []nnOut{ko(f32, 1, 4, 48), {}, {}, ko(f32, 1, 6, 4, 5)}},
		{name: "unknown dims", opset: 23, node: at(past, all), in: []nnIn{kin(f32, -1, 3, -1, 8), kin(f32, 2, 3, -1, 8), kin(f32, -1, -1, 6, 8), absent, kin(f32, 2, 3, 2, 8), kin(f32, 2, 3, -1, 8)},
			want: []nnOut{ko(f32, 2, 3, -1, 8), ko(f32, 2, 3, 8, 8), ko(f32, 2, 3, 8, 8), ko(f32, 2, 3, -1, 8)}},
		{name: "unknown rank", opset: 23, node: at(qkv, all[:2]), in: []nnIn{uin(f32), uin(f32), uin(f32)}, want: []nnOut{uo(f32), uo(f32)}},
		{name: "nonpad at 24", opset: 24, node: at([]string{"q", "k", "v", "", "", "", "n"}, []string{"y"}, aI("is_causal", 1)),
			in:   []nnIn{kin(f32, 3, 2, 1, 8), kin(f32, 3, 2, 6, 8), kin(f32, 3, 2, 6, 8), absent, absent, absent, kin(i64, 3)},
			want: []nnOut{ko(f32, 3, 2, 1, 8)}},
		{name: "nonpad at 23", opset: 23, node: at([]string{"q", "k", "v", "", "", "", "n"}, []string{"y"}), err: errs.InvalidArtifact, errHas: "input"},
		{name: "nonpad batch", opset: 24, node: at([]string{"q", "k", "v", "", "", "", "n"}, []string{"y"}),
			in:  []nnIn{kin(f32, 3, 2, 1, 8), kin(f32, 3, 2, 6, 8), kin(f32, 3, 2, 6, 8), absent, absent, absent, kin(i64, 2)},
			err: errs.InvalidArtifact, errHas: "nonpad_kv_seqlen"},
		{name: "ranks differ", opset: 23, node: at(qkv, []string{"y"}), in: []nnIn{kin(f32, 2, 3, 4, 8), kin(f32, 2, 6, 24), kin(f32, 2, 3, 6, 8)},
			err: errs.InvalidArtifact, errHas: "ranks"},
		{name: "rank 2", opset: 23, node: at(qkv, []string{"y"}), in: []nnIn{kin(f32, 4, 8), kin(f32, 4, 8), kin(f32, 4, 8)},
			err: errs.InvalidArtifact, errHas: "rank 2"},
		{name: "3-D without heads", opset: 23, node: at(qkv, []string{"y"}), in: []nnIn{kin(f32, 2, 4, 48), kin(f32, 2, 5, 16), kin(f32, 2, 5, 16)},
			err: errs.InvalidArtifact, errHas: "q_num_heads"},
		{name: "3-D hidden not a multiple", opset: 23, node: at(qkv, []string{"y"}, heads...), in: []nnIn{kin(f32, 2, 4, 50), kin(f32, 2, 5, 16), kin(f32, 2, 5, 16)},
			err: errs.InvalidArtifact, errHas: "multiple"},
		{name: "head sizes differ", runtime: true, opset: 23, node: at(qkv, []string{"y"}), in: []nnIn{kin(f32, 2, 3, 4, 8), kin(f32, 2, 3, 6, 4), kin(f32, 2, 3, 6, 8)},
			err: errs.ShapeMismatch, errHas: "do not agree"},
		{name: "heads not grouped", opset: 23, node: at(qkv, []string{"y"}), in: []nnIn{kin(f32, 2, 5, 4, 8), kin(f32, 2, 3, 6, 8), kin(f32, 2, 3, 6, 8)},
			err: errs.InvalidArtifact, errHas: "multiple"},
		{name: "mask too long", opset: 23, node: at([]string{"q", "k", "v", "m"}, []string{"y"}), in: []nnIn{kin(f32, 2, 3, 4, 8), kin(f32, 2, 3, 6, 8), kin(f32, 2, 3, 6, 8), kin(f32, 4, 7)},
			err: errs.InvalidArtifact, errHas: "longer"},
		{name: "mask does not broadcast", opset: 23, node: at([]string{"q", "k", "v", "m"}, []string{"y"}), in: []nnIn{kin(f32, 2, 3, 4, 8), kin(f32, 2, 3, 6, 8), kin(f32, 2, 3, 6, 8), kin(f32, 2, 2, 4, 6)},
			err: errs.InvalidArtifact, errHas: "broadcast"},
		{name: "past alone", opset: 23, node: at([]string{"q", "k", "v", "", "pk"}, []string{"y"}), in: []nnIn{kin(f32, 2, 3, 4, 8), kin(f32, 2, 3, 6, 8), kin(f32, 2, 3, 6, 8), absent, kin(f32, 2, 3, 1, 8)},
			err: errs.InvalidArtifact, errHas: "together"},
		{name: "bad mode", opset: 23, node: at(qkv, []string{"y"}, aI("qk_matmul_output_mode", 4)), err: errs.InvalidArtifact, errHas: "qk_matmul_output_mode"},
		{name: "negative softcap", opset: 23, node: at(qkv, []string{"y"}, aF("softcap", -1)), err: errs.InvalidArtifact, errHas: "softcap"},
		{name: "bad softmax precision", opset: 23, node: at(qkv, []string{"y"}, aI("softmax_precision", 99)), err: errs.InvalidArtifact, errHas: "softmax_precision"},
		{name: "before opset 23", opset: 22, node: at(qkv, []string{"y"}), err: errs.Unsupported, errHas: "opset 22"},
	})
}

func TestAttentionRuleDoesNotAllocate(t *testing.T) {
	n := nd("Attention", []string{"q", "k", "v", "m", "pk", "pv"}, []string{"y", "pk2", "pv2", "qk"}, aI("q_num_heads", 6), aI("kv_num_heads", 2))
	r, c, err := nnCtx(n, 23, true, []nnIn{kin(f32, 2, 4, 48), kin(f32, 2, 5, 16), kin(f32, 2, 5, 16), kin(f32, 2, 1, 4, 9), kin(f32, 2, 2, 4, 8), kin(f32, 2, 2, 4, 8)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Infer(c); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(100, func() { _ = r.Infer(c) }); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
}
