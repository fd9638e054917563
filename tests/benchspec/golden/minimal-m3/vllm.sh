#!/bin/sh
# vllm bench serve: benchmark plan for Llama 3 / 3.1 8B on 1 x Apple M3 Ultra (60/80-core GPU) (written by `advisor benchspec`).
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
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 300 --ignore-eos \
    --num-prompts 100 --max-concurrency 1 --request-rate inf --num-warmups 4 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c1.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=1
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 300 --ignore-eos \
    --num-prompts 100 --max-concurrency 4 --request-rate inf --num-warmups 4 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c4.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=4
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 300 --ignore-eos \
    --num-prompts 100 --max-concurrency 8 --request-rate inf --num-warmups 8 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c8.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=8
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 300 --ignore-eos \
    --num-prompts 128 --max-concurrency 16 --request-rate inf --num-warmups 16 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-main-c16.vllm.json" \
    --metadata engine="$ENGINE" run=main concurrency=16

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 1 --ignore-eos \
    --num-prompts 100 --max-concurrency 1 --request-rate inf --num-warmups 4 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-prefill-c1.vllm.json" \
    --metadata engine="$ENGINE" run=prefill concurrency=1
vllm bench serve --backend openai --base-url "$BASE_URL" --endpoint /v1/completions \
    --model "$MODEL" --tokenizer "$TOKENIZER" --dataset-name random --random-input-len 1000 \
    --random-range-ratio 0 --random-prefix-len 0 --random-output-len 1 --ignore-eos \
    --num-prompts 100 --max-concurrency 8 --request-rate inf --num-warmups 8 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-prefill-c8.vllm.json" \
    --metadata engine="$ENGINE" run=prefill concurrency=8

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
    --num-prompts 100 --max-concurrency 8 --request-rate inf --num-warmups 8 \
    --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99 --seed 42 \
    --save-result --result-dir "$OUT" --result-filename "${ENGINE}-decode-c8.vllm.json" \
    --metadata engine="$ENGINE" run=decode concurrency=8
