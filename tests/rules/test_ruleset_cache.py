"""The pickled rule set and engine catalog a cold `advisor ask` reads instead of validating YAML."""
from __future__ import annotations

from rules import catalog_cache, engines, ruleset


def test_the_pickled_rule_set_and_engines_are_the_validated_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path))
    built_rules = ruleset._load_dir(ruleset.RULES_DIR)
    built_engines = engines.load_engines()
    for _ in range(2):   # the first call builds and writes the copies, the second reads them back
        ruleset._shipped.cache_clear()
        engines.all_engines.cache_clear()
        try:
            assert ruleset._shipped() == built_rules
            assert engines.all_engines() == built_engines
        finally:
            ruleset._shipped.cache_clear()
            engines.all_engines.cache_clear()
    assert len(list(tmp_path.glob("rule-set-*.pickle"))) == 1
    assert len(list(tmp_path.glob("engine-catalog-*.pickle"))) == 1


def test_an_edited_input_is_rebuilt_and_other_checkouts_copies_are_kept(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(cache))
    source = tmp_path / "rules.yaml"
    source.write_text("a: 1\n")
    assert catalog_cache.cached("t", [source], lambda: 1) == 1
    assert catalog_cache.cached("t", [source], lambda: 2) == 1         # unchanged input: the copy
    other = cache / "t-0123abcd-0000000000000000.pickle"                # another install's copy
    other.write_bytes(b"theirs")
    source.write_text("a: 22\n")
    assert catalog_cache.cached("t", [source], lambda: 3) == 3         # edited input: rebuilt
    assert other.read_bytes() == b"theirs"
    assert len(list(cache.glob(f"t-{catalog_cache._WHERE}-*.pickle"))) == 1   # our stale copy went
