"""The one presenter: a typed `agent.advice.Advice` → what each surface shows.

    markdown.answer(advice), markdown.terminal(advice), markdown.question(q)   CLI, web chat, files
    slack.blocks(advice), slack.split_messages(blocks), slack.fallback_text(advice)   Slack Block Kit
    web.view(advice)                                                          web components data
    data.contract(advice), data.essentials(advice, detail)                    JSON (ask --json, MCP)
    spec.yaml_text(spec), spec.json_text(spec), spec.markdown_text(spec, lang)   the benchmark spec (plan in en / zh-Hant)

One renderer per output format, all pure functions of the Advice: no surface recomputes a
layout, an estimate or a spec, and names come from `agent.names` (the catalogs).
"""
