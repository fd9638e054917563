"""The BM25 tokenizer and the bilingual query expansion."""
from __future__ import annotations

from knowledge.crosslingual import terms, to_chinese, to_english, translate
from knowledge.lexical import build, scores, tokenize


def test_latin_words_are_lowercased_and_names_kept_whole():
    tokens = tokenize("Use llama.cpp or TensorRT-LLM engines on 8×H100")
    assert {"llama.cpp", "llama", "cpp", "tensorrt-llm", "tensorrt", "llm", "8", "h100", "engine"} <= set(tokens)
    assert "use" not in tokens and "or" not in tokens          # stop words dropped


def test_cjk_documents_get_unigrams_and_bigrams_queries_only_bigrams():
    assert tokenize("張量平行") == ["張", "量", "平", "行", "張量", "量平", "平行"]
    assert tokenize("張量平行", query=True) == ["張量", "量平", "平行"]
    assert tokenize("卡", query=True) == ["卡"]                # a lone character still counts
    assert tokenize("ＧＰＵ８張") == ["gpu8", "張"]            # full-width folded (NFKC)


def test_bm25_prefers_the_matching_chunk():
    index = build(["管線平行只在階段邊界通訊", "張量平行每層都要 all-reduce", "Ollama 適合個人使用"])
    ranked = scores(index, "張量平行的 all-reduce").argsort()[::-1]
    assert ranked[0] == 1
    assert not scores(index, "completely unrelated words").any()


def test_chinese_terms_gain_english_and_back():
    assert to_english("vLLM 支援哪些量化格式") .endswith("quantization format support supported")
    assert translate("排程器為什麼變成瓶頸") == "scheduler 為什麼變成 bottleneck"
    assert "張量平行" in to_chinese("is tensor parallelism worth it")
    assert to_chinese("does it support my model") == "does it support my model"   # generic: no zh
    assert to_english("plain English stays") == "plain English stays"


def test_the_term_list_is_well_formed():
    rows = terms()
    assert len(rows) >= 60 and len({zh for zh, _, _ in rows}) == len(rows)
    assert all(phrases and all(p == p.lower() for p in phrases) for _, phrases, _ in rows)
