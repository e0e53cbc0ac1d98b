#!/usr/bin/env python3
# gen.py: writes the sample logs of this directory (run it here), each
# line formatted as the code of the pinned revisions formats it: Megatron-LM
# training_log and report_memory, its arguments dump and "using world
# size" line; Bridge's training_log (no microseconds), its memory line in
# GB, its "> initialized" lines and run_recipe's YAML; slurmstepd's and
# srun's error lines; torch's rank prefixes.  The .want files are
# mbsbatch's output, checked by hand when written (tests/cli/check-log.sh).
import math
R=[]
def dots(a): return '  {} {} {}'.format(a[0], '.'*(48-len(a[0])), a[1])
def mlm_args(d):
    out=['------------------------ arguments ------------------------']
    out += sorted([dots(kv) for kv in d], key=lambda x:x.lower())
    out.append('-------------------- end of arguments ---------------------')
    return out
def mlm_world(w,dp,cp,tp,pp):
    return ('using world size: {}, data-parallel size: {}, context-parallel size: {}, '
            'hierarchical context-parallel sizes: {}, tensor-model-parallel size: {}, '
            'pipeline-model-parallel size: {}').format(w,dp,cp,None,tp,pp)
def it_line(i,total,ms,loss,lr=1e-4,gbs=8,tf=None,skipped=0,nan=0,gn=3.2,bridge=False,sec=0,ls=1.0):
    if bridge:
        s=" [2026-12-02 10:%02d:%02d]"%(10+sec//60, sec%60)
    else:
        s=" [2026-12-02 10:%02d:%02d.%06d]"%(10+sec//60, sec%60, 123456)
    s+=' iteration {:8d}/{:8d} |'.format(i,total)
    s+=' consumed samples: {:12d} |'.format(i*gbs)
    s+=' elapsed time per iteration (ms): {:.1f} |'.format(ms)
    if tf is not None: s+=f' throughput per GPU (TFLOP/s/GPU): {tf:.1f} |'
    s+=f' learning rate: {lr:.6E} |'
    s+=f' global batch size: {gbs:5d} |'
    if loss is not None and loss >= 0.0: s+=' {}: {:.6E} |'.format('lm loss', loss)
    s+=f' loss scale: {ls:.1f} |'
    if gn is not None: s+=f' grad norm: {gn:.3f} |'
    s+=' number of skipped iterations: {:3d} |'.format(skipped)
    s+=' number of nan iterations: {:3d} |'.format(nan)
    return s
def mlm_mem(rank,it,a,ma,r,mr):
    return "[Rank {}] (after {} iterations) memory (MB) | allocated: {:.2f} | max allocated: {:.2f} | reserved: {:.2f} | max reserved: {:.2f}".format(rank,it,a,ma,r,mr)
def br_mem(rank,it,a,ma,r,mr):
    s="(after {} iterations) memory (GB)".format(it)
    for k,v in [("mem-allocated-gigabytes",a),("mem-active-gigabytes",a),("mem-inactive-gigabytes",0.31417),("mem-reserved-gigabytes",r),("mem-max-allocated-gigabytes",ma),("mem-max-active-gigabytes",ma),("mem-max-inactive-gigabytes",1.2034),("mem-max-reserved-gigabytes",mr),("mem-alloc-retires",0),("mem-allocated-count",1843)]:
        s+=" | {}: {}".format(k,v)
    return "[Rank {}] {}".format(rank,s)
def marker(w,n,tp,pp,vpp,cp,ep,etp,dp,edp):
    return f"mbsbatch: layout: world={w} nodes={n} tp={tp} pp={pp} vpp={vpp} cp={cp} ep={ep} etp={etp} dp={dp} edp={edp}"
def label(lines, rank):
    return [f"{rank}: {l}" for l in lines]
def write(name, lines, nl=True):
    with open(name,'w') as f:
        f.write('\n'.join(lines)+('\n' if nl else ''))

MLM_ARGS=lambda w,dp,tp,pp,cp=1,ep=1,etp=None,vpp=None: mlm_args([
 ('context_parallel_size',cp),('data_parallel_size',dp),('expert_model_parallel_size',ep),
 ('expert_tensor_parallel_size',etp if etp else tp),('pipeline_model_parallel_size',pp),
 ('tensor_model_parallel_size',tp),('virtual_pipeline_model_parallel_size',vpp),('world_size',w),
 ('train_iters',3),('micro_batch_size',1),('global_batch_size',8),('seq_length',4096),('sequence_parallel',True),
 ('num_layers',16),('hidden_size',2048),('lr',0.0001)])

start_mlm=['mbsbatch: smoke: iterations=3', marker(4,1,2,2,1,1,1,1,1,2),
 'using world size: 4, data-parallel size: 1, context-parallel size: 1, hierarchical context-parallel sizes: None, tensor-model-parallel size: 2, pipeline-model-parallel size: 2',
 'WARNING: Setting args.overlap_p2p_comm and args.align_param_gather to False since non-interleaved schedule does not support overlapping p2p communication and aligned param AG']+MLM_ARGS(4,1,2,2)+[
 'setting number of microbatches to constant 8',
 '> building GPT2BPETokenizer tokenizer ...',
 '> initializing torch distributed ...',
 '> initialized tensor model parallel with size 2',
 '> initialized pipeline model parallel with size 2',
 '> setting random seeds to 1234 ...',
 'time to initialize megatron (seconds): 12.345',
 '[after megatron is initialized] datetime: 2026-12-02 10:10:00',
 ' > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 349200384',
 'training ...',
 '[before the start of training step] datetime: 2026-12-02 10:10:05']
# 1. Megatron-LM success (core_v0.19.0 / main: same format)
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),
 'Number of parameters in transformer block in billions:  0.97',
 'Theoretical memory footprints: weight and optimizer=6656.51 MB, activation=4503.14 MB, total=11159.65 MB',
 mlm_mem(0,1,6543.21,9876.54,11200.00,11200.00), mlm_mem(1,1,6543.21,9880.12,11210.00,11210.00),
 mlm_mem(2,1,6012.00,8123.45,10100.00,10100.00), mlm_mem(3,1,6012.00,8123.45,10100.00,10100.00),
 it_line(2,3,812.4,10.21451,tf=116.8,sec=11), mlm_mem(0,2,6543.21,10234.50,12288.00,12288.00),
 it_line(3,3,790.6,10.03808,tf=120.1,sec=12),
 '[after training is done] datetime: 2026-12-02 10:10:13']
write('mlm-success.out', L)
SUCCESS=L
# 5. NaN in bf16: nothing skipped, the NaN goes into the sum, the average
# is not >= 0.0: no lm loss printed, "nan iterations" stays 0
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),
 it_line(2,3,812.4,float('nan'),tf=116.8,gn=None,sec=11),
 it_line(3,3,790.6,float('nan'),tf=120.1,gn=None,sec=12)]
write('nan.out', L)
# NaN in fp16: the iteration is skipped and counted a nan iteration; the
# interval's average over 0 advanced iterations is 0.0
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),
 it_line(2,3,812.4,0.0,tf=116.8,gn=None,skipped=1,nan=1,sec=11),
 it_line(3,3,790.6,10.01,tf=120.1,sec=12)]
write('nan-fp16.out', L)
# NaN caught by Megatron's check (check_for_nan_in_loss_and_grad, the
# default): the rerun state machine raises
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),
 '[rank0]: Traceback (most recent call last):',
 '[rank0]:   File "/opt/megatron-lm/pretrain_gpt.py", line 318, in <module>',
 '[rank0]:     pretrain(',
 '[rank0]:   File "/opt/megatron-lm/megatron/core/rerun_state_machine.py", line 533, in validate_result',
 '[rank0]:     raise RuntimeError(full_message)',
 "[rank0]: RuntimeError: Rank 0, node gpu-node01, device 0, iteration 2: Unexpected result nan (message='found NaN in local forward loss calculation')",
 'srun: error: gpu-node01: task 0: Exited with exit code 1']
write('nan-check.out', L)
# 6. skipped (fp16 loss scale) then fine
L=[l.replace('smoke: iterations=3','train: iterations=6') for l in start_mlm]+[
 it_line(1,6,5210.3,None,gn=None,skipped=1,ls=4294967296.0,tf=18.2,sec=10),
 it_line(2,6,812.4,0.0,gn=None,skipped=1,ls=2147483648.0,tf=116.8,sec=11),
 it_line(3,6,790.6,10.38924,tf=120.1,ls=2147483648.0,sec=12),
 it_line(4,6,791.0,10.2,tf=120.0,ls=2147483648.0,sec=13),
 it_line(5,6,789.9,10.1,tf=120.2,ls=2147483648.0,sec=14),
 it_line(6,6,790.2,10.0123,tf=120.1,ls=2147483648.0,sec=15)]
write('skipped.out', L)
# 9. wrong world size: the script planned 8 GPUs, Slurm gave 4
L=["mbsbatch: smoke: iterations=3", marker(8,2,2,2,1,1,1,1,2,4)]+start_mlm[2:]+[
 it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),it_line(2,3,812.4,10.21451,tf=116.8,sec=11),it_line(3,3,790.6,10.03808,tf=120.1,sec=12)]
write('world-mismatch.out', L)
# 13. traceback before training
L=start_mlm[:3]+['Traceback (most recent call last):',
 '  File "/opt/megatron-lm/pretrain_gpt.py", line 318, in <module>',
 '    pretrain(',
 '  File "/opt/megatron-lm/megatron/training/training.py", line 762, in pretrain',
 '    model, optimizer, opt_param_scheduler = setup_model_and_optimizer(',
 '                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^',
 '  File "/opt/megatron-lm/megatron/training/arguments.py", line 1012, in validate_args',
 "    assert args.num_layers % args.transformer_pipeline_model_parallel_size == 0, \\",
 'AssertionError: Number of layers should be divisible by the pipeline parallel size',
 'srun: error: gpu-node01: task 0: Exited with exit code 1',
 'srun: Terminating StepId=4244.0',
 'slurmstepd: error: *** STEP 4244.0 ON gpu-node01 CANCELLED AT 2026-12-02T10:10:02 ***',
 'srun: error: gpu-node01: tasks 1-3: Terminated']
write('traceback.out', L)
# 14. truncated: startup, no iteration
write('truncated.out', start_mlm[:14])
# traceback that training survived
L=start_mlm[:4]+['Traceback (most recent call last):',
 '  File "/usr/lib/python3/dist-packages/apex/__init__.py", line 12, in <module>',
 '    import amp_C',
 "ModuleNotFoundError: No module named 'amp_C'"]+start_mlm[4:]+[
 it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),it_line(2,3,812.4,10.21451,tf=116.8,sec=11),it_line(3,3,790.6,10.03808,tf=120.1,sec=12)]
write('traceback-survived.out', L)

# Bridge v0.5.1: srun --label, rank-0 prints only; no YAML
bstart=['mbsbatch: smoke: iterations=3', marker(4,1,2,2,1,1,1,1,1,2)]
b=['> initializing torch distributed ...',
 '> initialized tensor model parallel with size 2',
 '> initialized pipeline model parallel with size 2',
 '> setting random seeds to 1234 ...',
 'time to initialize megatron (seconds): 9.871',
 'done with setup ...']
bl=label(b,0)
its=[(1,4875.2,10.39512,20.1),(2,801.3,10.22314,118.5),(3,798.4,10.03808,118.9)]
L=bstart+bl+label(['training ...'],0)
for i,ms,loss,tf in its:
    L.append('3: '+it_line(i,3,ms,loss,tf=tf,bridge=True,sec=10+i))
    if i==1:
        L+=['0: '+br_mem(0,1,6.86,10.357,11.744,11.744),'2: '+br_mem(2,1,6.31,8.5,10.5,10.5)]
    if i==2:
        L+=['0: '+br_mem(0,2,6.86,10.875,12.884,12.884)]
write('bridge-v0.5.1-success.out', L)

# Bridge v0.6.0 / main: run_recipe.py prints "Final configuration:" + YAML
yaml=['model:','  _target_: megatron.bridge.models.llama.llama_provider.Llama32ModelProvider1B',
 '  context_parallel_size: 1','  expert_model_parallel_size: 1','  expert_tensor_parallel_size: null',
 '  hidden_size: 2048','  num_layers: 16','  pipeline_model_parallel_size: 2','  sequence_parallel: true',
 '  tensor_model_parallel_size: 2','  virtual_pipeline_model_parallel_size: null',
 'train:','  global_batch_size: 8','  micro_batch_size: 1','  train_iters: 10']
L=['mbsbatch: train: iterations=10', marker(4,1,2,2,1,1,1,1,1,2),
 '[2026-12-02 10:09:58,001] INFO recipe_runner: Final configuration:']+yaml+b
for i in range(1,11):
    L.append(it_line(i,10,4875.2 if i==1 else 800+i*0.5,10.4-i*0.05,tf=20.1 if i==1 else 118.0+i*0.1,bridge=True,sec=10+i))
    if i==1: L.append(br_mem(0,1,6.86,10.357,11.744,11.744))
    if i==2: L.append(br_mem(0,2,6.86,10.875,12.884,12.884))
write('bridge-v0.6.0-success.out', L)

# Bridge main, MoE with EP 2 (olmoe-like), HyperCommGrid (use_decentralized_pg)
yaml2=['model:','  context_parallel_size: 1','  expert_model_parallel_size: 2','  expert_tensor_parallel_size: 1',
 '  pipeline_model_parallel_size: 1','  tensor_model_parallel_size: 1','  virtual_pipeline_model_parallel_size: null']
L=['mbsbatch: smoke: iterations=3', marker(2,1,1,1,1,1,2,1,2,1),
 'Final configuration:']+yaml2+['> initializing torch distributed ...','> initialized HyperCommGrid with tp=1, pp=1, cp=1, dp=2']
for i,ms,loss,tf in its:
    L.append(it_line(i,3,ms,loss,tf=tf,bridge=True,sec=10+i))
write('bridge-main-moe-success.out', L)

# 7. CUDA OOM on rank 3 (Bridge, torch's [rankN]: prefixes)
L=bstart+b+[it_line(1,3,4875.2,10.39512,tf=20.1,bridge=True,sec=11)]
tb=['Traceback (most recent call last):',
 '  File "/opt/Megatron-Bridge/scripts/training/run_recipe.py", line 470, in <module>',
 '    main()',
 '  File "/opt/Megatron-Bridge/src/megatron/bridge/training/train.py", line 255, in train',
 '    ) = train_step(',
 '        ^^^^^^^^^^^',
 '  File "/opt/Megatron-LM/megatron/core/pipeline_parallel/schedules.py", line 402, in forward_step',
 '    output_tensor, loss_func = forward_step_func(data_iterator, model)',
 '  File "/usr/local/lib/python3.12/dist-packages/torch/nn/functional.py", line 2146, in linear',
 '    return torch._C._nn.linear(input, weight, bias)',
 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.11 GiB of which 1.23 GiB is free. Including non-PyTorch memory, this process has 77.87 GiB memory in use. Of the allocated memory 74.12 GiB is allocated by PyTorch, and 2.31 GiB is reserved by PyTorch but unallocated.']
L+=[f"[rank3]: {l}" for l in tb[:5]]+["[rank2]:[W1202 10:10:13.123456789 ProcessGroupNCCL.cpp:1250] Warning: TORCH_NCCL_ASYNC_ERROR_HANDLING is deprecated"]+[f"[rank3]: {l}" for l in tb[5:]]
L+=['srun: error: gpu-node01: task 3: Exited with exit code 1','srun: Terminating StepId=4245.0',
 'slurmstepd: error: *** STEP 4245.0 ON gpu-node01 CANCELLED AT 2026-12-02T10:10:14 DUE TO TASK FAILURE ***']
write('cuda-oom.out', L)

# 8. NCCL watchdog timeout
L=bstart+b+[it_line(1,3,4875.2,10.39512,tf=20.1,bridge=True,sec=11)]+[
 '[rank1]:[E1202 10:20:13.456789012 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=42, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600043 milliseconds before timing out.',
 '[rank1]:[E1202 10:20:13.457000000 ProcessGroupNCCL.cpp:2168] [PG ID 0 PG GUID 0(default_pg) Rank 1]  failure detected by watchdog at work sequence id: 42 PG status: last enqueued work: 42, last completed work: 41',
 '[rank1]:[E1202 10:20:13.458000000 ProcessGroupNCCL.cpp:685] [Rank 1] To avoid data inconsistency, we are taking the entire process down.',
 "[rank1]: terminate called after throwing an instance of 'c10::DistBackendError'",
 'srun: error: gpu-node01: task 1: Aborted (core dumped)']
write('nccl-timeout.out', L)

# 11. time limit (Megatron-LM, long run)
L=[l.replace('smoke: iterations=3','train: iterations=1000') for l in start_mlm]
for i in range(10,501,10):
    L.append(it_line(i,1000,790+(i%7),10.0-i*0.01,tf=120.0,sec=i//10))
L+=['slurmstepd: error: *** JOB 4246 ON gpu-node01 CANCELLED AT 2026-12-02T14:10:00 DUE TO TIME LIMIT ***',
 'srun: Job step aborted: Waiting up to 32 seconds for job step to finish.']
write('time-limit.out', L)

# 12. cancelled (scancel, Slurm 22.05-24.11 form: no DUE TO)
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),
 'slurmstepd: error: *** JOB 4247 ON gpu-node01 CANCELLED AT 2026-12-02T10:10:12 ***']
write('cancelled.out', L)
# Slurm 25.11 form: DUE to SIGNAL Terminated, and from 25.05 on
# slurmstepd's lines carry the log's time, not its name (as recorded in
# recorded-25.11-cancelled.out; src/common/log.c)
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),
 '[2026-12-02T10:10:12.345] error: *** JOB 4248 ON gpu-node01 CANCELLED AT 2026-12-02T10:10:12 DUE to SIGNAL Terminated ***']
write('cancelled-25.11.out', L)
# host OOM (cgroup)
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),
 'slurmstepd: error: Detected 1 oom_kill event in StepId=4249.0. Some of the step tasks have been OOM Killed.',
 'srun: error: gpu-node01: task 2: Out Of Memory']
write('host-oom.out', L)
# empty, binary, not a log
open('empty.out','w').close()
open('binary.out','wb').write(bytes(range(256))*4)
write('not-a-log.txt',['hello','this is not a training log'])
# a last line without newline (truncated mid-write): the last iteration still counts
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),it_line(2,3,812.4,10.21451,tf=116.8,sec=11),it_line(3,3,790.6,10.03808,tf=120.1,sec=12)]
write('no-newline.out', L, nl=False)
# A requeued job: the node fails at iteration 2, Slurm requeues the job
# and its next run appends to the same file, resumes from its checkpoint
L=start_mlm+[it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),it_line(2,3,812.4,10.21451,tf=116.8,sec=11),
 'slurmstepd: error: *** JOB 4250 ON gpu-node01 CANCELLED AT 2026-12-02T10:10:12 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***']
L+=start_mlm[1:]+[' loading checkpoint from /ckpt at iteration 2',it_line(3,3,790.6,10.03808,tf=120.1,sec=40)]
write('requeued.out', L)
# Teardown: a rank's NCCL error after the last iteration (Megatron-LM
# never destroys the default group), then Python's unraisable-exception
# hook at exit (a DataLoader's __del__): neither counts
IGNORED=['Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f3a2c1e0ee0>',
 'Traceback (most recent call last):',
 '  File "/usr/local/lib/python3.12/dist-packages/torch/utils/data/dataloader.py", line 1618, in __del__',
 '    self._shutdown_workers()',
 "AttributeError: 'NoneType' object has no attribute 'python_exit_status'"]
write('teardown.out', SUCCESS+['[rank2]:[E1202 10:10:14.123456789 ProcessGroupNCCL.cpp:1687] [PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5']+IGNORED)
write('exception-ignored.out', SUCCESS+IGNORED)
# Figures in no format training_log prints (src/pyformat.h): each such
# line is malformed and not read (before, a loss of -0, -1e308 or a hex
# float was finite, and "iteration 0/0" an iteration)
def bad(line, old, new):
    assert old in line
    return line.replace(old, new)
L=start_mlm+[bad(it_line(1,3,5210.3,10.38924,tf=18.2,sec=10),'lm loss: 1.038924E+01','lm loss: -0'),
 bad(it_line(2,3,812.4,10.21451,tf=116.8,sec=11),'lm loss: 1.021451E+01','lm loss: -1e308'),
 bad(it_line(3,3,790.6,10.03808,tf=120.1,sec=12),'lm loss: 1.003808E+01','lm loss: 0x1p3'),
 ' [2026-12-02 10:10:13.123456] iteration        0/       0 | consumed samples:            0 |']
write('hostile-numbers.out', L)
# A step time in exponent form, which "{:.1f}" never prints: malformed
L=[l.replace('iterations=3','iterations=4') for l in start_mlm]+[bad(it_line(i,4,790.6,10.03808-i*0.1,tf=120.1,sec=10+i),'elapsed time per iteration (ms): 790.6','elapsed time per iteration (ms): 1e308') for i in (1,2,3,4)]
write('step-1e308.out', L)
# The largest step times Python prints ("{:.1f}" of 1e308 and of the
# largest double: 309 digits): read, their median finite, printed short
import sys
L=start_mlm+[it_line(i,4,ms,10.03808-i*0.1,tf=120.1,sec=10+i) for i,ms in ((1,1e308),(2,1e308),(3,1e308),(4,sys.float_info.max))]
L=[l.replace('iterations=3','iterations=4') for l in L]
write('step-huge.out', L)
# pyxis cannot import the image (pyxis 0.24 pyxis_slurmstepd.c:745,753,
# common.c:212-215 "pyxis:     LINE"; enroot's 404; Slurm's spank lines
# and srun's as in pyxis issue #127): not recorded, no pyxis here
L=bstart+['pyxis: importing docker image: nvcr.io#nvidia/nemo:99.99',
 'slurmstepd: error: pyxis: child 10028 failed with error code: 1',
 'slurmstepd: error: pyxis: failed to import docker image: nvcr.io#nvidia/nemo:99.99',
 'slurmstepd: error: pyxis: printing enroot log file:',
 'slurmstepd: error: pyxis:     [INFO] Querying registry for permission grant',
 'slurmstepd: error: pyxis:     [INFO] Authenticating with user: <anonymous>',
 'slurmstepd: error: pyxis:     [ERROR] URL https://nvcr.io/v2/nvidia/nemo/manifests/99.99 returned error code: 404 Not Found',
 'slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1',
 'slurmstepd: error: Failed to invoke spank plugin stack',
 'srun: error: gpu-node01: task 0: Exited with exit code 1']
write('pyxis-import.out', L)
# The same in three iterations: one sampled
L=start_mlm+[bad(it_line(i,3,790.6,10.03808-i*0.1,tf=120.1,sec=10+i),'elapsed time per iteration (ms): 790.6','elapsed time per iteration (ms): 1e308') for i in (1,2,3)]
write('step-1e308-one.out', L)
