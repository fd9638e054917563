"""The one place that talks to a language model (litellm, any provider; imported lazily).

`LLM.structured` asks for JSON matching a pydantic schema: one call, and at most one retry that
either shows the model its validation error or switches the response_format form the provider
rejected. `LLM.prose` is one plain call. Callers pass the calls they may still spend this turn.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

# Providers that are OpenAI-compatible local servers (llama.cpp's, vLLM's, Ollama's) take the
# `json_object` + `schema` form; hosted APIs take `json_schema` (what litellm sends for a class).
_OBJECT_FORM_PREFIXES = ("hosted_vllm/", "ollama/", "ollama_chat/", "llamafile/", "lm_studio/")
# Chat templates without a system role (Gemma's): the instructions go into the first user turn.
_NO_SYSTEM_ROLE = ("gemma",)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


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

    def _default_form(self) -> str:
        local = self.model.startswith(_OBJECT_FORM_PREFIXES) or (
            self.model.startswith("openai/") and self.api_base is not None)
        return "object" if local else "schema"

    def _messages(self, messages: list[dict]) -> list[dict]:
        if not self.fold_system or messages[0]["role"] != "system":
            return messages
        first = {"role": "user", "content": messages[0]["content"] + "\n\n" + messages[1]["content"]}
        return [first, *messages[2:]]

    def _call(self, messages: list[dict], response_format: Any = None, max_tokens: int | None = None) -> str:
        from knowledge import offline
        offline.apply()
        import litellm  # 2-3 s to import: only ever in LLM mode
        kwargs: dict[str, Any] = dict(model=self.model, messages=self._messages(messages), temperature=0, seed=7,
                                      max_tokens=max_tokens or self.max_tokens, timeout=self.timeout,
                                      num_retries=0)
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if response_format is not None:
            kwargs["response_format"] = response_format
        resp = litellm.completion(**kwargs)
        usage = getattr(resp, "usage", None)
        self.usage.append({"prompt_tokens": getattr(usage, "prompt_tokens", None),
                           "completion_tokens": getattr(usage, "completion_tokens", None)})
        return resp.choices[0].message.content or ""

    @staticmethod
    def _format(schema: type[BaseModel], form: str) -> Any:
        if form == "object":
            return {"type": "json_object", "schema": schema.model_json_schema()}
        return schema

    def structured(self, system: str, user: str, schema: type[BaseModel], max_calls: int = 2) -> Reply:
        """Parse the model's JSON into `schema`; retry once (validation error or other format)."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        form, calls, error = self.json_form, 0, None
        while calls < min(max_calls, 2):
            calls += 1
            try:
                content = self._call(messages, self._format(schema, form))
            except Exception as exc:  # provider error: try the other response_format form once
                error = f"{type(exc).__name__}: {str(exc)[:200]}"
                if _is_connection_error(exc):
                    break
                form = "schema" if form == "object" else "object"
                continue
            try:
                return Reply(schema.model_validate_json(_FENCE.sub("", content.strip())), calls)
            except ValidationError as exc:
                error = _short_validation(exc)
                from agent.prompts import VALIDATION_RETRY
                messages = [*messages, {"role": "assistant", "content": content},
                            {"role": "user", "content": VALIDATION_RETRY.format(error=error)}]
        return Reply(None, calls, error)

    def prose(self, system: str, user: str) -> str:
        """One plain completion (raises on provider errors; the caller falls back)."""
        return self._call([{"role": "system", "content": system}, {"role": "user", "content": user}])


def _is_connection_error(exc: Exception) -> bool:
    names = {type(c).__name__ for c in type(exc).__mro__}
    return bool(names & {"APIConnectionError", "Timeout", "ConnectError", "AuthenticationError"})


def _short_validation(exc: ValidationError) -> str:
    parts = [f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in exc.errors()[:4]]
    return "; ".join(parts)


def from_env(model: str | None = None) -> LLM | None:
    """The configured model (`model` or $ADVISOR_MODEL, $ADVISOR_API_BASE), or None (deterministic)."""
    name = model or os.environ.get("ADVISOR_MODEL")
    if not name:
        return None
    return LLM(name, api_base=os.environ.get("ADVISOR_API_BASE") or None)
