"""The request models of the runtime's operations: a setting by its key, and a value for it."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ctx.core.validation import Strict


class SettingKey(Strict):
    key: str = Field(description="The setting's key, e.g. query.rrf_k (see GET /api/settings).")


class SettingValue(Strict):
    value: Any = Field(description="The new value, in the setting's type.")


class SettingChange(SettingValue):
    key: str = Field(description="The setting's key.")
