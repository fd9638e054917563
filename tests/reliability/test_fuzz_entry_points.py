"""Every in-process entry point over the committed corpus of bad inputs plus generated ones:
0 uncaught exceptions, every refusal one line, no call over 5 s of CPU (issue 17)."""
from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent import api
from agent.profiles import load_mapping, profile_from_mapping
from rules.inputs import load_yaml
from fuzzkit import CPU_LIMIT_S, TALLIES, assert_clean, call
from fuzz_corpus import ANSWERS, BILLION_LAUGHS, PROFILES, TEXTS, THREAD_IDS, YAML_TEXTS

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
# Any code point, lone surrogates and controls included; digits and punctuation walls; device phrases.
ANY_CHAR = st.characters(blacklist_categories=())
TEXT = st.one_of(
    st.text(ANY_CHAR, max_size=300),
    st.builds(lambda n, c: c * n, st.integers(1, 6000), st.sampled_from("1[(-. ,8八x\n")),
    st.builds(lambda n, dev: f"{n} {dev} Llama 3.1 70B",
              st.one_of(st.integers(-10**30, 10**30), st.floats(allow_nan=True, allow_infinity=True),
                        st.sampled_from(["10^9", "1e999", "-0", "0x10", "1,000,000", "½"])),
              st.sampled_from(["H100", "RTX 4090", "張 4090", "M3 Ultra"])),
)


def _advise(text, answers=None):
    return api.advise(text, answers, knowledge=False)


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_corpus_questions(text):
    out = call("advise (corpus)", _advise, text)
    assert_clean("advise", out)
    if out[0] == "ok":
        json.dumps(out[1].contract_json(), allow_nan=False)


def test_absurd_values_are_refused_naming_the_field():
    for text, field in (("10^9 H100 Llama 3.1 70B", "count"), ("-5 H100 Llama 3.1 70B", "count"),
                        ("Llama 3 70B on 999999999 H100", "count"),
                        ("8x H100, 99999999999999999999999999 concurrent users", "concurrency")):
        kind, message = call("advise (absurd)", _advise, text)
        assert kind == "error" and message.startswith(f"{field}:"), (text, kind, message)


def test_question_length_is_capped_with_the_cap_named():
    kind, message = call("advise (corpus)", _advise, "x" * 100_000)
    assert kind == "error" and "10,000" in message


@pytest.mark.parametrize("answers", ANSWERS, ids=range(len(ANSWERS)))
def test_corpus_answers(answers):
    assert_clean("advise answers", call("advise answers", _advise, "8x H100, Llama 3.1 70B", answers))


@pytest.mark.parametrize("data", PROFILES, ids=range(len(PROFILES)))
def test_corpus_profiles(data):
    def run():
        return api.advise_profile(profile_from_mapping(data), knowledge=False).contract_json()
    out = call("ask_profile", run)
    assert_clean("ask_profile", out)
    if out[0] == "ok":
        json.dumps(out[1], allow_nan=False)


@pytest.mark.parametrize("text", YAML_TEXTS, ids=range(len(YAML_TEXTS)))
def test_corpus_yaml_files(text, tmp_path):
    path = tmp_path / "in.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    for what in ("answers", "profile"):
        out = call(f"yaml file ({what})", load_mapping, path, what)
        assert_clean("yaml", out)
        if out[0] == "ok" and what == "answers":
            assert_clean("answers", call("advise answers", lambda d=out[1]: _advise("8x H100", api.check_answers(d))))


def test_yaml_bomb_is_refused_before_expanding():
    kind, message = call("yaml (bomb)", load_yaml, BILLION_LAUGHS, "answers_yaml")
    assert kind == "error" and "not allowed" in message


def test_unreadable_and_non_utf8_files(tmp_path):
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("interconnect: PCIe \xe9\xff".encode("latin-1"))
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    for path in (bad, folder, tmp_path / "missing.yaml", tmp_path / "\udcff.yaml"):
        kind, message = call("yaml file (unreadable)", load_mapping, path, "answers")
        assert kind == "error", (path, kind, message)


@pytest.mark.parametrize("tid", THREAD_IDS, ids=range(len(THREAD_IDS)))
def test_turn_with_bad_thread_ids(tid, tmp_path):
    advisor = api.Advisor(home=tmp_path)
    assert_clean("turn (thread ids)", call("turn (thread ids)", advisor.turn, tid, "8x H100, Llama 3.1 70B"))


def test_turn_corpus(tmp_path):
    advisor = api.Advisor(home=tmp_path)
    for i, text in enumerate(TEXTS[:12] + TEXTS[-6:]):
        assert_clean("turn", call("turn", advisor.turn, f"t{i % 3}", text))


def test_search_and_sizing_corpus():
    from agent.sizing import size_text
    from knowledge.retrieve import search
    for query in ("\ud800 NVLink", "[" * 5_000, "", 42, None, "1" * 3_000):
        assert_clean("search", call("search", search, query, k=3))
    for k in (0, -1, 10**30, float("nan"), float("inf"), "3", True):
        assert_clean("search", call("search", search, "pipeline parallel", k=k))
    for text in TEXTS[:14]:
        assert_clean("size", call("size", size_text, text))


@given(TEXT)
@FUZZ
def test_generated_questions(text):
    assert_clean("advise (generated)", call("advise (generated)", _advise, text))


@given(st.dictionaries(st.one_of(st.sampled_from(["interconnect", "concurrency", "context_length", "hardware"]),
                                 st.text(ANY_CHAR, max_size=10)), st.one_of(TEXT, st.integers(), st.floats(),
                                                                            st.none()), max_size=3))
@FUZZ
def test_generated_answers(answers):
    assert_clean("advise answers (generated)", call("advise answers (generated)", _advise, "8x H100 Llama 3.1 70B", answers))


@given(st.dictionaries(st.sampled_from(["count", "nodes", "concurrency", "context_length", "memory_gb", "params_b",
                                        "hardware", "model", "quantization", "input_tokens"]),
                       st.one_of(st.integers(-10**40, 10**40), st.floats(), st.text(ANY_CHAR, max_size=20),
                                 st.lists(st.integers(), max_size=2)), max_size=4))
@FUZZ
def test_generated_profiles(data):
    def run():
        return api.advise_profile(profile_from_mapping({"hardware": "h100_sxm", "model": "llama-3.1-8b", **data}),
                                  knowledge=False).contract_json()
    out = call("ask_profile (generated)", run)
    assert_clean("ask_profile (generated)", out)
    if out[0] == "ok":
        json.dumps(out[1], allow_nan=False)


def test_no_call_over_the_cpu_limit():
    """Runs last in this module (pytest keeps file order): every call above stayed under the limit."""
    slow = [s for t in TALLIES.values() for s in t.slow]
    assert not slow, slow
    assert all(math.isfinite(t.max_cpu) and t.max_cpu <= CPU_LIMIT_S for t in TALLIES.values())


def test_llm_values_that_are_not_finite_are_dropped():
    from agent.understand import guard
    kept, _, dropped = call("llm values", guard, {"concurrency": float("inf"), "context_length": float("nan"),
                                                  "count": "1e999"},
                            {"concurrency": "1e999", "context_length": "NaN", "count": "1e999"},
                            "1e999 users, NaN context, 1e999 GPUs", True)[1]
    assert kept == {} and len(dropped) == 3


def test_ingest_bad_files(tmp_path):
    from knowledge.ingest import ingest
    files = {
        "latin1.md": "# Title\n\nCaf\xe9 \xff".encode("latin-1"),
        "bomb.md": ("---\n" + BILLION_LAUGHS + "\n---\n# T\n\nbody text here\n").encode(),
        "deep.md": ("---\nx: " + "[" * 3000 + "]" * 3000 + "\n---\n# T\n\nbody\n").encode(),
        "empty.md": b"",
        "binary.pdf": b"%PDF-1.4\n" + bytes(range(256)) * 20,
        "nul.txt": b"\x00" * 1000,
        "fm-list.md": b"---\n- a\n- b\n---\n# T\n\nbody\n",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        out = call("ingest", ingest, [tmp_path / name])
        assert_clean("ingest", out)
        assert out[0] == "error", (name, out)
    assert_clean("ingest", call("ingest", ingest, [tmp_path / "missing.md", tmp_path / "\udcff.md"]))
