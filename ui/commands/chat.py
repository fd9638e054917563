"""`advisor chat` — an interactive conversation in the terminal, saved and resumable by thread id."""
from __future__ import annotations

import re

_THREAD_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}$")
_CJK = re.compile(r"[\u3400-\u9fff]")
QUIT = {"exit", "quit", ":q", "/exit", "/quit", "離開", "結束"}


def add_parser(sub) -> None:
    """Register `advisor chat`."""
    p = sub.add_parser(
        "chat", help="interactive conversation (resumable with --thread ID)",
        description="Talk to the advisor. It asks what matters for your setup, then answers with a cited "
                    "recommendation. Every thread is saved: stop any time (Ctrl-D or 'exit') and resume "
                    "with --thread ID.")
    p.add_argument("--thread", metavar="ID", help="resume (or start) the conversation with this id")
    p.add_argument("--model", metavar="LITELLM_MODEL", help="LLM to help read and phrase (default: $ADVISOR_MODEL)")


def _new_thread_id() -> str:
    import uuid
    return f"chat-{uuid.uuid4().hex[:8]}"


def _show(out) -> None:
    from ui.present import markdown
    if out.question:
        print(f"\nadvisor> {out.question['question']}\n")
    elif out.advice:
        print("\n" + markdown.terminal(out.advice))
        note = markdown.composer_note(out.advice)
        if note:
            print(f"({note})")


def _greet(advisor, thread: str, resumed: bool) -> None:
    print(f"thread: {thread}   (resume later with: advisor chat --thread {thread})")
    pending = advisor.pending(thread) if resumed else None
    if pending:
        print(f"\nadvisor> (resuming) {pending['question']}\n")
    elif resumed and advisor.state(thread).get("advice"):
        print("(resuming: the last answer stands; ask something new or change a detail)")
    else:
        print("Describe your hardware, model and who will use it. 'exit' to leave.\n"
              "請描述您的硬體、模型與使用者（輸入 exit 離開）。\n")


def run(args) -> int:
    """The read-answer loop; user errors in a turn are shown and the loop goes on."""
    from agent.api import Advisor
    from rules.errors import AdvisorError, InputError
    if args.thread is not None and not _THREAD_ID.match(args.thread):
        raise InputError(f"invalid thread id '{args.thread}': use letters, digits, '_', '.', ':' or '-' (max 80)")
    advisor = Advisor(model=args.model)
    thread = args.thread or _new_thread_id()
    _greet(advisor, thread, resumed=args.thread is not None)
    while True:
        try:
            line = input("you> ").strip()
        except EOFError:
            print(f"\n(saved: advisor chat --thread {thread})")
            return 0
        if not line:
            continue
        if line.lower() in QUIT:
            print(f"(saved: advisor chat --thread {thread})")
            return 0
        try:
            _show(advisor.turn(thread, line))
        except AdvisorError as exc:   # in the language the user writes in
            lang = "zh" if _CJK.search(line) else "en"
            print(f"advisor chat: {exc.message(lang)}")
