"""`advisor ask` — one question in, one cited recommendation out (follow-ups answered from a file)."""
from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    """Register `advisor ask`."""
    p = sub.add_parser(
        "ask", help="one-shot recommendation for a question or a profile file",
        description="Ask once. Follow-up questions are answered from --answers (field id: answer)\n"
                    "or with \"I don't know\" (documented defaults, listed as assumptions); answers to\n"
                    "fields it never asks are added to the question (printed with '+').\n"
                    "With --profile, the tools run on the given profile without an interview.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  advisor ask \"8x RTX 4090, PCIe only, Llama 3.3 70B for 50 concurrent users\"\n"
               "  advisor ask \"Which engine for our team?\" --answers answers.yaml --json\n"
               "  advisor ask --profile profile.yaml\n"
               "answer field ids: hardware, interconnect, model, quantization, workload, context_length,\n"
               "  concurrency, shared_prefix, serving_mode, priority")
    p.add_argument("text", nargs="?", metavar="TEXT", help="your question, in English or Traditional Chinese")
    p.add_argument("--answers", metavar="FILE.yaml", help="answers to follow-up questions (field id: answer)")
    p.add_argument("--profile", metavar="PROFILE.yaml", help="a profile (profile field: value); no interview")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--model", metavar="LITELLM_MODEL", help="LLM to help read and phrase (default: $ADVISOR_MODEL)")


def _check(args) -> None:
    from rules.errors import InputError
    if args.profile and args.text:
        raise InputError("give either TEXT or --profile, not both")
    if args.profile and args.answers:
        raise InputError("--answers is for follow-up questions; a --profile run asks none")
    if not args.profile and not (args.text or "").strip():
        raise InputError("nothing to ask: give TEXT (your question) or --profile PROFILE.yaml")


def _print_human(advice, answers: dict[str, str]) -> None:
    from agent.api import simulated_reply, unasked_answers
    from ui.present import markdown
    for said in unasked_answers(advice.questions, answers):
        print(f"+ {said}")
    for q in advice.questions:
        print(f"? {q.question}")
        print(f"  → {simulated_reply(q.fields, answers, advice.language)}\n")
    print(markdown.terminal(advice), end="")
    note = markdown.composer_note(advice)
    if note:
        print(f"\n({note})")


def run(args) -> int:
    """Run one ask and print the answer (or the JSON object)."""
    from agent import api
    from agent.profiles import load_mapping, profile_from_mapping
    _check(args)
    answers: dict[str, str] = {}
    if args.profile:
        profile = profile_from_mapping(load_mapping(args.profile, "profile"), source=args.profile)
        advice = api.advise_profile(profile, model=args.model)
    else:
        answers = api.check_answers(load_mapping(args.answers, "answers")) if args.answers else {}
        advice = api.advise(args.text, answers, model=args.model)
    if args.json:
        from ui.output import print_json
        from ui.present import data
        print_json(data.contract(advice))
    else:
        _print_human(advice, answers)
    return 0
