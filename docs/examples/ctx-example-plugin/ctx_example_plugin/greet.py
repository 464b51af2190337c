"""The example operation's models and service: a greeting with the configured word.

Request models derive from ``ctx.core.Strict`` (ctx's input rule: no NUL, no NaN, no unknown
field). The service is called ``greet(app, who, request)`` by every surface the declaration in
``plugin.py`` names: the REST route, the MCP tool.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ctx.core import Strict


class Greeting(Strict):
    name: str = Field("world", min_length=1, max_length=100, description="Who to greet.")


class Greeted(BaseModel):
    text: str


def greet(app: Any, who: Any, request: Greeting) -> dict[str, str]:
    return {"text": f"{app.settings['example.greeting']}, {request.name}!"}
