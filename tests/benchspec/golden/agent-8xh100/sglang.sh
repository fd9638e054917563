#!/bin/sh
# python -m sglang.bench_serving: benchmark plan for Llama 3 / 3.1 / 3.3 70B on 8 x NVIDIA H100 SXM5 80GB (written by `advisor benchspec`).
# One command per run and concurrency level: each call measures one level.
# Prompt lengths are fixed at the typical length here: this tool draws input and output with one range ratio, and the output must stay fixed.
# Start the engine under test, then set BASE_URL and MODEL (ENGINE names the result files).
: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:8000}"
: "${MODEL:?set MODEL to the model name the server serves}"
ENGINE="${ENGINE:-vllm}"
TOKENIZER="${TOKENIZER:-$MODEL}"
OUT="${OUT:-results}"
mkdir -p "$OUT"

# --- run 'main': Your real prompt/answer mix at every concurrency level up to twice your peak: latency percentiles, throughput, the saturation knee.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 6000 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 \
    --request-rate inf --warmup-requests 4 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 6000 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 8 \
    --request-rate inf --warmup-requests 8 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c8.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 6000 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 256 --max-concurrency 32 \
    --request-rate inf --warmup-requests 32 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c32.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 6000 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 480 --max-concurrency 60 \
    --request-rate inf --warmup-requests 60 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c60.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 6000 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 960 --max-concurrency 120 \
    --request-rate inf --warmup-requests 64 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c120.sglang.jsonl"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 6000 --random-output-len 1 \
    --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 --request-rate inf \
    --warmup-requests 4 --seed 42 --output-file "$OUT/${ENGINE}-prefill-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 6000 --random-output-len 1 \
    --random-range-ratio 1.0 --num-prompts 480 --max-concurrency 60 --request-rate inf \
    --warmup-requests 60 --seed 42 --output-file "$OUT/${ENGINE}-prefill-c60.sglang.jsonl"

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 128 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 \
    --request-rate inf --warmup-requests 4 --seed 42 \
    --output-file "$OUT/${ENGINE}-decode-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 128 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 480 --max-concurrency 60 \
    --request-rate inf --warmup-requests 60 --seed 42 \
    --output-file "$OUT/${ENGINE}-decode-c60.sglang.jsonl"

# --- run 'long-context': Worst-case prompts at the stated context length: TTFT tail and KV-cache capacity.
# If the engine rejects or queues requests here, the KV cache does not hold the peak at full context: record where it stops.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 79600 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 \
    --request-rate inf --warmup-requests 4 --seed 42 \
    --output-file "$OUT/${ENGINE}-long-context-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 79600 \
    --random-output-len 400 --random-range-ratio 1.0 --num-prompts 480 --max-concurrency 60 \
    --request-rate inf --warmup-requests 60 --seed 42 \
    --output-file "$OUT/${ENGINE}-long-context-c60.sglang.jsonl"
