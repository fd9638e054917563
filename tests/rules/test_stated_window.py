"""A stated prompt and answer length set the window the fit is judged at: "~20K tokens in, ~500 out" for a
summary is a ~21K window, not the 32K typical of summarization, so a 70B at 4-bit on 2x RTX 3090 is not
called "does not fit" because of a context the user never asked for."""
from __future__ import annotations

from rules.defaults import serving_lengths


def test_stated_lengths_set_the_window():
    inp, out, window = serving_lengths("summarization", "llama-3.1-70b", 20000, 500, None, 131072)
    assert (inp, out) == (20000, 500)
    assert 20500 <= window < 24576


def test_stated_window_wins():
    assert serving_lengths("summarization", "llama-3.1-70b", 20000, 500, 32768, 131072)[2] == 32768


def test_unstated_lengths_keep_the_workload_window():
    assert serving_lengths("summarization", "llama-3.1-70b", None, None, None, 131072)[2] == 32768


def test_window_within_model_cap():
    assert serving_lengths("chat", "llama-3.1-70b", 7000, 500, None, 8192)[2] <= 8192
