"""`advisor estimate`: help, exit codes, one-line errors, table and JSON output."""
from __future__ import annotations

import json
import re

import pytest

from ui.cli import main

OPTIONS = ("--model", "--hardware", "--count", "--nodes", "--quant", "--kv-cache-dtype", "--engine", "--parallelism",
           "--interconnect", "--input", "--output", "--context", "--concurrency", "--memory-gb", "--price-per-hour",
           "--json")


def run(capsys, *argv):
    code = main(["estimate", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_help_documents_every_option(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["estimate", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for opt in OPTIONS:
        assert re.search(rf"{re.escape(opt)}\b[^\n]*\n?\s+\S", text), opt


def test_json_is_the_contract_object(capsys):
    code, out, _ = run(capsys, "--model", "Llama 3.3 70B", "--hardware", "H100", "--quant", "f16", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["fits"] is False and data["kv_bytes_per_token"] == 327680 and data["model"] == "llama-3.1-70b"
    assert isinstance(data["assumptions"], list) and data["binding_constraint"]


def test_table_output(capsys):
    code, out, _ = run(capsys, "--model", "llama-3.1-8b", "--hardware", "4090", "--concurrency", "4",
                       "--price-per-hour", "0.4")
    assert code == 0 and "fits" in out and "Binding constraint" in out and "per 1M output tokens" in out


@pytest.mark.parametrize("argv, needle", [
    (["--model", "llama-3.1-8b", "--hardware", "h1000"], "Closest known: h100_sxm"),
    (["--model", "llama-3.1-7b", "--hardware", "h100"], "llama-3.1-8b,"),
    (["--model", "llama-3.1-8b", "--hardware", "h100", "--count", "0"], "--count must be at least 1"),
    (["--model", "llama-3.1-8b", "--hardware", "h100", "--context", "999999"], "maximum context"),
    (["--model", "llama-3.1-8b", "--hardware", "h100", "--quant", "q3"], "unknown quantization"),
    (["--model", "llama-3.1-8b", "--hardware", "h100", "--count", "x"], "not a whole number"),
    (["--model", "llama-3.1-8b", "--hardware", "h100", "--price-per-hour", "-3"], "must be above 0"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    try:
        code, out, err = run(capsys, *argv)
    except SystemExit as exc:  # argparse type errors
        code, err = exc.code, capsys.readouterr().err
    assert code == 2 and needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) <= 2
