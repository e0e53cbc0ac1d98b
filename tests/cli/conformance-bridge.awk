# conformance-bridge.awk: does Megatron-Bridge's run_recipe.py accept these
# arguments?  Checked against the fact tables of one Bridge version
# (data/megatron/megatron-bridge-*/, read off its own code):
#
#	awk -f conformance-bridge.awk recipes.tsv config-fields.tsv \
#	    run_recipe.tsv recipe-rules.tsv WORDS
#
# WORDS holds the program's arguments one a line, as bash would pass
# them: "--recipe" NAME, "--dataset" NAME, then KEY=VALUE overrides.
# Every problem is printed as "bad: ..."; nothing is printed when all
# hold.  What is checked, as Bridge applies overrides (a strict OmegaConf
# tree, Hydra's parser): the recipe and dataset exist; each key exists
# for the recipe's model class (main's nested models under
# model.transformer); no key is under a section the recipe leaves None
# (comm_overlap) or has made a string (mixed_precision), and a None
# section is set whole as a {_target_:...} object; each value has its
# field's type; a count Megatron-Core wants None for "none" is null, not 0
# (num_moe_experts), and a MoE recipe's model made dense loses what
# TransformerConfig refuses without experts (the expert width, EP > 1);
# no --dataset with a recipe run_recipe.py runs as a benchmark recipe.

BEGIN {
	FS = "\t"
}

FILENAME == ARGV[1] && FNR == 1 {
	for (i = 1; i <= NF; i++)
		rc[$i] = i
	next
}
FILENAME == ARGV[1] {
	recipe[$1] = 1
	r_class[$1] = $(rc["model_class"])
	r_nested[$1] = $(rc["model_nested"]) ~ /^yes/
	r_overlap[$1] = $(rc["comm_overlap"])
	r_mp[$1] = $(rc["mixed_precision"])
	r_experts[$1] = $(rc["num_moe_experts"]) ~ /^[1-9]/
	r_ep[$1] = $(rc["ep"]) ~ /^[0-9]+$/ ? $(rc["ep"]) + 0 : 1
	r_bench[$1] = $(rc["kind"]) == "benchmark"
	next
}

FILENAME == ARGV[2] && FNR == 1 {
	next
}
FILENAME == ARGV[2] {
	# path, section_class, type, default, section_may_be_None
	key = $1 SUBSEP $2
	ftype[key] = $3
	fnone[$1] = $5
	paths[$1] = paths[$1] SUBSEP $2
	next
}

FILENAME == ARGV[3] && $1 == "cli-option" && $2 == "--dataset" {
	n = split($5, d, "|")
	for (i = 1; i <= n; i++)
		dataset[d[i]] = 1
	next
}
FILENAME == ARGV[3] && $1 == "mixed-precision-preset" {
	preset[$2] = 1
	preset[$3] = 1
	next
}
FILENAME == ARGV[3] {
	next
}

# recipe-rules.tsv: the library names run as benchmark recipes; where
# recipes save checkpoints.
FILENAME == ARGV[4] && $1 == "benchmark" && $2 ~ /^recipe:/ {
	r_bench[substr($2, 8)] = 1
	next
}
FILENAME == ARGV[4] && $1 == "checkpoint" {
	ckpt[$2] = $3
	next
}
FILENAME == ARGV[4] {
	next
}

# The program's words.
FNR == 1 {
	next			# run_recipe.py itself
}
prev == "--recipe" {
	name = $0
	if (!(name in recipe))
		bad("recipe '" name "' does not exist")
	mp_state = r_mp[name] == "custom" ? "object" : "string"
	co_state = r_overlap[name] == "set" ? "set" : "none"
	prev = ""
	next
}
prev == "--dataset" {
	if (!($0 in dataset))
		bad("--dataset '" $0 "' is not a choice")
	has_dataset = 1
	prev = ""
	next
}
$0 == "--recipe" || $0 == "--dataset" {
	prev = $0
	next
}
/^-/ {
	bad("option '" $0 "' is not checked here")
	next
}
{
	override($0)
}

END {
	if (name == "")
		bad("no --recipe")
	# recipe_metadata.py (0.6.0 227, main 252):
	# validate_benchmark_recipe_scope.
	if (has_dataset && r_bench[name])
		bad("--dataset with " name ", which run_recipe.py runs as a " \
		    "benchmark recipe")
	# transformer_config.py (core pins of 0.5.1 / 0.6.0 / main):
	# 1396 / 1538 / 1590 and 1326 / 1468 / 1500.
	if (dense && r_experts[name] && value["moe_ffn_hidden_size"] != "null")
		bad("a MoE recipe's model made dense keeps its " \
		    "moe_ffn_hidden_size")
	if (dense && r_ep[name] > 1 && value["expert_model_parallel_size"] != 1)
		bad("a MoE recipe's model made dense keeps its EP " r_ep[name])
	# A run whose exit handler saves at the signal saves somewhere: the
	# checkpoint.save given, or the recipe's own (recipe-rules.tsv).
	if (given["train.exit_signal_handler"] == "true" &&
	    (given["checkpoint.save"] == "" ||
	    given["checkpoint.save"] == "null") && !recipe_saves(name))
		bad("the exit handler saves nothing: no checkpoint.save, and " \
		    name " saves none of its own")
	exit nbad != 0
}

function recipe_saves(r,    v) {
	v = ("recipe:" r) in ckpt ? ckpt["recipe:" r] :
	    ckpt[r_bench[r] ? "benchmark" : "library"]
	return v != "" && v != "none"
}

function bad(msg) {
	print "bad: " msg
	nbad++
}

# The classes a key may belong to, for the recipe's model.
function class_ok(path, cls) {
	if (path !~ /^model\./)
		return 1
	if (r_nested[name])
		return cls ~ /^BridgeGPTModelConfig/
	return cls == "GPTModelProvider" || index(cls, r_class[name] " (") == 1
}

# The type of PATH for this recipe, or "" when it has no such field.
function field_type(path,    n, c, i, cls) {
	if (!(path in paths))
		return ""
	n = split(paths[path], c, SUBSEP)
	for (i = 2; i <= n; i++)
		if (class_ok(path, c[i]))
			return ftype[path SUBSEP c[i]]
	return ""
}

function is_int(v) {
	return v ~ /^-?[0-9]+$/
}

function is_num(v) {
	return v ~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/
}

# Does value V fit type T?
function type_ok(t, v,    opt, lits, n, i, l) {
	opt = t ~ /^Optional\[/ || t ~ /\| None$/ || t ~ /NoneType\]$/
	if (v == "null")
		return opt
	if (sub(/^Optional\[/, "", t))
		sub(/\]$/, "", t)
	sub(/ \| None$/, "", t)
	if (t == "int" || t == "Signals")
		return is_int(v)
	if (t == "float")
		return is_num(v)
	if (t == "bool")
		return v == "true" || v == "false"
	if (t == "dtype" || t == "torch.dtype")
		return v ~ /^(fp32|bf16|fp16|float32|bfloat16|float16)$/
	if (t == "str")
		return 1
	if (t ~ /^Literal\[/) {
		lits = substr(t, 9, length(t) - 9)
		n = split(lits, l, /, */)
		for (i = 1; i <= n; i++) {
			gsub(/'/, "", l[i])
			if (l[i] == v)
				return 1
		}
		return 0
	}
	return -1		# a type this checker does not know
}

function check_value(path, t, v,    ok) {
	ok = type_ok(t, v)
	if (ok == 0)
		bad(path "=" v ": not a " t)
	else if (ok < 0)
		bad(path "=" v ": type " t " is unknown to this test")
}

# A whole CommOverlapConfig for a None section.
function overlap_object(v,    body, n, kv, i, k, val, seen_tp, head) {
	head = "{_target_:megatron.bridge.training.comm_overlap." \
	    "CommOverlapConfig"
	if (substr(v, 1, length(head)) != head ||
	    substr(v, length(v)) != "}") {
		bad("comm_overlap=" v ": not a CommOverlapConfig object")
		return
	}
	body = substr(v, 2, length(v) - 2)
	n = split(body, kv, ",")
	for (i = 2; i <= n; i++) {
		if (kv[i] !~ /^[a-z0-9_]+:[^:]+$/) {
			bad("comm_overlap object: '" kv[i] "' is not KEY:VALUE")
			continue
		}
		k = substr(kv[i], 1, index(kv[i], ":") - 1)
		val = substr(kv[i], index(kv[i], ":") + 1)
		if (k == "tp_comm_overlap")
			seen_tp = 1
		if (field_type("comm_overlap." k) == "")
			bad("comm_overlap object: no field '" k "'")
		else
			check_value("comm_overlap." k,
			    field_type("comm_overlap." k), val)
	}
	if (!seen_tp)
		bad("comm_overlap object without its required tp_comm_overlap")
}

function override(w,    eq, path, v, section, t, field) {
	eq = index(w, "=")
	if (eq < 2) {
		bad("'" w "' is not KEY=VALUE")
		return
	}
	path = substr(w, 1, eq - 1)
	v = substr(w, eq + 1)
	section = path
	sub(/\..*/, "", section)
	if (path == "mixed_precision") {
		if (v != "null" && !(v in preset))
			bad("mixed_precision=" v ": not a preset")
		mp_state = v == "null" ? "none" : "string"
		return
	}
	if (path == "comm_overlap") {
		if (co_state == "set")
			bad("comm_overlap=" v ": the recipe's section is set: " \
			    "write its fields")
		else
			overlap_object(v)
		co_state = "set"
		return
	}
	t = field_type(path)
	if (t == "") {
		bad("no override path '" path "' for recipe " name)
		return
	}
	given[path] = v
	# The model's fields by name, whatever their prefix.
	field = path
	sub(/^model\.(transformer\.)?/, "", field)
	if (path ~ /^model\./)
		value[field] = v
	# transformer_config.py 1389 / 1531 / 1583: "num_moe_experts must
	# be non-negative" (it refuses 0); None is a dense model.
	if (field == "num_moe_experts" && v != "null" && v + 0 < 1)
		bad(path "=" v ": Megatron-Core refuses it; a dense model is null")
	if (field == "num_moe_experts" && path ~ /^model\./)
		dense = v == "null"
	if (section == "comm_overlap" && co_state != "set")
		bad(path ": the recipe leaves comm_overlap None")
	if (section == "mixed_precision" && mp_state != "object")
		bad(path ": mixed_precision is " mp_state ", not an object")
	check_value(path, t, v)
}
