"""The one place that talks to a language model (litellm, any provider; imported lazily).

`LLM.structured` asks for JSON matching a pydantic schema: one call, and at most one retry that
either shows the model its validation error or switches the response_format form the provider
rejected. `LLM.prose` is one plain call. Callers pass the calls they may still spend this turn, and
a deadline (epoch seconds) from the turn's LLM time (`deadline_budget()`): no call outlives it,
however the endpoint behaves (slow, trickling, hung), because each call runs in a worker thread
that the turn stops waiting for. After the deadline, calls raise `DeadlineExceeded` at once.
"""
from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

# Providers that are OpenAI-compatible local servers (llama.cpp's, vLLM's, Ollama's) take the
# `json_object` + `schema` form; hosted APIs take `json_schema` (what litellm sends for a class).
_OBJECT_FORM_PREFIXES = ("hosted_vllm/", "ollama/", "ollama_chat/", "llamafile/", "lm_studio/")
# Chat templates without a system role (Gemma's): the instructions go into the first user turn.
_NO_SYSTEM_ROLE = ("gemma",)
DEFAULT_DEADLINE_S = 30.0   # LLM time per turn (extraction + composition); $ADVISOR_LLM_DEADLINE_S
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


class DeadlineExceeded(TimeoutError):
    """The turn's LLM time is spent: the deterministic path answers alone."""


def deadline_budget() -> float:
    """Seconds of LLM time per turn ($ADVISOR_LLM_DEADLINE_S, default 30)."""
    try:
        value = float(os.environ.get("ADVISOR_LLM_DEADLINE_S") or DEFAULT_DEADLINE_S)
    except ValueError:
        return DEFAULT_DEADLINE_S
    return value if 0 < value < 3600 else DEFAULT_DEADLINE_S


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.time()


@dataclass
class Reply:
    """A structured reply: the parsed value (or None), calls spent, and what went wrong."""

    value: BaseModel | None
    calls: int
    error: str | None = None


class LLM:
    """A litellm model string plus how to reach it."""

    def __init__(self, model: str, api_base: str | None = None, json_form: str | None = None,
                 max_tokens: int = 600, timeout: float = 180.0):
        self.model, self.api_base = model, api_base
        self.json_form = json_form or os.environ.get("ADVISOR_JSON_FORM") or self._default_form()
        self.max_tokens, self.timeout = max_tokens, timeout
        self.fold_system = any(name in model.lower() for name in _NO_SYSTEM_ROLE)
        self.usage: list[dict[str, Any]] = []   # one entry per call, for `advisor bench`

    @staticmethod
    def warm() -> None:
        """Import litellm (2-3 s once per process): not the endpoint's time, so done before a turn's clock starts."""
        from knowledge import offline
        offline.apply()
        import litellm  # noqa: F401

    def _default_form(self) -> str:
        local = self.model.startswith(_OBJECT_FORM_PREFIXES) or (
            self.model.startswith("openai/") and self.api_base is not None)
        return "object" if local else "schema"

    def _messages(self, messages: list[dict]) -> list[dict]:
        if not self.fold_system or messages[0]["role"] != "system":
            return messages
        first = {"role": "user", "content": messages[0]["content"] + "\n\n" + messages[1]["content"]}
        return [first, *messages[2:]]

    def _call(self, messages: list[dict], response_format: Any = None, max_tokens: int | None = None,
              deadline: float | None = None) -> str:
        self.warm()
        left = _remaining(deadline)
        if left is not None and left <= 0.05:
            raise DeadlineExceeded("the turn's LLM time was spent")
        timeout = self.timeout if left is None else min(self.timeout, left)
        if left is None:
            return self._complete(messages, response_format, max_tokens, timeout)
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["content"] = self._complete(messages, response_format, max_tokens, timeout)
            except BaseException as exc:  # handed to the waiting turn below
                box["error"] = exc
        worker = threading.Thread(target=work, name="advisor-llm-call", daemon=True)
        worker.start()
        worker.join(left)
        if worker.is_alive():   # a trickling or hung endpoint: the turn goes on without it
            raise DeadlineExceeded(f"the LLM did not answer within the turn's {deadline_budget():g} s")
        if "error" in box:
            raise box["error"]
        return box["content"]

    def _complete(self, messages: list[dict], response_format: Any, max_tokens: int | None, timeout: float) -> str:
        from knowledge import offline
        offline.apply()
        import litellm  # 2-3 s to import: only ever in LLM mode
        kwargs: dict[str, Any] = dict(model=self.model, messages=self._messages(messages), temperature=0, seed=7,
                                      max_tokens=max_tokens or self.max_tokens, timeout=timeout,
                                      num_retries=0, max_retries=0)
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if response_format is not None:
            kwargs["response_format"] = response_format
        resp = litellm.completion(**kwargs)
        usage = getattr(resp, "usage", None)
        self.usage.append({"prompt_tokens": getattr(usage, "prompt_tokens", None),
                           "completion_tokens": getattr(usage, "completion_tokens", None)})
        choices = getattr(resp, "choices", None) or []
        content = choices[0].message.content if choices else None
        return content if isinstance(content, str) else ""

    @staticmethod
    def _format(schema: type[BaseModel], form: str) -> Any:
        if form == "object":
            return {"type": "json_object", "schema": schema.model_json_schema()}
        return schema

    def structured(self, system: str, user: str, schema: type[BaseModel], max_calls: int = 2,
                   deadline: float | None = None) -> Reply:
        """Parse the model's JSON into `schema`; retry once (validation error or other format)."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        form, calls, error = self.json_form, 0, None
        while calls < min(max_calls, 2):
            calls += 1
            try:
                content = self._call(messages, self._format(schema, form), deadline=deadline)
            except Exception as exc:  # provider error: try the other response_format form once
                error = f"{type(exc).__name__}: {str(exc)[:200]}"
                if _is_connection_error(exc) or isinstance(exc, DeadlineExceeded):
                    break
                form = "schema" if form == "object" else "object"
                continue
            try:
                return Reply(schema.model_validate_json(_FENCE.sub("", content.strip())), calls)
            except (ValidationError, ValueError) as exc:   # also JSON pydantic cannot read (1e999, NaN)
                error = _short_validation(exc) if isinstance(exc, ValidationError) else f"unreadable JSON: {exc}"[:200]
                from agent.prompts import VALIDATION_RETRY
                messages = [*messages, {"role": "assistant", "content": content},
                            {"role": "user", "content": VALIDATION_RETRY.format(error=error)}]
        return Reply(None, calls, error)

    def prose(self, system: str, user: str, deadline: float | None = None) -> str:
        """One plain completion (raises on provider errors and DeadlineExceeded; the caller falls back)."""
        return self._call([{"role": "system", "content": system}, {"role": "user", "content": user}],
                          deadline=deadline)


def _is_connection_error(exc: Exception) -> bool:
    names = {type(c).__name__ for c in type(exc).__mro__}
    return bool(names & {"APIConnectionError", "Timeout", "ConnectError", "AuthenticationError", "TimeoutError"})


def _short_validation(exc: ValidationError) -> str:
    parts = [f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in exc.errors()[:4]]
    return "; ".join(parts)


def from_env(model: str | None = None) -> LLM | None:
    """The configured model (`model` or $ADVISOR_MODEL, $ADVISOR_API_BASE), or None (deterministic)."""
    name = model or os.environ.get("ADVISOR_MODEL")
    if not name:
        return None
    return LLM(name, api_base=os.environ.get("ADVISOR_API_BASE") or None)
