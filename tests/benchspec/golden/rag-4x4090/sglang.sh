#!/bin/sh
# python -m sglang.bench_serving: benchmark plan for Qwen3-32B on 4 x NVIDIA GeForce RTX 4090 (written by `advisor benchspec`).
# One command per run and concurrency level: each call measures one level.
# Prompt lengths are fixed at the typical length here: this tool draws input and output with one range ratio, and the output must stay fixed.
# Shared-prefix runs use the generated-shared-prefix dataset (fixed lengths).
# Start the engine under test, then set BASE_URL and MODEL (ENGINE names the result files).
: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:8000}"
: "${MODEL:?set MODEL to the model name the server serves}"
ENGINE="${ENGINE:-vllm}"
TOKENIZER="${TOKENIZER:-$MODEL}"
OUT="${OUT:-results}"
mkdir -p "$OUT"

# --- run 'main': Your real prompt/answer mix at every concurrency level up to twice your peak: latency percentiles, throughput, the saturation knee.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name generated-shared-prefix --gsp-num-groups 1 \
    --gsp-prompts-per-group 100 --gsp-system-prompt-len 1200 --gsp-question-len 1800 \
    --gsp-output-len 300 --num-prompts 100 --max-concurrency 1 --request-rate inf \
    --warmup-requests 4 --seed 42 --output-file "$OUT/${ENGINE}-main-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name generated-shared-prefix --gsp-num-groups 1 \
    --gsp-prompts-per-group 100 --gsp-system-prompt-len 1200 --gsp-question-len 1800 \
    --gsp-output-len 300 --num-prompts 100 --max-concurrency 4 --request-rate inf \
    --warmup-requests 4 --seed 42 --output-file "$OUT/${ENGINE}-main-c4.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name generated-shared-prefix --gsp-num-groups 1 \
    --gsp-prompts-per-group 100 --gsp-system-prompt-len 1200 --gsp-question-len 1800 \
    --gsp-output-len 300 --num-prompts 100 --max-concurrency 8 --request-rate inf \
    --warmup-requests 8 --seed 42 --output-file "$OUT/${ENGINE}-main-c8.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name generated-shared-prefix --gsp-num-groups 1 \
    --gsp-prompts-per-group 160 --gsp-system-prompt-len 1200 --gsp-question-len 1800 \
    --gsp-output-len 300 --num-prompts 160 --max-concurrency 20 --request-rate inf \
    --warmup-requests 20 --seed 42 --output-file "$OUT/${ENGINE}-main-c20.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name generated-shared-prefix --gsp-num-groups 1 \
    --gsp-prompts-per-group 320 --gsp-system-prompt-len 1200 --gsp-question-len 1800 \
    --gsp-output-len 300 --num-prompts 320 --max-concurrency 40 --request-rate inf \
    --warmup-requests 40 --seed 42 --output-file "$OUT/${ENGINE}-main-c40.sglang.jsonl"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 3000 --random-output-len 1 \
    --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 --request-rate inf \
    --warmup-requests 4 --seed 42 --output-file "$OUT/${ENGINE}-prefill-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 3000 --random-output-len 1 \
    --random-range-ratio 1.0 --num-prompts 160 --max-concurrency 20 --request-rate inf \
    --warmup-requests 20 --seed 42 --output-file "$OUT/${ENGINE}-prefill-c20.sglang.jsonl"

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 128 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 \
    --request-rate inf --warmup-requests 4 --seed 42 \
    --output-file "$OUT/${ENGINE}-decode-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 128 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 160 --max-concurrency 20 \
    --request-rate inf --warmup-requests 20 --seed 42 \
    --output-file "$OUT/${ENGINE}-decode-c20.sglang.jsonl"

# --- run 'long-context': Worst-case prompts at the stated context length: TTFT tail and KV-cache capacity.
# If the engine rejects or queues requests here, the KV cache does not hold the peak at full context: record where it stops.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 15700 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 100 --max-concurrency 1 \
    --request-rate inf --warmup-requests 4 --seed 42 \
    --output-file "$OUT/${ENGINE}-long-context-c1.sglang.jsonl"
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 15700 \
    --random-output-len 300 --random-range-ratio 1.0 --num-prompts 160 --max-concurrency 20 \
    --request-rate inf --warmup-requests 20 --seed 42 \
    --output-file "$OUT/${ENGINE}-long-context-c20.sglang.jsonl"

# --- run 'structured': Structured (JSON) output at your peak, apart from the main run: grammar-constrained decoding has its own cost.
# EOS is not ignored here (a grammar must be allowed to finish), so answers can be shorter than requested: compare TPOT, not end-to-end latency.
python -m sglang.bench_serving --backend sglang-oai-chat --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name generated-shared-prefix --gsp-num-groups 1 \
    --gsp-prompts-per-group 160 --gsp-system-prompt-len 1200 --gsp-question-len 1800 \
    --gsp-output-len 300 --disable-ignore-eos \
    --extra-request-body '{"response_format":{"type":"json_object"}}' --num-prompts 160 \
    --max-concurrency 20 --request-rate inf --warmup-requests 20 --seed 42 \
    --output-file "$OUT/${ENGINE}-structured-c20.sglang.jsonl"

# --- run 'lora': Requests spread over 3 LoRA adapters at your peak, apart from the main run: adapter switching has its own cost.
# Load the adapters on the server first; replace the placeholder adapter names in the commands with the names the server registered.
python -m sglang.bench_serving --backend sglang-oai --base-url "$BASE_URL" --model "$MODEL" \
    --tokenizer "$TOKENIZER" --dataset-name generated-shared-prefix --gsp-num-groups 1 \
    --gsp-prompts-per-group 160 --gsp-system-prompt-len 1200 --gsp-question-len 1800 \
    --gsp-output-len 300 --lora-name lora-1 lora-2 lora-3 --num-prompts 160 --max-concurrency 20 \
    --request-rate inf --warmup-requests 20 --seed 42 \
    --output-file "$OUT/${ENGINE}-lora-c20.sglang.jsonl"
