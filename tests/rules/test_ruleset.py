"""The shipped rules load, validate, cite existing corpus chunks and cover the source's branches."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from knowledge import corpus, paths
from rules.errors import DataError
from rules.ids import BOTTLENECKS, ENGINES, SERVING_MODES
from rules.ruleset import RULES_DIR, load_file, load_rules

GOOD = """
  - id: {rid}
    name: A rule
    rationale: {{en: Because., zh: 因為。}}
    source: "Source article"
    when: {{field: hw_class, op: eq, value: apple}}
    effects:
      score: {{mlx-lm: 1}}
    citations: [decision-list#hw-mac]
"""


def _write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text("rules:\n" + textwrap.dedent(body), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def chunk_ids() -> set[str]:
    return {c.id for c in corpus.chunks(paths.CORPUS_DIR)}


def test_shipped_rules_load():
    rules = load_rules()
    assert len(rules) >= 60
    assert len({r.id for r in rules}) == len(rules)
    assert {r.group for r in rules} >= {"hardware", "workload", "serving", "bottlenecks", "pitfalls", "faq",
                                        "constraints", "quantization", "parallelism"}


def test_every_rule_file_has_a_place_in_the_evaluation_order():
    from rules.decide import GROUP_ORDER
    assert {r.group for r in load_rules()} <= set(GROUP_ORDER)


def test_every_citation_resolves_to_a_corpus_chunk(chunk_ids):
    missing = sorted({(r.id, c) for r in load_rules() for c in r.citations if c not in chunk_ids})
    assert not missing, missing


def test_rules_cover_the_decision_list_faq_pitfalls_and_bottlenecks(chunk_ids):
    cited = {c for r in load_rules() for c in r.citations}
    wanted = {c for c in chunk_ids if c.split("#")[0] in ("decision-list", "faq", "pitfalls")
              and not c.endswith(("#decision-order", "#common-root"))}
    wanted |= {c for c in chunk_ids if c.startswith("ten-questions#q")}  # all ten questions
    wanted |= {f"bottlenecks#{s}" for s in ("memory-bandwidth", "kv-cache-growth", "interconnect",
                                            "scheduler-quality", "runtime-overhead")}
    assert len([c for c in wanted if c.startswith("decision-list#")]) == 19  # 8 + 6 + 5 branches
    assert not wanted - cited, sorted(wanted - cited)


def test_rules_use_every_bottleneck_serving_mode_and_engine():
    rules = load_rules()
    bottlenecks = {b for r in rules for b in r.effects.bottleneck}
    assert bottlenecks == set(BOTTLENECKS)
    modes = {v for r in rules for leaf in r.when.leaves() if leaf.field == "serving_mode" and leaf.value
             for v in (leaf.value if isinstance(leaf.value, list) else [leaf.value])}
    assert modes == set(SERVING_MODES)
    promoted = {e for r in rules for e, pts in r.effects.score.items() if pts > 0}
    assert promoted == set(ENGINES)


def test_rule_texts_are_written_out():
    for rule in load_rules():
        for text in (rule.rationale.en, rule.rationale.zh):
            assert len(text) >= 20, rule.id
        assert re.search(r"[\u4e00-\u9fff]", rule.rationale.zh), rule.id


def test_a_good_file_loads(tmp_path):
    rules = load_file(_write(tmp_path, "ok.yaml", GOOD.format(rid="ok-rule")))
    assert [r.id for r in rules] == ["ok-rule"] and rules[0].group == "ok"


@pytest.mark.parametrize("old, new, field, message", [
    ("op: eq, value: apple", "op: eq, value: appel", "when", "not a possible value of 'hw_class'"),
    ("field: hw_class", "field: hw_klass", "when", "unknown fact 'hw_klass'"),
    ("mlx-lm: 1", "mlx: 1", "effects.score.mlx", "Input should be"),
    ("score: {mlx-lm: 1}", "bottleneck: {vram: 3}", "effects.bottleneck", "unknown bottleneck 'vram'"),
    ("[decision-list#hw-mac]", "[hw-mac]", "citations", "not a '<doc-id>#<slug>' chunk id"),
    ("name: A rule\n", "name: A rule\n    colour: red\n", "colour", "Extra inputs"),
    ("    rationale: {en: Because., zh: 因為。}\n", "", "rationale", "Field required"),
])
def test_a_broken_rule_names_file_rule_and_field(tmp_path, old, new, field, message):
    body = GOOD.format(rid="broken-rule").replace(old, new)
    assert body != GOOD.format(rid="broken-rule")
    path = _write(tmp_path, "broken.yaml", body)
    with pytest.raises(DataError) as err:
        load_file(path)
    assert err.value.file == "broken.yaml" and err.value.entry == "broken-rule"
    assert err.value.field.startswith(field), err.value.field
    assert message in str(err.value)
    assert str(err.value).startswith(f"broken.yaml:broken-rule:{field}")


def test_duplicate_ids_across_files_fail(tmp_path):
    _write(tmp_path, "a.yaml", GOOD.format(rid="same"))
    _write(tmp_path, "b.yaml", GOOD.format(rid="same"))
    with pytest.raises(DataError, match=r"b.yaml:same:id: duplicate rule id \(also in a.yaml\)"):
        load_rules(tmp_path)


def test_unreadable_and_shapeless_files_fail(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules: [unclosed", encoding="utf-8")
    with pytest.raises(DataError, match="bad.yaml: cannot read rule file"):
        load_file(bad)
    bad.write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(DataError, match="bad.yaml:rules: a rule file is a mapping"):
        load_file(bad)
    with pytest.raises(DataError, match="no rule files"):
        load_rules(tmp_path / "empty")


def test_shipped_dir_is_the_package_dir():
    assert RULES_DIR.is_dir() and sorted(p.name for p in RULES_DIR.glob("*.yaml"))
