"""Slack HTTP mode: the Events API and the slash command on POST /slack/events, as a FastAPI app.

This module deliberately has no `from __future__ import annotations`: FastAPI reads the handler's
`Request` annotation at runtime, and a postponed (string) annotation naming a class imported
elsewhere cannot be resolved, so FastAPI took it for a body field and answered every POST with 422.
Imported only in HTTP mode (fastapi is heavy).
"""
from fastapi import FastAPI, Request
from slack_bolt import App
from slack_bolt.adapter.fastapi import SlackRequestHandler


def http_app(bolt_app: App) -> FastAPI:
    """The ASGI app Slack posts to (request URL: https://YOUR-HOST/slack/events)."""
    handler = SlackRequestHandler(bolt_app)
    api = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    @api.post("/slack/events")
    async def events(req: Request):
        return await handler.handle(req)

    return api
