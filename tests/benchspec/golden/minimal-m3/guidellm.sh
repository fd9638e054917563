#!/bin/sh
# guidellm run: benchmark plan for Llama 3 / 3.1 8B on 1 x Apple M3 Ultra (60/80-core GPU) (written by `advisor benchspec`).
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
    --data kind=synthetic_text,prompt_tokens=1000,prompt_tokens_min=750,prompt_tokens_max=1250,output_tokens=300 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1000,prompt_tokens_min=750,prompt_tokens_max=1250,output_tokens=300 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[4],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c4.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1000,prompt_tokens_min=750,prompt_tokens_max=1250,output_tokens=300 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[8],"warmup":{"mode":"requests","value":8}}' \
    --constraint kind=max_requests,count=108 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c8.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1000,prompt_tokens_min=750,prompt_tokens_max=1250,output_tokens=300 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[16],"warmup":{"mode":"requests","value":16}}' \
    --constraint kind=max_requests,count=144 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c16.guidellm.json"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1000,output_tokens=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=prefill \
    --output "kind=json,path=${OUT}/${ENGINE}-prefill-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1000,output_tokens=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[8],"warmup":{"mode":"requests","value":8}}' \
    --constraint kind=max_requests,count=108 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=prefill \
    --output "kind=json,path=${OUT}/${ENGINE}-prefill-c8.guidellm.json"

# --- run 'decode': Decode alone: short prompts, long answers. TPOT at concurrency 1 is compared with the bandwidth bound.
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=128,output_tokens=300 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=decode \
    --output "kind=json,path=${OUT}/${ENGINE}-decode-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=128,output_tokens=300 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[8],"warmup":{"mode":"requests","value":8}}' \
    --constraint kind=max_requests,count=108 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=decode \
    --output "kind=json,path=${OUT}/${ENGINE}-decode-c8.guidellm.json"
