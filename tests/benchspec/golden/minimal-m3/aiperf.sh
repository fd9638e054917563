#!/bin/sh
# aiperf profile: benchmark plan for Llama 3 / 3.1 8B on 1 x Apple M3 Ultra (60/80-core GPU) (written by `advisor benchspec`).
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
    --tokenizer "$TOKENIZER" --isl 1000 --isl-stddev 144.3 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1000 --isl-stddev 144.3 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 4 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c4.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1000 --isl-stddev 144.3 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 8 --request-count 100 --warmup-request-count 8 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c8.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1000 --isl-stddev 144.3 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 16 --request-count 128 \
    --warmup-request-count 16 --random-seed 42 --artifact-dir "$OUT/${ENGINE}-main-c16.aiperf"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1000 --isl-stddev 0.0 --osl 1 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-prefill-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1000 --isl-stddev 0.0 --osl 1 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 8 --request-count 100 --warmup-request-count 8 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-prefill-c8.aiperf"

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 128 --isl-stddev 0.0 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-decode-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 128 --isl-stddev 0.0 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 8 --request-count 100 --warmup-request-count 8 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-decode-c8.aiperf"
