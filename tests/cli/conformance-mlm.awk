# conformance-mlm.awk: does Megatron-LM's pretrain_gpt.py parser accept
# these arguments, and how many parameters has the model they describe?
#
#	awk -f conformance-mlm.awk flags.tsv WORDS
#
# flags.tsv is data/megatron/megatron-lm-*/flags.tsv (read off the parser
# argparse really builds); WORDS holds the program's arguments one a line.
# Every problem is printed as "bad: ..."; then "params N", "mtp N" and
# "exact N": the parameter count of the GPT model the flags describe,
# without and of its MTP block, and the first without the vocabulary's
# padding, computed here from the flags alone with Megatron-Core's
# module shapes (embedding padded to 128·TP, untied output layer,
# RMSNorm weights, SwiGLU or quick-GeGLU fc1 of 2F, GQA or MLA attention
# with its latent and qk norms, routed and shared experts with the
# router, dense first layers, MTP layers as enorm + hnorm + eh_proj + the
# last layer + norm).  Without --disable-bias-linear every linear has a
# bias (add_bias_linear: linear_qkv, linear_proj, fc1, fc2 of each
# expert, the router: megatron/core/transformer/moe/router.py:67), and
# --softmax-type learnable adds one sink logit per head and layer
# (core_attention.softmax_offset, dot_product_attention.py:126).

BEGIN {
	FS = "\t"
}

FILENAME == ARGV[1] && FNR == 1 {
	next
}
FILENAME == ARGV[1] {
	n = split($1, names, "  ")
	for (i = 1; i <= n; i++) {
		action[names[i]] = $3
		vtype[names[i]] = $4
		choices[names[i]] = $5
		deprecated[names[i]] = $9
	}
	next
}

FNR == 1 {
	prog = $0		# pretrain_gpt.py or pretrain_hybrid.py
	next
}
want != "" {
	value($0)
	next
}
/^--/ {
	flag($0)
	next
}
{
	bad("'" $0 "' is not a flag or a flag's value")
}

END {
	if (want != "")
		bad(want ": no value")
	if ("--hybrid-layer-pattern" in val)
		hybrid_count()
	else
		count()
	exit nbad != 0
}

function bad(msg) {
	print "bad: " msg
	nbad++
}

function flag(f) {
	if (!(f in action)) {
		bad("unknown flag " f)
		return
	}
	if (deprecated[f] == "yes")
		bad("deprecated flag " f)
	set[f] = 1
	if (action[f] == "Store" || action[f] == "Append")
		want = f
}

function value(v,    n, c, i, found) {
	f = want
	want = ""
	val[f] = v
	if (choices[f] != "" && vtype[f] != "enum_type_handler") {
		n = split(choices[f], c, "|")
		for (i = 1; i <= n; i++)
			if (c[i] == v)
				found = 1
		if (!found)
			bad(f " " v ": not one of " choices[f])
	}
	if (vtype[f] == "int" && v !~ /^-?[0-9]+$/)
		bad(f " " v ": not an int")
	if (vtype[f] == "float" &&
	    v !~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/)
		bad(f " " v ": not a float")
	# A signal's name: enum_type_handler looks it up (a number fails).
	if (vtype[f] == "enum_type_handler" && v !~ /^SIG[A-Z0-9]+$/)
		bad(f " " v ": not a signal name")
	# moe_freq_type: digits and [ ] ( ) + * , only, no spaces.
	if (vtype[f] == "moe_freq_type" && v !~ /^[][0-9()+*,]+$/)
		bad(f " " v ": not a layer pattern")
}

function num(f, d) {
	return (f in val) ? val[f] + 0 : d
}

# Count the 0s and 1s of a "[0]*K+[1]*M" pattern: sets dense_layers.
function pattern(p, L,    n, parts, i, k, m) {
	dense_layers = 0
	moe_layers = 0
	gsub(/[()]/, "", p)
	n = split(p, parts, "+")
	for (i = 1; i <= n; i++) {
		if (parts[i] ~ /^\[0\]\*[0-9]+$/)
			dense_layers += substr(parts[i], 5) + 0
		else if (parts[i] ~ /^\[1\]\*[0-9]+$/)
			moe_layers += substr(parts[i], 5) + 0
		else
			bad("--moe-layer-freq part '" parts[i] "' not counted")
	}
	if (dense_layers + moe_layers != L)
		bad("--moe-layer-freq covers " dense_layers + moe_layers \
		    " layers, not " L)
}

function attention(h,    nq, ng, d, rq, rkv, dn, dr, dv, p) {
	nq = num("--num-attention-heads")
	if ("--multi-latent-attention" in set) {
		rq = num("--q-lora-rank", 0)
		rkv = num("--kv-lora-rank", 32)
		dn = num("--qk-head-dim", 128)
		dr = num("--qk-pos-emb-head-dim", 64)
		dv = num("--v-head-dim", 128)
		p = h
		if (rq != 0)
			p += h * rq + rq * nq * (dn + dr)
		else
			p += h * nq * (dn + dr)
		p += h * (rkv + dr) + rkv * nq * (dn + dv) + nq * dv * h
		if ("--qk-layernorm" in set)
			p += rkv + (rq != 0 ? rq : 0)
		return p
	}
	ng = ("--group-query-attention" in set) ? num("--num-query-groups") : nq
	d = num("--kv-channels", h / nq)
	p = h + h * (nq + 2 * ng) * d + nq * d * h
	if (("--add-qkv-bias" in set) || bias)
		p += (nq + 2 * ng) * d
	if (bias)
		p += h
	if (val["--softmax-type"] == "learnable")
		p += nq
	if ("--qk-layernorm" in set)
		p += 2 * d
	return p
}

function count(    h, L, F, E, Fm, S, V, tp, m, vpad, attn, dense, moe,
    last, total, mtp, gated) {
	h = num("--hidden-size")
	L = num("--num-layers")
	F = num("--ffn-hidden-size", 4 * h)
	E = num("--num-experts", 0)
	Fm = num("--moe-ffn-hidden-size", F)
	S = num("--moe-shared-expert-intermediate-size", 0)
	V = num("--vocab-size", 0)
	tp = num("--tensor-model-parallel-size", 1)
	if (V == 0 || h == 0 || L == 0) {
		print "params 0"
		print "mtp 0"
		print "exact 0"
		return
	}
	if (!("--swiglu" in set) && !("--quick-geglu" in set))
		bad("no --swiglu or --quick-geglu: a GELU model")
	bias = !("--disable-bias-linear" in set)
	if (val["--normalization"] != "RMSNorm")
		bad("not RMSNorm")
	if (val["--position-embedding-type"] != "rope" &&
	    val["--position-embedding-type"] != "yarn")
		bad("not RoPE or YaRN")
	gated = 3
	m = num("--make-vocab-size-divisible-by", 128) * tp
	vpad = int((V + m - 1) / m) * m
	attn = attention(h)
	dense = h + gated * h * F + (bias ? 2 * F + h : 0)
	moe = h + E * h + E * gated * h * Fm + gated * h * S
	if (bias)
		moe += E + E * (2 * Fm + h) + (S != 0 ? 2 * S + h : 0)
	dense_layers = E == 0 ? L : 0
	if (E != 0 && ("--moe-layer-freq" in val))
		pattern(val["--moe-layer-freq"], L)
	total = vpad * h * (("--untie-embeddings-and-output-weights" in set) ? \
	    2 : 1) + L * attn + dense_layers * dense + \
	    (L - dense_layers) * (E != 0 ? moe : 0) + h
	last = attn + (E != 0 ? moe : dense)
	mtp = num("--mtp-num-layers", 0) * (3 * h + 2 * h * h + last)
	printf "params %.0f\n", total
	printf "mtp %.0f\n", mtp
	# The same without the vocabulary's padding: a preset's exact count.
	printf "exact %.0f\n", total - (vpad - V) * h * \
	    (("--untie-embeddings-and-output-weights" in set) ? 2 : 1)
}

# A hybrid model (--hybrid-layer-pattern), as pretrain_hybrid.py builds
# it (megatron/core/models/hybrid/hybrid_layer_specs.py core_v0.19.0:99,
# 129, 203, 212): per M layer the norm fused in in_proj, in_proj
# h x (2 di + 2 G N + H), the conv over x, B, C (width 4, with bias),
# dt_bias, A_log and D per head, the gated norm di, out_proj di x h
# (megatron/core/ssm/mamba_mixer.py:280-430); per * layer the norm and
# GQA; per - layer norm, fc1 (2F gated) and fc2; per E layer the
# pre-MLP norm, router, latent projections h x lat twice
# (moe_layer.py:273-296), experts on lat (or h), shared experts on h;
# the final norm, embedding and output layer.  pretrain_gpt.py would
# build a GPTModel of num_layers layers instead: refused.
function hybrid_count(    h, p, n, i, c, nM, nA, nD, nE, H, P, G, N, di,
    a, ng, d, F, E, Fm, S, lat, dm, V, tp, m, vpad, g, M, A, D, X, total,
    untie, depths, parts, mp, mtp) {
	if (prog !~ /pretrain_hybrid\.py$/)
		bad("a hybrid layer pattern for " prog ", not pretrain_hybrid.py")
	p = val["--hybrid-layer-pattern"]
	gsub(/'/, "", p)
	# main/mtp/mtp...: the layers before the first '/' (Megatron's
	# get_hybrid_total_layer_count()), then the MTP depths.
	depths = split(p, parts, "/") - 1
	p = parts[1]
	mp = depths > 0 ? parts[2] : ""
	for (i = 2; i <= depths + 1; i++)
		if (parts[i] != mp)
			bad("MTP depths of different patterns: " mp ", " parts[i])
	n = length(p)
	for (i = 1; i <= n; i++) {
		c = substr(p, i, 1)
		if (c == "M") nM++
		else if (c == "*") nA++
		else if (c == "-") nD++
		else if (c == "E") nE++
		else if (c != "|")
			bad("hybrid layer symbol '" c "' not counted")
	}
	if (num("--num-layers", nM + nA + nD + nE) != nM + nA + nD + nE)
		bad("--num-layers is not the pattern's layer count")
	if ("--num-virtual-stages-per-pipeline-rank" in set ||
	    "--num-layers-per-virtual-pipeline-stage" in set)
		bad("a VPP flag with --hybrid-layer-pattern")
	h = num("--hidden-size")
	H = num("--mamba-num-heads", 0)
	P = num("--mamba-head-dim", 64)
	G = num("--mamba-num-groups", 8)
	N = num("--mamba-state-dim", 128)
	di = H != 0 ? H * P : 2 * h
	if (H == 0)
		H = di / P
	a = num("--num-attention-heads")
	ng = ("--group-query-attention" in set) ? num("--num-query-groups") : a
	d = num("--kv-channels", h / a)
	F = num("--ffn-hidden-size", 4 * h)
	E = num("--num-experts", 0)
	Fm = num("--moe-ffn-hidden-size", F)
	S = num("--moe-shared-expert-intermediate-size", 0)
	lat = num("--moe-latent-size", 0)
	dm = lat != 0 ? lat : h
	V = num("--vocab-size", 0)
	tp = num("--tensor-model-parallel-size", 1)
	if (!("--disable-bias-linear" in set))
		bad("linear biases in a hybrid model: not counted")
	g = ("--swiglu" in set) ? 2 : 1
	if (!("--swiglu" in set) && !("--squared-relu" in set))
		bad("no --squared-relu or --swiglu: a GELU model")
	if (V == 0 || h == 0) {
		print "params 0"
		print "mtp 0"
		print "exact 0"
		return
	}
	m = num("--make-vocab-size-divisible-by", 128) * tp
	vpad = int((V + m - 1) / m) * m
	M = h + h * (2 * di + 2 * G * N + H) + (di + 2 * G * N) * 5 + \
	    3 * H + di + di * h
	A = h + h * (a + 2 * ng) * d + a * d * h
	D = h + g * h * F + F * h
	X = h + E * h + (lat != 0 ? 2 * h * lat : 0) + \
	    E * (g * dm * Fm + Fm * dm) + g * h * S + S * h
	untie = ("--untie-embeddings-and-output-weights" in set) ? 2 : 1
	total = nM * M + nA * A + nD * D + nE * X + h + vpad * h * untie
	# Each MTP depth: its norms and projection, its pattern's layers
	# and its final norm (multi_token_prediction.py; the published
	# counts leave MTP out).
	mtp = 0
	for (i = 1; i <= length(mp); i++) {
		c = substr(mp, i, 1)
		mtp += c == "M" ? M : c == "*" ? A : c == "-" ? D : c == "E" ? X : 0
	}
	if (depths > 0)
		mtp = depths * (mtp + 3 * h + 2 * h * h)
	printf "params %.0f\n", total
	printf "mtp %.0f\n", mtp
	printf "exact %.0f\n", total - (vpad - V) * h * untie
}
