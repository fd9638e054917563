#!/bin/sh
# guidellm run: benchmark plan for Llama 3 / 3.1 / 3.3 70B on 8 x NVIDIA H100 SXM5 80GB (written by `advisor benchspec`).
# One command per run and level so every harness sends the same request counts (a `streams` list would run all levels in one call).
# GuideLLM 0.7.2 and later; older releases called this `guidellm benchmark`.
# Start the engine under test, then set BASE_URL and MODEL (ENGINE names the result files).
: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:8000}"
: "${MODEL:?set MODEL to the model name the server serves}"
ENGINE="${ENGINE:-vllm}"
TOKENIZER="${TOKENIZER:-$MODEL}"
OUT="${OUT:-results}"
mkdir -p "$OUT"

# --- run 'main': Your real prompt/answer mix at every concurrency level up to twice your peak: latency percentiles, throughput, the saturation knee.
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=6000,prompt_tokens_min=4500,prompt_tokens_max=7500,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=6000,prompt_tokens_min=4500,prompt_tokens_max=7500,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[8],"warmup":{"mode":"requests","value":8}}' \
    --constraint kind=max_requests,count=108 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c8.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=6000,prompt_tokens_min=4500,prompt_tokens_max=7500,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[32],"warmup":{"mode":"requests","value":32}}' \
    --constraint kind=max_requests,count=288 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c32.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=6000,prompt_tokens_min=4500,prompt_tokens_max=7500,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[60],"warmup":{"mode":"requests","value":60}}' \
    --constraint kind=max_requests,count=540 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c60.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=6000,prompt_tokens_min=4500,prompt_tokens_max=7500,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[120],"warmup":{"mode":"requests","value":64}}' \
    --constraint kind=max_requests,count=1024 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c120.guidellm.json"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=6000,output_tokens=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=prefill \
    --output "kind=json,path=${OUT}/${ENGINE}-prefill-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=6000,output_tokens=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[60],"warmup":{"mode":"requests","value":60}}' \
    --constraint kind=max_requests,count=540 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=prefill \
    --output "kind=json,path=${OUT}/${ENGINE}-prefill-c60.guidellm.json"

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=128,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=decode \
    --output "kind=json,path=${OUT}/${ENGINE}-decode-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=128,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[60],"warmup":{"mode":"requests","value":60}}' \
    --constraint kind=max_requests,count=540 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=decode \
    --output "kind=json,path=${OUT}/${ENGINE}-decode-c60.guidellm.json"

# --- run 'long-context': Worst-case prompts at the stated context length: TTFT tail and KV-cache capacity.
# If the engine rejects or queues requests here, the KV cache does not hold the peak at full context: record where it stops.
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=79600,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=long-context \
    --output "kind=json,path=${OUT}/${ENGINE}-long-context-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=79600,output_tokens=400 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[60],"warmup":{"mode":"requests","value":60}}' \
    --constraint kind=max_requests,count=540 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=long-context \
    --output "kind=json,path=${OUT}/${ENGINE}-long-context-c60.guidellm.json"
