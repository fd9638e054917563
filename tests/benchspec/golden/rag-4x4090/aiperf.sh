#!/bin/sh
# aiperf profile: benchmark plan for Qwen3-32B on 4 x NVIDIA GeForce RTX 4090 (written by `advisor benchspec`).
# One command per run and concurrency level: each call measures one level.
# AIPerf draws prompt lengths from a normal distribution: the stddev given has the same spread as the uniform range of the other harnesses.
# For the LoRA run, TOKENIZER must name the base model's tokenizer.
# Start the engine under test, then set BASE_URL and MODEL (ENGINE names the result files).
: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:8000}"
: "${MODEL:?set MODEL to the model name the server serves}"
ENGINE="${ENGINE:-vllm}"
TOKENIZER="${TOKENIZER:-$MODEL}"
OUT="${OUT:-results}"
mkdir -p "$OUT"

# --- run 'main': Your real prompt/answer mix at every concurrency level up to twice your peak: latency percentiles, throughput, the saturation knee.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1800 --isl-stddev 433.0 --osl 300 --osl-stddev 0 \
    --prefix-prompt-length 1200 --num-prefix-prompts 1 --extra-inputs ignore_eos:true \
    --concurrency 1 --request-count 100 --warmup-request-count 4 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-main-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1800 --isl-stddev 433.0 --osl 300 --osl-stddev 0 \
    --prefix-prompt-length 1200 --num-prefix-prompts 1 --extra-inputs ignore_eos:true \
    --concurrency 4 --request-count 100 --warmup-request-count 4 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-main-c4.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1800 --isl-stddev 433.0 --osl 300 --osl-stddev 0 \
    --prefix-prompt-length 1200 --num-prefix-prompts 1 --extra-inputs ignore_eos:true \
    --concurrency 8 --request-count 100 --warmup-request-count 8 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-main-c8.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1800 --isl-stddev 433.0 --osl 300 --osl-stddev 0 \
    --prefix-prompt-length 1200 --num-prefix-prompts 1 --extra-inputs ignore_eos:true \
    --concurrency 20 --request-count 160 --warmup-request-count 20 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-main-c20.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 1800 --isl-stddev 433.0 --osl 300 --osl-stddev 0 \
    --prefix-prompt-length 1200 --num-prefix-prompts 1 --extra-inputs ignore_eos:true \
    --concurrency 40 --request-count 320 --warmup-request-count 40 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-main-c40.aiperf"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 3000 --isl-stddev 0.0 --osl 1 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-prefill-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 3000 --isl-stddev 0.0 --osl 1 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 20 --request-count 160 \
    --warmup-request-count 20 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-prefill-c20.aiperf"

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 128 --isl-stddev 0.0 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-decode-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 128 --isl-stddev 0.0 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 20 --request-count 160 \
    --warmup-request-count 20 --random-seed 42 --artifact-dir "$OUT/${ENGINE}-decode-c20.aiperf"

# --- run 'long-context': Worst-case prompts at the stated context length: TTFT tail and KV-cache capacity.
# If the engine rejects or queues requests here, the KV cache does not hold the peak at full context: record where it stops.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 15700 --isl-stddev 0.0 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 1 --request-count 100 --warmup-request-count 4 \
    --random-seed 42 --artifact-dir "$OUT/${ENGINE}-long-context-c1.aiperf"
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type completions --streaming \
    --tokenizer "$TOKENIZER" --isl 15700 --isl-stddev 0.0 --osl 300 --osl-stddev 0 \
    --extra-inputs ignore_eos:true --concurrency 20 --request-count 160 \
    --warmup-request-count 20 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-long-context-c20.aiperf"

# --- run 'structured': Structured (JSON) output at your peak, apart from the main run: grammar-constrained decoding has its own cost.
# EOS is not ignored here (a grammar must be allowed to finish), so answers can be shorter than requested: compare TPOT, not end-to-end latency.
aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type chat --streaming \
    --tokenizer "$TOKENIZER" --isl 1800 --isl-stddev 433.0 --osl 300 --osl-stddev 0 \
    --prefix-prompt-length 1200 --num-prefix-prompts 1 \
    --extra-inputs '{"response_format":{"type":"json_object"}}' --concurrency 20 \
    --request-count 160 --warmup-request-count 20 --random-seed 42 \
    --artifact-dir "$OUT/${ENGINE}-structured-c20.aiperf"

# --- run 'lora': Requests spread over 3 LoRA adapters at your peak, apart from the main run: adapter switching has its own cost.
# Load the adapters on the server first; replace the placeholder adapter names in the commands with the names the server registered.
aiperf profile --model lora-1,lora-2,lora-3 --model-selection-strategy random --url "$BASE_URL" \
    --endpoint-type completions --streaming --tokenizer "$TOKENIZER" --isl 1800 \
    --isl-stddev 433.0 --osl 300 --osl-stddev 0 --prefix-prompt-length 1200 \
    --num-prefix-prompts 1 --extra-inputs ignore_eos:true --concurrency 20 --request-count 160 \
    --warmup-request-count 20 --random-seed 42 --artifact-dir "$OUT/${ENGINE}-lora-c20.aiperf"
