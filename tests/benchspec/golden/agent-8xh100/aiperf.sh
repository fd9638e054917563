#!/bin/sh
# aiperf profile: benchmark plan for Llama 3 / 3.1 / 3.3 70B on 8 x NVIDIA H100 SXM5 80GB (written by `advisor benchspec`).
# One command per run and concurrency level: each call measures one level.
# AIPerf draws prompt lengths from a normal distribution: the stddev given has the same spread as the uniform range of the other harnesses.
# Start the engine under test, then set BASE_URL and MODEL (ENGINE names the result files).
: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:8000}"
: "${MODEL:?set MODEL to the model name the server serves}"
ENGINE="${ENGINE:-vllm}"
TOKENIZER="${TOKENIZER:-$MODEL}"
OUT="${OUT:-results}"
mkdir -p "$OUT"

# --- run 'main': Your real prompt/answer mix at every concurrency level up to twice your peak: latency percentiles, throughput, the saturation knee.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 6000 --isl-stddev 866.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 6000 --isl-stddev 866.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 8 --request-count 100 --warmup-request-count 8 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c8.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 6000 --isl-stddev 866.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 32 --request-count 256 \
    --warmup-request-count 32 --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c32.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 6000 --isl-stddev 866.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 60 --request-count 480 \
    --warmup-request-count 60 --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c60.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 6000 --isl-stddev 866.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 120 --request-count 960 \
    --warmup-request-count 64 --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c120.aiperf"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 6000 --isl-stddev 0.0 --osl 1 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-prefill-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 6000 --isl-stddev 0.0 --osl 1 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 60 --request-count 480 \
    --warmup-request-count 60 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-prefill-c60.aiperf"

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 128 --isl-stddev 0.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-decode-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 128 --isl-stddev 0.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 60 --request-count 480 \
    --warmup-request-count 60 --random-seed 42 --artifact-dir "$OUT/${ENGINE}-decode-c60.aiperf"

# --- run 'long-context': Worst-case prompts at the stated context length: TTFT tail and KV-cache capacity.
# If the engine rejects or queues requests here, the KV cache does not hold the peak at full context: record where it stops.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 79600 --isl-stddev 0.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-long-context-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 79600 --isl-stddev 0.0 --osl 400 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 60 --request-count 480 \
    --warmup-request-count 60 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-long-context-c60.aiperf"
