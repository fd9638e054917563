#!/bin/sh
# guidellm run: benchmark plan for Qwen3-32B on 4 x NVIDIA GeForce RTX 4090 (written by `advisor benchspec`).
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
    --data kind=synthetic_text,prompt_tokens=1800,prompt_tokens_min=1050,prompt_tokens_max=2550,output_tokens=300,prefix_tokens=1200,prefix_count=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1800,prompt_tokens_min=1050,prompt_tokens_max=2550,output_tokens=300,prefix_tokens=1200,prefix_count=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[4],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c4.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1800,prompt_tokens_min=1050,prompt_tokens_max=2550,output_tokens=300,prefix_tokens=1200,prefix_count=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[8],"warmup":{"mode":"requests","value":8}}' \
    --constraint kind=max_requests,count=108 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c8.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1800,prompt_tokens_min=1050,prompt_tokens_max=2550,output_tokens=300,prefix_tokens=1200,prefix_count=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[20],"warmup":{"mode":"requests","value":20}}' \
    --constraint kind=max_requests,count=180 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c20.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=1800,prompt_tokens_min=1050,prompt_tokens_max=2550,output_tokens=300,prefix_tokens=1200,prefix_count=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[40],"warmup":{"mode":"requests","value":40}}' \
    --constraint kind=max_requests,count=360 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=main \
    --output "kind=json,path=${OUT}/${ENGINE}-main-c40.guidellm.json"

# --- run 'prefill': Prefill alone: full prompts, one output token, no prefix reuse. TTFT here is prompt processing plus queueing.
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=3000,output_tokens=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=prefill \
    --output "kind=json,path=${OUT}/${ENGINE}-prefill-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=3000,output_tokens=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[20],"warmup":{"mode":"requests","value":20}}' \
    --constraint kind=max_requests,count=180 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=prefill \
    --output "kind=json,path=${OUT}/${ENGINE}-prefill-c20.guidellm.json"

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
    --profile '{"kind":"concurrent","streams":[20],"warmup":{"mode":"requests","value":20}}' \
    --constraint kind=max_requests,count=180 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=decode \
    --output "kind=json,path=${OUT}/${ENGINE}-decode-c20.guidellm.json"

# --- run 'long-context': Worst-case prompts at the stated context length: TTFT tail and KV-cache capacity.
# If the engine rejects or queues requests here, the KV cache does not hold the peak at full context: record where it stops.
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=15700,output_tokens=300 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[1],"warmup":{"mode":"requests","value":4}}' \
    --constraint kind=max_requests,count=104 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=long-context \
    --output "kind=json,path=${OUT}/${ENGINE}-long-context-c1.guidellm.json"
guidellm run \
    --backend "kind=openai_http,target=${BASE_URL},model=${MODEL},request_format=/v1/completions" \
    --data kind=synthetic_text,prompt_tokens=15700,output_tokens=300 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[20],"warmup":{"mode":"requests","value":20}}' \
    --constraint kind=max_requests,count=180 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=long-context \
    --output "kind=json,path=${OUT}/${ENGINE}-long-context-c20.guidellm.json"

# --- run 'structured': Structured (JSON) output at your peak, apart from the main run: grammar-constrained decoding has its own cost.
# EOS is not ignored here (a grammar must be allowed to finish), so answers can be shorter than requested: compare TPOT, not end-to-end latency.
guidellm run \
    --backend "{\"kind\":\"openai_http\",\"target\":\"${BASE_URL}\",\"model\":\"${MODEL}\",\"request_format\":\"/v1/chat/completions\",\"extras\":{\"body\":{\"ignore_eos\":false,\"response_format\":{\"type\":\"json_object\"}}}}" \
    --data kind=synthetic_text,prompt_tokens=1800,prompt_tokens_min=1050,prompt_tokens_max=2550,output_tokens=300,prefix_tokens=1200,prefix_count=1 \
    --tokenizer "kind=huggingface_auto,model=${TOKENIZER}" \
    --profile '{"kind":"concurrent","streams":[20],"warmup":{"mode":"requests","value":20}}' \
    --constraint kind=max_requests,count=180 --seed kind=static,value=42 \
    --label "engine=${ENGINE}" --label run=structured \
    --output "kind=json,path=${OUT}/${ENGINE}-structured-c20.guidellm.json"

# --- run 'lora': Requests spread over 3 LoRA adapters at your peak, apart from the main run: adapter switching has its own cost.
# Load the adapters on the server first; replace the placeholder adapter names in the commands with the names the server registered.
# GuideLLM cannot rotate requests over LoRA adapters: use the vLLM, SGLang or AIPerf plan for this run.
