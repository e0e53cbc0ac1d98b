# bridge-recipes.awk: data/megatron/megatron-bridge-*/recipes.tsv to the C
# table of what each Megatron-Bridge recipe sets (struct bridge_recipe in
# bridge.h), one array per Bridge version.  Columns are found by their
# header name, so a table with more or reordered columns still reads.
#
#	awk -v var=bridge_recipes_0_6_0 -f bridge-recipes.awk \
#	    recipe-rules.tsv recipes.tsv
#
# "None" and empty cells are "not set": 0 for numbers, NULL for strings,
# TRI_UNSET for booleans.
#
# recipe-rules.tsv (read off the same revision's source by hand, each row
# with its file:line) says what the values alone do not: which names
# run_recipe.py runs as benchmark recipes, which recipes save checkpoints,
# and whether a recipe's model ties its embeddings.  Its rows: "rule
# subject value source"; a subject is "recipe:NAME", "class:MODELCLASS",
# "hf:PREFIX" (a Hugging Face name's beginning; "*" any), "kind:KIND",
# "library" or "benchmark", "prefix:NAME" (recipes whose name begins so).
# Rule "model" names the Hugging Face model a recipe builds when it builds
# it from its own shapes (the table's hf_model is then empty).

BEGIN {
	FS = "\t"
	if (var == "") {
		print "bridge-recipes.awk: -v var=NAME is needed" > "/dev/stderr"
		exit 1
	}
}

function str(v) {
	if (v == "" || v == "None")
		return "NULL"
	gsub(/\\/, "\\\\", v)
	gsub(/"/, "\\\"", v)
	return "\"" v "\""
}

function num(v) {
	if (v == "" || v == "None")
		return "0"
	if (v !~ /^[0-9]+$/) {
		printf "bridge-recipes.awk: %s line %d: '%s' is not a number\n",
		    FILENAME, NR, v > "/dev/stderr"
		bad = 1
		return "0"
	}
	return v
}

function tri(v) {
	if (v == "true")
		return "TRI_ON"
	if (v == "false")
		return "TRI_OFF"
	return "TRI_UNSET"
}

function col(name) {
	if (!(name in c)) {
		printf "bridge-recipes.awk: %s: no column '%s'\n", FILENAME,
		    name > "/dev/stderr"
		bad = 1
		return ""
	}
	return $(c[name])
}

FILENAME == ARGV[1] {
	if (FNR > 1)
		rule[$1, $2] = $3
	next
}

FNR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	printf "const struct bridge_recipe %s[] = {\n", var
	next
}

# Does run_recipe.py run NAME (of KIND) as a benchmark recipe?
function benchmark(name, kind) {
	return kind == "benchmark" || (("benchmark", "recipe:" name) in rule)
}

# Does the recipe save checkpoints: its own rule, else its kind's.
function saves(name, bench,    v) {
	if (("checkpoint", "recipe:" name) in rule)
		v = rule["checkpoint", "recipe:" name]
	else
		v = rule["checkpoint", bench ? "benchmark" : "library"]
	return v != "" && v != "none" ? "true" : "false"
}

# Whether the recipe's model ties its embeddings: the recipe's own value;
# for a model built from a Hugging Face config, its family's bridge (the
# longest matching prefix) or that config (not known here); else the
# model class's default.
function tie(name, class, hf,    k, best, v, subject) {
	if (("tie", "recipe:" name) in rule)
		v = rule["tie", "recipe:" name]
	else if (hf != "" && hf != "None") {
		for (k in rule) {
			split(k, subject, SUBSEP)
			if (subject[1] != "tie" || subject[2] !~ /^hf:/ ||
			    subject[2] == "hf:*")
				continue
			if (index(hf, substr(subject[2], 4)) == 1 &&
			    length(subject[2]) > length(best))
				best = subject[2]
		}
		v = best != "" ? rule["tie", best] : ""
	} else
		v = rule["tie", "class:" class]
	return tri(v)
}

# The Hugging Face model of the recipe: the table's, else a "model" rule
# of a prefix of its name.
function model(name, hf,    k, subject) {
	if (hf != "" && hf != "None")
		return hf
	for (k in rule) {
		split(k, subject, SUBSEP)
		if (subject[1] == "model" && subject[2] ~ /^prefix:/ &&
		    index(name, substr(subject[2], 8)) == 1)
			return rule[k]
	}
	return hf
}

{
	partial = col("method") ~ /partial/ ? "true" : "false"
	nested = col("model_nested") ~ /^yes/ ? "true" : "false"
	printf "\t{ %s, %s, %s, %s, %s,\n", str(col("recipe")),
	    str(col("kind")), partial, nested,
	    str(model(col("recipe"), col("hf_model")))
	printf "\t  { %s, %s, %s, %s, %s, %s }, %s,\n", num(col("tp")),
	    num(col("pp")), num(col("cp")), num(col("ep")), num(col("etp")),
	    num(col("vpp")), tri(col("sp"))
	printf "\t  %s, %s, %s, %s,\n", num(col("model_seq_length")),
	    num(col("dataset_seq_length")), num(col("gbs")), num(col("mbs"))
	layout = col("pipeline_layout")
	layout = layout != "" && layout != "None" ? "true" : "false"
	printf "\t  %s, %s, %s, %s, %s,\n", num(col("first_stage_layers")),
	    num(col("last_stage_layers")), layout,
	    tri(col("account_for_embedding")),
	    tri(col("account_for_loss"))
	printf "\t  %s, %s, %s, %s,\n", str(col("recompute_granularity")),
	    str(col("recompute_method")), num(col("recompute_num_layers")),
	    str(col("recompute_modules"))
	printf "\t  %s, %s, %s,\n", str(col("mixed_precision")),
	    str(col("mixed_precision_detail")),
	    tri(col("mp_grad_reduce_in_fp32"))
	printf "\t  %s, %s, %s, %s, %s, %s,\n",
	    tri(col("use_distributed_optimizer")),
	    tri(col("precision_aware_optimizer")), str(col("exp_avg_dtype")),
	    str(col("exp_avg_sq_dtype")), str(col("main_grads_dtype")),
	    str(col("main_params_dtype"))
	printf "\t  %s, %s,\n", col("comm_overlap") == "set" ? "true" : "false",
	    str(col("comm_overlap_fields"))
	printf "\t  %s, %s, %s, %s, %s,\n",
	    str(col("moe_token_dispatcher_type")),
	    str(col("moe_flex_dispatcher_backend")),
	    num(col("num_moe_experts")), num(col("mtp_num_layers")),
	    tri(col("exit_signal_handler"))
	printf "\t  %s,\n", str(col("env_vars"))
	bench = benchmark(col("recipe"), col("kind"))
	printf "\t  %s, %s, %s },\n", bench ? "true" : "false",
	    saves(col("recipe"), bench),
	    tie(col("recipe"), col("model_class"), col("hf_model"))
}

END {
	if (bad)
		exit 1
	print "\t{ NULL }"
	print "};"
}
