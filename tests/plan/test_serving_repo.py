"""Launch commands load the chat checkpoint the user named, not the architecture's base repo."""
import pytest

from rules import catalog
from rules.model_resolve import serving_repo


@pytest.mark.parametrize("model, words, repo", [
    ("llama-3.1-70b", "Llama 3.3 70B", "meta-llama/Llama-3.3-70B-Instruct"),
    ("llama-3.1-70b", "llama3.1:70b", "meta-llama/Llama-3.1-70B-Instruct"),
    ("llama-3.1-70b", "Meta-Llama-3-70B", "meta-llama/Meta-Llama-3-70B-Instruct"),
    ("llama-3.1-70b", None, "meta-llama/Llama-3.3-70B-Instruct"),          # nothing said: the newest chat model
    ("llama-3.1-8b", "Llama 3.1 8B", "meta-llama/Llama-3.1-8B-Instruct"),
    ("qwen3-30b-a3b", "Qwen3-Coder-30B-A3B", "Qwen/Qwen3-Coder-30B-A3B-Instruct"),
    ("qwen3-30b-a3b", "Qwen3 30B-A3B", "Qwen/Qwen3-30B-A3B"),
    ("llama-3.1-8b", "NousResearch/Hermes-3-Llama-3.1-8B", "NousResearch/Hermes-3-Llama-3.1-8B"),  # their own repo
    ("deepseek-r1", "DeepSeek R1", "deepseek-ai/DeepSeek-R1"),             # no chat list: the reference repo
])
def test_the_checkpoint_served_is_the_one_named(model, words, repo):
    assert serving_repo(catalog.model(model), words) == repo


def test_every_base_reference_repo_has_a_chat_checkpoint_to_serve():
    # a Llama base checkpoint in a launch line answers chat badly: each such entry lists its chat models
    base = [m for m in catalog.all_models().values() if (m.hf_id or "").startswith(("meta-llama/Llama", "codellama/"))
            and not any(k in m.hf_id.lower() for k in ("instruct", "chat"))]
    assert base and all(m.chat_repos for m in base), [m.id for m in base if not m.chat_repos]


@pytest.mark.parametrize("question, repo", [
    ("2x H100 SXM, Llama 3.3 70B in FP8 for 30 concurrent users, chat", "meta-llama/Llama-3.3-70B-Instruct"),
    ("2x L40S, Qwen3-Coder-30B-A3B in FP8 for a coding agent, 8 concurrent requests", "Qwen/Qwen3-Coder-30B-A3B-Instruct"),
])
def test_the_answers_launch_line_names_the_checkpoint_asked_for(question, repo):
    from agent.api import advise
    from ui.present import markdown
    text = markdown.answer(advise(question, {"workload": "chat", "priority": "latency"}, knowledge=False))
    assert "serve " + repo in text or "--model-path " + repo in text or "trtllm-serve " + repo in text, text


def test_system_ram_named_beside_gpus_does_not_enlarge_the_cards_in_what_fits():
    # "8 張 4090、256GB 記憶體": 256 GB is the machine's RAM; eight 24 GiB cards hold about 196 GB after reserves, not 2,000
    from rules import model_fit
    assert model_fit.room_gb("rtx4090", 8, 256.0) < 8 * 25.8   # 24 GiB each, less the runtime reserve
    assert model_fit.room_gb("rtx4090", 8, None) == model_fit.room_gb("rtx4090", 8, 256.0)
    assert model_fit.room_gb("m3_ultra", 1, 512.0) > 300   # unified memory: the stated size is the device's


def test_a_model_too_big_for_one_node_spans_the_nodes_even_when_no_layout_serves_the_load():
    # 2x8 H100, DeepSeek-R1 FP8 at 128K with no network named: a copy per node cannot hold it, so the plan
    # spans the nodes (over an assumed network) instead of a per-node copy that "does not fit"
    from rules.decide import decide
    from rules.defaults import apply_defaults
    from rules.plan import plan_for_profile
    from rules.profile import build_profile
    p = apply_defaults(build_profile({"hardware": "h100_sxm", "count": 8, "nodes": 2, "model": "deepseek-r1",
                                      "context_length": 128000, "serving_mode": "production"}))
    found, est = plan_for_profile(p, decide(p).model_dump(mode="json"))
    assert found.chosen.figures.fits and found.chosen.layout.replica_devices == 16, found.chosen.layout
