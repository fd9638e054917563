#!/bin/sh
# vllm bench serve: benchmark plan for Qwen3-32B on 4 x NVIDIA GeForce RTX 4090 (written by `advisor benchspec`).
# One command per run and concurrency level: each call measures one level (vllm bench sweep exists, but takes its own parameter files).
# Prompt lengths are fixed at the typical length here: this tool draws input and output with one range ratio, and the output must stay fixed.
# Start the engine under test, then set BASE_URL and MODEL (ENGINE names the result files).
: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:8000}"
: "${MODEL:?set MODEL to the model name the server serves}"
ENGINE="${ENGINE:-vllm}"
TOKENIZER="${TOKENIZER:-$MODEL}"
OUT="${OUT:-results}"
mkdir -p "$OUT"

# --- run 'main': Your real prompt/answer mix at every concurrency level up to twice your peak: latency percentiles, throughput, the saturation knee.
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1800 \
    --random-range-ratio 0 --random-prefix-len 1200 --random-output-len 300 --ignore-eos \
    --num-prompts 100 --max-concurrency 1 --request-rate inf --num-warmups 4 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c1.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=1
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1800 \
    --random-range-ratio 0 --random-prefix-len 1200 --random-output-len 300 --ignore-eos \
    --num-prompts 100 --max-concurrency 4 --request-rate inf --num-warmups 4 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c4.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=4
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1800 \
    --random-range-ratio 0 --random-prefix-len 1200 --random-output-len 300 --ignore-eos \
    --num-prompts 100 --max-concurrency 8 --request-rate inf --num-warmups 8 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c8.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=8
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1800 \
    --random-range-ratio 0 --random-prefix-len 1200 --random-output-len 300 --ignore-eos \
    --num-prompts 160 --max-concurrency 20 --request-rate inf --num-warmups 20 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c20.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=20
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1800 \
    --random-range-ratio 0 --random-prefix-len 1200 --random-output-len 300 --ignore-eos \
    --num-prompts 320 --max-concurrency 40 --request-rate inf --num-warmups 40 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c40.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=40

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 3000 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 1 --ignore-eos \
    --num-prompts 100 --max-concurrency 1 --request-rate inf --num-warmups 4 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-prefill-c1.vllm.json" \
    --metadata engine="$ENGINE" run=prefill concurrency=1
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 3000 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 1 --ignore-eos \
    --num-prompts 160 --max-concurrency 20 --request-rate inf --num-warmups 20 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-prefill-c20.vllm.json" \
    --metadata engine="$ENGINE" run=prefill concurrency=20

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 128 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 300 --ignore-eos \
    --num-prompts 100 --max-concurrency 1 --request-rate inf --num-warmups 4 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-decode-c1.vllm.json" \
    --metadata engine="$ENGINE" run=decode concurrency=1
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 128 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 300 --ignore-eos \
    --num-prompts 160 --max-concurrency 20 --request-rate inf --num-warmups 20 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-decode-c20.vllm.json" \
    --metadata engine="$ENGINE" run=decode concurrency=20

# --- run 'long-context': Worst-case prompts at the stated context length: TTFT tail and KV-cache capacity.
# If the engine rejects or queues requests here, the KV cache does not hold the peak at full context: record where it stops.
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 15700 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 300 --ignore-eos \
    --num-prompts 100 --max-concurrency 1 --request-rate inf --num-warmups 4 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-long-context-c1.vllm.json" \
    --metadata engine="$ENGINE" run=long-context concurrency=1
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 15700 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 300 --ignore-eos \
    --num-prompts 160 --max-concurrency 20 --request-rate inf --num-warmups 20 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-long-context-c20.vllm.json" \
    --metadata engine="$ENGINE" run=long-context concurrency=20

# --- run 'structured': Structured (JSON) output at your peak, apart from the main run: grammar-constrained decoding has its own cost.
# EOS is not ignored here (a grammar must be allowed to finish), so answers can be shorter than requested: compare TPOT, not end-to-end latency.
vllm bench serve --backend openai-chat --base-url "$BASE_URL" --endpoint /v1/chat/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1800 \
    --random-range-ratio 0 --random-prefix-len 1200 --random-output-len 300 \
    --extra-body '{"ignore_eos":false,"response_format":{"type":"json_object"}}' \
    --num-prompts 160 --max-concurrency 20 --request-rate inf --num-warmups 20 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-structured-c20.vllm.json" \
    --metadata engine="$ENGINE" run=structured concurrency=20

# --- run 'lora': Requests spread over 3 LoRA adapters at your peak, apart from the main run: adapter switching has its own cost.
# Load the adapters on the server first; replace the placeholder adapter names in the commands with the names the server registered.
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1800 \
    --random-range-ratio 0 --random-prefix-len 1200 --random-output-len 300 --ignore-eos \
    --lora-modules lora-1 lora-2 lora-3 --num-prompts 160 --max-concurrency 20 \
    --request-rate inf --num-warmups 20 --percentile-metrics ttft,tpot,itl,e2el \
    --metric-percentiles 50,90,95,99 --seed 42 --save-result --result-dir "$OUT" \
    --result-filename "${ENGINE}-lora-c20.vllm.json" \
    --metadata engine="$ENGINE" run=lora concurrency=20
