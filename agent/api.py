"""The agent's public API, used by the CLI, the web app, the Slack bot and the evals.

    Advisor(home=None, model=None).turn(thread_id, text) -> TurnResult   one user message
    Advisor.state(thread_id) -> dict / .pending(thread_id) -> question     what a thread knows
    Advisor.advice(thread_id) -> Advice | None                             the thread's last answer
    Advisor.profile(thread_id) -> Profile | None                           the profile so far (live)
    advise(text, answers=None, model=None) -> Advice                       one-shot, simulated user
    advise_profile(profile, model=None) -> Advice                          a profile, no interview
    ask(...) / ask_profile(...) -> dict                                    the same, as `ask --json`
    render_answer(result) -> str                                           the Markdown answer
    client_thread(surface, client_id) -> str                               a client's thread, scoped

`ask` and `ask_profile` walk the same nodes in-process (agent.runner): nothing to persist, and a
cold one-shot does not pay for importing langgraph. Every function also takes `tools=` (a
`agent.tools.Tools` bundle) so tests can run the real flow on fakes.
"""
from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.errors import InputError
from rules.ids import ASKABLE_FIELDS
from rules.inputs import MAX_FIELD_CHARS, clean_text

if TYPE_CHECKING:
    from agent.advice import Advice
    from rules.profile import Profile

DONT_KNOW = "I don't know, please assume typical values."
DONT_KNOW_ZH = "不知道，請用常見的預設值。"
"""The simulated user's reply in a zh-Hant conversation (the extractor reads 不知道 as DONT_KNOW)."""
_INTERRUPT = "__interrupt__"
"""The channel langgraph writes an interrupt to (as stored in checkpoints; its constant is private)."""
_CLIENT_ID = re.compile(r"[A-Za-z0-9_.:-]{1,100}")


def client_thread(surface: str, client_id: str) -> str:
    """The conversation id of a thread a client names, inside its surface's namespace: a web
    client cannot name a Slack conversation (Slack's ids are `slack-…`) or any other surface's.
    Ids the surface issued itself (`<surface>-<16 hex>`) keep their form, so conversations saved
    before scoping still open; anything else becomes `<surface>:<id>`, and an id that is long or
    has unusual characters is replaced by its digest (a thread id is a key, never a path)."""
    cid = str(client_id or "")
    if re.fullmatch(rf"{re.escape(surface)}-[0-9a-f]{{16}}", cid):
        return cid
    if not _CLIENT_ID.fullmatch(cid):
        cid = "#" + hashlib.sha256(cid.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{surface}:{cid}"


@dataclass
class TurnResult:
    """What one user message produced: a follow-up question, or the final result."""

    thread_id: str
    question: dict[str, Any] | None
    advice: "Advice | None"
    notice: str | None = None
    """Something the user must be told first (their conversation was lost, the store was rebuilt)."""
    _result: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def result(self) -> dict[str, Any] | None:
        """The `ask --json` object of the answer (None while a question is pending)."""
        if self._result is None and self.advice is not None:
            self._result = self.advice.contract_json()
        return self._result


class Advisor:
    """Conversations with the advisor, persisted per thread id in the conversation store
    (`agent.store`: SQLite under the data directory, or PostgreSQL shared by replicas)."""

    def __init__(self, home: str | Path | None = None, model: str | None = None,
                 tools: Any = None, checkpointer: Any = None, store: Any = None):
        from agent.graph import build_graph
        from agent.store import open_store
        self.tools = _tools(model, tools)
        self.store = store or open_store(home)
        self.checkpointer = checkpointer if checkpointer is not None else self.store.checkpointer
        self.graph = build_graph(self.tools, self.checkpointer)

    @staticmethod
    def _config(thread_id: str) -> dict:
        thread_id = clean_text(thread_id, "thread id", 256)
        if not thread_id.strip():
            raise InputError("thread id must not be empty")
        return {"configurable": {"thread_id": thread_id}}

    def pending(self, thread_id: str) -> dict[str, Any] | None:
        """The question the thread is waiting on, or None."""
        snap = self.graph.get_state(self._config(thread_id))
        for task in snap.tasks or ():
            for intr in task.interrupts or ():
                return dict(intr.value)
        return None

    def _paused(self, tid: str) -> bool:
        """True when the thread waits on a question: its last checkpoint holds an interrupt. What
        `pending` finds, read from the checkpoint tuple alone (without rebuilding the graph's next
        tasks, which a turn does anyway)."""
        saved = self.checkpointer.get_tuple({"configurable": {"thread_id": tid, "checkpoint_ns": ""}})
        return saved is not None and any(w[1] == _INTERRUPT for w in saved.pending_writes or ())

    def turn(self, thread_id: str, text: str) -> TurnResult:
        """Send one user message: an answer to the pending question, or a new request."""
        import sqlite3

        from langgraph.types import Command
        text = clean_text(text, "message").strip()
        if not text:
            raise InputError("empty message: write a question, or an answer to the last question",
                             zh="訊息是空的：請寫下問題，或回答上一個問題")
        config = self._config(thread_id)
        tid = config["configurable"]["thread_id"]
        try:
            with self.store.turn_lock(tid):   # a second turn (thread or process) waits and then sees this one
                notice_of = getattr(self.store, "turn_notice", None)
                notice = notice_of(tid) if notice_of else None
                inp = Command(resume=text) if self._paused(tid) else {"mode": "chat", "text": text}
                # Checkpoint when the run stops (answer or question), not after every node: a killed
                # process loses at most the turn in flight, and a warm turn stays fast. The turn reads
                # only the answer (and the question, which langgraph returns as its interrupt), so only
                # that channel is read out after each step, not a copy of the whole state.
                out = self.graph.invoke(inp, config, durability="exit", output_keys=["advice"])
        except sqlite3.Error as exc:
            from agent.store import StoreUnavailable
            where = getattr(self.store, "home", "the data directory")
            raise StoreUnavailable(f"the conversation store in {where} failed ({exc}); check that the folder is "
                                   "writable and has space, or point ADVISOR_HOME at another folder") from None
        return _turn_result(tid, out, notice)

    def state(self, thread_id: str) -> dict[str, Any]:
        """The thread's values (profile, intent, questions, result) and its pending question."""
        values = dict(self.graph.get_state(self._config(thread_id)).values or {})
        values["question"] = self.pending(thread_id)
        values["thread_id"] = self._config(thread_id)["configurable"]["thread_id"]
        return values

    def advice(self, thread_id: str) -> "Advice | None":
        """The thread's last answer, or None."""
        return _advice(self.graph.get_state(self._config(thread_id)).values or {}, strict=False)

    def profile(self, thread_id: str) -> "Profile | None":
        """The profile as understood so far, provenance included: also while a question is pending."""
        from rules.errors import AdvisorError
        from rules.profile import build_profile
        data = (self.graph.get_state(self._config(thread_id)).values or {}).get("profile")
        if not data:
            return None
        try:
            return build_profile(dict(data))
        except AdvisorError:   # a checkpoint from an older profile schema: nothing to show
            return None

    def forget(self, thread_id: str) -> None:
        """Delete a thread's checkpoints."""
        self.checkpointer.delete_thread(self._config(thread_id)["configurable"]["thread_id"])


def _turn_result(tid: str, out: dict[str, Any], notice: str | None) -> TurnResult:
    """The TurnResult of a graph run; a notice (conversation lost, store rebuilt) goes first in
    what every surface shows: the question's text or the answer."""
    interrupts = out.get("__interrupt__") or ()
    if interrupts:
        question = dict(interrupts[0].value)
        if notice:
            question["question"] = f"{notice}\n\n{question.get('question', '')}"
        return TurnResult(tid, question, None, notice=notice)
    advice = _advice(out)
    if notice and advice is not None and hasattr(advice, "answer"):
        advice = advice.model_copy(update={"answer": f"{notice}\n\n{advice.answer}"})
    return TurnResult(tid, None, advice, notice=notice)


def _advice(state: dict[str, Any], strict: bool = True) -> "Advice | None":
    from agent.advice import Advice
    return Advice.load(state.get("advice"), strict=strict)


def profile_query(profile: dict[str, Any]) -> str:
    """A search query describing a profile (for retrieval when there is no user text)."""
    keys = ("hardware", "model", "workload", "serving_mode", "interconnect", "priority")
    return " ".join(str(profile[k]) for k in keys if profile.get(k))


def check_answers(answers: dict[str, Any] | None) -> dict[str, str]:
    """Answers keyed by askable field ids (unknown ids → InputError naming the closest)."""
    if answers is not None and not isinstance(answers, dict):
        raise InputError("answers must map field ids to answers, e.g. {'interconnect': 'PCIe only'}")
    out = {}
    for field, value in (answers or {}).items():
        field = clean_text(field, "answer field id", MAX_FIELD_CHARS)
        if isinstance(value, (dict, list)):
            raise InputError(f"answers: the answer for '{field}' must be text, not a {type(value).__name__}")
        if field not in ASKABLE_FIELDS:
            close = difflib.get_close_matches(str(field), ASKABLE_FIELDS, n=3, cutoff=0.4)
            hint = f" Did you mean: {', '.join(close)}?" if close else f" Known: {', '.join(ASKABLE_FIELDS)}."
            raise InputError(f"unknown field id '{field}' in answers.{hint}")
        value = clean_text(value, f"answers: {field}", MAX_FIELD_CHARS)
        if value.strip():
            out[field] = value.strip()
    return out


def simulated_reply(fields: list[str], answers: dict[str, str], lang: str = "en") -> str:
    """DESIGN.md's simulated user: the answers of the asked fields joined, else "I don't know" (in the
    conversation's language)."""
    known = list(dict.fromkeys(str(answers[f]) for f in fields if f in answers))   # one text answering two fields is said once
    return " ".join(known) if known else (DONT_KNOW_ZH if lang == "zh" else DONT_KNOW)


def unasked_answers(questions: list, answers: dict[str, str]) -> list[str]:
    """Answers in a file whose fields no question asked: facts the user wrote down that the interview
    never reached ("100+ concurrent requests" filed under workload when only the load was asked)."""
    asked = {f for q in questions for f in (q["fields"] if isinstance(q, dict) else q.fields)}
    return list(dict.fromkeys(str(v) for f, v in answers.items() if f not in asked))


def _question_lang(question: dict) -> str:
    return "zh" if re.search(r"[\u3400-\u9fff]", question.get("question") or "") else "en"


def _tools(model: str | None, tools: Any = None, knowledge: bool = True) -> Any:
    from agent.llm import from_env
    from agent.tools import default_tools
    tools = tools or default_tools()
    if not knowledge:
        tools = tools.without_knowledge()
    llm = from_env(model)
    return tools.with_llm(llm) if llm is not None else tools


def advise(text: str, answers: dict[str, Any] | None = None, model: str | None = None,
           tools: Any = None, knowledge: bool = True) -> "Advice":
    """One-shot: follow-up questions answered from `answers` (field id → text); the Advice.
    `knowledge=False` skips retrieval (no citations): for callers that need the plan only."""
    from agent import runner
    known = check_answers(answers)
    text = clean_text(text, "question")
    if not text.strip():
        raise InputError("empty question: say what you want to run and on what",
                         zh="問題是空的：請說明要跑什麼模型、用什麼硬體")

    asked: list[dict] = []

    def reply(question: dict) -> str:
        asked.append(question)
        return simulated_reply(question["fields"], known, _question_lang(question))
    bundle = _tools(model, tools, knowledge)
    advice = _advice(runner.run({"mode": "chat", "text": text.strip()}, bundle, reply))
    unsaid = unasked_answers(asked, known)
    if unsaid:   # facts the interview never asked for are part of the request: never lose them
        asked.clear()
        # every answer is read as the answer to its field: the rerun may not ask again what the first run asked
        given = {f: str(v) for f, v in known.items()}
        advice = _advice(runner.run({"mode": "chat", "text": "\n".join([text.strip(), *unsaid]), "given": given},
                                    bundle, reply))
    return advice


def ask(text: str, answers: dict[str, Any] | None = None, model: str | None = None,
        tools: Any = None) -> dict[str, Any]:
    """One-shot: follow-up questions answered from `answers` (field id → text); the `ask --json` object."""
    return advise(text, answers, model, tools).contract_json()


def advise_profile(profile: Any, model: str | None = None, tools: Any = None, knowledge: bool = True) -> "Advice":
    """Run the tools on a profile (dict or Profile), no interview; the Advice."""
    from agent import runner
    from rules.profile import Profile, build_profile
    p = profile if isinstance(profile, Profile) else build_profile(dict(profile))
    data = p.model_dump(mode="json")
    state = {"mode": "profile", "profile": data, "intent": "recommend", "language": p.language,
             "text": profile_query(data), "questions": [], "assumptions": [], "tool_notes": [], "llm_calls": 0}
    return _advice(runner.run(state, _tools(model, tools, knowledge), lambda q: DONT_KNOW))


def ask_profile(profile: Any, model: str | None = None, tools: Any = None) -> dict[str, Any]:
    """Run the tools on a profile (dict or Profile), no interview; the `ask --json` object."""
    return advise_profile(profile, model, tools).contract_json()


def render_answer(result: dict[str, Any]) -> str:
    """The Markdown answer of a result."""
    return (result or {}).get("answer") or ""
