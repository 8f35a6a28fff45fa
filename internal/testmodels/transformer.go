package testmodels

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// Form says which ops a generated transformer is written with. The three
// forms of one model hold the same weights and compute the same function
// up to float32 rounding.
type Form int

const (
	// Basic writes attention, normalisation, rotary embedding and Gelu
	// from basic ops (MatMul, Softmax, ReduceMean, Erf, ...), opset 17, as
	// the plain PyTorch exporter does.
	Basic Form = iota
	// Standard uses opset 23's Attention, RMSNormalization and
	// RotaryEmbedding, LayerNormalization and opset 20's Gelu.
	Standard
	// Contrib uses ONNX Runtime's com.microsoft ops, as its transformer
	// optimizer and Hugging Face Optimum write them: Attention,
	// SkipLayerNormalization, BiasGelu, GroupQueryAttention,
	// SkipSimplifiedLayerNormalization and SimplifiedLayerNormalization.
	Contrib
)

// String names the form.
func (f Form) String() string {
	switch f {
	case Basic:
		return "basic"
	case Standard:
		return "standard"
	case Contrib:
		return "contrib"
	case Contrib4Bit:
		return "contrib4bit"
	}
	return "Form(" + strconv.Itoa(int(f)) + ")"
}

// Contrib4Bit is Contrib with every MatMul by a constant weight
// (the projections, the MLP and the vocabulary head) written as
// com.microsoft MatMulNBits of 4-bit weights in blocks of 32 with
// packed zero points, as ONNX Runtime's MatMulNBits quantizer writes
// them (asymmetric). Its weights are the other forms' rounded to 16
// levels per block, so it computes their function only approximately.
// Only Decoder builds it; it is not in Forms.
const Contrib4Bit Form = Contrib + 1

// Forms lists every form that computes the same function.
var Forms = []Form{Basic, Standard, Contrib}

// MicrosoftDomain is ONNX Runtime's contrib-op domain.
const MicrosoftDomain = "com.microsoft"

// tb collects the nodes and initializers of a generated graph.
type tb struct {
	nodes []onnxbuild.Node
	init  []onnxbuild.Tensor
	n     int
}

// op adds a node of the default domain with one output and returns the
// output's name.
func (b *tb) op(op string, in []string, attrs ...onnxbuild.Attr) string {
	b.n++
	out := op + "_" + strconv.Itoa(b.n)
	b.nodes = append(b.nodes, Node(op, in, out, attrs...))
	return out
}

// ms adds a com.microsoft node with the given number of outputs and
// returns their names ("" for an output left out).
func (b *tb) ms(op string, in []string, outs int, attrs ...onnxbuild.Attr) []string {
	b.n++
	names := make([]string, outs)
	for i := range names {
		names[i] = op + "_" + strconv.Itoa(b.n) + "_" + strconv.Itoa(i)
	}
	b.nodes = append(b.nodes, onnxbuild.Node{Name: op + "_" + strconv.Itoa(b.n), Op: op, Domain: MicrosoftDomain, Inputs: in, Outputs: names, Attrs: attrs})
	return names
}

// named renames the last node's first output.
func (b *tb) named(name string) {
	b.nodes[len(b.nodes)-1].Outputs[0] = name
	b.nodes[len(b.nodes)-1].Name = name
}

// rename renames value from to to, where it is made and where it is used.
func (b *tb) rename(from, to string) {
	for i := range b.nodes {
		for j, v := range b.nodes[i].Inputs {
			if v == from {
				b.nodes[i].Inputs[j] = to
			}
		}
		for j, v := range b.nodes[i].Outputs {
			if v == from {
				b.nodes[i].Outputs[j] = to
			}
		}
	}
}

// add adds an initializer and returns its name.
func (b *tb) add(t onnxbuild.Tensor) string {
	b.init = append(b.init, t)
	return t.Name
}

func (b *tb) ints(name string, v ...int64) string {
	return b.add(onnxbuild.TensorOf(name, []int64{int64(len(v))}, v))
}

func (b *tb) scalar(name string, v float32) string { return b.add(onnxbuild.Scalar(name, v)) }

func ones(n int, v float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// EncoderConfig sizes a BERT-style encoder.
type EncoderConfig struct {
	Layers, Seq, Hidden, Heads, FFN int
	// SDPA writes the basic form's attention as PyTorch's exporters write
	// scaled_dot_product_attention: Q and Kᵀ each multiplied by the square
	// root of the scale before their product, the mask added after it.
	SDPA bool
}

// BERTEncoder is the BERT-small shape the benchmarks use: 4 layers,
// sequence 128, width 384, 12 heads, a 1536-wide Gelu MLP.
var BERTEncoder = EncoderConfig{Layers: 4, Seq: 128, Hidden: 384, Heads: 12, FFN: 1536}

// Encoder builds a post-norm BERT-style encoder in form f. Inputs: x
// float32 [batch, Seq, Hidden], the token embeddings, and
// attention_mask int64 [batch, Seq], 1 for a token and 0 for padding.
// Output: y float32 [batch, Seq, Hidden]. Weights come from seed 11, the
// same in every form.
func (c EncoderConfig) Encoder(f Form) []byte {
	r := Rand(11)
	d, h, hd := int64(c.Hidden), int64(c.Heads), int64(c.Hidden/c.Heads)
	b := &tb{}
	scale := float32(1 / math.Sqrt(float64(hd)))
	x := "x"
	// The mask, once for every layer.
	var mask string
	switch f {
	case Basic:
		mf := b.op("Cast", []string{"attention_mask"}, onnxbuild.AInt("to", int64(payload.Float32)))
		inv := b.op("Sub", []string{b.scalar("one", 1), mf})
		neg := b.op("Mul", []string{inv, b.scalar("neg_big", -10000)})
		mask = b.op("Unsqueeze", []string{neg, b.ints("axes_12", 1, 2)})
	case Standard:
		// [batch, 1, Seq, Seq], expanded over the queries as Hugging
		// Face's exporters write it. (ONNX Runtime 1.24.1's CPU Attention
		// misreads a mask whose query dim is 1 and broadcasts: padded
		// items then differ from the basic form there, not here.)
		mb := b.op("Cast", []string{"attention_mask"}, onnxbuild.AInt("to", int64(payload.Bool)))
		mu := b.op("Unsqueeze", []string{mb, b.ints("axes_12", 1, 2)})
		mask = b.op("Expand", []string{mu, b.ints("mask_shape", 1, 1, int64(c.Seq), int64(c.Seq))})
	case Contrib:
		mask = b.op("Cast", []string{"attention_mask"}, onnxbuild.AInt("to", int64(payload.Int32)))
	}
	for l := range c.Layers {
		p := "l" + strconv.Itoa(l) + "_"
		wq, wk, wv := Weight(r, p+"wq", d, d), Weight(r, p+"wk", d, d), Weight(r, p+"wv", d, d)
		bq, bk, bv := Weight(r, p+"bq", d), Weight(r, p+"bk", d), Weight(r, p+"bv", d)
		wo, bo := b.add(Weight(r, p+"wo", d, d)), b.add(Weight(r, p+"bo", d))
		w1, b1 := b.add(Weight(r, p+"w1", d, int64(c.FFN))), b.add(Weight(r, p+"b1", int64(c.FFN)))
		w2, b2 := b.add(Weight(r, p+"w2", int64(c.FFN), d)), b.add(Weight(r, p+"b2", d))
		g1, e1 := b.add(onnxbuild.TensorOf(p+"g1", []int64{d}, ones(c.Hidden, 1))), b.add(onnxbuild.TensorOf(p+"e1", []int64{d}, ones(c.Hidden, 0.01)))
		g2, e2 := b.add(onnxbuild.TensorOf(p+"g2", []int64{d}, ones(c.Hidden, 1))), b.add(onnxbuild.TensorOf(p+"e2", []int64{d}, ones(c.Hidden, -0.01)))
		ln := func(v, g, e string) string {
			return b.op("LayerNormalization", []string{v, g, e}, onnxbuild.AInt("axis", -1), onnxbuild.AFloat("epsilon", 1e-12))
		}
		var n1 string
		if f == Contrib {
			wqkv, bqkv := concatCols(p+"wqkv", wq, wk, wv), concatCols(p+"bqkv", bq, bk, bv)
			att := b.ms("Attention", []string{x, b.add(wqkv), b.add(bqkv), mask}, 1, onnxbuild.AInt("num_heads", h))[0]
			o := b.mm(att, wo)
			n1 = b.ms("SkipLayerNormalization", []string{o, x, g1, e1, bo}, 1, onnxbuild.AFloat("epsilon", 1e-12))[0]
		} else {
			q := b.op("Add", []string{b.op("MatMul", []string{x, b.add(wq)}), b.add(bq)})
			k := b.op("Add", []string{b.op("MatMul", []string{x, b.add(wk)}), b.add(bk)})
			v := b.op("Add", []string{b.op("MatMul", []string{x, b.add(wv)}), b.add(bv)})
			var att string
			if f == Standard {
				att = b.op("Attention", []string{q, k, v, mask}, onnxbuild.AInt("q_num_heads", h), onnxbuild.AInt("kv_num_heads", h))
			} else {
				heads := b.ints(p+"heads", 0, -1, h, hd)
				perm := func(p ...int64) onnxbuild.Attr { return onnxbuild.AInts("perm", p...) }
				qh := b.op("Transpose", []string{b.op("Reshape", []string{q, heads})}, perm(0, 2, 1, 3))
				kt := b.op("Transpose", []string{b.op("Reshape", []string{k, heads})}, perm(0, 2, 3, 1))
				vh := b.op("Transpose", []string{b.op("Reshape", []string{v, heads})}, perm(0, 2, 1, 3))
				var sc string
				if c.SDPA {
					rs := b.scalar(p+"sqrt_scale", float32(math.Sqrt(float64(scale))))
					sc = b.op("MatMul", []string{b.op("Mul", []string{qh, rs}), b.op("Mul", []string{kt, rs})})
				} else {
					sc = b.op("Mul", []string{b.op("MatMul", []string{qh, kt}), b.scalar(p+"scale", scale)})
				}
				pr := b.op("Softmax", []string{b.op("Add", []string{sc, mask})}, onnxbuild.AInt("axis", -1))
				ctx := b.op("Transpose", []string{b.op("MatMul", []string{pr, vh})}, perm(0, 2, 1, 3))
				att = b.op("Reshape", []string{ctx, b.ints(p+"flat", 0, -1, d)})
			}
			o := b.op("Add", []string{b.mm(att, wo), bo})
			n1 = ln(b.op("Add", []string{x, o}), g1, e1)
		}
		f1 := b.op("MatMul", []string{n1, w1})
		var act string
		switch f {
		case Basic:
			fb := b.op("Add", []string{f1, b1})
			e := b.op("Erf", []string{b.op("Div", []string{fb, b.scalar(p+"sqrt2", float32(math.Sqrt2))})})
			act = b.op("Mul", []string{b.op("Mul", []string{fb, b.op("Add", []string{e, b.scalar(p+"one", 1)})}), b.scalar(p+"half", 0.5)})
		case Standard:
			act = b.op("Gelu", []string{b.op("Add", []string{f1, b1})})
		case Contrib:
			act = b.ms("BiasGelu", []string{f1, b1}, 1)[0]
		}
		f2 := b.op("MatMul", []string{act, w2})
		if f == Contrib {
			x = b.ms("SkipLayerNormalization", []string{f2, n1, g2, e2, b2}, 1, onnxbuild.AFloat("epsilon", 1e-12))[0]
		} else {
			x = ln(b.op("Add", []string{n1, b.op("Add", []string{f2, b2})}), g2, e2)
		}
	}
	b.op("Identity", []string{x})
	b.named("y")
	g := onnxbuild.Graph{
		Name: "encoder_" + f.String(),
		Inputs: []onnxbuild.Value{
			{Name: "x", DType: payload.Float32, Shape: []int64{-1, int64(c.Seq), d}, DimParams: []string{"batch"}},
			{Name: "attention_mask", DType: payload.Int64, Shape: []int64{-1, int64(c.Seq)}, DimParams: []string{"batch"}},
		},
		Outputs:      []onnxbuild.Value{{Name: "y", DType: payload.Float32, Shape: []int64{-1, int64(c.Seq), d}, DimParams: []string{"batch"}}},
		Initializers: b.init,
		Nodes:        b.nodes,
	}
	return encodeForm(f, g)
}

// encodeForm encodes g with the opset imports its form needs.
func encodeForm(f Form, g onnxbuild.Graph) []byte {
	m := onnxbuild.Model{Opset: 17, Graph: g}
	switch f {
	case Standard:
		m.Opset = 23
	case Contrib:
		m.Opsets = map[string]int64{MicrosoftDomain: 1}
	}
	return m.Encode()
}

// concatCols joins matrices [k, n_i] (or vectors [n_i]) along their last
// dim.
func concatCols(name string, ts ...onnxbuild.Tensor) onnxbuild.Tensor {
	rows := int64(1)
	if len(ts[0].Shape) == 2 {
		rows = ts[0].Shape[0]
	}
	var cols int64
	for _, t := range ts {
		cols += t.Shape[len(t.Shape)-1]
	}
	out := make([]float32, 0, rows*cols)
	for r := range rows {
		for _, t := range ts {
			n := t.Shape[len(t.Shape)-1]
			out = append(out, rawFloats(t.Raw)[r*n:(r+1)*n]...)
		}
	}
	if len(ts[0].Shape) == 2 {
		return onnxbuild.TensorOf(name, []int64{rows, cols}, out)
	}
	return onnxbuild.TensorOf(name, []int64{cols}, out)
}

// rawFloats decodes little-endian float32 bytes.
func rawFloats(raw []byte) []float32 {
	v := make([]float32, len(raw)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return v
}

// DecoderConfig sizes a Llama-style decoder.
type DecoderConfig struct {
	Layers, Hidden, Heads, KVHeads, FFN, Vocab, MaxPos int
}

// LlamaDecoder is the small Llama shape the benchmarks use: 4 layers,
// width 512, 8 query heads and 2 key/value heads of 64, a 1408-wide
// SwiGLU MLP, a vocabulary of 8192 and positions up to 4096.
var LlamaDecoder = DecoderConfig{Layers: 4, Hidden: 512, Heads: 8, KVHeads: 2, FFN: 1408, Vocab: 8192, MaxPos: 4096}

// DecoderPast and DecoderPresent name layer l's cache inputs and
// outputs: key (kv 0) or value (kv 1).
func DecoderPast(l, kv int) string {
	return "past_key_values." + strconv.Itoa(l) + [2]string{".key", ".value"}[kv]
}

// DecoderPresent names layer l's key (kv 0) or value (kv 1) output.
func DecoderPresent(l, kv int) string {
	return "present." + strconv.Itoa(l) + [2]string{".key", ".value"}[kv]
}

// Decoder builds a pre-norm Llama-style decoder in form f: token
// embedding, then per layer RMSNorm, grouped-query attention with
// rotary embedding (not interleaved) and a causal mask over the cache,
// RMSNorm and a SwiGLU MLP, each with a residual; a final RMSNorm and
// the vocabulary head. Inputs: input_ids and position_ids int64 [1, S]
// (positions P..P+S-1) and, per layer, past_key_values.L.key and .value
// float32 [1, KVHeads, P, 64]. Outputs: logits float32 [1, S, Vocab] and
// present.L.key and .value [1, KVHeads, P+S, 64]. Weights come from seed
// 12, the same in every form.
func (c DecoderConfig) Decoder(f Form) []byte {
	name := "decoder_" + f.String()
	nbits := f == Contrib4Bit
	if nbits {
		f = Contrib
	}
	r := Rand(12)
	d, h, kvh := int64(c.Hidden), int64(c.Heads), int64(c.KVHeads)
	hd := d / h
	b := &tb{}
	const eps = 1e-6
	// Rotary tables [MaxPos, hd/2].
	cos, sin := make([]float32, c.MaxPos*int(hd/2)), make([]float32, c.MaxPos*int(hd/2))
	for p := range c.MaxPos {
		for i := range int(hd / 2) {
			th := float64(p) / math.Pow(10000, float64(2*i)/float64(hd))
			cos[p*int(hd/2)+i], sin[p*int(hd/2)+i] = float32(math.Cos(th)), float32(math.Sin(th))
		}
	}
	cosC := b.add(onnxbuild.TensorOf("cos_cache", []int64{int64(c.MaxPos), hd / 2}, cos))
	sinC := b.add(onnxbuild.TensorOf("sin_cache", []int64{int64(c.MaxPos), hd / 2}, sin))
	emb := b.add(Weight(r, "embed", int64(c.Vocab), d))
	x := b.op("Gather", []string{emb, "input_ids"})

	// Shared pieces of each form.
	var mask, cosB, sinB, seqlens, total string
	switch f {
	case Basic, Standard:
		// mask[0, 0, i, j] = j <= position_ids[i]: the causal mask over
		// the cache and the new tokens.
		t := b.op("Gather", []string{b.op("Shape", []string{DecoderPast(0, 0)}), b.add(onnxbuild.Scalar("two", int64(2)))})
		s := b.op("Gather", []string{b.op("Shape", []string{"input_ids"}), b.add(onnxbuild.Scalar("one_i", int64(1)))})
		tot := b.op("Add", []string{t, s})
		kpos := b.op("Range", []string{b.add(onnxbuild.Scalar("zero_i", int64(0))), tot, b.add(onnxbuild.Scalar("step_i", int64(1)))})
		qpos := b.op("Unsqueeze", []string{"position_ids", b.ints("axes_m1", -1)})
		allowed := b.op("Unsqueeze", []string{b.op("LessOrEqual", []string{kpos, qpos}), b.ints("axes_1", 1)})
		if f == Standard {
			mask = allowed
		} else {
			mask = b.op("Where", []string{allowed, b.scalar("zero_f", 0), b.scalar("neg_inf", float32(math.Inf(-1)))})
			// cos and sin at the positions, [1, 1, S, hd].
			half := func(cache string) string {
				g := b.op("Gather", []string{cache, "position_ids"})
				return b.op("Unsqueeze", []string{b.op("Concat", []string{g, g}, onnxbuild.AInt("axis", -1)), b.ints("axes_1b", 1)})
			}
			cosB, sinB = half(cosC), half(sinC)
		}
	case Contrib:
		t := b.op("Gather", []string{b.op("Shape", []string{DecoderPast(0, 0)}), b.add(onnxbuild.Scalar("two", int64(2)))})
		s := b.op("Gather", []string{b.op("Shape", []string{"input_ids"}), b.add(onnxbuild.Scalar("one_i", int64(1)))})
		tot64 := b.op("Add", []string{t, s})
		total = b.op("Cast", []string{tot64}, onnxbuild.AInt("to", int64(payload.Int32)))
		seqlens = b.op("Reshape", []string{b.op("Sub", []string{total, b.add(onnxbuild.Scalar("one_i32", int32(1)))}), b.ints("shape_1", 1)})
	}
	perm := func(p ...int64) onnxbuild.Attr { return onnxbuild.AInts("perm", p...) }
	rmsBasic := func(v, g string) string {
		ms := b.op("ReduceMean", []string{b.op("Pow", []string{v, b.scalar("two_f", 2)})}, onnxbuild.AInts("axes", -1))
		den := b.op("Sqrt", []string{b.op("Add", []string{ms, b.scalar("eps", eps)})})
		return b.op("Mul", []string{b.op("Div", []string{v, den}), g})
	}
	// rope rotates heads [1, n, S, hd] (basic form).
	rope := func(v string) string {
		x1 := b.op("Slice", []string{v, b.ints("rs0", 0), b.ints("rs1", hd/2), b.ints("rsa", -1)})
		x2 := b.op("Slice", []string{v, b.ints("rs1", hd/2), b.ints("rs2", hd), b.ints("rsa", -1)})
		rot := b.op("Concat", []string{b.op("Neg", []string{x2}), x1}, onnxbuild.AInt("axis", -1))
		return b.op("Add", []string{b.op("Mul", []string{v, cosB}), b.op("Mul", []string{rot, sinB})})
	}
	var res string // the residual sum after the previous MLP (contrib)
	var outs []onnxbuild.Value
	var ins []onnxbuild.Value
	for l := range c.Layers {
		p := "l" + strconv.Itoa(l) + "_"
		wq, wk, wv, wo := b.weight(Weight(r, p+"wq", d, d), nbits), b.weight(Weight(r, p+"wk", d, kvh*hd), nbits), b.weight(Weight(r, p+"wv", d, kvh*hd), nbits), b.weight(Weight(r, p+"wo", d, d), nbits)
		wg, wu, wd := b.weight(Weight(r, p+"wg", d, int64(c.FFN)), nbits), b.weight(Weight(r, p+"wu", d, int64(c.FFN)), nbits), b.weight(Weight(r, p+"wd", int64(c.FFN), d), nbits)
		g1 := b.add(onnxbuild.TensorOf(p+"g1", []int64{d}, plusOne(Uniform(r, c.Hidden, 0.2))))
		g2 := b.add(onnxbuild.TensorOf(p+"g2", []int64{d}, plusOne(Uniform(r, c.Hidden, 0.2))))
		pk, pv := DecoderPast(l, 0), DecoderPast(l, 1)
		ins = append(ins,
			onnxbuild.Value{Name: pk, DType: payload.Float32, Shape: []int64{1, kvh, -1, hd}, DimParams: []string{"", "", "past", ""}},
			onnxbuild.Value{Name: pv, DType: payload.Float32, Shape: []int64{1, kvh, -1, hd}, DimParams: []string{"", "", "past", ""}})
		var n1, h1 string
		switch f {
		case Contrib:
			if l == 0 {
				n1 = b.op("SimplifiedLayerNormalization", []string{x, g1}, onnxbuild.AInt("axis", -1), onnxbuild.AFloat("epsilon", eps))
				res = x
			} else {
				o := b.ms("SkipSimplifiedLayerNormalization", []string{x, res, g1}, 4, onnxbuild.AFloat("epsilon", eps))
				n1, res = o[0], o[3]
				b.nodes[len(b.nodes)-1].Outputs[1], b.nodes[len(b.nodes)-1].Outputs[2] = "", ""
			}
		case Standard:
			n1 = b.op("RMSNormalization", []string{x, g1}, onnxbuild.AInt("axis", -1), onnxbuild.AFloat("epsilon", eps))
			res = x
		case Basic:
			n1 = rmsBasic(x, g1)
			res = x
		}
		q := b.mm(n1, wq)
		k := b.mm(n1, wk)
		v := b.mm(n1, wv)
		var att, prK, prV string
		switch f {
		case Contrib:
			o := b.ms("GroupQueryAttention", []string{q, k, v, pk, pv, seqlens, total, cosC, sinC}, 3,
				onnxbuild.AInt("num_heads", h), onnxbuild.AInt("kv_num_heads", kvh), onnxbuild.AInt("do_rotary", 1))
			att, prK, prV = o[0], o[1], o[2]
		case Standard:
			rq := b.op("RotaryEmbedding", []string{q, cosC, sinC, "position_ids"}, onnxbuild.AInt("num_heads", h))
			rk := b.op("RotaryEmbedding", []string{k, cosC, sinC, "position_ids"}, onnxbuild.AInt("num_heads", kvh))
			b.n++
			nm := "Attention_" + strconv.Itoa(b.n)
			att, prK, prV = nm+"_0", nm+"_1", nm+"_2"
			b.nodes = append(b.nodes, onnxbuild.Node{Name: nm, Op: "Attention", Inputs: []string{rq, rk, v, mask, pk, pv}, Outputs: []string{att, prK, prV},
				Attrs: []onnxbuild.Attr{onnxbuild.AInt("q_num_heads", h), onnxbuild.AInt("kv_num_heads", kvh)}})
		case Basic:
			qh := rope(b.op("Transpose", []string{b.op("Reshape", []string{q, b.ints("qshape", 1, -1, h, hd)})}, perm(0, 2, 1, 3)))
			kh := rope(b.op("Transpose", []string{b.op("Reshape", []string{k, b.ints("kshape", 1, -1, kvh, hd)})}, perm(0, 2, 1, 3)))
			vh := b.op("Transpose", []string{b.op("Reshape", []string{v, b.ints("kshape", 1, -1, kvh, hd)})}, perm(0, 2, 1, 3))
			prK = b.op("Concat", []string{pk, kh}, onnxbuild.AInt("axis", 2))
			prV = b.op("Concat", []string{pv, vh}, onnxbuild.AInt("axis", 2))
			// Repeat each key/value head for its group of query heads, as
			// tracing exporters write Hugging Face's repeat_kv: the Expand
			// shape and the Reshape dims built from the cache's shape.
			rep := func(t string) string {
				sh := b.op("Shape", []string{t})
				at := func(i int64) string {
					return b.op("Gather", []string{sh, b.add(onnxbuild.Scalar("dim_"+strconv.FormatInt(i, 10), i))})
				}
				vec := func(x string) string { return b.op("Unsqueeze", []string{x, b.ints("axes_0", 0)}) }
				bd, kd, td, dd := vec(at(0)), vec(at(1)), vec(at(2)), vec(at(3))
				u := b.op("Unsqueeze", []string{t, b.ints("axes_2", 2)})
				e := b.op("Expand", []string{u, b.op("Concat", []string{bd, kd, b.ints("n_rep", h/kvh), td, dd}, onnxbuild.AInt("axis", 0))})
				heads := vec(b.op("Mul", []string{at(1), b.add(onnxbuild.Scalar("n_rep_s", h/kvh))}))
				return b.op("Reshape", []string{e, b.op("Concat", []string{bd, heads, td, dd}, onnxbuild.AInt("axis", 0))})
			}
			sc := b.op("Mul", []string{b.op("MatMul", []string{qh, b.op("Transpose", []string{rep(prK)}, perm(0, 1, 3, 2))}), b.scalar("scale", float32(1/math.Sqrt(float64(hd))))})
			pr := b.op("Softmax", []string{b.op("Add", []string{sc, mask})}, onnxbuild.AInt("axis", -1))
			ctx := b.op("Transpose", []string{b.op("MatMul", []string{pr, rep(prV)})}, perm(0, 2, 1, 3))
			att = b.op("Reshape", []string{ctx, b.ints("flat", 1, -1, d)})
		}
		b.rename(prK, DecoderPresent(l, 0))
		b.rename(prV, DecoderPresent(l, 1))
		outs = append(outs,
			onnxbuild.Value{Name: DecoderPresent(l, 0), DType: payload.Float32, Shape: []int64{1, kvh, -1, hd}, DimParams: []string{"", "", "total", ""}},
			onnxbuild.Value{Name: DecoderPresent(l, 1), DType: payload.Float32, Shape: []int64{1, kvh, -1, hd}, DimParams: []string{"", "", "total", ""}})
		o := b.mm(att, wo)
		if f == Contrib {
			so := b.ms("SkipSimplifiedLayerNormalization", []string{o, res, g2}, 4, onnxbuild.AFloat("epsilon", eps))
			h1, res = so[0], so[3]
			b.nodes[len(b.nodes)-1].Outputs[1], b.nodes[len(b.nodes)-1].Outputs[2] = "", ""
		} else {
			res = b.op("Add", []string{res, o})
			if f == Standard {
				h1 = b.op("RMSNormalization", []string{res, g2}, onnxbuild.AInt("axis", -1), onnxbuild.AFloat("epsilon", eps))
			} else {
				h1 = rmsBasic(res, g2)
			}
		}
		gate := b.mm(h1, wg)
		silu := b.op("Mul", []string{gate, b.op("Sigmoid", []string{gate})})
		mlp := b.mm(b.op("Mul", []string{silu, b.mm(h1, wu)}), wd)
		if f == Contrib {
			x = mlp
		} else {
			x = b.op("Add", []string{res, mlp})
		}
	}
	gf := b.add(onnxbuild.TensorOf("final_g", []int64{d}, plusOne(Uniform(r, c.Hidden, 0.2))))
	var hf string
	switch f {
	case Contrib:
		so := b.ms("SkipSimplifiedLayerNormalization", []string{x, res, gf}, 1, onnxbuild.AFloat("epsilon", eps))
		hf = so[0]
	case Standard:
		hf = b.op("RMSNormalization", []string{x, gf}, onnxbuild.AInt("axis", -1), onnxbuild.AFloat("epsilon", eps))
	default:
		hf = rmsBasic(x, gf)
	}
	b.mm(hf, b.weight(Weight(r, "lm_head", d, int64(c.Vocab)), nbits))
	b.named("logits")
	g := onnxbuild.Graph{
		Name: name,
		Inputs: append([]onnxbuild.Value{
			{Name: "input_ids", DType: payload.Int64, Shape: []int64{1, -1}, DimParams: []string{"", "seq"}},
			{Name: "position_ids", DType: payload.Int64, Shape: []int64{1, -1}, DimParams: []string{"", "seq"}},
		}, ins...),
		Outputs:      append([]onnxbuild.Value{{Name: "logits", DType: payload.Float32, Shape: []int64{1, -1, int64(c.Vocab)}, DimParams: []string{"", "seq", ""}}}, outs...),
		Initializers: dedupe(b.init),
		Nodes:        b.nodes,
	}
	return encodeForm(f, g)
}

// plusOne adds 1 to every value: norm gains near 1.
func plusOne(v []float32) []float32 {
	for i := range v {
		v[i]++
	}
	return v
}

// dedupe drops initializers whose name an earlier one has (shared
// constants such as axes added once per use).
func dedupe(ts []onnxbuild.Tensor) []onnxbuild.Tensor {
	seen := map[string]bool{}
	out := ts[:0]
	for _, t := range ts {
		if !seen[t.Name] {
			seen[t.Name] = true
			out = append(out, t)
		}
	}
	return out
}
