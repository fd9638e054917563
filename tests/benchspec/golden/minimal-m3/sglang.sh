#!/bin/sh
# python -m sglang.bench_serving: benchmark plan for Llama 3 / 3.1 8B on 1 x Apple M3 Ultra (60/80-core GPU) (written by `advisor benchspec`).
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
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 \
    --request-rate inf --warmup-requests 4 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 4 \
    --request-rate inf --warmup-requests 4 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c4.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 8 \
    --request-rate inf --warmup-requests 8 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c8.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 128 --max-concurrency 16 \
    --request-rate inf --warmup-requests 16 --seed 42 \
    --output-file "$OUT/${ENGINE}-main-c16.sglang.jsonl"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 --random-output-len 1 \
    --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 --request-rate inf \
    --warmup-requests 4 --seed 42 --output-file "$OUT/${ENGINE}-prefill-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 --random-output-len 1 \
    --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 8 --request-rate inf \
    --warmup-requests 8 --seed 42 --output-file "$OUT/${ENGINE}-prefill-c8.sglang.jsonl"

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 128 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 \
    --request-rate inf --warmup-requests 4 --seed 42 \
    --output-file "$OUT/${ENGINE}-decode-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 128 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 8 \
    --request-rate inf --warmup-requests 8 --seed 42 \
    --output-file "$OUT/${ENGINE}-decode-c8.sglang.jsonl"
