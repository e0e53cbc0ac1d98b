# bridge-recipes.awk: data/megatron/megatron-bridge-*/recipes.tsv to the C
# table of what each Megatron-Bridge recipe sets (struct bridge_recipe in
# bridge.h), one array per Bridge version.  Columns are found by their
# header name, so a table with more or reordered columns still reads.
#
#	awk -v var=bridge_recipes_0_6_0 -f bridge-recipes.awk recipes.tsv
#
# "None" and empty cells are "not set": 0 for numbers, NULL for strings,
# TRI_UNSET for booleans.

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

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	printf "const struct bridge_recipe %s[] = {\n", var
	next
}

{
	partial = col("method") ~ /partial/ ? "true" : "false"
	nested = col("model_nested") ~ /^yes/ ? "true" : "false"
	printf "\t{ %s, %s, %s, %s, %s,\n", str(col("recipe")),
	    str(col("kind")), partial, nested, str(col("hf_model"))
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
	printf "\t  %s },\n", str(col("env_vars"))
}

END {
	if (bad)
		exit 1
	print "\t{ NULL }"
	print "};"
}
